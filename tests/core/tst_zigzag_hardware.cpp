// ZigZag accelerators as LayerFuse hardware (io/zigzag_hardware_yaml.h): a hand-written
// Eyeriss-like accelerator mapped level by level, the export of a preset read back, the
// file dispatch behind --hardware, and FILE:LINE:COLUMN for what LayerFuse cannot take.
#include "test_support.h"

#include "io/exports/zigzag_accelerator.h"
#include "io/zigzag_hardware_yaml.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <string>

using namespace lf;

namespace {

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

// Per-PE register files for inputs (8-bit ports: one element per access), weights and
// partial sums (24-bit), a 64 KiB weight buffer beside a 1 MiB buffer for inputs and
// outputs, DRAM with a 64-bit port; a 14 x 12 array.
const char* kEyerissLike = R"(name: small_eyeriss
memories:
  rf_in:
    size: 96
    r_cost: 1.0
    w_cost: 1.5
    area: 0
    latency: 1
    operands: [I1]
    ports:
      - {name: r_port_1, type: read, bandwidth_min: 8, bandwidth_max: 8, allocation: ["I1, tl"]}
      - {name: w_port_1, type: write, bandwidth_min: 8, bandwidth_max: 8, allocation: ["I1, fh"]}
    served_dimensions: []
  rf_w:
    size: 1600
    r_cost: 1.0
    w_cost: 1.0
    area: 0
    latency: 1
    operands: [I2]
    ports:
      - {name: r_port_1, type: read, bandwidth_min: 8, bandwidth_max: 8, allocation: ["I2, tl"]}
      - {name: w_port_1, type: write, bandwidth_min: 8, bandwidth_max: 8, allocation: ["I2, fh"]}
    served_dimensions: []
  rf_out:
    size: 384
    r_cost: 2.0
    w_cost: 2.0
    area: 0
    latency: 1
    operands: [O]
    ports:
      - {name: r_port_1, type: read, bandwidth_min: 24, bandwidth_max: 24, allocation: ["O, tl", "O, th"]}
      - {name: w_port_1, type: write, bandwidth_min: 24, bandwidth_max: 24, allocation: ["O, fh", "O, fl"]}
    served_dimensions: []
  sram_w:
    size: 524288
    r_cost: 20
    w_cost: 28
    area: 0
    latency: 1
    operands: [I2]
    ports:
      - {name: r_port_1, type: read, bandwidth_min: 128, bandwidth_max: 128, allocation: ["I2, tl"]}
      - {name: w_port_1, type: write, bandwidth_min: 128, bandwidth_max: 128, allocation: ["I2, fh"]}
    served_dimensions: [D1, D2]
  sram_io:
    size: 8388608
    r_cost: 100
    w_cost: 140
    area: 0
    latency: 1
    operands: [I1, O]
    ports:
      - {name: rw_port_1, type: read_write, bandwidth_min: 384, bandwidth_max: 384, allocation: ["I1, fh", "I1, tl", "O, fh", "O, tl", "O, fl", "O, th"]}
    served_dimensions: [D1, D2]
  dram:
    size: 10000000000
    r_cost: 1000
    w_cost: 1000
    area: 0
    latency: 1
    operands: [I1, I2, O]
    ports:
      - {name: rw_port_1, type: read_write, bandwidth_min: 64, bandwidth_max: 64, allocation: ["I1, fh", "I1, tl", "I2, fh", "I2, tl", "O, fh", "O, tl", "O, fl", "O, th"]}
    served_dimensions: [D1, D2]
operational_array:
  unit_energy: 0.5
  unit_area: 0.1
  dimensions: [D1, D2]
  sizes: [14, 12]
dataflows:
  D1: ["K, 14"]
  D2: ["C, 12"]
)";

HardwareImport importOk(const std::string& text) {
    auto r = readZigZagAcceleratorYaml(text, "acc.yaml");
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

std::string importError(const std::string& text) {
    auto r = readZigZagAcceleratorYaml(text, "acc.yaml");
    if (r) throw std::runtime_error("import unexpectedly succeeded");
    return r.error().toString();
}

// kEyerissLike with `from` replaced by `to` (once).
std::string edited(const std::string& from, const std::string& to) {
    std::string s = kEyerissLike;
    const size_t at = s.find(from);
    if (at == std::string::npos) throw std::runtime_error("no '" + from + "' to edit");
    return s.replace(at, from.size(), to);
}

// 1-based line and column of the first occurrence of `what` in kEyerissLike-derived text.
std::string where(const std::string& text, const std::string& what) {
    const size_t at = text.find(what);
    const size_t lineStart = text.rfind('\n', at);
    const int line = int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
    const size_t col = at - (lineStart == std::string::npos ? 0 : lineStart + 1) + 1;
    return "acc.yaml:" + std::to_string(line) + ":" + std::to_string(col) + ": ";
}

} // namespace

class TestZigZagHardware : public QObject {
    Q_OBJECT

  private slots:
    // Level by level:
    //   DRAM: 64-bit port at 1000 pJ per access = 15.625 pJ per bit; 8-bit words: 125 pJ,
    //         8 B per cycle;
    //   buffer: sram_w and sram_io sit directly below DRAM: (524288 + 8388608) / 8 = 1114112 B;
    //         its energy is the largest's, sram_io: (100 + 140) / 2 / 384 · 8 = 2.5 pJ;
    //   register file: 12 B inputs + 200 B weights + 48 B partial sums = 260 B per PE; per
    //         element (rf_in 1.25 pJ per 8 bits, rf_w 1.0, rf_out 2.0 per 24 bits), accesses
    //         per MAC weighted 1, 1, 2: (1.25 + 1.0 + 2·2.0) / 4 = 1.5625 pJ;
    //   widths from the one-element ports: 8 / 8 / 24; array 14 x 12, MAC 0.5 pJ;
    //   dataflows K on D1, C on D2: "oc|ic".
    void eyerissLikeLevelByLevel() {
        const HardwareImport imp = importOk(kEyerissLike);
        const Hardware& hw = imp.hw;
        QCOMPARE(hw.name, std::string("small_eyeriss"));
        QCOMPARE(hw.precision.act_bits, 8);
        QCOMPARE(hw.precision.weight_bits, 8);
        QCOMPARE(hw.precision.psum_bits, 24);
        QVERIFY(close(hw.dram.energy_pj_per_word, 125.0));
        QVERIFY(close(hw.dram.bandwidth_bytes_per_cycle, 8.0));
        QCOMPARE(hw.buffer.bytes, int64_t(1114112));
        QVERIFY(close(hw.buffer.energy.pj_per_access, 2.5));
        QCOMPARE(hw.register_file.input, int64_t(12));
        QCOMPARE(hw.register_file.weight, int64_t(200));
        QCOMPARE(hw.register_file.psum, int64_t(48));
        QCOMPARE(hw.register_file.bytes_per_pe, int64_t(260));
        QVERIFY(close(hw.register_file.pj_per_access, 1.5625));
        QCOMPARE(hw.pe_array.cols, 14);
        QCOMPARE(hw.pe_array.rows, 12);
        QVERIFY(close(hw.mac_pj, 0.5));
        QCOMPARE(toString(hw.pe_array.dataflow), std::string("oc|ic"));
        bool buffers = false;
        for (const std::string& n : imp.notes)
            buffers = buffers || n.find("the buffer is 2 memories together") == 0;
        QVERIFY(buffers);
    }

    // A preset exported for ZigZag reads back with the same array, memories and energies
    // (8-bit hwff-config-1; the 68 B of each PE's register file outside its sections are not
    // exported, so the register file is the sections' 444 B).
    void exportedPresetReadsBack() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const HardwareImport imp = importOk(zigzagAcceleratorYaml(hw, 0));
        const Hardware& b = imp.hw;
        QCOMPARE(b.precision, hw.precision);
        QCOMPARE(b.pe_array.cols, hw.pe_array.cols);
        QCOMPARE(b.pe_array.rows, hw.pe_array.rows);
        QVERIFY(close(b.mac_pj, hw.mac_pj));
        QVERIFY(close(b.dram.energy_pj_per_word, hw.dram.energy_pj_per_word));
        QVERIFY(close(b.dram.bandwidth_bytes_per_cycle, hw.dram.bandwidth_bytes_per_cycle));
        QCOMPARE(b.buffer.bytes, hw.buffer.bytes);
        QVERIFY(close(b.buffer.energy.pj_per_access, hw.buffer.energy.pj_per_access));
        QCOMPARE(b.register_file.weight, hw.register_file.weight);
        QCOMPARE(b.register_file.input, hw.register_file.input);
        QCOMPARE(b.register_file.psum, hw.register_file.psum);
        QCOMPARE(b.register_file.bytes_per_pe, int64_t(444));
    }

    // importHardwareFile reads either kind of file; only a ZigZag accelerator has notes.
    void eitherKindOfFile() {
        QTemporaryDir dir;
        const std::string zz = dir.filePath("acc.yaml").toStdString();
        std::ofstream(zz) << kEyerissLike;
        auto a = importHardwareFile(zz);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().toString().c_str());
        QCOMPARE(a->hw.name, std::string("small_eyeriss"));
        QCOMPARE(a->notes, importOk(kEyerissLike).notes);
        QVERIFY(!a->notes.empty());
        const std::string lf = dir.filePath("x.hw.yaml").toStdString();
        std::ofstream(lf) << "format: layerfuse/hardware@1\nname: mine\n";
        auto b = importHardwareFile(lf);
        QVERIFY(b.ok());
        QCOMPARE(b->hw.name, std::string("mine"));
        QVERIFY(b->notes.empty());
        auto missing = importHardwareFile(dir.filePath("none.yaml").toStdString());
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().toString().find("none.yaml") != std::string::npos);
        QVERIFY(looksLikeZigZagAccelerator(kEyerissLike));
        QVERIFY(!looksLikeZigZagAccelerator("format: layerfuse/hardware@1\nname: mine\n"));
    }

    // What LayerFuse cannot take, at the offending key.
    void unsupportedFieldsAtTheirPosition() {
        struct Case {
            std::string text, at, message;
        };
        const std::string imc = edited("  unit_area: 0.1\n", "  unit_area: 0.1\n  is_imc: true\n");
        const std::string cacti =
            edited("    r_cost: 20\n    w_cost: 28\n", "    auto_cost_extraction: true\n");
        const std::string unknown =
            edited("  rf_w:\n    size: 1600\n", "  rf_w:\n    sise: 1600\n");
        const std::string alloc = edited("\"I2, tl\"]}", "\"I2, to\"]}");
        const std::string top = edited("    operands: [I1, I2, O]\n", "    operands: [I1, I2]\n");
        const std::string operand = edited("    operands: [I1]\n", "    operands: [I3]\n");
        const std::string flow = edited("  D2: [\"C, 12\"]", "  D2: [\"Z, 12\"]");
        const Case cases[] = {
            {imc, "true", "in-memory computing arrays are not supported"},
            {cacti, "true", "costs extracted with CACTI are not supported"},
            {unknown, "sise", "unknown key 'sise'"},
            {alloc, "\"I2, to\"", "allocation must be"},
            {operand, "I3", "operand must be I1 (inputs), I2 (weights) or O (outputs)"},
            {flow, "\"Z, 12\"", "dataflow dim 'Z' has no LayerFuse loop dim"},
        };
        for (const Case& c : cases) {
            const std::string err = importError(c.text);
            QVERIFY2(err.rfind(where(c.text, c.at), 0) == 0, err.c_str());
            QVERIFY2(err.find(c.message) != std::string::npos, err.c_str());
        }
        // A top memory without O: reported at the memory O ends in.
        const std::string err = importError(top);
        QVERIFY2(err.find("the top memory of O is sram_io") != std::string::npos, err.c_str());
        QVERIFY2(err.rfind("acc.yaml:", 0) == 0, err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestZigZagHardware)
#include "tst_zigzag_hardware.moc"
