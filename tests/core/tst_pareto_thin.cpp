// ε-thinning of a front (search/pareto_thin.h): the stated ε holds for every point of the full
// front (checked against every kept point), the extremes of each objective are kept, a larger N
// never gives a larger ε and keeps the smaller N's points, N at least the front's size keeps
// everything, and the choice does not depend on the thread count.
#include "test_support.h"

#include "search/pareto_thin.h"
#include "search/work_pool.h"

#include <QtTest>

#include <cmath>

using namespace lf;

namespace {

// The smallest ε within which the kept points cover `p`.
double coverOf(const std::vector<ExplorePoint>& front, const std::vector<size_t>& kept,
               const ExplorePoint& p) {
    double best = INFINITY;
    for (size_t k : kept) {
        const ExplorePoint& q = front[k];
        double r = 1;
        for (auto [a, b] : {std::pair{q.dram_accesses, p.dram_accesses},
                            std::pair{q.buffer_bytes, p.buffer_bytes}, std::pair{q.macs, p.macs}})
            r = std::max(r, double(std::max<int64_t>(1, a)) / double(std::max<int64_t>(1, b)));
        best = std::min(best, r - 1);
    }
    return best;
}

} // namespace

class TstParetoThin : public QObject {
    Q_OBJECT
  private slots:
    void guaranteeHolds() {
        const Network net = test::bundledNetwork("vgg16");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.max_depth = 2;
        const ExploreResult r = explore(net, hw, opt);
        QVERIFY(r.front.size() > 500);
        WorkPool pool(3);
        double previous = INFINITY;
        std::vector<size_t> previousKept;
        for (size_t n : {1, 3, 10, 40, 200}) {
            const ThinnedFront t = thinFront(r.front, n);
            QVERIFY(t.kept.size() <= n && !t.kept.empty());
            QVERIFY(std::is_sorted(t.kept.begin(), t.kept.end()));
            for (const ExplorePoint& p : r.front)
                QVERIFY(coverOf(r.front, t.kept, p) <= t.epsilon * (1 + 1e-12) + 1e-12);
            QVERIFY(t.epsilon <= previous);
            for (size_t k : previousKept) // the same greedy sequence, longer
                QVERIFY(std::binary_search(t.kept.begin(), t.kept.end(), k));
            previous = t.epsilon;
            previousKept = t.kept;
            const ThinnedFront parallel = thinFront(r.front, n, &pool);
            QCOMPARE(parallel.kept, t.kept);
            QCOMPARE(parallel.epsilon, t.epsilon);
        }
        // The extremes of each objective are among the first three kept.
        const ThinnedFront three = thinFront(r.front, 3);
        for (int j = 0; j < 3; ++j) {
            auto value = [&](size_t k) {
                const ExplorePoint& p = r.front[k];
                return j == 0 ? p.dram_accesses : j == 1 ? p.buffer_bytes : p.macs;
            };
            int64_t best = INT64_MAX, kept = INT64_MAX;
            for (size_t k = 0; k < r.front.size(); ++k)
                best = std::min(best, value(k));
            for (size_t k : three.kept)
                kept = std::min(kept, value(k));
            QCOMPARE(kept, best);
        }
        const ThinnedFront everything = thinFront(r.front, r.front.size());
        QCOMPARE(everything.kept.size(), r.front.size());
        QCOMPARE(everything.epsilon, 0.0);
    }
};

QTEST_GUILESS_MAIN(TstParetoThin)
#include "tst_pareto_thin.moc"
