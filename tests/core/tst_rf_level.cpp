// The register-file level on a PE array (models/rf_level.h, docs/model-notes.md "Register
// files of a PE array"): per-dim spatial unrolling against the array model's cycles, hand-
// computed traffic on small layers, the per-PE reading against the pooled one it replaced
// (a PE reuses only what its own register file holds), and the bounds every capacity keeps.
#include "test_support.h"

#include "models/evaluate.h"
#include "models/rf_level.h"
#include "models/tso_latency.h"
#include "network/dims.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace lf;

namespace {

const std::array<Dim, 4> kZyxi{Dim::z, Dim::y, Dim::x, Dim::i};

LayerDims conv(int64_t Dx, int64_t Dy, int64_t Dz, int64_t Di, int64_t Kx, int64_t Ky) {
    LayerDims d;
    d.Dx = Dx;
    d.Dy = Dy;
    d.Dz = Dz;
    d.Di = Di;
    d.Dm = d.Em = Kx;
    d.Dn = d.En = Ky;
    d.in_w = Dx + Kx - 1;
    d.in_h = Dy + Ky - 1;
    return d;
}

RfCapacity sections(int64_t w, int64_t x, int64_t y) {
    RfCapacity c;
    c.weight_bits = w;
    c.input_bits = x;
    c.psum_bits = y;
    return c;
}

// Each weight, each input inside the windows and each output once.
int64_t compulsory(const LayerDims& d) {
    return d.Dz * d.DiPerGroup() * d.Dm * d.Dn + d.Di * d.in_w * d.in_h + d.Dx * d.Dy * d.Dz;
}

const char* kRow = R"(format: layerfuse/network@1
name: row
inputs:
  - {name: x, channels: 1, height: 1, width: 6}
layers:
  - {name: c, type: conv, inputs: [x], out_channels: 1, kernel: [1, 3]}
)";

} // namespace

class TestRfLevel : public QObject {
    Q_OBJECT

  private slots:
    // Each axis unrolls its dims by the factors that minimise Π ⌈E/u⌉ within the axis. ky·ic
    // = 3·64 on 32 columns: (1, 32) takes 3·2 = 6 passes, as the array model's packing
    // ⌈192/32⌉ = 6 ((3, 10) would take 7). oy·oc = 56·64 on 16 rows: every split of 16 PEs
    // takes 224 passes; the tie goes to the larger first factor, (8, 2).
    void axisFactors() {
        QCOMPARE(axisUnrolling({3, 64}, 32), (std::vector<int64_t>{1, 32}));
        QCOMPARE(axisUnrolling({56, 64}, 16), (std::vector<int64_t>{8, 2}));
        QCOMPARE(axisUnrolling({7}, 32), (std::vector<int64_t>{7}));
        QCOMPARE(axisUnrolling({100}, 32), (std::vector<int64_t>{25})); // 4 passes, 25 PEs
        QCOMPARE(axisUnrolling({}, 32), (std::vector<int64_t>{}));
    }

    // The unrolling gives the array model's cycles (docs/models) for every conv of ResNet-18
    // and MobileNetV2 on the row-stationary hwff-config-1 and on optimus-default's ox|oc.
    void unrollingGivesTheArrayModelsCycles() {
        for (const char* hwName : {"hwff-config-1", "optimus-default"}) {
            const Hardware hw = lf::test::bundledHardware(hwName);
            for (const char* netName : {"resnet18", "mobilenetv2"}) {
                const Network net = lf::test::bundledNetwork(netName);
                for (LayerId id : net.computeIds()) {
                    const LayerDims d = layerDims(net, id);
                    const ArrayUnroll u = arrayUnroll(d, hw.pe_array.dataflow, hw.pe_array.cols,
                                                      hw.pe_array.rows, hw.batch);
                    int64_t cycles = d.weights ? d.G : 1;
                    for (LoopDim l : {LoopDim::ox, LoopDim::oy, LoopDim::oc, LoopDim::ic,
                                      LoopDim::kx, LoopDim::ky, LoopDim::b}) {
                        const int64_t e = loopDimExtent(l, d, hw.batch);
                        cycles *= (e + u.u[size_t(l)] - 1) / u.u[size_t(l)];
                    }
                    QVERIFY(u.pes() <= hw.peCount());
                    QCOMPARE(cycles,
                             arrayComputeCycles(d, net.layer(id).type, hw.pe_array.dataflow,
                                                hw.pe_array.cols, hw.pe_array.rows, 1, hw.batch));
                }
            }
        }
    }

    // One PE, a row of 4 outputs with a 1x3 kernel (6 inputs), 16-bit everything; register
    // file sections of 1 weight, 3 inputs, 1 partial sum. The PE's loops, innermost first:
    // FX 3 then OX 4 (OX split into RF tiles r · 4/r).
    //   W: one weight fits, FX 3 does not: every MAC reads its weight: 12.
    //   X: the 3-input window of FX fits, adding an output column (4 inputs) does not: a
    //      window per output: 4 · 3 = 12.
    //   Y: FX does not change the output (it stays), OX does: each output written once: 4.
    // With room for everything: the compulsory 3 + 6 + 4 = 13.
    void tinyRegisterFileOnOnePe() {
        const LayerDims d = conv(4, 1, 1, 1, 3, 1);
        const ArrayUnroll one;
        const Precision p{16, 16, 16};
        const RfLevel small = rfLevel(d, one, sections(16, 48, 16), p, kZyxi);
        QCOMPARE(small.by[size_t(Arr::W)], int64_t(12));
        QCOMPARE(small.by[size_t(Arr::X)], int64_t(12));
        QCOMPARE(small.by[size_t(Arr::Y)], int64_t(4));
        QCOMPARE(small.traffic, int64_t(28));
        const RfLevel large = rfLevel(d, one, sections(1 << 10, 1 << 10, 1 << 10), p, kZyxi);
        QCOMPARE(large.traffic, compulsory(d));
        QCOMPARE(large.traffic, int64_t(13));
    }

    // The same row on two PEs, output columns unrolled (ox on the columns): each PE computes 2
    // outputs, its RF (3 weights, 4 inputs, 2 psums) holds its whole share.
    //   W: both PEs use the same 3 weights, read once: 3.
    //   X: each PE's window of (2−1)+3 = 4 inputs; the PEs differ in ox, so each gets its own
    //      (the unique count of ZigZag's spatial mapping, without the shared halo): 8.
    //   Y: 2 outputs per PE, each once: 4.
    // The pooled reading it replaced — both register files as one 2·(3+4+2)-element store —
    // counted the compulsory 13: one PE cannot use the other's inputs.
    void twoPesEachWithItsOwnRegisterFile() {
        const LayerDims d = conv(4, 1, 1, 1, 3, 1);
        ArrayUnroll u;
        u.u[size_t(LoopDim::ox)] = 2;
        u.cols = {LoopDim::ox};
        const RfLevel r = rfLevel(d, u, sections(48, 64, 32), Precision{16, 16, 16}, kZyxi);
        QCOMPARE(r.by[size_t(Arr::W)], int64_t(3));
        QCOMPARE(r.by[size_t(Arr::X)], int64_t(8));
        QCOMPARE(r.by[size_t(Arr::Y)], int64_t(4));
        QCOMPARE(r.traffic, int64_t(15));
        QVERIFY(r.traffic > compulsory(d));

        // Through evaluate: a 2 x 1 array with these sections; DRAM moves the compulsory 13
        // words, the buffer 13 + 15 accesses.
        Hardware hw;
        hw.precision = {16, 16, 16};
        hw.pe_array.cols = 2;
        hw.pe_array.rows = 1;
        hw.pe_array.dataflow = *parseDataflow("ox|oc");
        hw.register_file = {18, 6, 8, 4, 0.5};
        hw.buffer.energy.pj_per_access = 3.0;
        hw.dram.energy_pj_per_word = 100.0;
        hw.mac_pj = 1.0;
        const Network net = test::networkFromYaml(kRow);
        const Metrics m = evaluate(net, hw, defaultSchedule(net, hw));
        QCOMPARE(m.layers[0].sram_rf_traffic, int64_t(15));
        QCOMPARE(m.totals.dram_accesses, int64_t(13));
        QCOMPARE(m.totals.energy.sram, (13 + 15) * 3.0);
        QCOMPARE(m.totals.energy.rf, 4 * 12 * 0.5);
        QCOMPARE(m.totals.energy.dram, 13 * 100.0);
    }

    // Inputs several PEs share are read once: output channels unrolled (oc) send every PE the
    // same window. 2 outputs channels of the 1x3 row, one per PE: X = 6 (not 12), W = 2 · 3,
    // Y = 2 · 4.
    void inputsSharedAcrossOutputChannels() {
        const LayerDims d = conv(4, 1, 2, 1, 3, 1);
        ArrayUnroll u;
        u.u[size_t(LoopDim::oc)] = 2;
        u.cols = {LoopDim::oc};
        const RfLevel r =
            rfLevel(d, u, sections(1 << 10, 1 << 10, 1 << 10), Precision{16, 16, 16}, kZyxi);
        QCOMPARE(r.by[size_t(Arr::X)], int64_t(6));
        QCOMPARE(r.by[size_t(Arr::W)], int64_t(6));
        QCOMPARE(r.by[size_t(Arr::Y)], int64_t(8));
    }

    // Partial sums: 4 input channels, one output; register files of one weight and one input.
    // With a psum register file the output stays in it while C turns (C does not change it)
    // and leaves once, complete, at act_bits. Without one the buffer accumulates: the output
    // is written 4 times and read back 3 times, at psum_bits — with 8-bit activations and
    // 32-bit partial sums each such access is 4 words.
    void partialSumsAreWiderWords() {
        const LayerDims d = conv(1, 1, 1, 4, 1, 1);
        const ArrayUnroll one;
        const Precision p{8, 8, 32};
        const RfLevel held = rfLevel(d, one, sections(8, 8, 32), p, kZyxi);
        QCOMPARE(held.by[size_t(Arr::Y)], int64_t(1));
        QCOMPARE(held.by[size_t(Arr::X)], int64_t(4));
        QCOMPARE(held.by[size_t(Arr::W)], int64_t(4));
        QCOMPARE(held.words, 4.0 + 4.0 + 1.0);
        const RfLevel spilled = rfLevel(d, one, sections(8, 8, 0), p, kZyxi);
        QCOMPARE(spilled.by[size_t(Arr::Y)], int64_t(4 + 3));
        QCOMPARE(spilled.words, 4.0 + 4.0 + 7 * 4.0);
    }

    // For random small layers and arrays: never below the compulsory traffic of a single
    // PE's view (each array at least once); never more with more register file; the
    // compulsory traffic on one PE once everything fits.
    void boundsOverCapacity() {
        std::mt19937 rng(11);
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        const Precision p{16, 16, 16};
        for (int trial = 0; trial < 40; ++trial) {
            const int64_t K = std::array<int, 3>{1, 3, 5}[size_t(pick(0, 2))];
            const LayerDims d = conv(pick(1, 10), pick(1, 10), pick(1, 8), pick(1, 8), K, K);
            ArrayUnroll u;
            u.u[size_t(LoopDim::oc)] = std::min<int64_t>(d.Dz, pick(1, 3));
            u.u[size_t(LoopDim::oy)] = std::min<int64_t>(d.Dy, pick(1, 3));
            const int64_t floor = d.Dz * d.Di * K * K + d.Dx * d.Dy * d.Dz;
            double last = std::numeric_limits<double>::infinity();
            for (int k = 4; k <= 16; k += 2) {
                const int64_t bits = int64_t(1) << k;
                const RfLevel r = rfLevel(d, u, sections(bits, bits, bits), p, kZyxi);
                QVERIFY2(r.traffic >= floor,
                         qPrintable(QString("trial %1 2^%2").arg(trial).arg(k)));
                QVERIFY2(r.words <= last + 1e-9, qPrintable(QString("trial %1 2^%2: %3 > %4")
                                                                .arg(trial)
                                                                .arg(k)
                                                                .arg(r.words)
                                                                .arg(last)));
                last = r.words;
            }
            const RfLevel all =
                rfLevel(d, ArrayUnroll{}, sections(1 << 20, 1 << 20, 1 << 20), p, kZyxi);
            QCOMPARE(all.traffic, compulsory(d));
        }
    }

    // One shared pool (no sections): the arrays' runs are chosen together within it, never
    // worse than the same bits split in three equal sections.
    void sharedPoolAtLeastAsGoodAsSections() {
        const LayerDims d = conv(8, 8, 8, 8, 3, 3);
        const Precision p{16, 16, 16};
        ArrayUnroll u;
        u.u[size_t(LoopDim::oc)] = 4;
        for (int64_t bytes : {16, 64, 256}) {
            RfCapacity pool;
            pool.shared = true;
            pool.shared_bits = bytes * 8 * 3;
            const RfLevel shared = rfLevel(d, u, pool, p, kZyxi);
            const RfLevel split =
                rfLevel(d, u, sections(bytes * 8, bytes * 8, bytes * 8), p, kZyxi);
            QVERIFY2(shared.words <= split.words, qPrintable(QString::number(bytes)));
        }
    }
};

QTEST_GUILESS_MAIN(TestRfLevel)
#include "tst_rf_level.moc"
