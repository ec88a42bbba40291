// HW-Flow-Fusion (HWFF §3.3-4.3, docs/models/hw-flow-fusion.md) against hand computation:
// HWFF Eq. 1-3 for one layer, a two-layer fused group (HWFF Eq. 4 tile propagation, HWFF Eq. 5
// fusion buffer, HWFF Eq. 8 reuse buffer read as (Nix − Tix)·(Nky − Sy)·Nif, HWFF Eq. 6 traffic,
// Alwani's HWFF Eq. 9 overhead, HWFF Eq. 13 MACs) through lf::flowFusionGroup and lf::evaluate, the
// spatial partitions of HWFF §4.3.1 and the spatial/temporal effect on compute latency
// (docs/models/README.md).
//
// Property "fusing never increases DRAM traffic under `reuse`". Comparable singletons are the
// same schedule run layer by layer: every layer keeps the tile it has inside the group (HWFF Eq. 4
// propagation from the group's output tile), Tif = Nif, Tof = Nof, and the group's number of
// tiles, so the only difference is whether the intermediate maps and the weights go to DRAM
// (HWFF Eq. 1-3 with Input fetch = the group's tile count). Against singletons that choose their
// own tile grid the property does NOT hold in general: HWFF Eq. 6 re-fetches the top input with the
// halo of the whole group for every output tile (docs/models/hw-flow-fusion.md reading), which can
// cost more than writing and re-reading a thin intermediate map — `fusionCanLoseToFreeSingletons`
// pins one such case.

#include "models/evaluate.h"
#include "models/flowfusion.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace lf;

namespace {

// x 4×12×12 → A 3×3 → 8×10×10 → B 3×3 → 6×8×8 (no padding).
const char* kTwoConvs = R"(format: layerfuse/network@1
name: two
inputs:
  - {name: x, channels: 4, height: 12, width: 12}
layers:
  - {name: A, type: conv, inputs: [x], out_channels: 8, kernel: 3}
  - {name: B, type: conv, inputs: [A], out_channels: 6, kernel: 3}
)";

Hardware plainHw() {
    Hardware hw;
    hw.precision = {16, 16, 32};
    hw.pe_array.cols = 8;
    hw.pe_array.rows = 4;
    hw.pe_array.dataflow = *parseDataflow("ox|oc");
    return hw;
}

FusionGroup reuseGroup(const Network& net, std::vector<LayerId> layers, int64_t th, int64_t tw) {
    FusionGroup g;
    g.name = "g";
    std::sort(layers.begin(), layers.end());
    g.layers = std::move(layers);
    g.strategy = Strategy::reuse;
    g.out_tile = OutputTile{th, tw};
    (void)net;
    return g;
}

Schedule scheduleWith(const Network& net, const FusionGroup& g) {
    Schedule s;
    s.groups.push_back(g);
    normalize(s, net);
    return s;
}

Traffic sum(const GroupCost& gc) {
    Traffic t;
    for (const LayerCost& l : gc.layers)
        t += l.dram;
    return t;
}

} // namespace

class TstFlowFusion : public QObject {
    Q_OBJECT

  private slots:
    // HWFF Eq. 1-3: Nox = Noy = 8, Nof = 16, Nif = 8, 3×3, stride 1; Tox = 4, Toy = 2, Tof = 4,
    // Tif = 2, batch 1.
    void eqs1to3SingleLayer() {
        const LayerDims d = test::squareConvDims(8, 8, 16, 8, 3);
        HwffLayerCost c = hwffLayer(d, HwffTiling{4, 2, 4, 2, 1}, 1);
        QCOMPARE(c.tix, int64_t(6)); // HWFF Eq. 4: (4−1)·1 + 3
        QCOMPARE(c.tiy, int64_t(4));
        QCOMPARE(c.input_buffer, int64_t(48));  // 6·4·2·1
        QCOMPARE(c.output_buffer, int64_t(32)); // 4·2·4·1
        QCOMPARE(c.weight_buffer, int64_t(72)); // 3·3·2·4
        QCOMPARE(c.input_fetch, int64_t(128)); // ⌈8/2⌉⌈16/4⌉⌈8/2⌉⌈8/4⌉·1 = 4·4·4·2
        QCOMPARE(c.weight_fetch, int64_t(128));
        QCOMPARE(c.output_write, int64_t(32)); // ⌈16/4⌉⌈8/2⌉⌈8/4⌉ = 4·4·2
        QCOMPARE(c.volume, int64_t(48 * 128 + 72 * 128 + 32 * 32)); // HWFF Eq. 3 = 16384
        // Batch 4 in tiles of 2: buffers ×2, fetches ×⌈4/2⌉ = 2.
        c = hwffLayer(d, HwffTiling{4, 2, 4, 2, 2}, 4);
        QCOMPARE(c.input_buffer, int64_t(96));
        QCOMPARE(c.output_buffer, int64_t(64));
        QCOMPARE(c.input_fetch, int64_t(256));
        QCOMPARE(c.output_write, int64_t(64));
        QCOMPARE(c.volume, int64_t(96 * 256 + 72 * 256 + 64 * 64)); // 47104
        // Whole layer at once: every element moved once (10·10·8 + 3·3·8·16 + 8·8·16).
        c = hwffLayer(d, HwffTiling{8, 8, 16, 8, 1}, 1);
        QCOMPARE(c.volume, int64_t(800 + 1152 + 1024));
        // Stride 2: (Tox−1)·2 + 3.
        c = hwffLayer(test::squareConvDims(8, 8, 4, 4, 3, 2), HwffTiling{3, 2, 4, 4, 1}, 1);
        QCOMPARE(c.tix, int64_t(7));
        QCOMPARE(c.tiy, int64_t(5));
    }

    // A single-layer `reuse` group uses HWFF Eq. 1-3 with the layer's tiles: A of the two-conv
    // network (Nox = Noy = 10, Nof = 8, Nif = 4) with Tof = 4, Toy = 2, Tox = 5, Tif = 2:
    //   Tix = 7, Tiy = 4; buffers 7·4·2 = 56, 5·2·4 = 40, 9·2·4 = 72;
    //   fetch ⌈4/2⌉⌈8/4⌉⌈10/2⌉⌈10/5⌉ = 40, write ⌈8/4⌉⌈10/2⌉⌈10/5⌉ = 20;
    //   DRAM 56·40 = 2240 in, 72·40 = 2880 weights, 40·20 = 800 out;
    //   buffer 56·16 + 72·16 + 40·32 = 3328 bits.
    void singleLayerGroup() {
        const Network net = test::networkFromYaml(kTwoConvs);
        const LayerId A = net.find("A");
        Schedule s;
        normalize(s, net);
        s.layers[size_t(A)].tile = {4, 2, 5, 2};
        FusionGroup one;
        one.name = "A";
        one.layers = {A};
        one.strategy = Strategy::reuse;
        const GroupCost gc = flowFusionGroup(net, plainHw(), s, one);
        QCOMPARE(gc.layers.size(), size_t(1));
        QCOMPARE(gc.layers[0].dram.input, int64_t(2240));
        QCOMPARE(gc.layers[0].dram.weight, int64_t(2880));
        QCOMPARE(gc.layers[0].dram.output, int64_t(800));
        QCOMPARE(gc.buffer_bits, int64_t(3328));
        QCOMPARE(gc.tiles, int64_t(10)); // ⌈10/2⌉·⌈10/5⌉ output tiles
        QCOMPARE(gc.layers[0].macs, int64_t(28800));
    }

    // HWFF Eq. 8 and HWFF Eq. 9 in isolation.
    void reuseBuffersEq8Eq9() {
        // reuse_x = (Nix − Tix)·(Nky − Sy)·Nif = (10 − 6)·2·8; reuse_y = (10 − 4)·2·8.
        QCOMPARE(reuseBufferX(10, 6, 3, 1, 8), int64_t(64));
        QCOMPARE(reuseBufferY(10, 4, 3, 1, 8), int64_t(96));
        QCOMPARE(reuseBufferX(10, 10, 3, 1, 8), int64_t(0));         // the tile spans the row
        QCOMPARE(reuseBufferX(10, 6, 1, 1, 8), int64_t(0));          // 1×1: nothing overlaps
        QCOMPARE(reuseBufferX(21, 5, 3, 2, 3), int64_t(16 * 1 * 3)); // stride 2
        // HWFF Eq. 9, horizontal processing: overhead y = (Tiy − (Nky − Sy))·(Nkx − Sx)·Nif.
        QCOMPARE(alwaniOverheadY(4, 3, 1, 3, 1, 8), int64_t((4 - 2) * 2 * 8));
        QCOMPARE(alwaniOverheadY(6, 5, 1, 3, 1, 2),
                 int64_t((6 - 4) * 2 * 2)); // 5 rows × 3 cols kernel
        // Vertical processing: overhead x = (Tix − (Nkx − Sx))·(Nky − Sy)·Nif.
        QCOMPARE(alwaniOverheadX(6, 3, 1, 3, 1, 8), int64_t((6 - 2) * 2 * 8));
        QCOMPARE(alwaniOverheadX(1, 3, 1, 3, 1, 8), int64_t(0));
    }

    // HWFF Eq. 13: multi-tiling computes every output once.
    void multiTilingMacsEq13() {
        const LayerDims d = test::squareConvDims(10, 7, 6, 4, 3);
        const int64_t plain = 10 * 7 * 6 * 4 * 9;
        for (int64_t tx : {1, 2, 3, 4, 7, 10})
            for (int64_t ty : {1, 2, 3, 5, 7})
                QCOMPARE(multiTilingMacs(d, tx, ty), plain);
    }

    // The two-layer group {A, B}, bottom output tile Toy = 2, Tox = 4 (horizontal processing):
    //   HWFF Eq. 4: B Tix = 6, Tiy = 4 → A's output tile 6 × 4 → A Tix = 8, Tiy = 6.
    //   Tiles: ⌈8/2⌉·⌈8/4⌉ = 8.
    //   HWFF Eq. 5: input buffers A 8·6·4 = 192, B 6·4·8 = 192; weights A 9·4·8 = 288,
    //          B 9·8·6 = 432; bottom output 4·2·6 = 48.
    //   HWFF Eq. 8: B's input (A's 10-wide output): (10 − 6)·(3 − 1)·8 = 64.
    //   HWFF Eq. 6: 192·8 + (288 + 432) + 48·8 = 1536 + 720 + 384.
    //   Buffer bits (16-bit act/weight, 32-bit psum): (192 + 192 + 64)·16 + 720·16 + 48·32
    //   = 20224.
    void twoLayerGroupHwff() {
        const Network net = test::networkFromYaml(kTwoConvs);
        const Hardware hw = plainHw();
        const LayerId A = net.find("A"), B = net.find("B");
        const FusionGroup g = reuseGroup(net, {A, B}, 2, 4);
        const GroupCost gc = flowFusionGroup(net, hw, scheduleWith(net, g), g);
        QCOMPARE(gc.layers.size(), size_t(2));
        const LayerCost& a = gc.layers[0];
        const LayerCost& b = gc.layers[1];
        QCOMPARE(a.id, A);
        QCOMPARE(gc.tiles, int64_t(8));
        QCOMPARE(a.buf_x, int64_t(192));
        QCOMPARE(a.buf_w, int64_t(288));
        QCOMPARE(a.buf_y, int64_t(0));
        QCOMPARE(b.buf_x, int64_t(192 + 64));
        QCOMPARE(b.buf_w, int64_t(432));
        QCOMPARE(b.buf_y, int64_t(48));
        QCOMPARE(gc.buffer_bits, int64_t(20224));
        QCOMPARE(a.dram.input, int64_t(1536));
        QCOMPARE(a.dram.weight, int64_t(288));
        QCOMPARE(a.dram.output, int64_t(0)); // the intermediate map stays on chip
        QCOMPARE(b.dram.input, int64_t(0));
        QCOMPARE(b.dram.weight, int64_t(432));
        QCOMPARE(b.dram.output, int64_t(384));
        QCOMPARE(a.macs, int64_t(10 * 10 * 8 * 4 * 9)); // HWFF Eq. 13: the unfused count
        QCOMPARE(b.macs, int64_t(8 * 8 * 6 * 8 * 9));
        QCOMPARE(a.recompute_macs + b.recompute_macs, int64_t(0));
        QCOMPARE(gc.out_tile_h, int64_t(2));
        QCOMPARE(gc.out_tile_w, int64_t(4));
        // The transfers behind the traffic add up to it.
        Traffic fromTransfers;
        for (const LayerCost& l : gc.layers)
            for (const Transfer& t : l.transfers) {
                const int64_t e = t.elements() * t.count;
                if (t.kind == TrafficKind::input) fromTransfers.input += e;
                if (t.kind == TrafficKind::weight) fromTransfers.weight += e;
                if (t.kind == TrafficKind::output) fromTransfers.output += e;
            }
        QCOMPARE(fromTransfers.input, int64_t(1536));
        QCOMPARE(fromTransfers.weight, int64_t(720));
        QCOMPARE(fromTransfers.output, int64_t(384));
    }

    // Alwani's model keeps the sequential overlap too (HWFF Eq. 9, horizontal: overhead y =
    // (Tiy − (Nky − Sy))·(Nkx − Sx)·Nif = (4 − 2)·2·8 = 32 on top of reuse_x = 64).
    void twoLayerGroupAlwani() {
        const Network net = test::networkFromYaml(kTwoConvs);
        const LayerId A = net.find("A"), B = net.find("B");
        FusionGroup g = reuseGroup(net, {A, B}, 2, 4);
        g.reuse_model = ReuseModelKind::alwani;
        const GroupCost gc =
            flowFusionGroup(net, plainHw(), scheduleWith(net, g), g, ReuseModel::alwani);
        QCOMPARE(gc.layers[1].buf_x, int64_t(192 + 64 + 32));
        QCOMPARE(gc.buffer_bits, int64_t(20224 + 32 * 16));
        QCOMPARE(sum(gc).total(), int64_t(1536 + 720 + 384)); // same traffic, more buffer
    }

    // The same group through evaluate with strategy `reuse`.
    void twoLayerGroupThroughEvaluate() {
        const Network net = test::networkFromYaml(kTwoConvs);
        Hardware hw = plainHw();
        const FusionGroup g = reuseGroup(net, {net.find("A"), net.find("B")}, 2, 4);
        const Schedule s = scheduleWith(net, g);
        Metrics m = evaluate(net, hw, s);
        QCOMPARE(m.groups.size(), size_t(1));
        QCOMPARE(m.groups[0].dram.input, int64_t(1536));
        QCOMPARE(m.groups[0].dram.weight, int64_t(720));
        QCOMPARE(m.groups[0].dram.output, int64_t(384));
        QCOMPARE(m.groups[0].dram.psum, int64_t(0));
        QCOMPARE(m.totals.macs, int64_t(28800 + 27648));
        QCOMPARE(m.totals.recompute_macs, int64_t(0));
        QCOMPARE(m.groups[0].buffer_bytes, int64_t(20224 / 8));
        // Batch 2 (Tb = B): activations twice, weights once for the batch; buffers ×2 except
        // weights: (192 + 256)·2·16 + 720·16 + 48·2·32.
        hw.batch = 2;
        m = evaluate(net, hw, s);
        QCOMPARE(m.groups[0].dram.input, int64_t(2 * 1536));
        QCOMPARE(m.groups[0].dram.output, int64_t(2 * 384));
        QCOMPARE(m.groups[0].dram.weight, int64_t(720));
        QCOMPARE(m.totals.macs, int64_t(2 * (28800 + 27648)));
        QCOMPARE(m.groups[0].buffer_bytes, int64_t((448 * 2 * 16 + 720 * 16 + 96 * 32) / 8));
    }

    // Property over random chains (see the header for "comparable").
    void fusionNeverIncreasesTrafficSameTiling() {
        std::mt19937 rng(20240611);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        int checked = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const int n = pick(2, 4);
            int c = pick(1, 16), h = pick(6, 24), w = pick(6, 24);
            std::string yaml =
                "format: layerfuse/network@1\nname: r\ninputs:\n  - {name: x, channels: " +
                std::to_string(c) + ", height: " + std::to_string(h) +
                ", width: " + std::to_string(w) + "}\nlayers:\n";
            struct L {
                int cin, cout, k, s, p, inH, inW, outH, outW;
            };
            std::vector<L> ls;
            std::string prev = "x";
            bool ok = true;
            for (int k = 0; k < n; ++k) {
                L l;
                l.k = std::array<int, 3>{1, 3, 5}[size_t(pick(0, 2))];
                l.s = pick(1, std::min(2, l.k));
                l.p = pick(0, 1) ? l.k / 2 : 0;
                l.cin = c;
                l.cout = pick(1, 16);
                l.inH = h;
                l.inW = w;
                if (h + 2 * l.p < l.k || w + 2 * l.p < l.k) {
                    ok = false;
                    break;
                }
                l.outH = (h + 2 * l.p - l.k) / l.s + 1;
                l.outW = (w + 2 * l.p - l.k) / l.s + 1;
                const std::string name = "c" + std::to_string(k);
                yaml += "  - {name: " + name + ", type: conv, inputs: [" + prev +
                        "], out_channels: " + std::to_string(l.cout) +
                        ", kernel: " + std::to_string(l.k) + ", stride: " + std::to_string(l.s) +
                        ", padding: [" + std::to_string(l.p) + ", " + std::to_string(l.p) + "]}\n";
                prev = name;
                c = l.cout;
                h = l.outH;
                w = l.outW;
                ls.push_back(l);
            }
            if (!ok) continue;
            const Network net = test::networkFromYaml(yaml);
            const int64_t th = pick(1, h), tw = pick(1, w);
            std::vector<LayerId> members;
            for (int k = 0; k < n; ++k)
                members.push_back(net.find("c" + std::to_string(k)));
            const FusionGroup g = reuseGroup(net, members, th, tw);
            const GroupCost gc = flowFusionGroup(net, plainHw(), scheduleWith(net, g), g);
            const Traffic fused = sum(gc);

            // HWFF Eq. 4 by hand, bottom-up, clipped to each real input.
            const int64_t tiles = ((h + th - 1) / th) * ((w + tw - 1) / tw);
            const size_t nn = size_t(n);
            std::vector<int64_t> tox(nn), toy(nn), tix(nn), tiy(nn);
            tox[size_t(n - 1)] = tw;
            toy[size_t(n - 1)] = th;
            for (int k = n - 1; k >= 0; --k) {
                const L& l = ls[size_t(k)];
                tix[size_t(k)] = std::min<int64_t>((tox[size_t(k)] - 1) * l.s + l.k, l.inW);
                tiy[size_t(k)] = std::min<int64_t>((toy[size_t(k)] - 1) * l.s + l.k, l.inH);
                if (k > 0) {
                    tox[size_t(k - 1)] = tix[size_t(k)];
                    toy[size_t(k - 1)] = tiy[size_t(k)];
                }
            }
            int64_t weights = 0, layerByLayer = 0, macs = 0;
            for (int k = 0; k < n; ++k) {
                const L& l = ls[size_t(k)];
                const int64_t wk = int64_t(l.k) * l.k * l.cin * l.cout;
                weights += wk;
                macs += int64_t(l.outH) * l.outW * l.cout * l.cin * l.k * l.k;
                // HWFF Eq. 1-3 with Tif = Nif, Tof = Nof and the group's tile count.
                layerByLayer += tiles * (tix[size_t(k)] * tiy[size_t(k)] * l.cin + wk +
                                         tox[size_t(k)] * toy[size_t(k)] * l.cout);
            }
            const std::string ctx = yaml + "tile " + std::to_string(th) + "x" + std::to_string(tw);
            QVERIFY2(gc.tiles == tiles, ctx.c_str());
            QVERIFY2(fused.input == tiles * tix[0] * tiy[0] * ls[0].cin, ctx.c_str());
            QVERIFY2(fused.weight == weights, ctx.c_str());
            QVERIFY2(fused.output ==
                         tiles * tox[size_t(n - 1)] * toy[size_t(n - 1)] * ls.back().cout,
                     ctx.c_str());
            QVERIFY2(fused.psum == 0, ctx.c_str());
            QVERIFY2(fused.total() <= layerByLayer, ctx.c_str());
            int64_t gotMacs = 0, recompute = 0;
            for (const LayerCost& l : gc.layers) {
                gotMacs += l.macs;
                recompute += l.recompute_macs;
            }
            QVERIFY2(gotMacs == macs && recompute == 0, ctx.c_str());
            ++checked;
        }
        QVERIFY(checked > 300);
    }

    // x 64×16×16 → A 3×3 pad 1 → 1 channel → B 3×3 pad 1 → 1 channel; output tile 4×4.
    // Fused (HWFF Eq. 6): A's tile 6×6, its input 8×8×64 per tile, 16 tiles: 65536; weights 576 +
    // 9; outputs 16·16 = 256 → 66377.
    // Singletons with their own 4×4 grid, Tif = Nif, Tof = Nof (HWFF Eq. 1-3):
    //   A: 6·6·64·16 = 36864 in, 576·16 = 9216 weights, 256 out → 46336;
    //   B: 6·6·1·16 = 576 in, 9·16 = 144 weights, 256 out → 976.  Sum 47312 < 66377.
    void fusionCanLoseToFreeSingletons() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: thin
inputs:
  - {name: x, channels: 64, height: 16, width: 16}
layers:
  - {name: A, type: conv, inputs: [x], out_channels: 1, kernel: 3, padding: [1, 1]}
  - {name: B, type: conv, inputs: [A], out_channels: 1, kernel: 3, padding: [1, 1]}
)");
        const Hardware hw = plainHw();
        const LayerId A = net.find("A"), B = net.find("B");
        const FusionGroup fused = reuseGroup(net, {A, B}, 4, 4);
        QCOMPARE(sum(flowFusionGroup(net, hw, scheduleWith(net, fused), fused)).total(),
                 int64_t(66377));
        Schedule s;
        normalize(s, net);
        s.layers[size_t(A)].tile = {1, 4, 4, 64};
        s.layers[size_t(B)].tile = {1, 4, 4, 1};
        int64_t singles = 0;
        for (LayerId id : {A, B}) {
            FusionGroup one;
            one.name = net.layer(id).name;
            one.layers = {id};
            one.strategy = Strategy::reuse;
            singles += sum(flowFusionGroup(net, hw, s, one)).total();
        }
        QCOMPARE(singles, int64_t(47312));
    }

    // HWFF §4.3.1 partitions: divisor-sized, inside the array, non-overlapping. On a 2×2 array with
    // two layers the enumeration gives two side-by-side columns (widths 1 + 1, heights 1 or 2
    // each: 4) and two stacked rows (heights 1 + 1, widths 1 or 2 each: 4) → 8; the guillotine
    // packings of the whole array add the two halves in swapped assignment (layer 0 right or
    // below) → 10.
    void spatialPartitions() {
        auto valid = [](const std::vector<SubArray>& p, int pex, int pey, int minRows) {
            for (size_t i = 0; i < p.size(); ++i) {
                const SubArray& a = p[i];
                if (a.cols < 1 || a.rows < minRows || pex % a.cols || pey % a.rows) return false;
                if (a.col < 0 || a.row < 0 || a.col + a.cols > pex || a.row + a.rows > pey)
                    return false;
                for (size_t j = i + 1; j < p.size(); ++j) {
                    const SubArray& b = p[j];
                    const bool apart = a.col + a.cols <= b.col || b.col + b.cols <= a.col ||
                                       a.row + a.rows <= b.row || b.row + b.rows <= a.row;
                    if (!apart) return false;
                }
            }
            return true;
        };
        auto p = enumerateSpatialPartitions(2, 2, 2);
        QCOMPARE(p.size(), size_t(10));
        for (const auto& x : p)
            QVERIFY(valid(x, 2, 2, 1));
        std::set<std::vector<std::array<int, 4>>> distinct;
        for (const auto& x : p) {
            std::vector<std::array<int, 4>> k;
            for (const SubArray& a : x)
                k.push_back({a.col, a.row, a.cols, a.rows});
            distinct.insert(k);
        }
        QCOMPARE(distinct.size(), p.size());
        // One layer: every divisor size, 2·2 = 4 on 2×2; 3·2 = 6 on 4×2 (widths 1, 2, 4).
        QCOMPARE(enumerateSpatialPartitions(1, 2, 2).size(), size_t(4));
        QCOMPARE(enumerateSpatialPartitions(1, 4, 2).size(), size_t(6));
        // Row-stationary pruning: rows ≥ 2 on 2×2 → only full-height columns: (1,2)+(1,2), in
        // both assignments → 2.
        p = enumerateSpatialPartitions(2, 2, 2, 2);
        QCOMPARE(p.size(), size_t(2));
        QVERIFY(valid(p[0], 2, 2, 2));
        // A larger array: everything valid, the limit respected.
        p = enumerateSpatialPartitions(3, 8, 4);
        QVERIFY(!p.empty());
        for (const auto& x : p)
            QVERIFY(valid(x, 8, 4, 1));
        QCOMPARE(enumerateSpatialPartitions(3, 8, 4, 1, 5).size(), size_t(5));
        // Three layers on 2×2: no strips fit, but the guillotine packings do — a half (1×2 or
        // 2×1) and two quarters: 4 positions of the half × 3! assignments of the three distinct
        // pieces to the layers = 24.
        p = enumerateSpatialPartitions(3, 2, 2);
        QCOMPARE(p.size(), size_t(24));
        for (const auto& x : p)
            QVERIFY(valid(x, 2, 2, 1));
        // "Half plus two quarters" on 32×16 is among the partitions.
        bool halfQuarters = false;
        for (const auto& x : enumerateSpatialPartitions(3, 32, 16)) {
            int halves = 0, quarters = 0;
            for (const SubArray& a : x) {
                halves += a.cols * a.rows == 256;
                quarters += a.cols * a.rows == 128;
            }
            halfQuarters = halfQuarters || (halves == 1 && quarters == 2);
        }
        QVERIFY(halfQuarters);
        QVERIFY(enumerateSpatialPartitions(0, 8, 4).empty());
    }

    // Spatial vs temporal through evaluate (docs/models/README.md), 8 columns × 4 rows, ox|oc:
    //   temporal: A ⌈10/8⌉·⌈8/4⌉·10·4·9 = 1440, B ⌈8/8⌉·⌈6/4⌉·8·8·9 = 1152 → Σ = 2592;
    //   spatial 4×4 + 4×4: A ⌈10/4⌉·2·360 = 2160, B ⌈8/4⌉·2·576 = 2304
    //   → max 2304 + A's fill ⌈2160/8 tiles⌉ = 270 → 2574.
    void spatialVersusTemporalLatency() {
        const Network net = test::networkFromYaml(kTwoConvs);
        const Hardware hw = plainHw();
        const LayerId A = net.find("A"), B = net.find("B");
        FusionGroup g = reuseGroup(net, {A, B}, 2, 4);
        Metrics m = evaluate(net, hw, scheduleWith(net, g));
        QCOMPARE(m.layers[0].compute_cycles, int64_t(1440));
        QCOMPARE(m.layers[1].compute_cycles, int64_t(1152));
        QCOMPARE(m.groups[0].compute_cycles, int64_t(2592));
        g.partition.kind = PartitionKind::spatial;
        g.partition.subarrays[A] = SubArray{0, 0, 4, 4};
        g.partition.subarrays[B] = SubArray{4, 0, 4, 4};
        m = evaluate(net, hw, scheduleWith(net, g));
        QCOMPARE(m.layers[0].compute_cycles, int64_t(2160));
        QCOMPARE(m.layers[1].compute_cycles, int64_t(2304));
        QCOMPARE(m.layers[0].pes, int64_t(16));
        QCOMPARE(m.groups[0].compute_cycles, int64_t(2304 + 270));
        // An unequal split, B on 2×4: ⌈8/2⌉·⌈6/4⌉·576 = 4608 → max 4608 + A's fill 270.
        g.partition.subarrays[B] = SubArray{4, 0, 2, 4};
        m = evaluate(net, hw, scheduleWith(net, g));
        QCOMPARE(m.layers[1].compute_cycles, int64_t(4608));
        QCOMPARE(m.groups[0].compute_cycles, int64_t(4608 + 270));
    }
};

QTEST_GUILESS_MAIN(TstFlowFusion)
#include "tst_flowfusion.moc"
