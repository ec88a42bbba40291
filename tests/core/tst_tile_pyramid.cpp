// The tile pyramid across a fused group (issue 7): tile extents propagate backwards as
// R(l, t) = (t−1)·S + K, clipped to the maps; overlaps are recomputed (recompute) or kept
// (reuse); group inputs are loaded.
#include "models/evaluate.h"
#include "teaching/tile_pyramid.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace lf;

class TestTilePyramid : public QObject {
    Q_OBJECT
  private slots:
    void threeLayer3x3Extents();
    void overlapsRecomputedOrReused();
    void stridedAndPaddedLayers();
    void largestRegionsMatchAllSteps();
};

namespace {
Schedule l3netGroup(const Network& net, const Hardware& hw, Strategy st, int64_t tile) {
    Schedule s = defaultSchedule(net, hw);
    const auto ids = net.computeIds();
    FusionGroup g;
    g.name = "all";
    g.layers = {ids[0], ids[1], ids[2]};
    g.strategy = st;
    g.out_tile = OutputTile{tile, tile};
    s.groups = {g};
    normalize(s, net);
    return s;
}
} // namespace

void TestTilePyramid::threeLayer3x3Extents() {
    // L3Net: 22×22×3 → conv1 20×20×4 → conv2 18×18×4 → conv3 16×16×4, all 3×3 stride 1.
    // A 4×4 output tile needs 6×6 of conv2's output, 8×8 of conv1's and 10×10 of the input.
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const TilePyramid p = tilePyramid(net, hw, l3netGroup(net, hw, Strategy::recompute, 4), 0);
    QCOMPARE(int(p.levels.size()), 4);
    QVERIFY(p.levels[0].group_input);
    QCOMPARE(p.levels[0].width, 22);
    const int64_t expect[4] = {10, 8, 6, 4};
    for (int q = 0; q < 4; ++q) {
        QCOMPARE(p.levels[size_t(q)].tile_w, expect[q]);
        QCOMPARE(p.levels[size_t(q)].tile_h, expect[q]);
    }
    QCOMPARE(p.tiles_x, 4);
    QCOMPARE(p.steps(), 16);
    const PyramidStep s5 = p.step(5); // tile (1, 1)
    QCOMPARE(s5.tx, 1);
    QCOMPARE(s5.ty, 1);
    QCOMPARE(s5.levels[3].region, (Rect{4, 4, 4, 4}));
    QCOMPARE(s5.levels[2].region, (Rect{4, 4, 6, 6}));
    QCOMPARE(s5.levels[0].region, (Rect{4, 4, 10, 10}));
}

void TestTilePyramid::overlapsRecomputedOrReused() {
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    // Step 1 (tile (1,0)): conv2's region x ∈ [4,10) overlaps the previous [0,6) in 2 columns × 6
    // rows.
    const TilePyramid rec = tilePyramid(net, hw, l3netGroup(net, hw, Strategy::recompute, 4), 0);
    const PyramidStep s1 = rec.step(1);
    QCOMPARE(s1.levels[2].overlap_left, (Rect{4, 0, 2, 6}));
    QCOMPARE(s1.levels[2].recomputed, 2 * 6 * 4);
    QCOMPARE(s1.levels[2].computed, 6 * 6 * 4);
    QCOMPARE(s1.levels[0].loaded, 10 * 10 * 3);
    const TilePyramid reu = tilePyramid(net, hw, l3netGroup(net, hw, Strategy::reuse, 4), 0);
    const PyramidStep r1 = reu.step(1);
    QCOMPARE(r1.levels[2].reused, 2 * 6 * 4);
    QCOMPARE(r1.levels[2].computed, 4 * 6 * 4);
    QCOMPARE(r1.levels[2].recomputed, 0);
    // The first step evicts nothing; step 1 evicts the columns of step 0 it no longer needs.
    QCOMPARE(rec.step(0).levels[2].evicted, 0);
    QCOMPARE(s1.levels[2].evicted, 4 * 6 * 4);
}

void TestTilePyramid::stridedAndPaddedLayers() {
    const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: sp
inputs:
  - {name: in, channels: 2, height: 16, width: 16}
layers:
  - {name: a, type: conv, inputs: [in], out_channels: 4, kernel: 3, stride: 2, padding: 1}
  - {name: b, type: conv, inputs: [a], out_channels: 4, kernel: 3, padding: 1}
)");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = defaultSchedule(net, hw);
    FusionGroup g;
    g.name = "g";
    g.layers = {net.find("a"), net.find("b")};
    g.out_tile = OutputTile{2, 2};
    s.groups = {g};
    normalize(s, net);
    const TilePyramid p = tilePyramid(net, hw, s, 0);
    // b's tile rows [0,2) need a's rows [−1, 3) → clipped [0,3); those need input rows
    // [2·0−1, 2·2−1+3) = [−1, 6) → [0, 6) (stride 2, pad 1).
    const PyramidStep s0 = p.step(0);
    QCOMPARE(s0.levels[2].region, (Rect{0, 0, 2, 2}));
    QCOMPARE(s0.levels[1].region, (Rect{0, 0, 3, 3}));
    QCOMPARE(s0.levels[0].region, (Rect{0, 0, 6, 6}));
    // An interior tile: b rows [2,4) → a rows [1,5) → input rows [1, 10).
    const PyramidStep s5 = p.step(5);
    QCOMPARE(s5.levels[1].region, (Rect{1, 1, 4, 4}));
    QCOMPARE(s5.levels[0].region, (Rect{1, 1, 9, 9}));
}

void TestTilePyramid::largestRegionsMatchAllSteps() {
    // The pyramid finds each map's largest region from a few probe tiles; on random deep
    // chains it must equal the maximum over every step.
    std::mt19937 rng(5);
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    for (int trial = 0; trial < 40; ++trial) {
        std::string y = "format: layerfuse/network@1\nname: r\ninputs:\n  - {name: in, channels: "
                        "2, height: 40, width: 33}\nlayers:\n";
        const int depth = 2 + int(rng() % 5);
        std::string prev = "in";
        for (int k = 0; k < depth; ++k) {
            const int kern = 1 + int(rng() % 3), stride = 1 + int(rng() % 2), pad = int(rng() % 2);
            y += "  - {name: c" + std::to_string(k) + ", type: conv, inputs: [" + prev +
                 "], out_channels: 2, kernel: " + std::to_string(kern) +
                 ", stride: " + std::to_string(stride) + ", padding: " + std::to_string(pad) +
                 "}\n";
            prev = "c" + std::to_string(k);
        }
        const Network net = test::networkFromYaml(y);
        std::vector<LayerId> ids(net.computeIds().begin(), net.computeIds().end());
        Schedule s = test::fused(defaultSchedule(net, hw), net, ids, Strategy::reuse, "all");
        const Layer& last = net.layer(ids.back());
        s.groups[0].out_tile = OutputTile{1 + int64_t(rng() % uint64_t(last.out.h)),
                                          1 + int64_t(rng() % uint64_t(last.out.w))};
        const TilePyramid p = tilePyramid(net, hw, s, 0);
        std::vector<int64_t> w(p.levels.size(), 0), h(p.levels.size(), 0);
        for (int k = 0; k < p.steps(); ++k) {
            const PyramidStep st = p.step(k);
            for (size_t q = 0; q < p.levels.size(); ++q) {
                w[q] = std::max(w[q], st.levels[q].region.w);
                h[q] = std::max(h[q], st.levels[q].region.h);
            }
        }
        for (size_t q = 0; q < p.levels.size(); ++q) {
            QCOMPARE(p.levels[q].tile_w, w[q]);
            QCOMPARE(p.levels[q].tile_h, h[q]);
        }
    }
}

QTEST_GUILESS_MAIN(TestTilePyramid)
#include "tst_tile_pyramid.moc"
