// The exploration's bounds (search/pareto.h ExploreOptions::max_kept_points, time_limit_s):
// an unbounded run says it is exact; a run whose combination steps are thinned keeps, for
// every point of the exact front, a point at most ExploreLimits::factor above it in every
// objective; a run past its time limit searches no segment of more than one layer and says so.
#include "test_support.h"

#include "search/pareto.h"

#include <QtTest>

using namespace lf;

namespace {

ExploreResult run(const Network& net, int64_t maxKept, double timeLimit) {
    ExploreOptions opt;
    opt.max_depth = 2;
    opt.threads = 2;
    opt.max_kept_points = maxKept;
    opt.time_limit_s = timeLimit;
    return explore(net, test::bundledHardware("hwff-config-1"), opt);
}

} // namespace

class TstExploreBounds : public QObject {
    Q_OBJECT
  private slots:
    void thinnedStepsKeepEveryPointWithinTheStatedFactor() {
        const Network net = test::bundledNetwork("vgg16");
        const ExploreResult exact = run(net, 0, 0);
        QVERIFY(exact.limits.exact());
        QCOMPARE(exact.limits.factor, 1.0);
        QVERIFY(exact.front.size() > 500);
        const ExploreResult bounded = run(net, 1, 0); // every step down to its smallest share
        QVERIFY(!bounded.limits.exact());
        QVERIFY(bounded.limits.thinned_steps > 0);
        QVERIFY(bounded.limits.dropped_points > 0);
        QVERIFY(bounded.limits.factor > 1.0);
        QVERIFY(bounded.front.size() < exact.front.size());
        const double f = bounded.limits.factor;
        for (const ExplorePoint& p : exact.front) {
            bool covered = false;
            for (const ExplorePoint& q : bounded.front)
                // Buffers were thinned in bits and are reported in bytes: one byte of rounding.
                covered = covered || (double(q.dram_accesses) <= f * double(p.dram_accesses) &&
                                      double(q.buffer_bytes) <= f * double(p.buffer_bytes) + 1 &&
                                      double(q.macs) <= f * double(p.macs));
            QVERIFY2(covered, qPrintable(QString("no point within %1 of (%2, %3, %4)")
                                             .arg(f)
                                             .arg(p.dram_accesses)
                                             .arg(p.buffer_bytes)
                                             .arg(p.macs)));
        }
    }

    void pastTheTimeLimitOnlySingleLayersAreSearched() {
        const Network net = test::bundledNetwork("resnet18");
        const ExploreResult r = run(net, 0, 1e-9);
        QVERIFY(!r.limits.exact());
        int64_t longer = 0;
        for (const auto& layers : r.segment_layers)
            longer += layers.size() > 1 ? 1 : 0;
        QVERIFY(longer > 0);
        QVERIFY(r.limits.skipped_segments > 0);
        QVERIFY(r.limits.skipped_segments <= longer);
        QVERIFY(!r.front.empty());
        for (size_t k = 0; k < r.front.size(); ++k)
            for (const auto& [layers, point] : r.parts(k))
                QCOMPARE(layers->size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TstExploreBounds)
#include "tst_explore_bounds.moc"
