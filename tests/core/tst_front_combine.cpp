// The parallel combination of fronts (search/front_combine.h) equals forming every pair that
// sumMaxFrontPairs visits and keeping the front, of equal pairs the first in walk order —
// for any number of threads, on random fronts large enough to be cut into many runs.
#include "search/front_combine.h"
#include "search/pareto_filter.h"
#include "search/work_pool.h"

#include <QtTest>

#include <random>

using namespace lf;

namespace {

std::vector<FrontCost> randomFront(std::mt19937_64& rng, size_t n, int64_t range) {
    std::vector<std::array<int64_t, 3>> v(n);
    // Near the plane a + b + c = 2·range: large fronts (random points in a cube have few).
    for (auto& c : v) {
        const int64_t a = int64_t(rng() % uint64_t(range)), b = int64_t(rng() % uint64_t(range));
        c = {a, b, 2 * range - a - b + int64_t(rng() % uint64_t(1 + range / 50))};
    }
    std::vector<FrontCost> out;
    for (uint32_t k : paretoIndices<3>(v.size(), [&](size_t j) { return v[j]; }))
        out.push_back({v[k][0], v[k][1], v[k][2]});
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

std::vector<CombinedPoint> byEveryPair(const std::vector<CombineInput>& inputs) {
    std::vector<CombinedPoint> all;
    for (size_t p = 0; p < inputs.size(); ++p) {
        const auto &A = *inputs[p].a, &B = *inputs[p].b;
        sumMaxFrontPairs(A, B, [&](uint32_t a, uint32_t b) {
            all.push_back(
                {{A[a].acc + B[b].acc, std::max(A[a].bits, B[b].bits), A[a].macs + B[b].macs},
                 uint32_t(p),
                 a,
                 b});
        });
    }
    std::vector<CombinedPoint> out;
    for (uint32_t k : paretoIndices<3>(all.size(), [&](size_t j) {
             return std::array{all[j].cost.acc, all[j].cost.bits, all[j].cost.macs};
         }))
        out.push_back(all[k]);
    return out;
}

bool same(const std::vector<CombinedPoint>& x, const std::vector<CombinedPoint>& y) {
    if (x.size() != y.size()) return false;
    for (size_t k = 0; k < x.size(); ++k)
        if (x[k].cost.acc != y[k].cost.acc || x[k].cost.bits != y[k].cost.bits ||
            x[k].cost.macs != y[k].cost.macs || x[k].input != y[k].input || x[k].a != y[k].a ||
            x[k].b != y[k].b)
            return false;
    return true;
}

} // namespace

class TstFrontCombine : public QObject {
    Q_OBJECT
  private slots:
    void equalsEveryPairFilteredForAnyThreadCount() {
        std::mt19937_64 rng(17);
        WorkPool two(2), four(4);
        for (int trial = 0; trial < 6; ++trial) {
            // Ranges from many ties (8) to few; fronts past one run of the walk (1,024 steps).
            const int64_t range = trial % 3 == 0 ? 8 : trial % 3 == 1 ? 200 : 1'000'000;
            std::vector<std::vector<FrontCost>> fronts;
            for (int f = 0; f < 4; ++f)
                fronts.push_back(randomFront(rng, 1500 + rng() % 3000, range));
            std::vector<CombineInput> inputs{
                {&fronts[0], &fronts[1]}, {&fronts[2], &fronts[3]}, {&fronts[1], &fronts[2]}};
            const auto want = byEveryPair(inputs);
            int64_t pairs1 = 0, pairs2 = 0;
            QVERIFY(same(combineFronts(inputs, nullptr, &pairs1), want));
            QVERIFY(same(combineFronts(inputs, &two, &pairs2), want));
            QVERIFY(same(combineFronts(inputs, &four), want));
            QCOMPARE(pairs1, pairs2);
            QVERIFY(pairs1 > int64_t(want.size()));
            if (range > 8) QVERIFY(fronts[0].size() + fronts[1].size() > 1024); // several runs
        }
    }

    // The buffer order the combination returns is orderByBits of its result, and orders the
    // caller passes in give the same result as those it makes itself.
    void bufferOrderOfTheResultAndGivenOrders() {
        std::mt19937_64 rng(29);
        WorkPool two(2);
        for (int64_t range : {int64_t(8), int64_t(300), int64_t(1'000'000)}) {
            std::vector<std::vector<FrontCost>> fronts;
            for (int f = 0; f < 3; ++f)
                fronts.push_back(randomFront(rng, 2000 + rng() % 2000, range));
            std::vector<CombineInput> inputs{{&fronts[0], &fronts[1]}, {&fronts[2], &fronts[1]}};
            const auto want = combineFronts(inputs, nullptr);
            std::vector<std::vector<uint32_t>> orders;
            for (const auto& f : fronts)
                orders.push_back(orderByBits(f));
            std::vector<CombineInput> given{{&fronts[0], &fronts[1], &orders[0], &orders[1]},
                                            {&fronts[2], &fronts[1], &orders[2], nullptr}};
            for (WorkPool* pool : {static_cast<WorkPool*>(nullptr), &two}) {
                std::vector<uint32_t> bitsOrder;
                const auto got = combineFronts(given, pool, nullptr, nullptr, &bitsOrder);
                QVERIFY(same(got, want));
                std::vector<FrontCost> costs;
                for (const CombinedPoint& c : got)
                    costs.push_back(c.cost);
                QVERIFY(bitsOrder == orderByBits(costs));
            }
        }
    }

    void overflowingPairsAreSkipped() {
        const std::vector<FrontCost> A{{INT64_MAX - 5, 1, 1}, {1, 2, 1}}, B{{10, 1, 1}};
        const auto r = combineFronts({{&A, &B}}, nullptr);
        QCOMPARE(r.size(), size_t(1));
        QCOMPARE(r[0].cost.acc, int64_t(11));
    }
};

QTEST_GUILESS_MAIN(TstFrontCombine)
#include "tst_front_combine.moc"
