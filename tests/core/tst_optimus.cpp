// Optimus against hand computation (docs/models/optimus.md): ISValid on Optimus Fig. 9
// style DAGs (Optimus §4.3, Optimus Alg. 1 L24-30), the group memory cost of Optimus Eq. 3 with
// several inputs and outputs (footnote 3), the ISOA decision of Optimus Alg. 2, the maximal t_h of
// Optimus Eq. 4 at a buffer capacity worked out by hand, the recompute of ISOA operators, and the
// `optimus` strategy through lf::evaluate (its DRAM split is Optimus Eq. 3's).

#include "models/evaluate.h"
#include "models/optimus.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace lf;

namespace {

// Optimus Fig. 9(a) style: v0 forks into v1 and v2, which join in v3.
const char* kForkJoin = R"(format: layerfuse/network@1
name: forkjoin
inputs:
  - {name: x, channels: 4, height: 8, width: 8}
layers:
  - {name: v0, type: conv, inputs: [x], out_channels: 4, kernel: 1}
  - {name: v1, type: conv, inputs: [v0], out_channels: 4, kernel: 3, padding: [1, 1]}
  - {name: v2, type: conv, inputs: [v0], out_channels: 4, kernel: 3, padding: [1, 1]}
  - {name: v3, type: add, inputs: [v1, v2]}
)";

// Optimus Fig. 9(b) style: a longer detour v0 → a → b → v5 next to v0 → v2 → v3 → v5.
const char* kDetour = R"(format: layerfuse/network@1
name: detour
inputs:
  - {name: x, channels: 4, height: 8, width: 8}
layers:
  - {name: v0, type: conv, inputs: [x], out_channels: 4, kernel: 1}
  - {name: a, type: conv, inputs: [v0], out_channels: 4, kernel: 1}
  - {name: b, type: conv, inputs: [a], out_channels: 4, kernel: 1}
  - {name: v2, type: conv, inputs: [v0], out_channels: 4, kernel: 1}
  - {name: v3, type: conv, inputs: [v2], out_channels: 4, kernel: 1}
  - {name: v5, type: add, inputs: [b, v3]}
)";

// A chain for Optimus Alg. 2 / Optimus Eq. 4: 8×16×16 input, c1 3×3 (pad 1) → 32, c2 3×3 (pad 1) →
// 8, c3 1×1 → 32. Weights 2304 + 2304 + 256 = 4864.
const char* kChain = R"(format: layerfuse/network@1
name: chain
inputs:
  - {name: x, channels: 8, height: 16, width: 16}
layers:
  - {name: c1, type: conv, inputs: [x], out_channels: 32, kernel: 3, padding: [1, 1]}
  - {name: c2, type: conv, inputs: [c1], out_channels: 8, kernel: 3, padding: [1, 1]}
  - {name: c3, type: conv, inputs: [c2], out_channels: 32, kernel: 1}
)";

std::vector<LayerId> ids(const Network& net, std::initializer_list<const char*> names) {
    std::vector<LayerId> out;
    for (const char* n : names) {
        const LayerId id = net.find(n);
        if (id == kNoLayer) qFatal("no layer %s", n);
        out.push_back(id);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// 4×4 PEs with ox on the columns and oc on the rows: T_c = 4, T_h = 1 (footnote 4), 16-bit.
Hardware optimusHw() {
    Hardware hw;
    hw.pe_array.cols = 4;
    hw.pe_array.rows = 4;
    hw.pe_array.dataflow = *parseDataflow("ox|oc");
    hw.precision = {16, 16, 16};
    return hw;
}

} // namespace

class TstOptimus : public QObject {
    Q_OBJECT

  private slots:
    void isValidFigure9a() {
        const Network net = test::networkFromYaml(kForkJoin);
        // {v0, v2, v3}: the path v0 → v1 → v3 leaves the group and re-enters it through v1.
        const std::string r = optimusValidity(net, ids(net, {"v0", "v2", "v3"}));
        QVERIFY2(r.find("cycle") != std::string::npos, r.c_str());
        QVERIFY2(r.find("v1") != std::string::npos, r.c_str());
        // The whole fork/join, the join with both branches, and chains are valid.
        QCOMPARE(optimusValidity(net, ids(net, {"v0", "v1", "v2", "v3"})), std::string());
        QCOMPARE(optimusValidity(net, ids(net, {"v1", "v2", "v3"})), std::string());
        QCOMPARE(optimusValidity(net, ids(net, {"v0", "v1", "v2"})), std::string());
        QCOMPARE(optimusValidity(net, ids(net, {"v0", "v1"})), std::string());
        QCOMPARE(optimusValidity(net, ids(net, {"v3"})), std::string());
        // {v1, v2} only share an outside producer: not connected.
        std::string d = optimusValidity(net, ids(net, {"v1", "v2"}));
        QVERIFY2(d.find("connected") != std::string::npos, d.c_str());
        d = optimusValidity(net, ids(net, {"v0", "v3"}));
        QVERIFY2(!d.empty(), "v0 and v3 have no edge between them");
        QVERIFY(!optimusValidity(net, {}).empty());
    }

    void isValidFigure9b() {
        const Network net = test::networkFromYaml(kDetour);
        // {v0, v2, v3, v5}: v0 → a → b → v5 leaves and re-enters through a and b.
        const std::string r = optimusValidity(net, ids(net, {"v0", "v2", "v3", "v5"}));
        QVERIFY2(r.find("cycle") != std::string::npos, r.c_str());
        const bool named = r.find(" a") != std::string::npos || r.find(" b") != std::string::npos;
        QVERIFY2(named, r.c_str());
        QCOMPARE(optimusValidity(net, ids(net, {"v0", "a", "b", "v2", "v3", "v5"})), std::string());
        QCOMPARE(optimusValidity(net, ids(net, {"b", "v3", "v5"})), std::string());
        // The schedule's group check refuses the same group with the same reason.
        FusionGroup bad;
        bad.name = "g";
        bad.layers = ids(net, {"v0", "v2", "v3", "v5"});
        const auto v = checkGroup(net, Hardware{}, bad);
        bool cycle = false;
        for (const Violation& x : v)
            cycle = cycle || x.message.find("cycle") != std::string::npos;
        QVERIFY(cycle);
    }

    // Optimus Eq. 3 on the chain {c1, c2}: |ifmap| = 8·256 = 2048, |ofmap(c2)| = 8·256 = 2048,
    // Σ|param| = 2304 + 2304 = 4608, O_h = O_w = 16.
    void memoryCostEq3Chain() {
        const Network net = test::networkFromYaml(kChain);
        const auto g = ids(net, {"c1", "c2"});
        QCOMPARE(optimusMemoryCost(net, g, 16, 16, true), int64_t(2048 + 2048 + 4608));
        QCOMPARE(optimusMemoryCost(net, g, 16, 16, false), int64_t(2048 + 2048 + 4608));
        // t_h = 4: ⌈16/4⌉·⌈16/16⌉ = 4 sub-groups.
        QCOMPARE(optimusMemoryCost(net, g, 4, 16, false), int64_t(4096 + 4 * 4608));
        QCOMPARE(optimusMemoryCost(net, g, 5, 16, false), int64_t(4096 + 4 * 4608)); // ⌈16/5⌉ = 4
        QCOMPARE(optimusMemoryCost(net, g, 3, 16, false), int64_t(4096 + 6 * 4608));
        QCOMPARE(optimusMemoryCost(net, g, 4, 8, false), int64_t(4096 + 8 * 4608));
        // Weights once whatever the tile.
        QCOMPARE(optimusMemoryCost(net, g, 1, 1, true), int64_t(4096 + 4608));
        // A single layer: |x| + |c1| + 2304.
        QCOMPARE(optimusMemoryCost(net, ids(net, {"c1"}), 16, 16, true),
                 int64_t(2048 + 8192 + 2304));
        // The whole chain: |x| + |c3| = 2048 + 32·256.
        QCOMPARE(optimusMemoryCost(net, ids(net, {"c1", "c2", "c3"}), 16, 16, true),
                 int64_t(2048 + 8192 + 4864));
    }

    // Footnote 3: several inputs and outputs are summed; a tensor is one tensor however many
    // members read it.
    void memoryCostSeveralInputsOutputs() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: two
inputs:
  - {name: x1, channels: 4, height: 8, width: 8}
  - {name: x2, channels: 4, height: 8, width: 8}
layers:
  - {name: a, type: conv, inputs: [x1], out_channels: 4, kernel: 1}
  - {name: b, type: conv, inputs: [x2], out_channels: 4, kernel: 1}
  - {name: s, type: add, inputs: [a, b]}
)");
        // {a, b, s}: |x1| + |x2| = 512, |s| = 256, params 16 + 16.
        const auto g = ids(net, {"a", "b", "s"});
        QCOMPARE(optimusMemoryCost(net, g, 8, 8, true), int64_t(512 + 256 + 32));
        QCOMPARE(optimusMemoryCost(net, g, 2, 8, false), int64_t(512 + 256 + 4 * 32));
        // {s} alone reads two distinct tensors: |a| + |b| + |s|.
        QCOMPARE(optimusMemoryCost(net, ids(net, {"s"}), 8, 8, true), int64_t(768));

        const Network fj = test::networkFromYaml(kForkJoin);
        // {v0, v1}: two outputs (v0 read by v2, v1 read by v3): |v0| + |v1| = 512, |x| = 256,
        // params 16 + 144.
        QCOMPARE(optimusMemoryCost(fj, ids(fj, {"v0", "v1"}), 8, 8, true),
                 int64_t(256 + 512 + 160));
        // {v1, v2, v3}: v1 and v2 both read v0 — one input tensor of 256 elements; |v3| = 256;
        // params 144 + 144.
        QCOMPARE(optimusMemoryCost(fj, ids(fj, {"v1", "v2", "v3"}), 8, 8, true),
                 int64_t(256 + 256 + 288));
    }

    // Optimus Alg. 2 on the chain with T_c = 4. R(l, 1): c3 1, c2 1 (c3 is 1×1), c1 3 (both axes):
    //   c3: dp1 = 4·1 = 4,            dp0 = 32·1 = 32
    //   c2: dp1 = 4·1 + dp0(c3) = 36,  dp0 = 8·1 + min(4, 32) = 12
    //   c1: dp1 = 4·9 + dp0(c2) = 48,  dp0 = 32·9 + min(36, 12) = 300
    // → c1 uses ISOA, so c2 may not; c3 may again: φ = (1, 0, 1), t_c = (4, 8, 4).
    // Optimus Eq. 4 with t_w = O_w = 16: fmap(t) = 8·min(t+4,16)·16 + 4·min(t+2,16)·16 + 8·t·16
    // + 4·t·16, i.e. 384·t + 640 for t ≤ 12: fmap(5) = 2560, fmap(6) = 2944.
    void isoaAndMaxTileChain() {
        const Network net = test::networkFromYaml(kChain);
        const Hardware hw = optimusHw();
        const auto g = ids(net, {"c1", "c2", "c3"});
        OptimusPlan p = optimusPlan(net, hw, g, 2560 * 16);
        QCOMPARE(p.isoa, (std::vector<char>{1, 0, 1}));
        QCOMPARE(p.tc, (std::vector<int64_t>{4, 8, 4}));
        QVERIFY(p.feasible);
        QCOMPARE(p.t_h, int64_t(5));
        QCOMPARE(p.t_w, int64_t(16));
        QCOMPARE(p.fmap_buffer, int64_t(2560));
        QVERIFY(!p.weights_resident); // 4864·16 bits alone exceed the buffer
        QCOMPARE(p.subgroups, int64_t(4));
        QCOMPARE(p.ifmap, int64_t(2048));
        QCOMPARE(p.ofmap, int64_t(8192));
        QCOMPARE(p.weights, int64_t(4864));
        QCOMPARE(p.memory_cost, int64_t(2048 + 8192 + 4 * 4864));
        // One bit less: t_h = 4 (fmap 2176), still 4 sub-groups.
        p = optimusPlan(net, hw, g, 2560 * 16 - 1);
        QCOMPARE(p.t_h, int64_t(4));
        QCOMPARE(p.fmap_buffer, int64_t(2176));
        // fmap(6) exactly: t_h = 6, ⌈16/6⌉ = 3 sub-groups.
        p = optimusPlan(net, hw, g, 2944 * 16);
        QCOMPARE(p.t_h, int64_t(6));
        QCOMPARE(p.memory_cost, int64_t(2048 + 8192 + 3 * 4864));
        // The smallest tile min(T_h, O_h) = 1 needs fmap(1) = 1024: below it Optimus Eq. 4 has no
        // solution.
        p = optimusPlan(net, hw, g, 1024 * 16);
        QVERIFY(p.feasible);
        QCOMPARE(p.t_h, int64_t(1));
        p = optimusPlan(net, hw, g, 1024 * 16 - 1);
        QVERIFY(!p.feasible);
        // A buffer for everything: whole map, weights resident, Optimus Eq. 3 with weights once.
        p = optimusPlan(net, hw, g, int64_t(1) << 30);
        QVERIFY(p.weights_resident);
        QCOMPARE(p.t_h, int64_t(16));
        QCOMPARE(p.memory_cost, int64_t(2048 + 8192 + 4864));
        // Weights + fmap(1) = 4864 + 1024 = 5888 elements fit exactly; streaming would reach
        // t_h = 14 (fmap(14) = 5760 ≤ 5888 < fmap(15) = 5952) but pay the weights twice:
        // resident at t_h = 1, Optimus Eq. 3 with weights once.
        p = optimusPlan(net, hw, g, 5888 * 16);
        QVERIFY(p.weights_resident);
        QCOMPARE(p.t_h, int64_t(1));
        QCOMPARE(p.memory_cost, int64_t(2048 + 8192 + 4864));
        p = optimusPlan(net, hw, g, 5888 * 16 - 1);
        QVERIFY(!p.weights_resident);
        QCOMPARE(p.t_h, int64_t(14));
        QCOMPARE(p.memory_cost, int64_t(2048 + 8192 + 2 * 4864));
        // A user tile: t_h = 3 → fmap(3) = 1792, 6 sub-groups.
        p = optimusPlan(net, hw, g, 2560 * 16, 3);
        QCOMPARE(p.t_h, int64_t(3));
        QCOMPARE(p.fmap_buffer, int64_t(1792));
        QCOMPARE(p.memory_cost, int64_t(2048 + 8192 + 6 * 4864));
    }

    // Optimus Alg. 2 on a diamond of 1×1 convs (R = 1 everywhere), T_c = 4:
    // p 8→32, q 32→8, r 32→8 (both from p), s = add(q, r) (8 channels).
    //   s: dp1 4, dp0 8;  q, r: dp1 4 + 8 = 12, dp0 8 + 4 = 12;  p: dp1 4 + 12 + 12 = 28,
    //   dp0 32 + 12 + 12 = 56 → p ISOA, q and r forced off, s free → ISOA (4 < 8).
    void isoaDiamond() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: diamond
inputs:
  - {name: x, channels: 8, height: 8, width: 8}
layers:
  - {name: p, type: conv, inputs: [x], out_channels: 32, kernel: 1}
  - {name: q, type: conv, inputs: [p], out_channels: 8, kernel: 1}
  - {name: r, type: conv, inputs: [p], out_channels: 8, kernel: 1}
  - {name: s, type: add, inputs: [q, r]}
)");
        const auto g = ids(net, {"p", "q", "r", "s"});
        const OptimusPlan plan = optimusPlan(net, optimusHw(), g, int64_t(1) << 30);
        QCOMPARE(plan.isoa, (std::vector<char>{1, 0, 0, 1}));
        QCOMPARE(plan.tc, (std::vector<int64_t>{4, 8, 8, 4}));
    }

    // Optimus Eq. 4's buffer counts an outside tensor once even when two members read it.
    // {v1, v2, v3} of the fork/join at t_h = 2 (T_c = 4 = C_out, so no ISOA):
    // v0 rows min(2+2, 8) · 8 cols · 4 ch = 128, + v1, v2, v3: 3 · 4·2·8 = 192 → 320.
    void fmapBufferSharedInput() {
        const Network net = test::networkFromYaml(kForkJoin);
        const OptimusPlan p =
            optimusPlan(net, optimusHw(), ids(net, {"v1", "v2", "v3"}), int64_t(1) << 30, 2);
        QCOMPARE(p.t_h, int64_t(2));
        QCOMPARE(p.fmap_buffer, int64_t(320));
        QCOMPARE(p.ifmap, int64_t(256));
        QCOMPARE(p.ofmap, int64_t(256));
    }

    // The `optimus` strategy through evaluate: buffer 5120 B = 2560 16-bit elements → the plan
    // above (t_h = 5, 4 sub-groups, weights streamed). DRAM split = Optimus Eq. 3's terms.
    // Recompute (Optimus §5.2: ISOA operators recompute their overlap): sub-groups produce c3 rows
    // [0,4] [5,9] [10,14] [15]; c2 (1×1 below) the same; c1 (3×3, pad 1 above c2) needs
    // [0,5] [4,10] [9,15] [14,15] = 6 + 7 + 7 + 2 = 22 rows of 16 → 6 extra rows:
    // 589824 · 6/16 = 221184 MACs. c3 is ISOA too but its sub-group tiles do not overlap.
    void optimusThroughEvaluate() {
        const Network net = test::networkFromYaml(kChain);
        Hardware hw = optimusHw();
        hw.buffer.bytes = 5120;
        Schedule s;
        FusionGroup g;
        g.name = "g";
        g.layers = ids(net, {"c1", "c2", "c3"});
        g.strategy = Strategy::optimus;
        s.groups.push_back(g);
        normalize(s, net);
        const Metrics m = evaluate(net, hw, s);
        QCOMPARE(m.groups.size(), size_t(1));
        const GroupMetrics& gm = m.groups[0];
        QCOMPARE(gm.dram.input, int64_t(2048));
        QCOMPARE(gm.dram.output, int64_t(8192));
        QCOMPARE(gm.dram.weight, int64_t(4 * 4864));
        QCOMPARE(gm.dram.psum, int64_t(0));
        QCOMPARE(gm.out_tile_h, int64_t(5));
        QCOMPARE(gm.out_tile_w, int64_t(16));
        QCOMPARE(gm.buffer_bytes, int64_t(5120));
        QVERIFY(gm.fits);
        const int64_t plain = 589824 + 589824 + 65536;
        QCOMPARE(gm.recompute_macs, int64_t(221184));
        QCOMPARE(gm.macs, plain + 221184);
        const LayerMetrics& c3 = m.layers[size_t(m.layer_index[size_t(net.find("c3"))])];
        QCOMPARE(c3.recompute_macs, int64_t(0));
        QCOMPARE(c3.macs, int64_t(65536));

        // A bigger buffer keeps the weights: input + output + weights once.
        hw.buffer.bytes = 1 << 20;
        const Metrics big = evaluate(net, hw, s);
        QCOMPARE(big.groups[0].dram.weight, int64_t(4864));
        QCOMPARE(big.groups[0].dram.total(), int64_t(2048 + 8192 + 4864));
        QCOMPARE(big.groups[0].recompute_macs, int64_t(0)); // one sub-group, nothing overlaps

        // A user tile narrower than the map (t_w = 8 < O_w): c1 (ISOA) recomputes the columns
        // shared by the two halves — c2 needs c1 columns [0,8] and [7,15], 9 + 9 = 18 of 16 —
        // 589824·2/16 = 73728; c3's halves do not overlap.
        FusionGroup narrow = g;
        narrow.out_tile = OutputTile{16, 8};
        Schedule sn = s;
        sn.groups[size_t(sn.groupOf(net.find("c1")))] = narrow;
        const Metrics nm = evaluate(net, hw, sn);
        QCOMPARE(nm.groups[0].out_tile_w, int64_t(8));
        QCOMPARE(nm.groups[0].recompute_macs, int64_t(73728));

        // A batch of 4: activations per image, resident weights once for the batch.
        hw.batch = 4;
        const Metrics b4 = evaluate(net, hw, s);
        QCOMPARE(b4.groups[0].dram.input, int64_t(4 * 2048));
        QCOMPARE(b4.groups[0].dram.output, int64_t(4 * 8192));
        QCOMPARE(b4.groups[0].dram.weight, int64_t(4864));
    }

    // A fork/join group through evaluate: the shared input v0 is read once.
    void sharedInputThroughEvaluate() {
        const Network net = test::networkFromYaml(kForkJoin);
        Hardware hw = optimusHw();
        hw.buffer.bytes = 1 << 20;
        Schedule s;
        FusionGroup g;
        g.name = "g";
        g.layers = ids(net, {"v1", "v2", "v3"});
        g.strategy = Strategy::optimus;
        s.groups.push_back(g);
        normalize(s, net);
        const Metrics m = evaluate(net, hw, s);
        const int gi = s.groupOf(net.find("v3"));
        QVERIFY(gi >= 0);
        QCOMPARE(m.groups[size_t(gi)].dram.input, int64_t(256));
        QCOMPARE(m.groups[size_t(gi)].dram.output, int64_t(256));
        QCOMPARE(m.groups[size_t(gi)].dram.weight, int64_t(288));
    }

    // The per-layer index of every group agrees with groupOf for every layer, including the
    // input layer (no group, -1) and ids beyond the network (not asked for).
    void groupIndexByLayerEqualsGroupOf() {
        const Network net = test::networkFromYaml(kDetour);
        Schedule s;
        FusionGroup g;
        g.name = "g";
        g.layers = ids(net, {"v2", "v3", "v5"});
        s.groups.push_back(g);
        normalize(s, net);
        const std::vector<int> index = s.groupIndexByLayer(net.size());
        QCOMPARE(int(index.size()), net.size());
        int unassigned = 0;
        for (LayerId id = 0; id < net.size(); ++id) {
            QCOMPARE(index[size_t(id)], s.groupOf(id));
            unassigned += index[size_t(id)] < 0;
        }
        QCOMPARE(unassigned, 1); // the network input x
        QCOMPARE(index[size_t(net.find("v2"))], index[size_t(net.find("v5"))]);
        QVERIFY(index[size_t(net.find("a"))] != index[size_t(net.find("v5"))]);
        QCOMPARE(int(s.groupIndexByLayer(2).size()), 2);
        QVERIFY(s.groupIndexByLayer(0).empty());
    }
};

QTEST_GUILESS_MAIN(TstOptimus)
#include "tst_optimus.moc"
