// Figures that do not fit 64 bits (network/figure_limits.h, util/checked.h): a network whose
// per-layer figures would overflow is refused at the dimension that causes it (issue 17's
// reproducers: a 1×1 conv of 2^24 → 2^24 channels on 256×256, a 2^24×2^20×2^20 input); the
// checked and saturating helpers at their edges; and a property over random and extreme
// networks, hardware and schedules on every model and strategy: no figure is ever negative,
// NaN or infinite, and a figure beyond 2^63 is saturated and said so.
#include "net_text.h"
#include "test_support.h"

#include "hardware/hardware.h"
#include "models/convfusion.h"
#include "models/evaluate.h"
#include "models/stoutchinin.h"
#include "network/dims.h"
#include "network/figure_limits.h"
#include "search/optimus_fuser.h"
#include "util/checked.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace lf;

namespace {

bool nonNegative(const Traffic& t) {
    return t.input >= 0 && t.weight >= 0 && t.output >= 0 && t.psum >= 0;
}
bool finiteNonNegative(double v) {
    return std::isfinite(v) && v >= 0;
}
bool finiteNonNegative(const Energy& e) {
    return finiteNonNegative(e.mac) && finiteNonNegative(e.rf) && finiteNonNegative(e.sram) &&
           finiteNonNegative(e.dram);
}

// Every figure of the metrics is >= 0 and every double finite; returns what is not.
std::string badFigure(const Metrics& m) {
    const Totals& t = m.totals;
    if (t.macs < 0 || t.recompute_macs < 0 || t.ops < 0 || !nonNegative(t.dram) ||
        t.dram_accesses < 0 || t.dram_bytes < 0 || t.buffer_peak_bytes < 0 ||
        t.latency_cycles < 0 || t.compute_cycles < 0 || t.memory_cycles < 0)
        return "negative total";
    if (!finiteNonNegative(t.latency_s) || !finiteNonNegative(t.energy) ||
        !finiteNonNegative(t.ctc) || !finiteNonNegative(t.utilization))
        return "total not finite";
    for (const GroupMetrics& g : m.groups) {
        if (g.macs < 0 || g.recompute_macs < 0 || g.ops < 0 || !nonNegative(g.dram) ||
            g.dram_bytes < 0 || g.buffer_bytes < 0 || g.compute_cycles < 0 || g.memory_cycles < 0 ||
            g.latency_cycles < 0)
            return "negative figure in group " + g.name;
        if (!finiteNonNegative(g.energy) || !finiteNonNegative(g.ctc) ||
            !finiteNonNegative(g.utilization))
            return "figure not finite in group " + g.name;
        if (g.recompute_macs > g.macs) return "recompute above MACs in group " + g.name;
    }
    for (const LayerMetrics& l : m.layers) {
        if (l.macs < 0 || l.recompute_macs < 0 || l.ops < 0 || l.weights < 0 || l.buf_x < 0 ||
            l.buf_y < 0 || l.buf_w < 0 || !nonNegative(l.dram) || l.sram_rf_traffic < 0 ||
            l.compute_cycles < 0 || l.memory_cycles < 0 || l.pes < 0)
            return "negative figure in layer " + l.name;
        if (!finiteNonNegative(l.energy) || !finiteNonNegative(l.utilization))
            return "figure not finite in layer " + l.name;
    }
    return {};
}

bool anyWarningSaysSaturated(const Metrics& m) {
    for (const GroupMetrics& g : m.groups)
        for (const std::string& w : g.warnings)
            if (w.find("2^63") != std::string::npos) return true;
    return false;
}

bool anySaturatedTotal(const Metrics& m) {
    const Totals& t = m.totals;
    for (int64_t v : {t.macs, t.dram_accesses, t.dram_bytes, t.latency_cycles, t.compute_cycles,
                      t.memory_cycles})
        if (isSaturated(v)) return true;
    return false;
}

// A random network: a chain with side branches (add, concat), every layer kind, sizes from
// tiny to extreme. Returns YAML text.
std::string randomNetwork(std::mt19937_64& rng, bool extreme) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    auto logPick = [&](int lo, int hi) { return int64_t(1) << pick(lo, hi); };
    const int64_t c = extreme ? logPick(0, 16) : pick(1, 16);
    const int64_t h = extreme ? logPick(0, 12) : pick(1, 24);
    const int64_t w = extreme ? logPick(0, 12) : pick(1, 24);
    std::string y = "format: layerfuse/network@1\nname: r\ninputs:\n  - {name: x, channels: " +
                    std::to_string(c) + ", height: " + std::to_string(h) +
                    ", width: " + std::to_string(w) + "}\nlayers:\n";
    std::vector<std::string> names{"x"};
    const int n = int(pick(1, extreme ? 6 : 9));
    for (int k = 0; k < n; ++k) {
        const std::string nm = "l" + std::to_string(k);
        const std::string in = names.back();
        const int64_t oc = extreme ? logPick(0, 14) : pick(1, 12);
        const int64_t kk = extreme ? logPick(0, 4) : pick(1, 5);
        const int64_t s = pick(1, 3);
        switch (pick(0, 8)) {
        case 0:
        case 1:
        case 2:
            y += "  - {name: " + nm + ", type: conv, inputs: [" + in +
                 "], out_channels: " + std::to_string(oc) + ", kernel: " + std::to_string(kk) +
                 ", stride: " + std::to_string(s) + ", padding: " + std::to_string(kk / 2) + "}\n";
            break;
        case 3:
            y += "  - {name: " + nm + ", type: pool, inputs: [" + in +
                 "], kernel: " + std::to_string(std::min<int64_t>(kk, 3)) +
                 ", stride: " + std::to_string(s) +
                 ", padding: " + std::to_string(std::min<int64_t>(kk, 3) / 2) + "}\n";
            break;
        case 4:
            y += "  - {name: " + nm + ", type: add, inputs: [" + in + ", " + in + "]}\n";
            break;
        case 5:
            y += "  - {name: " + nm + ", type: concat, inputs: [" + in + ", " + names.front() +
                 "]}\n";
            break;
        case 6:
            y += "  - {name: " + nm + ", type: resize, inputs: [" + in + "], scale: 2" +
                 (pick(0, 1) ? ", mode: bilinear" : "") + "}\n";
            break;
        case 7:
            y += "  - {name: " + nm + ", type: deconv, inputs: [" + in +
                 "], out_channels: " + std::to_string(oc) + ", kernel: " + std::to_string(kk) +
                 ", stride: " + std::to_string(s) + "}\n";
            break;
        default:
            y += "  - {name: " + nm + ", type: fc, inputs: [" + in +
                 "], out_features: " + std::to_string(oc) + "}\n";
            break;
        }
        names.push_back(nm);
    }
    return y;
}

Hardware randomHardware(std::mt19937_64& rng, bool extreme) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    static const char* presets[] = {"hwff-config-1",          "optimus-default", "convfusion-40nm",
                                    "convfusion-40nm-banked", "tso-nmp",         "hwff-config-6"};
    Hardware hw = test::bundledHardware(presets[pick(0, 5)]);
    if (extreme) {
        hw.batch = int(pick(0, 1) ? 65536 : pick(1, 64));
        hw.precision.act_bits = int(pick(1, 64));
        hw.precision.weight_bits = int(pick(1, 64));
        hw.precision.psum_bits = int(pick(1, 64));
        hw.buffer.bytes = int64_t(1) << pick(0, 44);
        hw.pe_array.cols = int(int64_t(1) << pick(0, 16));
        hw.pe_array.rows = int(int64_t(1) << pick(0, 16));
        hw.dram.bandwidth_bytes_per_cycle = pick(0, 1) ? 1e-6 : 1e15;
        hw.dram.cas_cycles = pick(0, 1) ? 1e9 : 0;
        hw.register_file.bytes_per_pe = int64_t(1) << pick(0, 30);
        if (pick(0, 1)) hw.cores = CoresConfig{int(pick(1, 4096)), int(pick(1, 4096)), {1, 1, 1}};
    }
    return hw;
}

// Random groups of consecutive compute layers, every strategy and partition, random tiles.
Schedule randomSchedule(std::mt19937_64& rng, const Network& net, const Hardware& hw) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
    };
    Schedule s = defaultSchedule(net, hw);
    for (LayerId id : net.computeIds()) {
        const LayerDims d = layerDims(net, id);
        LayerSchedule& ls = s.layers[size_t(id)];
        if (pick(0, 1)) {
            ls.tile = {pick(1, std::max<int64_t>(1, d.DzPerGroup())), pick(1, d.Dy), pick(1, d.Dx),
                       pick(1, std::max<int64_t>(1, d.DiPerGroup()))};
            if (pick(0, 1)) ls.tile = {1, 1, 1, 1};
        }
    }
    s.groups.clear();
    const auto& ids = net.computeIds();
    for (size_t k = 0; k < ids.size();) {
        const size_t len = size_t(pick(1, 4));
        FusionGroup g;
        g.name = "g" + std::to_string(k);
        for (size_t j = k; j < std::min(ids.size(), k + len); ++j)
            g.layers.push_back(ids[j]);
        // Consecutive compute ids of these networks are connected through chains only when
        // nothing but concat lies between them; keep the group when it is valid.
        g.strategy = Strategy(pick(0, 2));
        g.partition.kind = pick(0, 1) ? PartitionKind::spatial : PartitionKind::temporal;
        g.weights_resident = pick(0, 1);
        if (pick(0, 2) == 0) g.out_tile = OutputTile{pick(1, 8), pick(1, 8)};
        bool valid = checkGroup(net, hw, g).empty();
        if (!valid) g.layers.resize(1);
        k += g.layers.size();
        s.groups.push_back(std::move(g));
    }
    normalize(s, net);
    return s;
}

} // namespace

class TstFigureLimits : public QObject {
    Q_OBJECT
  private slots:
    void checkedAndSaturatingHelpers() {
        constexpr int64_t M = std::numeric_limits<int64_t>::max();
        QCOMPARE(satMul(int64_t(1) << 32, int64_t(1) << 31), kSaturated); // 2^63
        QCOMPARE(satMul(int64_t(1) << 31, int64_t(1) << 31), int64_t(1) << 62);
        QCOMPARE(satMul(3, 5), int64_t(15));
        QCOMPARE(satMul(int64_t(1) << 40, int64_t(1) << 30), kSaturated);
        QCOMPARE(satAdd(M - 1, 1), M);
        QCOMPARE(satAdd(M, 5), kSaturated);
        QCOMPARE(satFromDouble(std::nan("")), kSaturated);
        QCOMPARE(satFromDouble(std::numeric_limits<double>::infinity()), kSaturated);
        QCOMPARE(satFromDouble(1e30), kSaturated);
        QCOMPARE(satFromDouble(9.2233720368547758e18), kSaturated); // 2^63 itself
        QCOMPARE(satFromDouble(-5), int64_t(0));
        QCOMPARE(satFromDouble(12.9), int64_t(12));
        QCOMPARE(ceilDiv(M, 2), M / 2 + 1); // (a + b − 1) / b would overflow
        QCOMPARE(ceilDiv(7, 2), int64_t(4));
        QCOMPARE(ceilDiv(0, 3), int64_t(0));
        QCOMPARE(bitsToBytes(M), M / 8 + 1); // (bits + 7) / 8 would overflow
        QCOMPARE(bitsToBytes(16), int64_t(2));
        QCOMPARE(bitsToBytes(17), int64_t(3));
        const CheckedInt ok = CheckedInt(1 << 20) * (1 << 20) + 5;
        QVERIFY(ok.ok());
        QCOMPARE(ok.value(), (int64_t(1) << 40) + 5);
        const CheckedInt over = CheckedInt(int64_t(1) << 40) * (int64_t(1) << 30) + 1;
        QVERIFY(!over.ok());
        QVERIFY(over > 0); // an overflowed value is above every limit
        QVERIFY(!(over <= M));
    }

    // Issue 17: `macs: 0`, `dram_accesses: -1099511627776`, `fits: true` before; now refused
    // at the out_channels that makes the figures too large.
    void hugeOneByOneConvIsRefusedAtOutChannels() {
        const std::string yaml = "format: layerfuse/network@1\n"
                                 "name: huge\n"
                                 "inputs:\n"
                                 "  - {name: x, channels: 16777216, height: 256, width: 256}\n"
                                 "layers:\n"
                                 "  - name: c\n"
                                 "    type: conv\n"
                                 "    inputs: [x]\n"
                                 "    out_channels: 16777216\n"
                                 "    kernel: 1\n";
        const auto r = test::tryNetwork(yaml);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().line, 9);
        QCOMPARE(r.error().column, 19);
        QVERIFY2(r.error().message.find("out_channels 16777216") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY(r.error().message.find("2^52") != std::string::npos);
    }

    // Issue 17: a 2^24×2^20×2^20 input was accepted and a group's buffer_bytes was −1.15e18.
    void hugeInputIsRefusedAtItsLargestDimension() {
        const std::string yaml =
            test::netYaml({"{name: x, channels: 16777216, height: 1048576, width: 1048576}"},
                          {"{name: c, type: conv, inputs: [x], out_channels: 1, kernel: 1}"});
        const auto r = test::tryNetwork(yaml);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().line, 4);
        QVERIFY2(r.error().message.find("2^40 elements") != std::string::npos,
                 r.error().message.c_str());
        // The column of `channels:`'s value (the largest of the three).
        const std::string line4 =
            "  - {name: x, channels: 16777216, height: 1048576, width: 1048576}";
        QCOMPARE(r.error().column, int(line4.find("16777216")) + 1);
    }

    // The same layer with a large kernel instead of many channels: the kernel is blamed;
    // with both moderate but a huge input, the layer's inputs are.
    void blameFollowsTheCause() {
        {
            const auto r = test::tryNetwork(test::netYaml(
                {"{name: x, channels: 65536, height: 4096, width: 4096}"},
                {"{name: c, type: conv, inputs: [x], out_channels: 16, kernel: 4095, padding: "
                 "2047}"}));
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find("kernel 4095x4095") != std::string::npos,
                     r.error().message.c_str());
        }
        {
            const auto r = test::tryNetwork(test::netYaml(
                {"{name: x, channels: 1048576, height: 1024, width: 1024}"},
                {"{name: c, type: conv, inputs: [x], out_channels: 1048576, kernel: 1}",
                 "{name: d, type: conv, inputs: [c], out_channels: 1, kernel: 1}"}));
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.find("layer 'c': out_channels") != std::string::npos,
                     r.error().message.c_str());
        }
    }

    // Many layers each within the per-layer limit but beyond 2^56 together.
    void networkSumIsChecked() {
        std::string yaml = "format: layerfuse/network@1\nname: sum\ninputs:\n"
                           "  - {name: x, channels: 4096, height: 4096, width: 4096}\nlayers:\n";
        std::string prev = "x";
        for (int k = 0; k < 40; ++k) {
            const std::string nm = "c" + std::to_string(k);
            yaml += "  - {name: " + nm + ", type: conv, inputs: [" + prev +
                    "], out_channels: 4096, kernel: 1}\n";
            prev = nm;
        }
        const auto r = test::tryNetwork(yaml);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("2^56") != std::string::npos, r.error().message.c_str());
        QVERIFY(r.error().line > 5);
    }

    // The bound covers what the closed form computes: at the largest accepted layer the
    // figures stay exact (the per-layer check is what lets the closed form go unchecked).
    void boundCoversTheClosedForm() {
        std::mt19937_64 rng(7);
        int checked = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const auto r = test::tryNetwork(randomNetwork(rng, trial % 2 == 1));
            if (!r.ok()) continue;
            for (LayerId id : r->computeIds()) {
                const LayerDims d = layerDims(*r, id);
                const CheckedInt bound =
                    layerFigureBound(d, int64_t(r->layer(id).operandIds().size()));
                QVERIFY(bound <= FigureLimits::kPerLayer);
                for (int k = 0; k < 8; ++k) {
                    LayerSchedule s;
                    s.tile = {1 + int64_t(rng() % uint64_t(std::max<int64_t>(1, d.DzPerGroup()))),
                              1 + int64_t(rng() % uint64_t(d.Dy)),
                              1 + int64_t(rng() % uint64_t(d.Dx)),
                              1 + int64_t(rng() % uint64_t(std::max<int64_t>(1, d.DiPerGroup())))};
                    s.order = {Dim::z, Dim::y, Dim::x, Dim::i};
                    std::shuffle(s.order.begin(), s.order.end(), rng);
                    const Level lv = Level(rng() % 5);
                    s.store = {lv, lv, Level::tile};
                    s.compute = s.store;
                    for (bool fused : {false, true}) {
                        const CfLayerCost c = convFusionLayer(d, s, fused);
                        for (int64_t v : {c.acc_x, c.acc_w, c.accY(), c.macs, c.buf_x, c.buf_w,
                                          c.buf_y, c.vol_x, c.vol_w})
                            QVERIFY2(v >= 0 && v <= bound.value(),
                                     qPrintable(QString("layer %1: %2 > bound %3")
                                                    .arg(QString::fromStdString(r->layer(id).name))
                                                    .arg(v)
                                                    .arg(bound.value())));
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 1000);
    }

    // The property: random and extreme networks, hardware and schedules, every strategy and
    // partition — no figure negative, NaN or infinite; saturated figures are flagged.
    void noFigureIsEverNegativeOrNaN() {
        std::mt19937_64 rng(17);
        int evaluated = 0, refused = 0, saturated = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const bool extreme = trial % 3 != 0;
            const auto net = test::tryNetwork(randomNetwork(rng, extreme));
            if (!net.ok()) {
                QVERIFY2(net.error().line > 0, net.error().toString().c_str());
                ++refused;
                continue;
            }
            const Hardware hw = randomHardware(rng, extreme);
            for (int k = 0; k < 3; ++k) {
                const Schedule s =
                    k == 0 ? defaultSchedule(*net, hw) : randomSchedule(rng, *net, hw);
                const Metrics m = evaluate(*net, hw, s);
                const std::string bad = badFigure(m);
                QVERIFY2(bad.empty(), qPrintable(QString("trial %1.%2: %3")
                                                     .arg(trial)
                                                     .arg(k)
                                                     .arg(QString::fromStdString(bad))));
                if (anySaturatedTotal(m)) {
                    ++saturated;
                    QVERIFY2(m.totals.saturated, qPrintable(QString("trial %1").arg(trial)));
                }
                if (anyWarningSaysSaturated(m)) QVERIFY(m.totals.saturated);
                ++evaluated;
            }
            // The second single-layer engine on the default schedule of every layer.
            const Schedule def = defaultSchedule(*net, hw);
            for (LayerId id : net->computeIds()) {
                const auto nest =
                    stoutchininNest(layerDims(*net, id), def.layers[size_t(id)], false);
                if (!nest) continue;
                const StCost c = stoutchininCost(*nest);
                QVERIFY(c.t_in >= 0 && c.t_w >= 0 && c.t_o_acc >= 0 && c.t_o_final >= 0);
                QVERIFY(finiteNonNegative(c.bytes(hw.precision.act_bits, hw.precision.weight_bits,
                                                  hw.precision.psum_bits)));
            }
        }
        QVERIFY(evaluated > 300);
        QVERIFY(refused > 0);
        qInfo("%d evaluations, %d networks refused, %d saturated", evaluated, refused, saturated);
    }

    // The largest accepted single layer under batch 65536 and 64-bit precisions: exact per
    // image, saturated (and flagged) where the batch takes it beyond 2^63.
    void batchBeyond63BitsSaturatesAndSaysSo() {
        const Network net = test::networkFromYaml(test::netYaml(
            {"{name: x, channels: 1024, height: 4096, width: 4096}"},
            {"{name: c, type: conv, inputs: [x], out_channels: 1024, kernel: 3, padding: 1}"}));
        Hardware hw = test::bundledHardware("hwff-config-1");
        hw.batch = 65536;
        hw.precision = {64, 64, 64};
        const Metrics m = evaluate(net, hw, defaultSchedule(net, hw));
        QVERIFY2(badFigure(m).empty(), badFigure(m).c_str());
        QCOMPARE(m.totals.macs, kSaturated);
        QVERIFY(anyWarningSaysSaturated(m));
        QVERIFY(m.totals.saturated);
        hw.batch = 1;
        const Metrics one = evaluate(net, hw, defaultSchedule(net, hw));
        QCOMPARE(one.totals.macs, int64_t(4096) * 4096 * 1024 * 1024 * 9);
        QVERIFY(!anyWarningSaysSaturated(one));
        QVERIFY(!one.totals.saturated);
    }

    // A deep recompute chain with unit tiles: P_k grows ~9× per layer (ConvFusion §IV-E) and
    // passes 2^63 — saturated and flagged, never wrapped.
    void deepRecomputeChainSaturates() {
        std::string yaml = "format: layerfuse/network@1\nname: deep\ninputs:\n"
                           "  - {name: x, channels: 64, height: 1024, width: 1024}\nlayers:\n";
        std::string prev = "x";
        std::vector<std::string> names;
        for (int k = 0; k < 24; ++k) {
            const std::string nm = "c" + std::to_string(k);
            yaml += "  - {name: " + nm + ", type: conv, inputs: [" + prev +
                    "], out_channels: 64, kernel: 3, padding: 1}\n";
            prev = nm;
            names.push_back(nm);
        }
        const Network net = test::networkFromYaml(yaml);
        const Hardware hw = test::bundledHardware("hwff-config-1");
        Schedule s = defaultSchedule(net, hw);
        std::vector<LayerId> ids;
        for (const std::string& nm : names) {
            ids.push_back(net.find(nm));
            s.layers[size_t(ids.back())].tile = {1, 1, 1, 1};
        }
        s = test::fused(s, net, ids);
        const Metrics m = evaluate(net, hw, s);
        QVERIFY2(badFigure(m).empty(), badFigure(m).c_str());
        QCOMPARE(m.totals.macs, kSaturated);
        QVERIFY(anyWarningSaysSaturated(m));
    }

    // The Optimus DP over a network at the limits: costs stay finite and non-negative.
    void optimusDpAtTheLimits() {
        const Network net = test::networkFromYaml(test::netYaml(
            {"{name: x, channels: 1024, height: 2048, width: 2048}"},
            {"{name: a, type: conv, inputs: [x], out_channels: 1024, kernel: 3, padding: 1}",
             "{name: b, type: conv, inputs: [a], out_channels: 1024, kernel: 3, padding: 1}",
             "{name: c, type: add, inputs: [a, b]}"}));
        Hardware hw = test::bundledHardware("optimus-default");
        hw.buffer.bytes = 1;
        const OptimusFuserResult r = optimusFuse(net, hw, {});
        QVERIFY(std::isfinite(r.cost) && r.cost >= 0);
        QVERIFY2(badFigure(evaluate(net, hw, r.schedule)).empty(), "optimus schedule");
    }
};

QTEST_GUILESS_MAIN(TstFigureLimits)
#include "tst_figure_limits.moc"
