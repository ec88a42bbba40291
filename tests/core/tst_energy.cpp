// Energy (docs/models/convfusion.md) against the papers' numbers and hand computation: ConvFusion's
// 40 nm SRAM fit E_SRAM(s) = 0.012·√s + 4.61 and its banked model
// E_SRAM(min(s, 16e4))·(1 + 3.05e-3·log2⌈s/16e4⌉) (ConvFusion §VII-A/B), the access counts with
// and without a register file (ConvFusion §VII-A: SRAM = 4·MACs + DRAM; ConvFusion §VII-C: RF =
// 4·MACs, SRAM = DRAM + SRAM↔RF), the RF-level traffic (never below the compulsory traffic, never
// worse with more capacity), and HW-Flow-Fusion's HWFF Table 4 presets through evaluate's energy
// split.

#include "examples/bundled.h"
#include "models/energy.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace lf;

namespace {

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

#define QCLOSE(a, b)                                                                               \
    QVERIFY2(close((a), (b)),                                                                      \
             qPrintable(QString("%1 != %2").arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

// Each input (inside the windows), each weight and each output moved exactly once.
int64_t compulsory(const LayerDims& d) {
    const int64_t in = d.Di * std::min(d.in_w, (d.Dx - 1) * d.Sx + d.Dm) *
                       std::min(d.in_h, (d.Dy - 1) * d.Sy + d.Dn);
    return in + d.Dz * d.Di * d.Dm * d.Dn + d.Dx * d.Dy * d.Dz;
}

// x 4×8×8 → 3×3 conv → 4×6×6: MACs 6·6·4·4·9 = 5184; input 256, weights 144, outputs 144.
const char* kSmall = R"(format: layerfuse/network@1
name: small
inputs:
  - {name: x, channels: 4, height: 8, width: 8}
layers:
  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: 3}
)";

// Whole-layer tiles, every array stored at the tile level: DRAM traffic is compulsory
// (256 + 144 + 144 = 544).
Schedule wholeLayer(const Network& net) {
    Schedule s;
    normalize(s, net);
    s.layers[size_t(net.find("c"))].tile = {4, 6, 6, 4};
    return s;
}

Hardware preset(const char* name) {
    auto r = loadBundledHardware(name);
    if (!r) qFatal("%s", r.error().toString().c_str());
    return *r;
}

} // namespace

class TstEnergy : public QObject {
    Q_OBJECT

  private slots:
    // ConvFusion §VII-A: E_SRAM(s) = 0.012·√s + 4.61 pJ, s in bits.
    void sramSqrtFit() {
        BufferEnergy e;
        e.model = SramEnergyModel::sqrt;
        e.a = 0.012;
        e.b = 4.61;
        QCLOSE(sramAccessPj(e, 0), 4.61);
        QCLOSE(sramAccessPj(e, 1e4), 0.012 * 100 + 4.61);   // 5.81
        QCLOSE(sramAccessPj(e, 16e4), 0.012 * 400 + 4.61);  // 9.41
        QCLOSE(sramAccessPj(e, 2.5e5), 0.012 * 500 + 4.61); // 10.61
        QCLOSE(sramAccessPj(e, 1e6), 0.012 * 1000 + 4.61);  // 16.61
        // The bundled ConvFusion preset carries the same fit.
        QCLOSE(sramAccessPj(preset("convfusion-40nm").buffer.energy, 1e4), 5.81);
    }

    // ConvFusion §VII-B: E_SRAM(min(s, 16e4))·(1 + 3.05e-3·log2⌈s/16e4⌉).
    void sramBankedFit() {
        BufferEnergy e;
        e.model = SramEnergyModel::banked;
        e.a = 0.012;
        e.b = 4.61;
        e.bank_bits = 16e4;
        e.bank_factor = 3.05e-3;
        QCLOSE(sramAccessPj(e, 1e4), 5.81);  // one bank, smaller than a bank
        QCLOSE(sramAccessPj(e, 16e4), 9.41); // exactly one bank
        QCLOSE(sramAccessPj(e, 16e4 + 1), 9.41 * (1 + 3.05e-3 * 1)); // ⌈…⌉ = 2 banks
        QCLOSE(sramAccessPj(e, 32e4), 9.41 * (1 + 3.05e-3 * 1));
        QCLOSE(sramAccessPj(e, 5e5), 9.41 * (1 + 3.05e-3 * 2));    // ⌈3.125⌉ = 4
        QCLOSE(sramAccessPj(e, 1.28e6), 9.41 * (1 + 3.05e-3 * 3)); // 8 banks
        // ⌈1e7/16e4⌉ = ⌈62.5⌉ = 63 banks: log2 63 ≈ 5.977.
        QCLOSE(sramAccessPj(e, 1e7), 9.41 * (1 + 3.05e-3 * std::log2(63.0)));
        QCLOSE(sramAccessPj(preset("convfusion-40nm-banked").buffer.energy, 32e4),
               9.41 * (1 + 3.05e-3));
        // Constant model.
        BufferEnergy c;
        c.model = SramEnergyModel::constant;
        c.pj_per_access = 26.7;
        QCLOSE(sramAccessPj(c, 123456), 26.7);
    }

    // The counts of ConvFusion §VII-A and ConvFusion §VII-C. 1000 MACs, 300 DRAM accesses, SRAM of
    // 1e4 bits (5.81 pJ).
    void energyWithAndWithoutRf() {
        Hardware hw;
        hw.mac_pj = 10.2;
        hw.dram.energy_pj_per_word = 1120;
        hw.buffer.energy.model = SramEnergyModel::sqrt;
        hw.register_file.bytes_per_pe = 0;
        EnergyCounts c;
        c.macs = 1000;
        c.dram = 300;
        c.sram_rf = 500; // ignored without an RF level
        Energy e = energyOf(c, hw, 1e4);
        QCLOSE(e.mac, 10200.0);
        QCLOSE(e.dram, 336000.0);
        QCLOSE(e.sram, (4 * 1000 + 300) * 5.81); // 3 reads + 1 write per MAC, + DRAM words
        QCLOSE(e.rf, 0.0);
        QCLOSE(e.total(), 10200.0 + 336000.0 + 4300 * 5.81);
        hw.register_file.bytes_per_pe = 128;
        hw.register_file.pj_per_access = 2.4;
        e = energyOf(c, hw, 1e4);
        QCLOSE(e.rf, 4 * 1000 * 2.4);
        QCLOSE(e.sram, (300 + 500) * 5.81);
        QCLOSE(e.mac, 10200.0);
        QCLOSE(e.dram, 336000.0);
    }

    // RF-level traffic: never below compulsory, non-increasing in capacity, compulsory once
    // the whole layer fits; 3 accesses per MAC when nothing fits.
    void rfLevelTrafficBounds() {
        const Precision p{16, 16, 16};
        const LayerDims d = test::squareConvDims(8, 8, 8, 4, 3);
        QCOMPARE(compulsory(d), int64_t(400 + 288 + 512));
        int64_t prev = std::numeric_limits<int64_t>::max();
        for (int k = 0; k <= 24; ++k) {
            const int64_t t = rfLevelTraffic(d, int64_t(1) << k, p);
            QVERIFY2(t >= compulsory(d), qPrintable(QString("capacity 2^%1: %2").arg(k).arg(t)));
            QVERIFY2(t <= prev,
                     qPrintable(QString("capacity 2^%1: %2 > %3").arg(k).arg(t).arg(prev)));
            prev = t;
        }
        QCOMPARE(rfLevelTraffic(d, int64_t(1) << 30, p), compulsory(d));
        // Nothing fits in 1 bit: every operand moves per use (unit tiles,
        // docs/models/convfusion.md): X and W once per MAC (8·8·8·4·9 = 18432 each), partial sums
        // 512·(2·4 − 1) = 3584.
        QCOMPARE(rfLevelTraffic(d, 1, p), int64_t(18432 + 18432 + 3584));

        std::mt19937 rng(7);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        for (int trial = 0; trial < 60; ++trial) {
            const int64_t K = std::array<int, 3>{1, 3, 5}[size_t(pick(0, 2))];
            const LayerDims r =
                test::squareConvDims(pick(1, 12), pick(1, 12), pick(1, 12), pick(1, 12), K,
                                     pick(1, int(std::min<int64_t>(2, K))));
            const int64_t comp = compulsory(r);
            int64_t last = std::numeric_limits<int64_t>::max();
            for (int k = 4; k <= 22; k += 2) {
                const int64_t t = rfLevelTraffic(r, int64_t(1) << k, p);
                const QString ctx = QString("D(x,y,z,i)=%1,%2,%3,%4 K=%5 S=%6 capacity 2^%7: %8 "
                                            "(before %9, compulsory %10)")
                                        .arg(r.Dx)
                                        .arg(r.Dy)
                                        .arg(r.Dz)
                                        .arg(r.Di)
                                        .arg(r.Dm)
                                        .arg(r.Sx)
                                        .arg(k)
                                        .arg(t)
                                        .arg(last)
                                        .arg(comp);
                QVERIFY2(t >= comp, qPrintable(ctx));
                QVERIFY2(t <= last, qPrintable(ctx));
                last = t;
            }
            QCOMPARE(rfLevelTraffic(r, int64_t(1) << 34, p), comp);
        }
    }

    // HWFF Table 4 through evaluate: the small conv with whole-layer tiles moves
    // 544 words from DRAM; its RF (512 B × 512 PEs or more) holds the whole layer, so the
    // SRAM↔RF traffic is also the compulsory 544; RF energy is folded into e_mac (pj 0).
    //   E = 5184·e_mac + (544 + 544)·e_buf + 544·200.
    void hwffPresetsThroughEvaluate() {
        const Network net = test::networkFromYaml(kSmall);
        const Schedule s = wholeLayer(net);
        struct Row {
            const char* name;
            double mac, buf;
        };
        const Row rows[] = {{"hwff-config-1", 1.75, 26.70}, {"hwff-config-2", 1.75, 78.16},
                            {"hwff-config-3", 1.75, 78.16}, {"hwff-config-4", 1.75, 78.16},
                            {"hwff-config-5", 1.79, 78.16}, {"hwff-config-6", 1.83, 78.16}};
        for (const Row& r : rows) {
            const Metrics m = evaluate(net, preset(r.name), s);
            QCOMPARE(m.totals.macs, int64_t(5184));
            QCOMPARE(m.totals.dram_accesses, int64_t(544));
            QCOMPARE(m.layers[0].sram_rf_traffic, int64_t(544));
            QCLOSE(m.totals.energy.mac, 5184 * r.mac);
            QCLOSE(m.totals.energy.rf, 0.0);
            QCLOSE(m.totals.energy.sram, 1088 * r.buf);
            QCLOSE(m.totals.energy.dram, 544 * 200.0);
            QCLOSE(m.totals.energy.total(), 5184 * r.mac + 1088 * r.buf + 108800.0);
        }
        // Config 1 in full: 9072 + 29049.6 + 108800 = 146921.6 pJ.
        QCLOSE(evaluate(net, preset("hwff-config-1"), s).totals.energy.total(), 146921.6);
    }

    // ConvFusion 40 nm (no RF): SRAM = 4·MACs + DRAM at E_SRAM(peak buffer bits). Whole-layer
    // tiles, i innermost: Buf_X = 4·8·8 = 256, Buf_W = 4·4·9 = 144, Buf_Y = 1 (outputs complete
    // inside the i loop, docs/models/convfusion.md) → (256 + 144 + 1)·16 = 6416 bits.
    void convFusionPresetThroughEvaluate() {
        const Network net = test::networkFromYaml(kSmall);
        const Schedule s = wholeLayer(net);
        const Metrics m = evaluate(net, preset("convfusion-40nm"), s);
        QCOMPARE(m.groups[0].buffer_bytes, int64_t(802));
        const double eSram = 0.012 * std::sqrt(6416.0) + 4.61;
        QCLOSE(m.totals.energy.mac, 5184 * 10.2);
        QCLOSE(m.totals.energy.dram, 544 * 1120.0);
        QCLOSE(m.totals.energy.sram, (4 * 5184 + 544) * eSram);
        QCLOSE(m.totals.energy.rf, 0.0);

        // The banked preset adds the 64×16b RF (2.4 pJ): RF = 4·MACs, SRAM = DRAM + SRAM↔RF;
        // 6416 bits is one bank, so E_banked = E_SRAM(6416).
        const Metrics b = evaluate(net, preset("convfusion-40nm-banked"), s);
        const int64_t rfTraffic = b.layers[0].sram_rf_traffic;
        QVERIFY(rfTraffic >= 544);
        QCLOSE(b.totals.energy.rf, 4 * 5184 * 2.4);
        QCLOSE(b.totals.energy.sram, double(544 + rfTraffic) * eSram);
        QCLOSE(b.totals.energy.dram, 544 * 1120.0);
    }
};

QTEST_GUILESS_MAIN(TstEnergy)
#include "tst_energy.moc"
