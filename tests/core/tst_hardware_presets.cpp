// The bundled hardware presets carry exactly the values of the papers' tables, load,
// validate and are canonical; and hardware YAML details (optional fields, dataflows).
// Expected numbers are typed in from the papers (seeds 000-004), table by table; values
// the papers leave open are checked against the rules written down in docs/presets.md.

#include "examples/bundled.h"
#include "hardware/hardware.h"
#include "io/hardware_yaml.h"

#include <QtTest>

#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace lf;

namespace {

constexpr int64_t kKiB = 1024; // the papers' "KB"/"kB" of on-chip memory read as 1024 B

std::optional<Hardware> loadPreset(const char* name, std::string* error) {
    auto r = loadBundledHardware(name);
    if (!r) {
        *error = r.error().toString();
        return std::nullopt;
    }
    return *r;
}

#define LOAD_PRESET(var, name)                                                                     \
    std::string var##Error;                                                                        \
    const std::optional<Hardware> var##Opt = loadPreset(name, &var##Error);                        \
    QVERIFY2(var##Opt.has_value(), var##Error.c_str());                                            \
    const Hardware& var = *var##Opt

bool near(double a, double b, double relTol) {
    return std::fabs(a - b) <= relTol * std::fabs(b);
}

// A DDR3 access: ~14 ns until the first byte of a burst (TSO §I, "a typical DDR3 memory").
double casNanoseconds(const Hardware& hw) {
    return hw.dram.cas_cycles * 1e3 / hw.frequency_mhz;
}

// Offset of the line starting with `key`, or npos.
size_t keyLine(const std::string& text, const std::string& key) {
    if (text.rfind(key, 0) == 0) return 0;
    const size_t at = text.find("\n" + key);
    return at == std::string::npos ? at : at + 1;
}

Dataflow df(std::vector<LoopDim> cols, std::vector<LoopDim> rows) {
    return {std::move(cols), std::move(rows)};
}

} // namespace

class TestHardwarePresets : public QObject {
    Q_OBJECT

  private slots:
    void everyPresetLoadsIsValidAndCanonical();
    void presetSetIsComplete();
    void defaultHardwareIsBundled();
    void optimusTable2();
    void optimusTable3_data();
    void optimusTable3();
    void hwFlowFusionTables3And4_data();
    void hwFlowFusionTables3And4();
    void tsoNmp();
    void convFusion40nm();
    void convFusion40nmBanked();
    void roundTripEveryOptionalField();
    void roundTripEnergyModels_data();
    void roundTripEnergyModels();
    void omittedKeysReadAsDefaults();
    void malformedDataflowIsRefusedWithPosition();
    void dataflowPresetsRoundTrip_data();
    void dataflowPresetsRoundTrip();
    void malformedDataflowsAreRejected_data();
    void malformedDataflowsAreRejected();
};

void TestHardwarePresets::everyPresetLoadsIsValidAndCanonical() {
    int count = 0;
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::hardware) continue;
        ++count;
        const std::string label = bundledFileLabel(f);
        auto hw = readHardwareYaml(f.text, label);
        QVERIFY2(hw.ok(), hw.ok() ? "" : hw.error().toString().c_str());
        const std::vector<std::string> problems = validate(*hw);
        QVERIFY2(problems.empty(),
                 (label + ": " + (problems.empty() ? "" : problems.front())).c_str());
        // Canonical: writing what was read gives back the file byte for byte.
        const std::string written = writeHardwareYaml(*hw);
        QVERIFY2(written == f.text,
                 (label + " is not canonical; canonical form:\n" + written).c_str());
        // Addressed by its short name everywhere: the `name:` field equals the file name.
        QCOMPARE(hw->name, std::string(f.name));
        QVERIFY2(!hw->description.empty(), (label + " has no description").c_str());
        QVERIFY2(hw->description.find('\n') == std::string::npos,
                 (label + ": description not one line").c_str());
    }
    QCOMPARE(count, 18);
}

void TestHardwarePresets::presetSetIsComplete() {
    const std::set<std::string> expected = {
        "optimus-default",  "optimus-config-1",      "optimus-config-2", "optimus-config-3",
        "optimus-config-4", "optimus-config-5",      "optimus-config-6", "optimus-config-7",
        "optimus-config-8", "hwff-config-1",         "hwff-config-2",    "hwff-config-3",
        "hwff-config-4",    "hwff-config-5",         "hwff-config-6",    "tso-nmp",
        "convfusion-40nm",  "convfusion-40nm-banked"};
    std::set<std::string> bundled;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == BundledKind::hardware) bundled.insert(f.name);
    QCOMPARE(bundled, expected);
}

void TestHardwarePresets::defaultHardwareIsBundled() {
    QCOMPARE(std::string(kDefaultHardware), std::string("hwff-config-1"));
    LOAD_PRESET(hw, std::string(kDefaultHardware).c_str());
    QCOMPARE(hw.name, std::string(kDefaultHardware));
}

// Optimus Table 2: on-chip buffer 128 KB, PE-array 16 × 16, RFs/PE 64 B,
// dataflow "O_w C_out" (parallel loops O_w and C_out), 16-bit fixed-point, 800 MHz;
// Optimus §7.1: batch 4 unless otherwise specified, DRAM DDR3-800.
void TestHardwarePresets::optimusTable2() {
    LOAD_PRESET(hw, "optimus-default");
    QCOMPARE(hw.buffer.bytes, 128 * kKiB);
    QCOMPARE(hw.pe_array.cols, 16);
    QCOMPARE(hw.pe_array.rows, 16);
    QCOMPARE(hw.register_file.bytes_per_pe, int64_t(64));
    QVERIFY2(hw.pe_array.dataflow == df({LoopDim::ox}, {LoopDim::oc}),
             toString(hw.pe_array.dataflow).c_str());
    QCOMPARE(hw.precision.act_bits, 16);
    QCOMPARE(hw.precision.weight_bits, 16);
    QCOMPARE(hw.frequency_mhz, 800.0);
    QCOMPARE(hw.batch, 4);
    QVERIFY(!hw.cores.has_value());
    // DDR3-800 on a 64-bit channel: 800 MT/s × 8 B = 6.4 GB/s; BL8 bursts of 8 × 8 B.
    QVERIFY(near(hw.dram.bandwidth_bytes_per_cycle * hw.frequency_mhz * 1e6, 6.4e9, 1e-9));
    QCOMPARE(hw.dram.burst_bytes, int64_t(64));
    QVERIFY(near(casNanoseconds(hw), 14.0, 1e-9));
    // Energies of the framework the paper uses (Eyeriss [9]), normalized to one MAC:
    // RF 1×, buffer 6×, DRAM 200×.
    QCOMPARE(hw.mac_pj, 1.0);
    QCOMPARE(hw.register_file.pj_per_access, 1.0);
    QCOMPARE(hw.buffer.energy.model, SramEnergyModel::constant);
    QCOMPARE(hw.buffer.energy.pj_per_access, 6.0);
    QCOMPARE(hw.dram.energy_pj_per_word, 200.0);
}

void TestHardwarePresets::optimusTable3_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("rfBytes");
    QTest::addColumn<int>("bufferKB");
    // Optimus Table 3: PE array / RFs per PE / on-chip buffer.
    QTest::newRow("config1") << "optimus-config-1" << 16 << 16 << 64 << 128;
    QTest::newRow("config2") << "optimus-config-2" << 32 << 32 << 64 << 128;
    QTest::newRow("config3") << "optimus-config-3" << 16 << 16 << 64 << 256;
    QTest::newRow("config4") << "optimus-config-4" << 32 << 32 << 64 << 256;
    QTest::newRow("config5") << "optimus-config-5" << 8 << 8 << 64 << 512;
    QTest::newRow("config6") << "optimus-config-6" << 16 << 16 << 64 << 512;
    QTest::newRow("config7") << "optimus-config-7" << 32 << 32 << 32 << 512;
    QTest::newRow("config8") << "optimus-config-8" << 64 << 64 << 32 << 512;
}

void TestHardwarePresets::optimusTable3() {
    QFETCH(QString, name);
    QFETCH(int, cols);
    QFETCH(int, rows);
    QFETCH(int, rfBytes);
    QFETCH(int, bufferKB);
    LOAD_PRESET(hw, name.toStdString().c_str());
    QCOMPARE(hw.pe_array.cols, cols);
    QCOMPARE(hw.pe_array.rows, rows);
    QCOMPARE(hw.register_file.bytes_per_pe, int64_t(rfBytes));
    QCOMPARE(hw.buffer.bytes, bufferKB * kKiB);
    // Everything Optimus Table 3 does not vary is Optimus Table 2's ("unless otherwise
    // specified", Optimus §7.1).
    LOAD_PRESET(table2, "optimus-default");
    Hardware same = hw;
    same.name = table2.name;
    same.description = table2.description;
    same.pe_array.cols = table2.pe_array.cols;
    same.pe_array.rows = table2.pe_array.rows;
    same.register_file.bytes_per_pe = table2.register_file.bytes_per_pe;
    same.buffer.bytes = table2.buffer.bytes;
    QVERIFY(same == table2);
}

void TestHardwarePresets::hwFlowFusionTables3And4_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("pex");
    QTest::addColumn<int>("pey");
    QTest::addColumn<int>("bufferKB");
    QTest::addColumn<int>("rfBytes");
    QTest::addColumn<double>("macPj");
    QTest::addColumn<double>("bufferPj");
    // HWFF Table 3 (PEx, PEy, on-chip buffer kB, register file B, precision 8)
    // and HWFF Table 4 (MAC 8 bit pJ, on-chip buffer access pJ; DRAM access 200.0 pJ for all).
    QTest::newRow("config1") << "hwff-config-1" << 32 << 16 << 512 << 512 << 1.75 << 26.70;
    QTest::newRow("config2") << "hwff-config-2" << 32 << 16 << 1536 << 512 << 1.75 << 78.16;
    QTest::newRow("config3") << "hwff-config-3" << 32 << 32 << 1536 << 512 << 1.75 << 78.16;
    QTest::newRow("config4") << "hwff-config-4" << 48 << 32 << 1536 << 512 << 1.75 << 78.16;
    QTest::newRow("config5") << "hwff-config-5" << 32 << 16 << 1536 << 1024 << 1.79 << 78.16;
    QTest::newRow("config6") << "hwff-config-6" << 32 << 16 << 1536 << 1536 << 1.83 << 78.16;
}

void TestHardwarePresets::hwFlowFusionTables3And4() {
    QFETCH(QString, name);
    QFETCH(int, pex);
    QFETCH(int, pey);
    QFETCH(int, bufferKB);
    QFETCH(int, rfBytes);
    QFETCH(double, macPj);
    QFETCH(double, bufferPj);
    LOAD_PRESET(hw, name.toStdString().c_str());
    QCOMPARE(hw.pe_array.cols, pex);
    QCOMPARE(hw.pe_array.rows, pey);
    QCOMPARE(hw.buffer.bytes, bufferKB * kKiB);
    QCOMPARE(hw.register_file.bytes_per_pe, int64_t(rfBytes));
    QCOMPARE(hw.precision.act_bits, 8);
    QCOMPARE(hw.precision.weight_bits, 8);
    QCOMPARE(hw.mac_pj, macPj);
    QCOMPARE(hw.buffer.energy.model, SramEnergyModel::constant);
    QCOMPARE(hw.buffer.energy.pj_per_access, bufferPj);
    QCOMPARE(hw.dram.energy_pj_per_word, 200.0);
    // HWFF §5: batch size one, DRAM burst length 8 bytes; the MAC energy already holds the two
    // RF reads and one RF write of each MAC, so an RF access adds nothing.
    QCOMPARE(hw.batch, 1);
    QCOMPARE(hw.dram.burst_bytes, int64_t(8));
    QCOMPARE(hw.register_file.pj_per_access, 0.0);
    // Row-stationary, HWFF Table 2: PE set Pkx·Poy, Pif ≤ PEx ÷ Pkx, Pof ≤ PEy ÷ Poy, with the
    // kernel factor being the kernel rows (Pky in HWFF Fig. 3): kernel rows and input channels
    // share the columns (PEx), output rows and output channels the rows (PEy).
    QVERIFY2(hw.pe_array.dataflow == df({LoopDim::ky, LoopDim::ic}, {LoopDim::oy, LoopDim::oc}),
             toString(hw.pe_array.dataflow).c_str());
    // HWFF §4.3.2: a 512 B RF holds 384 B of weights, 24 B of inputs, 36 B of partial sums;
    // larger RFs (configs 5, 6) keep those proportions (docs/presets.md).
    const int64_t scale = rfBytes / 512;
    QCOMPARE(int64_t(rfBytes) % 512, int64_t(0));
    QCOMPARE(hw.register_file.weight, 384 * scale);
    QCOMPARE(hw.register_file.input, 24 * scale);
    QCOMPARE(hw.register_file.psum, 36 * scale);
    QVERIFY(near(casNanoseconds(hw), 14.0, 1e-9));
    QVERIFY(!hw.cores.has_value());
}

// TSO §VI: NMP with 4 TLEs of 8 TLTs, each TLT with three 8 KB memories MB0-MB2,
// 16-bit fixed point; TSO §I: DDR3, 128 B bursts, ~14 ns to the first byte of a burst and about
// as long for the remaining 127 bytes; TSO Fig. 7: measured MAC roof 192 GMACs/s.
void TestHardwarePresets::tsoNmp() {
    LOAD_PRESET(hw, "tso-nmp");
    QVERIFY(hw.cores.has_value());
    QCOMPARE(hw.cores->tle, 4);
    QCOMPARE(hw.cores->tlt, 8);
    QCOMPARE(hw.cores->mb_bytes, (std::vector<int64_t>{8 * kKiB, 8 * kKiB, 8 * kKiB}));
    QCOMPARE(hw.precision.act_bits, 16);
    QCOMPARE(hw.precision.weight_bits, 16);
    QCOMPARE(hw.precision.psum_bits, 16); // TSO Eq. 2: OUT tiles (partial sums in MB2) at `type`
    QCOMPARE(hw.dram.burst_bytes, int64_t(128));
    QVERIFY(near(casNanoseconds(hw), 14.0, 1e-9));
    // Transfer rate: ~127 B in ~14 ns (≈ 9.07 GB/s), rounded as docs/presets.md says.
    QVERIFY(near(hw.dram.bandwidth_bytes_per_cycle * hw.frequency_mhz * 1e6, 127.0 / 14e-9, 0.02));
    // One PE per TLT core; peak MAC rate = the measured roof of TSO Fig. 7.
    QCOMPARE(hw.peCount(), int64_t(4 * 8));
    const double peakMacsPerSecond =
        double(hw.peCount()) * hw.pe_array.macs_per_pe_per_cycle * hw.frequency_mhz * 1e6;
    QVERIFY(near(peakMacsPerSecond, 192e9, 1e-9));
    // The on-chip capacity is the sum of all TLT memories (no shared buffer, TSO §IV-B).
    QCOMPARE(hw.buffer.bytes, int64_t(4 * 8 * 3) * 8 * kKiB);
    // TSO Eq. 6: T_CONV = T_MAC + T_DRAM + T_SW — compute and transfers add up.
    QCOMPARE(hw.overlap, OverlapMode::serial);
}

// ConvFusion §VII-A: 40 nm, 16-bit; MAC 10.2 pJ; DDR3 70 pJ/bit × 16 bit =
// 1120 pJ per access; single-bank SRAM E(s) = 0.012·√s + 4.61 pJ; ConvFusion §VII-C: RF 2.4 pJ.
void TestHardwarePresets::convFusion40nm() {
    LOAD_PRESET(hw, "convfusion-40nm");
    QCOMPARE(hw.precision.act_bits, 16);
    QCOMPARE(hw.precision.weight_bits, 16);
    QCOMPARE(hw.mac_pj, 10.2);
    QCOMPARE(hw.dram.energy_pj_per_word, 70.0 * 16);
    QCOMPARE(hw.buffer.energy.model, SramEnergyModel::sqrt);
    QCOMPARE(hw.buffer.energy.a, 0.012);
    QCOMPARE(hw.buffer.energy.b, 4.61);
    QCOMPARE(hw.buffer.banks, 1);
    QCOMPARE(hw.register_file.pj_per_access, 2.4);
    // ConvFusion §VII-A has no register file: every MAC makes four SRAM accesses.
    QCOMPARE(hw.register_file.bytes_per_pe, int64_t(0));
    // The MAC energy is that of a multiplier and adder at 4 ns delay (ConvFusion §VII-A1): 250 MHz.
    QCOMPARE(hw.frequency_mhz, 1e3 / 4.0);
}

// ConvFusion §VII-B: E_SRAM(min(s, 16e4))·(1 + 3.05e-3·log⌈s/16e4⌉); ConvFusion §VII-C: a register
// file of 64 × 16b entries at 2.4 pJ per access.
void TestHardwarePresets::convFusion40nmBanked() {
    LOAD_PRESET(hw, "convfusion-40nm-banked");
    LOAD_PRESET(single, "convfusion-40nm");
    QCOMPARE(hw.buffer.energy.model, SramEnergyModel::banked);
    QCOMPARE(hw.buffer.energy.a, 0.012);
    QCOMPARE(hw.buffer.energy.b, 4.61);
    QCOMPARE(hw.buffer.energy.bank_bits, 16e4);
    QCOMPARE(hw.buffer.energy.bank_factor, 3.05e-3);
    QCOMPARE(hw.register_file.bytes_per_pe * hw.peCount(), int64_t(64 * 16 / 8));
    QCOMPARE(hw.register_file.pj_per_access, 2.4);
    QCOMPARE(hw.mac_pj, 10.2);
    QCOMPARE(hw.dram.energy_pj_per_word, 1120.0);
    // Enough 16e4-bit banks for the whole buffer, and the same capacity as the single bank.
    QCOMPARE(hw.buffer.bytes, single.buffer.bytes);
    QCOMPARE(int64_t(hw.buffer.banks), (hw.buffer.bytes * 8 + 160000 - 1) / 160000);
}

void TestHardwarePresets::roundTripEveryOptionalField() {
    Hardware hw;
    hw.name = "lab board: rev B"; // needs quoting
    hw.description = "every \"optional\" field, a backslash \\ and 40\u00a0nm";
    hw.frequency_mhz = 333.25;
    hw.batch = 7;
    hw.precision = {4, 6, 24};
    hw.dram = {0.1, 32, 3.75, 640.5};
    hw.buffer.bytes = 3 * 1000 * 1000;
    hw.buffer.banks = 12;
    hw.buffer.energy = {SramEnergyModel::banked, 0, 0.02, 3.5, 65536, 0.01};
    hw.pe_array = {12, 14, 2, df({LoopDim::ky, LoopDim::oy}, {LoopDim::ic, LoopDim::oc})};
    hw.register_file = {1000, 500, 100, 200, 0.75};
    hw.mac_pj = 0.3;
    hw.overlap = OverlapMode::overlapped;
    hw.cores = CoresConfig{2, 3, {1024, 2048, 4096}};
    QVERIFY(validate(hw).empty());

    const std::string text = writeHardwareYaml(hw);
    // The keys docs/file-formats.md names, in its order, each present once.
    const char* keys[] = {
        "format:",    "name:",    "description:", "frequency_mhz:", "batch:",
        "precision:", "dram:",    "buffer:",      "pe_array:",      "register_file:",
        "mac:",       "overlap:", "cores:"};
    size_t last = 0;
    for (const char* k : keys) {
        const size_t pos = keyLine(text, k);
        QVERIFY2(pos != std::string::npos, (std::string("missing ") + k + " in\n" + text).c_str());
        QVERIFY2(pos >= last, (std::string("out of order: ") + k).c_str());
        last = pos;
    }
    QVERIFY(text.find("batch: 7\n") != std::string::npos);
    QVERIFY(text.find("overlap: overlapped\n") != std::string::npos);
    QVERIFY(text.find("cores: {tle: 2, tlt: 3, mb_bytes: [1024, 2048, 4096]}\n") !=
            std::string::npos);
    QVERIFY(text.find("dataflow: \"ky*oy|ic*oc\"") != std::string::npos);
    QVERIFY(text.find("bandwidth_bytes_per_cycle: 0.1,") != std::string::npos);

    auto back = readHardwareYaml(text, "roundtrip.hw.yaml");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QCOMPARE(back->name, hw.name);
    QCOMPARE(back->description, hw.description);
    QVERIFY(back->cores.has_value());
    QCOMPARE(back->cores->mb_bytes, hw.cores->mb_bytes);
    QCOMPARE(back->buffer.energy, hw.buffer.energy);
    QVERIFY(back->pe_array.dataflow == hw.pe_array.dataflow);
    QVERIFY(*back == hw);
    QCOMPARE(writeHardwareYaml(*back), text);
}

void TestHardwarePresets::roundTripEnergyModels_data() {
    QTest::addColumn<int>("model");
    QTest::addColumn<QString>("expectedEnergy");
    QTest::newRow("constant") << int(SramEnergyModel::constant)
                              << "energy: {model: constant, pj_per_access: 26.7}";
    QTest::newRow("sqrt") << int(SramEnergyModel::sqrt)
                          << "energy: {model: sqrt, a: 0.012, b: 4.61}";
    QTest::newRow("banked")
        << int(SramEnergyModel::banked)
        << "energy: {model: banked, a: 0.012, b: 4.61, bank_bits: 160000, bank_factor: 0.00305}";
}

void TestHardwarePresets::roundTripEnergyModels() {
    QFETCH(int, model);
    QFETCH(QString, expectedEnergy);
    Hardware hw;
    hw.name = "energy";
    hw.buffer.energy.model = SramEnergyModel(model);
    if (hw.buffer.energy.model == SramEnergyModel::constant) hw.buffer.energy.pj_per_access = 26.70;
    const std::string text = writeHardwareYaml(hw);
    QVERIFY2(text.find(expectedEnergy.toStdString()) != std::string::npos, text.c_str());
    auto back = readHardwareYaml(text, "energy.hw.yaml");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QVERIFY(*back == hw);
    QCOMPARE(writeHardwareYaml(*back), text);
}

void TestHardwarePresets::omittedKeysReadAsDefaults() {
    auto hw = readHardwareYaml("format: layerfuse/hardware@1\nname: bare\n", "bare.hw.yaml");
    QVERIFY2(hw.ok(), hw.ok() ? "" : hw.error().toString().c_str());
    Hardware expected;
    expected.name = "bare";
    QVERIFY(*hw == expected);
    QVERIFY(!hw->cores.has_value());
    // Defaults are not written: no batch when 1, no description when empty, no cores.
    const std::string text = writeHardwareYaml(*hw);
    QVERIFY(text.find("batch:") == std::string::npos);
    QVERIFY(text.find("description:") == std::string::npos);
    QVERIFY(text.find("cores:") == std::string::npos);
}

void TestHardwarePresets::malformedDataflowIsRefusedWithPosition() {
    const std::string text = "format: layerfuse/hardware@1\n"
                             "name: x\n"
                             "pe_array: {cols: 4, rows: 4, dataflow: \"ox|zz\"}\n";
    auto hw = readHardwareYaml(text, "bad.hw.yaml");
    QVERIFY(!hw.ok());
    QCOMPARE(hw.error().file, std::string("bad.hw.yaml"));
    QCOMPARE(hw.error().line, 3);
    QCOMPARE(hw.error().column, 40); // the opening quote of "ox|zz"
    QVERIFY2(hw.error().message.find("ox|zz") != std::string::npos, hw.error().message.c_str());
}

void TestHardwarePresets::dataflowPresetsRoundTrip_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("cols");
    QTest::addColumn<QList<int>>("rows");
    auto d = [](LoopDim x) { return int(x); };
    // docs/models/README.md presets, plus the HWFF Table 2 row-stationary mapping.
    QTest::newRow("optimus") << "ox|oc" << QList<int>{d(LoopDim::ox)} << QList<int>{d(LoopDim::oc)};
    QTest::newRow("weight-stationary")
        << "ic|oc" << QList<int>{d(LoopDim::ic)} << QList<int>{d(LoopDim::oc)};
    QTest::newRow("output-stationary")
        << "ox|oy" << QList<int>{d(LoopDim::ox)} << QList<int>{d(LoopDim::oy)};
    QTest::newRow("row-stationary") << "ky*oy|ic*oc" << QList<int>{d(LoopDim::ky), d(LoopDim::oy)}
                                    << QList<int>{d(LoopDim::ic), d(LoopDim::oc)};
    QTest::newRow("hwff-table2") << "ky*ic|oy*oc" << QList<int>{d(LoopDim::ky), d(LoopDim::ic)}
                                 << QList<int>{d(LoopDim::oy), d(LoopDim::oc)};
    QTest::newRow("batch-and-kx") << "b*kx|oy" << QList<int>{d(LoopDim::b), d(LoopDim::kx)}
                                  << QList<int>{d(LoopDim::oy)};
}

void TestHardwarePresets::dataflowPresetsRoundTrip() {
    QFETCH(QString, text);
    QFETCH(QList<int>, cols);
    QFETCH(QList<int>, rows);
    const auto parsed = parseDataflow(text.toStdString());
    QVERIFY(parsed.has_value());
    QCOMPARE(parsed->cols.size(), size_t(cols.size()));
    QCOMPARE(parsed->rows.size(), size_t(rows.size()));
    for (qsizetype i = 0; i < cols.size(); ++i)
        QCOMPARE(int(parsed->cols[size_t(i)]), cols[i]);
    for (qsizetype i = 0; i < rows.size(); ++i)
        QCOMPARE(int(parsed->rows[size_t(i)]), rows[i]);
    QCOMPARE(QString::fromStdString(toString(*parsed)), text);
}

void TestHardwarePresets::malformedDataflowsAreRejected_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("no bar") << "ox";
    QTest::newRow("no rows") << "ox|";
    QTest::newRow("no cols") << "|oc";
    QTest::newRow("unknown dim") << "ox|zz";
    QTest::newRow("upper case") << "OX|oc";
    QTest::newRow("two bars") << "ox||oc";
    QTest::newRow("empty factor") << "ox**oy|oc";
    QTest::newRow("comma") << "ox,oy|oc";
    QTest::newRow("trailing star") << "ox*|oc";
    QTest::newRow("dim on both axes") << "ox|ox";
    QTest::newRow("dim twice on an axis") << "ox*ox|oc";
}

void TestHardwarePresets::malformedDataflowsAreRejected() {
    QFETCH(QString, text);
    QVERIFY(!parseDataflow(text.toStdString()).has_value());
}

QTEST_GUILESS_MAIN(TestHardwarePresets)
#include "tst_hardware_presets.moc"
