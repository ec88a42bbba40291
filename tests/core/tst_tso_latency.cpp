// Latency models against hand computation (docs/models/tso.md, docs/models/README.md): TSO's burst
// counts and burst-aware DRAM time (TSO Alg. 4, TSO Eq. 9, the TSO §VI InceptionV3 test vector),
// TLE slicing (TSO Alg. 2), the IS/OS/WS transfer counts (TSO Eq. 3-5), the tile fit (TSO Eq. 2,
// with TSO Eq. 1 extents), the multicore MAC time (TSO Eq. 7-8) and the spatial-array compute model
// with its four dataflow presets, partial utilization, groups and batch — directly and through
// lf::evaluate. Every expected number below is worked out in the comment next to it.

#include "models/evaluate.h"
#include "models/tso_latency.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>

using namespace lf;

namespace {

Dataflow flow(const char* text) {
    auto d = parseDataflow(text);
    if (!d) qFatal("bad dataflow %s", text);
    return *d;
}

// A DRAM with TSO's 128 B bursts, 14-cycle CAS and 9 B/cycle (the tso-nmp preset's numbers,
// typed in here so that the test does not depend on the preset).
Hardware tsoDram() {
    Hardware hw;
    hw.precision = {16, 16, 16};
    hw.dram.burst_bytes = 128;
    hw.dram.cas_cycles = 14;
    hw.dram.bandwidth_bytes_per_cycle = 9;
    return hw;
}

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

} // namespace

class TstTsoLatency : public QObject {
    Q_OBJECT

  private slots:
    // TSO §VI: InceptionV3's 5th conv (80 IFMs of 73x73), 16-bit, 128 B bursts.
    void burstCountPaperVector() {
        // IN tile 14x4x73 (T_N x T_H x T_L) spans whole rows: one run of 4·73·2 = 584 B per
        // channel = ⌈584/128⌉ = 5 bursts, 14 channels → 70.
        const Transfer full{TrafficKind::input, 1, 14, 4, 73, 73, 16};
        QCOMPARE(burstCount(full, 128), int64_t(70));
        // TSO-noburst's tile 16x11x20: rows of 40 B are not contiguous, 1 burst per row,
        // 16·11 = 176.
        const Transfer narrow{TrafficKind::input, 1, 16, 11, 20, 73, 16};
        QCOMPARE(burstCount(narrow, 128), int64_t(176));
    }

    void burstCountEdges() {
        // A row of exactly one burst (64 elements · 2 B = 128 B) and one element more.
        QCOMPARE(burstCount({TrafficKind::input, 1, 1, 3, 64, 100, 16}, 128), int64_t(3));
        QCOMPARE(burstCount({TrafficKind::input, 1, 1, 3, 65, 100, 16}, 128), int64_t(6));
        // Full rows are one run: 3 rows · 64 · 2 B = 384 B = 3 bursts; 65-wide: 390 B → 4.
        QCOMPARE(burstCount({TrafficKind::input, 1, 1, 3, 64, 64, 16}, 128), int64_t(3));
        QCOMPARE(burstCount({TrafficKind::input, 1, 1, 3, 65, 65, 16}, 128), int64_t(4));
        // A weight block is one contiguous run: 1000 · 2 B = 2000 B → ⌈2000/128⌉ = 16.
        QCOMPARE(burstCount({TrafficKind::weight, 1, 1, 1, 1000, 1000, 16}, 128), int64_t(16));
        // 8-bit elements: 14 channels · ⌈4·73/128⌉ = 14·3 = 42.
        QCOMPARE(burstCount({TrafficKind::input, 1, 14, 4, 73, 73, 8}, 128), int64_t(42));
    }

    // TSO Alg. 4: burst mode bursts·CAS + bytes/BW per transfer, noburst bytes/BW; × count.
    void transferCyclesBurstAndNoburst() {
        const Hardware hw = tsoDram();
        const Transfer t{TrafficKind::input, 3, 14, 4, 73, 73, 16};
        // bytes = 14·4·73·2 = 8176; 8176/9 per transfer.
        QVERIFY(close(transferCycles(t, hw, false), 3.0 * 8176.0 / 9.0));
        // + 70 bursts · 14 cycles = 980 per transfer.
        QVERIFY(close(transferCycles(t, hw, true), 3.0 * (8176.0 / 9.0 + 980.0)));
        // The narrow tile: 16·11·20·2 = 7040 B, 176 bursts.
        const Transfer n{TrafficKind::input, 1, 16, 11, 20, 73, 16};
        QVERIFY(close(transferCycles(n, hw, true), 7040.0 / 9.0 + 176.0 * 14.0));
        // No transfers, no time.
        QCOMPARE(transferCycles({TrafficKind::input, 0, 14, 4, 73, 73, 16}, hw, true), 0.0);
    }

    // TSO Alg. 2 on M = 10 filters, R = 7 rows, 4 TLEs.
    void tleSlicingAlg2() {
        TsoConv c;
        c.M = 10;
        c.R = 7;
        TleSlice s = tleSlicing(TlePartition::ks, c, 4); // ⌈10/4⌉ filters, all rows
        QCOMPARE(s.filters, int64_t(3));
        QCOMPARE(s.rows, int64_t(7));
        s = tleSlicing(TlePartition::ks_ofm, c, 4); // ⌈10/2⌉, ⌈7/2⌉
        QCOMPARE(s.filters, int64_t(5));
        QCOMPARE(s.rows, int64_t(4));
        s = tleSlicing(TlePartition::ofm, c, 4); // all filters, ⌈7/4⌉ rows
        QCOMPARE(s.filters, int64_t(10));
        QCOMPARE(s.rows, int64_t(2));
        s = tleSlicing(TlePartition::ks_ofm, c, 8); // #TLE/2 = 4: ⌈10/4⌉, ⌈7/4⌉
        QCOMPARE(s.filters, int64_t(3));
        QCOMPARE(s.rows, int64_t(2));
    }

    // TSO Eq. 3-5 with M=10, N=6, R=7, C=9, 4 TLEs, KS slice (TLE_R = 7, TLE_W = 3), tile
    // T_M=2, T_N=4, T_R=3, T_C=5.
    void transferCountsEqs3to5() {
        TsoConv c;
        c.M = 10;
        c.N = 6;
        c.R = 7;
        c.C = 9;
        const TleSlice ks{7, 3};
        const TsoTile t{2, 4, 3, 5};
        // Common factor #TLE·⌈7/3⌉·⌈9/5⌉·⌈6/4⌉ = 4·3·2·2 = 48; ⌈TLE_W/T_M⌉ = ⌈3/2⌉ = 2;
        // ⌈R/T_R⌉⌈C/T_C⌉ = 6; ⌈M/T_M⌉ = 5.
        TsoAlphas a = tsoTransferCounts(TltSchedule::is, c, ks, t, 4);
        QCOMPARE(a.in, int64_t(48));
        QCOMPARE(a.w, int64_t(48));
        QCOMPARE(a.out, int64_t(6));
        a = tsoTransferCounts(TltSchedule::os, c, ks, t, 4);
        QCOMPARE(a.in, int64_t(96));
        QCOMPARE(a.w, int64_t(96));
        QCOMPARE(a.out, int64_t(30));
        a = tsoTransferCounts(TltSchedule::ws, c, ks, t, 4);
        QCOMPARE(a.in, int64_t(96));
        QCOMPARE(a.w, int64_t(8)); // #TLE·⌈TLE_W/T_M⌉
        QCOMPARE(a.out, int64_t(30));
        // OFM slice (TLE_R = 2, TLE_W = 10): 4·⌈2/3⌉·2·2 = 16; WS α_w = 4·⌈10/2⌉ = 20.
        const TleSlice ofm{2, 10};
        a = tsoTransferCounts(TltSchedule::is, c, ofm, t, 4);
        QCOMPARE(a.in, int64_t(16));
        a = tsoTransferCounts(TltSchedule::ws, c, ofm, t, 4);
        QCOMPARE(a.in, int64_t(16 * 5));
        QCOMPARE(a.w, int64_t(20));
    }

    // TSO Eq. 1 extents (clipped to the real input) and TSO Eq. 2 at the boundary.
    void tileFitEq2Boundary() {
        TsoConv c;
        c.K = 3;
        c.S = 1;
        c.H = c.L = 100;
        QCOMPARE(tsoTileH(c, 6), int64_t(8)); // (6−1)·1 + 3
        QCOMPARE(tsoTileL(c, 4), int64_t(6));
        TsoConv s2 = c;
        s2.S = 2;
        QCOMPARE(tsoTileH(s2, 6), int64_t(13)); // (6−1)·2 + 3
        TsoConv small = c;
        small.H = small.L = 8; // 'same' padding: the window never exceeds the real map
        QCOMPARE(tsoTileH(small, 8), int64_t(8));

        // T_N=4, T_R=T_C=6 (T_H=T_L=8), T_M=8, 16-bit:
        // IN = 4·8·8·2 = 512 B, W = 8·4·9·2 = 576 B, OUT = 8·6·6·2 = 576 B.
        const TsoTile t{8, 4, 6, 6};
        CoresConfig cores;
        cores.mb_bytes = {512, 576, 576};
        QVERIFY(tsoTileFits(c, t, cores, 2)); // exactly full
        cores.mb_bytes = {511, 576, 576};
        QVERIFY(!tsoTileFits(c, t, cores, 2));
        cores.mb_bytes = {512, 575, 576};
        QVERIFY(!tsoTileFits(c, t, cores, 2));
        cores.mb_bytes = {512, 576, 575};
        QVERIFY(!tsoTileFits(c, t, cores, 2));
        // One more channel: IN = 5·64·2 = 640 B > 512.
        cores.mb_bytes = {512, 1000, 1000};
        QVERIFY(!tsoTileFits(c, TsoTile{8, 5, 6, 6}, cores, 2));
        // One more output row: T_H = 9, IN = 4·9·8·2 = 576 B > 512.
        QVERIFY(!tsoTileFits(c, TsoTile{8, 4, 7, 6}, cores, 2));
        // 8-bit halves everything: fits in half the memories.
        cores.mb_bytes = {256, 288, 288};
        QVERIFY(tsoTileFits(c, t, cores, 1));
    }

    // TSO Eq. 7-8: M=10, N=6, R=7, C=9, K=3, tile (T_M,T_N,T_R,T_C) = (2,4,3,5), 16 MACs/cycle,
    // 32 cores.
    void macTimeEqs7and8() {
        TsoConv c;
        c.M = 10;
        c.N = 6;
        c.R = 7;
        c.C = 9;
        c.K = 3;
        // T_leMAC = T_N·T_M·⌈T_R·T_C·K²/#MACs⌉ = 4·2·⌈135/16⌉ = 8·9 = 72.
        // Tiles ⌈10/2⌉⌈6/4⌉⌈7/3⌉⌈9/5⌉ = 5·2·3·2 = 60; T_MAC = 60·72/32 = 135.
        QVERIFY(close(tsoMacCycles(c, TsoTile{2, 4, 3, 5}, 16, 32), 135.0));
        QVERIFY(close(tsoMacCycles(c, TsoTile{2, 4, 3, 5}, 16, 1), 4320.0));
        // A tile whose T_R·T_C·K² is a multiple of #MACs: ⌈(7·9·9)/(9)⌉ = 63 exactly,
        // T_leMAC = 6·10·63, one tile.
        QVERIFY(close(tsoMacCycles(c, TsoTile{10, 6, 7, 9}, 9, 1), 6.0 * 10.0 * 63.0));
    }

    // TSO Eq. 9 with the counts of TSO Eq. 3 (α = 48, 48, 6) for the tile above on an 11-wide map
    // (L = 11, C = 9): IN 4 × 5 × 7 (T_H = 5, T_L = 7 < 11: 20 rows of 14 B, 1 burst each,
    // 280 B); W 2·4·9 = 72 elements = 144 B → 2 bursts; OUT 2 × 3 × 5 of a 9-wide map
    // (6 rows of 10 B → 6 bursts, 60 B).
    void dramTimeEq9() {
        const Hardware hw = tsoDram();
        TsoConv c;
        c.M = 10;
        c.N = 6;
        c.R = 7;
        c.C = 9;
        c.K = 3;
        c.S = 1;
        c.H = 9;
        c.L = 11;
        const TsoTile t{2, 4, 3, 5};
        const TsoAlphas a{48, 48, 6};
        const double noburst = 48 * (280.0 / 9) + 48 * (144.0 / 9) + 6 * (60.0 / 9);
        const double burst = noburst + 48 * 20 * 14.0 + 48 * 2 * 14.0 + 6 * 6 * 14.0;
        QVERIFY2(close(tsoDramCycles(c, t, a, hw, false), noburst),
                 qPrintable(QString::number(tsoDramCycles(c, t, a, hw, false))));
        QVERIFY2(close(tsoDramCycles(c, t, a, hw, true), burst),
                 qPrintable(QString::number(tsoDramCycles(c, t, a, hw, true))));
    }

    // docs/models/README.md array model. Layer: 10 (ox) × 6 (oy) outputs, 20 out channels, 3 in
    // channels, 3×3 kernel, on 4 columns × 8 rows; MACs = 10·6·20·3·9 = 32400.
    void arrayComputeFourPresets() {
        const LayerDims d = test::squareConvDims(10, 6, 20, 3, 3);
        // ox|oc: ⌈10/4⌉·⌈20/8⌉ · oy 6 · ic 3 · 3·3 = 3·3·162 = 1458 (utilization
        // 32400/(1458·32) ≈ 0.694: ox and oc are not multiples of the array).
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ox|oc"), 4, 8, 1, 1), int64_t(1458));
        // ic|oc (weight stationary): ⌈3/3⌉·⌈20/8⌉ · 10·6·9 = 3·540 = 1620.
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ic|oc"), 4, 8, 1, 1), int64_t(1620));
        // ox|oy (output stationary): ⌈10/4⌉·⌈6/6⌉ · 20·3·9 = 3·540 = 1620.
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ox|oy"), 4, 8, 1, 1), int64_t(1620));
        // ky·oy | ic·oc (row stationary, simplified): columns carry 3·6 = 18 → ⌈18/4⌉ = 5;
        // rows carry 3·20 = 60 → ⌈60/8⌉ = 8; the rest ox·kx = 30 → 5·8·30 = 1200.
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ky*oy|ic*oc"), 4, 8, 1, 1),
                 int64_t(1200));
        // Full utilization when the dims fill the array: ox 8 on 4 columns, oc 16 on 8 rows:
        // 2·2·oy 6·ic 3·9 = 648 = 8·6·16·3·9 / 32.
        QCOMPARE(arrayComputeCycles(test::squareConvDims(8, 6, 16, 3, 3), LayerType::conv,
                                    flow("ox|oc"), 4, 8, 1, 1),
                 int64_t(648));
        // An array larger than the dims: U = D, one step per mapped dim: 6·3·9 = 162.
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ox|oc"), 64, 64, 1, 1), int64_t(162));
        // 2 MACs per PE per cycle: ⌈1458/2⌉ = 729; 4: ⌈1458/4⌉ = 365.
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ox|oc"), 4, 8, 2, 1), int64_t(729));
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ox|oc"), 4, 8, 4, 1), int64_t(365));
    }

    void arrayComputeGroupsAndBatch() {
        // 2 groups of 2 → 10 channels: per group ⌈10/4⌉·⌈10/8⌉ · oy 6 · ic 2 · 9 =
        // 3·2·108 = 648, × 2 groups = 1296.
        const LayerDims g2 = test::squareConvDims(10, 6, 20, 4, 3, 1, 2);
        QCOMPARE(arrayComputeCycles(g2, LayerType::conv, flow("ox|oc"), 4, 8, 1, 1), int64_t(1296));
        // Batch 3 multiplies: 3888.
        QCOMPARE(arrayComputeCycles(g2, LayerType::conv, flow("ox|oc"), 4, 8, 1, 3), int64_t(3888));
        // Depthwise 8 channels: 8 groups of 1 → 1 filter per group: ⌈10/4⌉·1·6·1·9 = 162,
        // × 8 = 1296.
        const LayerDims dw = test::squareConvDims(10, 6, 8, 8, 3, 1, 8);
        QCOMPARE(arrayComputeCycles(dw, LayerType::conv, flow("ox|oc"), 4, 8, 1, 1), int64_t(1296));
        // Batch mapped on rows (ox|b): ⌈10/4⌉·⌈3/8⌉ → 3·1 · oy 6 · oc 20 · ic 3 · 9 = 9720.
        const LayerDims d = test::squareConvDims(10, 6, 20, 3, 3);
        QCOMPARE(arrayComputeCycles(d, LayerType::conv, flow("ox|b"), 4, 8, 1, 3), int64_t(9720));
    }

    // Through lf::evaluate: a 12×8 input (3 channels), 3×3 conv to 20 channels → 10×6 outputs,
    // on a 4×8 array with ox|oc. Expected cycles 1458 and utilization 32400/(1458·32).
    void utilizationThroughEvaluate() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: one
inputs:
  - {name: x, channels: 3, height: 8, width: 12}
layers:
  - {name: c, type: conv, inputs: [x], out_channels: 20, kernel: 3}
)");
        Hardware hw;
        hw.pe_array.cols = 4;
        hw.pe_array.rows = 8;
        hw.pe_array.dataflow = flow("ox|oc");
        Schedule s;
        normalize(s, net);
        const LayerId c = net.find("c");
        s.layers[size_t(c)].tile = {20, 6, 10, 3};
        Metrics m = evaluate(net, hw, s);
        QCOMPARE(m.layers.size(), size_t(1));
        QCOMPARE(m.layers[0].macs, int64_t(32400));
        QCOMPARE(m.layers[0].compute_cycles, int64_t(1458));
        QCOMPARE(m.layers[0].pes, int64_t(32));
        QVERIFY(close(m.layers[0].utilization, 32400.0 / (1458.0 * 32.0)));
        QVERIFY(close(m.totals.utilization, 32400.0 / (1458.0 * 32.0)));
        // The layer's own unrolling overrides the hardware's: ic|oc → 1620 cycles.
        s.layers[size_t(c)].unroll = flow("ic|oc");
        m = evaluate(net, hw, s);
        QCOMPARE(m.layers[0].compute_cycles, int64_t(1620));
        QVERIFY(close(m.layers[0].utilization, 32400.0 / (1620.0 * 32.0)));
        // Batch 2 doubles MACs and cycles; utilization unchanged.
        hw.batch = 2;
        m = evaluate(net, hw, s);
        QCOMPARE(m.layers[0].macs, int64_t(64800));
        QCOMPARE(m.layers[0].compute_cycles, int64_t(3240));
        QVERIFY(close(m.layers[0].utilization, 32400.0 / (1620.0 * 32.0)));
    }

    // Serial vs overlapped combination (TSO Eq. 6 / double buffering) and the reported bound,
    // with the DRAM time of the layer's own transfers: full tiles on a 1×1 array move the
    // input (3·8·12 = 288 elements), the weights (20·3·9 = 540) and the outputs
    // (20·6·10 = 1200) once, 16-bit, 4 B/cycle, no CAS: (288 + 540 + 1200)·2/4 = 1014 cycles.
    void serialAndOverlapped() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: one
inputs:
  - {name: x, channels: 3, height: 8, width: 12}
layers:
  - {name: c, type: conv, inputs: [x], out_channels: 20, kernel: 3}
)");
        Hardware hw;
        hw.pe_array.cols = 1;
        hw.pe_array.rows = 1;
        hw.dram.bandwidth_bytes_per_cycle = 4;
        hw.dram.cas_cycles = 0;
        Schedule s;
        normalize(s, net);
        s.layers[size_t(net.find("c"))].tile = {20, 6, 10, 3};
        EvaluateOptions noburst;
        noburst.burst_aware = false;
        Metrics m = evaluate(net, hw, s, noburst);
        QCOMPARE(m.totals.dram_accesses, int64_t(288 + 540 + 1200));
        QCOMPARE(m.totals.compute_cycles, int64_t(32400)); // one PE
        QCOMPARE(m.totals.memory_cycles, int64_t(1014));
        QCOMPARE(m.totals.latency_cycles, int64_t(32400 + 1014));
        QVERIFY(m.totals.bound == Bound::compute);
        hw.overlap = OverlapMode::overlapped;
        m = evaluate(net, hw, s, noburst);
        QCOMPARE(m.totals.latency_cycles, int64_t(32400));
        // A slow DRAM (1/16 B per cycle) makes it memory bound: 4056 B · 16 = 64896 cycles.
        hw.dram.bandwidth_bytes_per_cycle = 0.0625;
        m = evaluate(net, hw, s, noburst);
        QCOMPARE(m.totals.memory_cycles, int64_t(64896));
        QCOMPARE(m.totals.latency_cycles, int64_t(64896));
        QVERIFY(m.totals.bound == Bound::memory);
    }
};

QTEST_GUILESS_MAIN(TstTsoLatency)
#include "tst_tso_latency.moc"
