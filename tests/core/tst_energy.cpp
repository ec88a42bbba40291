// Energy (docs/models/convfusion.md) against the papers' numbers and hand computation: ConvFusion's
// 40 nm SRAM fit E_SRAM(s) = 0.012·√s + 4.61 and its banked model
// E_SRAM(min(s, 16e4))·(1 + 3.05e-3·log2⌈s/16e4⌉) (ConvFusion §VII-A/B), the access counts with
// and without a register file (ConvFusion §VII-A: SRAM = 4·MACs + DRAM; ConvFusion §VII-C: RF =
// 4·MACs, SRAM = DRAM + SRAM↔RF; the register-file level itself is tested in tst_rf_level),
// traffic counted in words of act_bits, and HW-Flow-Fusion's HWFF Table 4 presets through
// evaluate's energy split.

#include "examples/bundled.h"
#include "models/energy.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>

using namespace lf;

namespace {

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

#define QCLOSE(a, b)                                                                               \
    QVERIFY2(close((a), (b)),                                                                      \
             qPrintable(QString("%1 != %2").arg((a), 0, 'g', 17).arg((b), 0, 'g', 17)))

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

    // The counts of ConvFusion §VII-A and ConvFusion §VII-C. 1000 MACs, 300 DRAM words, SRAM of
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

    // HWFF Table 4 through evaluate: the small conv with whole-layer tiles moves
    // 544 words from DRAM. On the 32 x 16 row-stationary array ky·ic = 3·4 sit on 12 columns
    // and oy·oc = 6·2 on 12 rows, so a PE computes 2 output channels of one 6-wide output row
    // with one kernel row of one input channel: its register file (384 weights, 24 inputs, 9
    // partial sums) holds its 6 weights, its 8-input row and the 6 outputs of one channel
    // until they are complete: every array crosses once, SRAM↔RF = 256 + 144 + 144 = 544
    // (models/rf_level.h). RF energy is folded into e_mac (pj 0).
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

    // Traffic in words of act_bits: 8-bit activations, 16-bit weights, 32-bit partial sums:
    // 10 inputs + 20 outputs + 5 weights · 2 + 3 partial sums · 4 = 52 words.
    void trafficInWords() {
        Traffic t;
        t.input = 10;
        t.output = 20;
        t.weight = 5;
        t.psum = 3;
        QCLOSE(trafficWords(t, Precision{8, 16, 32}), 52.0);
        QCLOSE(trafficWords(t, Precision{16, 16, 16}), 38.0);
    }
};

QTEST_GUILESS_MAIN(TstEnergy)
#include "tst_energy.moc"
