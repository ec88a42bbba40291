// HardwareEditor: every emitted hardware is valid and round-trips through the hardware YAML;
// invalid values are explained and not applied; presets list the bundled configurations.
#include "examples/bundled.h"
#include "hardware/hardware_editor.h"
#include "hardware/number_spin_box.h"
#include "io/hardware_yaml.h"
#include "models/evaluate.h"
#include "studio_states.h"
#include "test_support.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <QtTest>

using namespace lf;

namespace {

Hardware lastHardware(const QSignalSpy& spy) {
    return spy.at(spy.count() - 1).at(0).value<Hardware>();
}

// The hardware read back from its own YAML text.
Hardware roundTrip(const Hardware& hw) {
    auto r = readHardwareYaml(writeHardwareYaml(hw), "edited.hw.yaml");
    if (!r) qFatal("%s", r.error().toString().c_str());
    return *r;
}

template <class W> W* field(HardwareEditor& e, const char* key) {
    auto* w = qobject_cast<W*>(e.fieldWidget(QLatin1String(key)));
    if (!w) qFatal("no field %s", key);
    return w;
}

void choose(QComboBox* cb, int index) {
    cb->setCurrentIndex(index);
    emit cb->activated(index);
}

} // namespace

class TestHardwareEditor : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void showsTheHardware();
    void editsRoundTripThroughYaml();
    void invalidValuesAreExplainedNotApplied();
    void presetsListBundledHardware();
    void untouchedFieldsKeepFullPrecision();
    void setStateDoesNotEmit();
    void decimalPointUnderGermanLocale();
};

void TestHardwareEditor::showsTheHardware() {
    const StudioState s = test::defaultState("l2net");
    const Hardware& hw = s.hardware;
    HardwareEditor e;
    e.setState(s);
    QCOMPARE(field<QDoubleSpinBox>(e, "frequency_mhz")->value(), hw.frequency_mhz);
    QCOMPARE(field<QSpinBox>(e, "act_bits")->value(), hw.precision.act_bits);
    QCOMPARE(field<QSpinBox>(e, "pe.cols")->value(), hw.pe_array.cols);
    QCOMPARE(field<QSpinBox>(e, "pe.rows")->value(), hw.pe_array.rows);
    QCOMPARE(field<QDoubleSpinBox>(e, "buffer.bytes")->value(), double(hw.buffer.bytes));
    QCOMPARE(field<QDoubleSpinBox>(e, "buffer.pj")->value(), hw.buffer.energy.pj_per_access);
    QCOMPARE(field<QDoubleSpinBox>(e, "dram.bandwidth")->value(),
             hw.dram.bandwidth_bytes_per_cycle);
    QCOMPARE(field<QDoubleSpinBox>(e, "rf.weight")->value(), double(hw.register_file.weight));
    QCOMPARE(field<QComboBox>(e, "pe.dataflow")->currentText(),
             QString::fromStdString(toString(hw.pe_array.dataflow)));
    QCOMPARE(field<QComboBox>(e, "overlap")->currentData().toInt(), int(hw.overlap));
    QVERIFY(!field<QGroupBox>(e, "cores")->isChecked());
    QVERIFY(e.validationLabel()->isHidden());
    // Every field of the YAML has a widget.
    for (const char* key : {"name",
                            "description",
                            "frequency_mhz",
                            "batch",
                            "act_bits",
                            "weight_bits",
                            "psum_bits",
                            "dram.bandwidth",
                            "dram.burst",
                            "dram.cas",
                            "dram.energy",
                            "buffer.bytes",
                            "buffer.banks",
                            "buffer.model",
                            "buffer.pj",
                            "buffer.a",
                            "buffer.b",
                            "buffer.bank_bits",
                            "buffer.bank_factor",
                            "pe.cols",
                            "pe.rows",
                            "pe.macs",
                            "pe.dataflow",
                            "rf.bytes",
                            "rf.weight",
                            "rf.input",
                            "rf.psum",
                            "rf.pj",
                            "mac_pj",
                            "overlap",
                            "cores",
                            "cores.tle",
                            "cores.tlt",
                            "cores.mb0",
                            "cores.mb1",
                            "cores.mb2"})
        QVERIFY2(e.fieldWidget(QLatin1String(key)), key);
}

void TestHardwareEditor::editsRoundTripThroughYaml() {
    const StudioState s = test::defaultState("l2net");
    HardwareEditor e;
    e.setState(s);
    QSignalSpy spy(&e, &HardwareEditor::hardwareEdited);

    field<QDoubleSpinBox>(e, "frequency_mhz")->setValue(400);
    QCOMPARE(spy.count(), 1);
    Hardware hw = lastHardware(spy);
    QCOMPARE(hw.frequency_mhz, 400.0);
    QVERIFY(spy.at(0).at(1).toString().contains(QStringLiteral("400")));
    QVERIFY(spy.at(0).at(2).toInt() != 0);
    QVERIFY(roundTrip(hw) == hw);

    // Switch the buffer energy model: the unused parameters must not survive, or the file
    // would read back different.
    QComboBox* model = field<QComboBox>(e, "buffer.model");
    choose(model, model->findData(int(SramEnergyModel::banked)));
    hw = lastHardware(spy);
    QCOMPARE(hw.buffer.energy.model, SramEnergyModel::banked);
    QVERIFY(roundTrip(hw) == hw);
    field<QDoubleSpinBox>(e, "buffer.bank_factor")->setValue(0.004);
    hw = lastHardware(spy);
    QCOMPARE(hw.buffer.energy.bank_factor, 0.004);
    QCOMPARE(hw.frequency_mhz, 400.0); // earlier edits stay
    QVERIFY(roundTrip(hw) == hw);

    field<QGroupBox>(e, "cores")->setChecked(true);
    hw = lastHardware(spy);
    QVERIFY(hw.cores.has_value());
    field<QSpinBox>(e, "cores.tlt")->setValue(8);
    field<QDoubleSpinBox>(e, "cores.mb1")->setValue(65536);
    hw = lastHardware(spy);
    QCOMPARE(hw.cores->tlt, 8);
    QCOMPARE(hw.cores->mb_bytes[1], int64_t(65536));
    QVERIFY(roundTrip(hw) == hw);

    QComboBox* df = field<QComboBox>(e, "pe.dataflow");
    df->setEditText(QStringLiteral("ox|oc"));
    emit df->lineEdit()->editingFinished();
    hw = lastHardware(spy);
    QCOMPARE(toString(hw.pe_array.dataflow), std::string("ox|oc"));

    field<QLineEdit>(e, "name")->setText(QStringLiteral("my npu"));
    emit field<QLineEdit>(e, "name")->editingFinished();
    field<QLineEdit>(e, "description")->setText(QStringLiteral("yes: on, 010")); // YAML-ish text
    emit field<QLineEdit>(e, "description")->editingFinished();
    QComboBox* ov = field<QComboBox>(e, "overlap");
    const OverlapMode other =
        s.hardware.overlap == OverlapMode::serial ? OverlapMode::overlapped : OverlapMode::serial;
    choose(ov, ov->findData(int(other)));
    field<QSpinBox>(e, "batch")->setValue(4);
    hw = lastHardware(spy);
    QCOMPARE(hw.name, std::string("my npu"));
    QCOMPARE(hw.description, std::string("yes: on, 010"));
    QCOMPARE(hw.overlap, other);
    QCOMPARE(hw.batch, 4);
    QVERIFY(validate(hw).empty());
    QVERIFY(roundTrip(hw) == hw);
}

void TestHardwareEditor::invalidValuesAreExplainedNotApplied() {
    HardwareEditor e;
    e.setState(test::defaultState("l2net"));
    QSignalSpy spy(&e, &HardwareEditor::hardwareEdited);
    // More weight bytes than the whole register file holds.
    const Hardware& start = test::defaultState("l2net").hardware;
    QVERIFY(start.register_file.bytes_per_pe < 1000);
    field<QDoubleSpinBox>(e, "rf.weight")->setValue(1000);
    QCOMPARE(spy.count(), 0);
    QVERIFY(!e.validationLabel()->isHidden());
    QVERIFY2(e.validationLabel()->text().contains(QStringLiteral("exceed")),
             qPrintable(e.validationLabel()->text()));
    // Growing the register file makes both changes valid together.
    field<QDoubleSpinBox>(e, "rf.bytes")->setValue(2048);
    QCOMPARE(spy.count(), 1);
    const Hardware hw = lastHardware(spy);
    QCOMPARE(hw.register_file.weight, int64_t(1000));
    QCOMPARE(hw.register_file.bytes_per_pe, int64_t(2048));
    QVERIFY(e.validationLabel()->isHidden());
    // An unparsable dataflow is refused too.
    QComboBox* df = field<QComboBox>(e, "pe.dataflow");
    df->setEditText(QStringLiteral("ox-oc"));
    emit df->lineEdit()->editingFinished();
    QCOMPARE(spy.count(), 1);
    QVERIFY(e.validationLabel()->text().contains(QStringLiteral("dataflow")));
    // So is an empty name.
    df->setEditText(QStringLiteral("ox|oc"));
    emit df->lineEdit()->editingFinished();
    QCOMPARE(spy.count(), 2);
    field<QLineEdit>(e, "name")->setText(QString());
    emit field<QLineEdit>(e, "name")->editingFinished();
    QCOMPARE(spy.count(), 2);
}

void TestHardwareEditor::presetsListBundledHardware() {
    HardwareEditor e;
    StudioState s = test::defaultState("l2net");
    e.setState(s);
    int bundled = 0;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == BundledKind::hardware) ++bundled;
    QVERIFY(bundled >= 1);
    QComboBox* presets = e.presetComboBox();
    QCOMPARE(presets->count(), bundled + 1);                                      // + "custom"
    QCOMPARE(presets->currentData().toString(), QStringLiteral("hwff-config-1")); // it matches
    QSignalSpy spy(&e, &HardwareEditor::hardwareEdited);
    // From a modified hardware, picking the preset restores it exactly.
    s.hardware.frequency_mhz = 999;
    e.setState(s);
    QCOMPARE(presets->currentIndex(), 0);
    const int idx = presets->findData(QStringLiteral("hwff-config-1"));
    choose(presets, idx);
    QCOMPARE(spy.count(), 1);
    QVERIFY(lastHardware(spy) == test::bundledHardware("hwff-config-1"));
}

void TestHardwareEditor::untouchedFieldsKeepFullPrecision() {
    StudioState s = test::defaultState("l2net");
    s.hardware.frequency_mhz = 123.4567890123456; // more digits than the spin box shows
    s.hardware.mac_pj = 1.0 / 3.0;
    HardwareEditor e;
    e.setState(s);
    QSignalSpy spy(&e, &HardwareEditor::hardwareEdited);
    field<QSpinBox>(e, "batch")->setValue(2);
    QCOMPARE(spy.count(), 1);
    const Hardware hw = lastHardware(spy);
    QCOMPARE(hw.frequency_mhz, 123.4567890123456);
    QCOMPARE(hw.mac_pj, 1.0 / 3.0);
    QCOMPARE(hw.batch, 2);
}

void TestHardwareEditor::setStateDoesNotEmit() {
    StudioState s = test::defaultState("l2net");
    HardwareEditor e;
    QSignalSpy spy(&e, &HardwareEditor::hardwareEdited);
    for (int k = 0; k < 3; ++k) {
        s.hardware.pe_array.cols = 8 << k;
        s.hardware.buffer.energy.model = SramEnergyModel(k);
        s.hardware.cores = k == 1 ? std::optional<CoresConfig>(CoresConfig{}) : std::nullopt;
        e.setState(s);
        e.setSelection({{1}, 0});
        QCOMPARE(field<QSpinBox>(e, "pe.cols")->value(), 8 << k);
    }
    QCOMPARE(spy.count(), 0);
}

void TestHardwareEditor::decimalPointUnderGermanLocale() {
    // Hardware figures are typed and shown with a decimal point whatever the locale.
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    NumberSpinBox sb(NumberSpinBox::Mode::real);
    sb.setRange(0, 1000);
    sb.setSuffix(QStringLiteral(" pJ"));
    QCOMPARE(sb.valueFromText(QStringLiteral("26.5 pJ")), 26.5);
    sb.setValue(78.16);
    QCOMPARE(sb.text(), QStringLiteral("78.16 pJ"));
    NumberSpinBox bytes(NumberSpinBox::Mode::bytes);
    bytes.setRange(1, 1 << 30);
    bytes.setValue(4096);
    bytes.stepBy(1);
    QCOMPARE(bytes.value(), 8192.0); // byte sizes step by doubling
    bytes.stepBy(-2);
    QCOMPARE(bytes.value(), 2048.0);
    QLocale::setDefault(saved);
}

QTEST_MAIN(TestHardwareEditor)
#include "tst_inspectors_hardware.moc"
