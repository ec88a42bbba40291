// The ConvFusion single-layer closed form (ConvFusion §IV-B/C, docs/models/convfusion.md) against a
// brute-force walk of the same loop nest (tests/support/loopnest_sim): Vol, Trans, Acc and
// Buf of X and W, Acc_Y, Buf_Y and MACs must agree EXACTLY for every loop order, store level
// and tile size when T divides D and stride <= kernel (docs/models/convfusion.md "Required
// validation"). Buffers are checked unfolded (CL = SL) and folded (CL below SL: the buffer is what
// one iteration of the CL loop touches). With stride > kernel both count the bounding box
// (T−1)·S + K of the window. The worked example's expected values are those of
// docs/models/convfusion.md.

#include "loopnest_sim.h"
#include "models/convfusion.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace lf;
using lf::test::LoopNestSim;
using lf::test::SimCounts;

namespace {

constexpr std::array<Level, 5> kLevels{Level::tile, Level::l1, Level::l2, Level::l3, Level::l4};

std::vector<std::array<Dim, 4>> allOrders() {
    std::array<Dim, 4> o = kAllDims; // z < y < x < i as enum values: sorted
    std::vector<std::array<Dim, 4>> out;
    do
        out.push_back(o);
    while (std::next_permutation(o.begin(), o.end()));
    return out;
}

std::string describe(const LayerDims& d, const LayerSchedule& s) {
    std::string o;
    for (Dim k : s.order)
        o += dimChar(k);
    auto lv = [&](Level l) { return levelName(l, s.order); };
    return "D(x,y,z,i)=" + std::to_string(d.Dx) + "," + std::to_string(d.Dy) + "," +
           std::to_string(d.Dz) + "," + std::to_string(d.Di) + " kernel " + std::to_string(d.Dm) +
           "x" + std::to_string(d.Dn) + " S=" + std::to_string(d.Sx) + "," + std::to_string(d.Sy) +
           " order " + o + " T(z,y,x,i)=" + std::to_string(s.tile[0]) + "," +
           std::to_string(s.tile[1]) + "," + std::to_string(s.tile[2]) + "," +
           std::to_string(s.tile[3]) + " SL(X,Y,W)=" + lv(s.SL(Arr::X)) + "," + lv(s.SL(Arr::Y)) +
           "," + lv(s.SL(Arr::W)) + " CL(X,Y,W)=" + lv(s.CL(Arr::X)) + "," + lv(s.CL(Arr::Y)) +
           "," + lv(s.CL(Arr::W));
}

// Counts agreements; keeps the first disagreement, described in full.
struct Agreement {
    int64_t checks = 0, failures = 0;
    std::string first;
    void expect(int64_t closed, int64_t sim, const char* what,
                const std::function<std::string()>& where) {
        ++checks;
        if (closed == sim) return;
        if (failures++ == 0)
            first = std::string(what) + ": closed form " + std::to_string(closed) +
                    " != simulator " + std::to_string(sim) + " for " + where();
    }
    std::string summary() const {
        return std::to_string(failures) + " of " + std::to_string(checks) +
               " comparisons disagree; first: " + first;
    }
};

// Every closed-form count of `s` against the walk; `folded` skips what CL does not change.
void compareSchedule(const LayerDims& d, const LayerSchedule& s, const LoopNestSim& sim,
                     Agreement& a) {
    const CfLayerCost c = convFusionLayer(d, s, false);
    const SimCounts m = lf::test::simCounts(sim, s);
    auto where = [&] { return describe(d, s); };
    a.expect(c.vol_x, m.vol_x, "Vol_X", where);
    a.expect(c.trans_x, m.trans_x, "Trans_X", where);
    a.expect(c.acc_x, m.acc_x, "Acc_X", where);
    a.expect(c.buf_x, m.buf_x, "Buf_X", where);
    a.expect(c.vol_w, m.vol_w, "Vol_W", where);
    a.expect(c.trans_w, m.trans_w, "Trans_W", where);
    a.expect(c.acc_w, m.acc_w, "Acc_W", where);
    a.expect(c.buf_w, m.buf_w, "Buf_W", where);
    a.expect(c.accY(), m.acc_y, "Acc_Y", where);
    a.expect(c.buf_y, m.buf_y, "Buf_Y", where);
    a.expect(c.macs, m.macs, "MACs", where);
}

// A random small layer (D_x, D_y <= 8, D_z, D_i <= 4, kernel 1-3) with divisor tiles; strides
// 1-2 at most the kernel, or (strideAboveKernel) strictly above it.
std::pair<LayerDims, std::array<int64_t, 4>> randomLayer(std::mt19937_64& rng,
                                                         bool strideAboveKernel) {
    const int64_t Dm =
        strideAboveKernel ? test::uniformInt(rng, 1, 2) : test::uniformInt(rng, 1, 3);
    const int64_t Dn =
        strideAboveKernel ? test::uniformInt(rng, 1, 2) : test::uniformInt(rng, 1, 3);
    const int64_t Sx = strideAboveKernel ? test::uniformInt(rng, Dm + 1, 3)
                                         : test::uniformInt(rng, 1, std::min<int64_t>(2, Dm));
    const int64_t Sy = strideAboveKernel ? test::uniformInt(rng, Dn + 1, 3)
                                         : test::uniformInt(rng, 1, std::min<int64_t>(2, Dn));
    LayerDims d =
        test::convDims(test::uniformInt(rng, 1, 8), test::uniformInt(rng, 1, 8),
                       test::uniformInt(rng, 1, 4), test::uniformInt(rng, 1, 4), Dm, Dn, Sx, Sy);
    std::array<int64_t, 4> tile{};
    tile[size_t(Dim::z)] = test::randomDivisor(rng, d.Dz);
    tile[size_t(Dim::y)] = test::randomDivisor(rng, d.Dy);
    tile[size_t(Dim::x)] = test::randomDivisor(rng, d.Dx);
    tile[size_t(Dim::i)] = test::randomDivisor(rng, d.Di);
    return {d, tile};
}

// Every order; every legal store-level triple (SL_Y at or below SL_X and SL_W) unfolded; every
// (SL, CL) pair with CL at or below SL for all three arrays.
void compareAllSchedules(const LayerDims& d, const std::array<int64_t, 4>& tile, Agreement& a,
                         std::array<int64_t, 24>* perOrder,
                         std::array<std::array<int64_t, 5>, 3>* perLevel) {
    const auto orders = allOrders();
    for (size_t k = 0; k < orders.size(); ++k) {
        const LoopNestSim sim = lf::test::simulateLoopNest(d, orders[k], tile);
        for (Level x : kLevels)
            for (Level w : kLevels)
                for (Level y : kLevels) {
                    // SL_Y at or below SL_X, SL_W (ConvFusion §III-C).
                    if (y < std::max(x, w)) continue;
                    const std::array<Level, 3> sl{x, y, w};
                    compareSchedule(d, test::layerSchedule(orders[k], tile, sl, sl), sim, a);
                    if (perOrder) ++(*perOrder)[k];
                    if (perLevel) {
                        ++(*perLevel)[size_t(Arr::X)][size_t(x)];
                        ++(*perLevel)[size_t(Arr::Y)][size_t(y)];
                        ++(*perLevel)[size_t(Arr::W)][size_t(w)];
                    }
                }
        for (Level s : kLevels)
            for (Level c : kLevels)
                if (c > s)
                    compareSchedule(d, test::layerSchedule(orders[k], tile, {s, s, s}, {c, c, c}),
                                    sim, a);
        // Stride <= kernel: the windows are contiguous, so the box is the distinct set.
        if (d.Sx <= d.Dm && d.Sy <= d.Dn)
            for (Level l : kLevels) {
                const auto& lx = sim.of(Arr::X, l);
                a.expect(lx.max_box, lx.max_distinct, "contiguous X window (max)", [&] {
                    return describe(d, test::layerSchedule(orders[k], tile, {l, l, l}, {l, l, l}));
                });
                a.expect(lx.sum_box, lx.sum_distinct, "contiguous X window (sum)", [&] {
                    return describe(d, test::layerSchedule(orders[k], tile, {l, l, l}, {l, l, l}));
                });
            }
    }
}

} // namespace

class TestConvFusionSimulator : public QObject {
    Q_OBJECT

  private slots:
    // The walk itself on a case small enough to count by hand: one row of 4 outputs, a 1x3
    // kernel, Tx = 2: a tile reads columns 0-3 and 2-5 (4 each, twice); one xi iteration reads
    // 3 columns, 4 times.
    void simulatorCountsByHand() {
        const LayerDims d = test::convDims(4, 1, 1, 1, 3, 1, 1, 1);
        const LoopNestSim sim = lf::test::simulateLoopNest(d, kAllDims, {1, 1, 2, 1});
        QCOMPARE(sim.macs, int64_t(12));
        const auto& tile = sim.of(Arr::X, Level::tile);
        QCOMPARE(tile.iterations, int64_t(2));
        QCOMPARE(tile.max_distinct, int64_t(4));
        QCOMPARE(tile.sum_distinct, int64_t(8));
        const auto& xi = sim.of(Arr::X, Level::l3); // order z,y,x,i: l3 = xi
        QCOMPARE(xi.iterations, int64_t(4));
        QCOMPARE(xi.max_distinct, int64_t(3));
        QCOMPARE(xi.sum_distinct, int64_t(12));
        QCOMPARE(sim.of(Arr::W, Level::tile).max_distinct, int64_t(3));
        QCOMPARE(sim.outputs, int64_t(4));
        QCOMPARE(sim.accYItile(), int64_t(4)); // one i-tile: every output written once
    }

    // docs/models/convfusion.md worked example, L2Net layer 2, counted by the walk and by the
    // closed form.
    void workedExampleL2NetLayer2() {
        const LayerDims d = test::convDims(16, 16, 4, 4, 3, 3, 1, 1);
        const LoopNestSim sim = lf::test::simulateLoopNest(d, kAllDims, {4, 4, 4, 4});
        LayerSchedule s =
            test::layerSchedule(kAllDims, {4, 4, 4, 4}, {Level::l2, Level::l2, Level::tile},
                                {Level::l2, Level::l2, Level::tile}); // X, Y = yi; W = tile
        for (const bool fromSimulator : {true, false}) {
            SimCounts m;
            if (fromSimulator) {
                m = lf::test::simCounts(sim, s);
            } else {
                const CfLayerCost c = convFusionLayer(d, s, false);
                m = {c.vol_x,   c.trans_x, c.acc_x, c.buf_x,  0,       0,     c.vol_w,
                     c.trans_w, c.acc_w,   c.buf_w, c.accY(), c.buf_y, c.macs};
            }
            QCOMPARE(m.buf_x, int64_t(72)); // 4 channels · 3 rows · 6 columns
            QCOMPARE(m.trans_x, int64_t(256));
            QCOMPARE(m.acc_x, int64_t(18432));
            QCOMPARE(m.buf_w, int64_t(144));
            QCOMPARE(m.trans_w, int64_t(16));
            QCOMPARE(m.acc_w, int64_t(2304));
            QCOMPARE(m.acc_y, int64_t(1024));
            QCOMPARE(m.buf_y, int64_t(1));
            QCOMPARE(m.macs, int64_t(36864));
        }
        // CL_X = xi folds the x window to the kernel: 4 · 3 · 3; the accesses do not change.
        s.compute[size_t(Arr::X)] = Level::l3;
        QCOMPARE(lf::test::simCounts(sim, s).buf_x, int64_t(36));
        QCOMPARE(lf::test::simCounts(sim, s).acc_x, int64_t(18432));
        QCOMPARE(convFusionLayer(d, s, false).buf_x, int64_t(36));
        QCOMPARE(convFusionLayer(d, s, false).acc_x, int64_t(18432));
    }

    // A 1x1 stride-2 shortcut (docs/models/convfusion.md): a 4x4 output tile reads 16 of the 7x7
    // input pixels spanned; the closed form and the walk both count the 7x7 bounding box.
    void strideAboveKernelCountsBoundingBox() {
        const LayerDims d = test::convDims(8, 8, 2, 2, 1, 1, 2, 2);
        const LoopNestSim sim = lf::test::simulateLoopNest(d, kAllDims, {2, 4, 4, 2});
        const auto& tile = sim.of(Arr::X, Level::tile);
        QCOMPARE(tile.max_distinct, int64_t(2 * 4 * 4));
        QCOMPARE(tile.max_box, int64_t(2 * 7 * 7));
        const LayerSchedule s =
            test::layerSchedule(kAllDims, {2, 4, 4, 2}, {Level::tile, Level::tile, Level::tile},
                                {Level::tile, Level::tile, Level::tile});
        const CfLayerCost c = convFusionLayer(d, s, false);
        QCOMPARE(c.vol_x, int64_t(2 * 7 * 7));
        QCOMPARE(c.trans_x, int64_t(1 * 2 * 2 * 1)); // zo · yo · xo · io
        QCOMPARE(c.acc_x, tile.sum_box);
        QCOMPARE(c.acc_x, int64_t(4 * 98));
    }

    // >= 3,000 random small layers x 24 orders x every legal store-level triple (55) unfolded,
    // plus every folded (SL, CL) pair.
    void randomLayersEveryOrderAndLevel() {
        std::mt19937_64 rng(20210301);
        Agreement a;
        std::array<int64_t, 24> perOrder{};
        std::array<std::array<int64_t, 5>, 3> perLevel{};
        constexpr int kLayers = 3000;
        for (int n = 0; n < kLayers; ++n) {
            const auto [d, tile] = randomLayer(rng, false);
            compareAllSchedules(d, tile, a, &perOrder, &perLevel);
        }
        QVERIFY2(a.failures == 0, a.summary().c_str());
        for (int64_t c : perOrder)
            QCOMPARE(c, int64_t(kLayers) * 55);
        for (const auto& arr : perLevel)
            for (int64_t c : arr)
                QVERIFY(c >= kLayers * 24);
        QVERIFY(a.checks > int64_t(kLayers) * 24 * 55 * 11);
    }

    // Stride > kernel: the closed form's window is the bounding box, so is the walk's.
    void randomStrideAboveKernel() {
        std::mt19937_64 rng(7);
        Agreement a;
        for (int n = 0; n < 300; ++n) {
            const auto [d, tile] = randomLayer(rng, true);
            compareAllSchedules(d, tile, a, nullptr, nullptr);
        }
        QVERIFY2(a.failures == 0, a.summary().c_str());
        QVERIFY(a.checks > 300 * 24 * 55 * 11);
    }
};

QTEST_GUILESS_MAIN(TestConvFusionSimulator)
#include "tst_convfusion_simulator.moc"
