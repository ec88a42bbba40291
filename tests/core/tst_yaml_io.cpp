// Network and hardware YAML: byte-identical round trips, canonical text, every option,
// quoting of names other YAML readers would mistake for numbers/bools, and independence
// from the process locale.
#include "net_text.h"
#include "test_support.h"

#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"

#include <QtTest>

#include <cctype>
#include <clocale>
#include <locale>

using namespace lf;

namespace {

// tests/data/yaml/canonical.net.yaml: a canonical network document using every option,
// typed by hand in the writer's layout: inputs as flow maps, layers as block maps with keys
// in the fixed order name, type, inputs, out_channels/out_features, mode, kernel, stride,
// padding, dilation, groups, output_padding, ceil_mode, scale, mode, op, shape, activation,
// folded; defaults left out; a square kernel/stride/dilation as one int, padding as
// [tb, lr] or [t, l, b, r]. tests/data/yaml/canonical.hw.yaml: the same for hardware.
std::string dataText(const char* name) {
    return lf::test::readBytes(lf::test::testData(QStringLiteral("yaml/") + name));
}

const std::string& kNet() {
    static const std::string t = dataText("canonical.net.yaml");
    return t;
}
const std::string& kHw() {
    static const std::string t = dataText("canonical.hw.yaml");
    return t;
}

std::string roundTripNetwork(const std::string& text, QString* error) {
    auto n = readNetworkYaml(text, "rt.net.yaml");
    if (!n) {
        *error = QString::fromStdString(n.error().toString());
        return {};
    }
    return writeNetworkYaml(*n);
}

std::string roundTripHardware(const std::string& text, QString* error) {
    auto h = readHardwareYaml(text, "rt.hw.yaml");
    if (!h) {
        *error = QString::fromStdString(h.error().toString());
        return {};
    }
    return writeHardwareYaml(*h);
}

// A numpunct that writes 1234567.5 as "1.234.567,5", as a German locale does.
struct GermanPunct : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
};

// Restores the C and C++ locales when a test ends, however it ends.
struct LocaleGuard {
    std::string c = std::setlocale(LC_ALL, nullptr);
    std::locale cpp;
    ~LocaleGuard() {
        std::setlocale(LC_ALL, c.c_str());
        std::locale::global(cpp);
    }
};

} // namespace

class TestYamlIo : public QObject {
    Q_OBJECT

  private slots:
    void canonicalNetworkIsFixedPoint() {
        QString err;
        const std::string out = roundTripNetwork(kNet(), &err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE_TEXT(out, kNet());
    }

    void canonicalNetworkValues() {
        auto r = readNetworkYaml(kNet(), "c.net.yaml");
        QVERIFY_OK(r);
        const Network& n = *r;
        QCOMPARE(n.name(), std::string("yes"));
        QCOMPARE(n.description(),
                 std::string("Every option: \"quoted\", a colon: here, # not a comment"));
        const Layer& conv = n.layer(n.find("conv"));
        QCOMPARE(conv.kernel_h, 3);
        QCOMPARE(conv.kernel_w, 5);
        QCOMPARE(conv.stride_h, 2);
        QCOMPARE(conv.stride_w, 2);
        QCOMPARE(conv.pad_t, 1);
        QCOMPARE(conv.pad_b, 1);
        QCOMPARE(conv.pad_l, 2);
        QCOMPARE(conv.pad_r, 2);
        QCOMPARE(conv.dilation_h, 1);
        QCOMPARE(conv.dilation_w, 2);
        QCOMPARE(conv.groups, 4);
        QCOMPARE(conv.activation, std::string("relu6"));
        // h (32+2-3)/2+1 = 16; w: dilated kernel (5-1)*2+1 = 9, (32+4-9)/2+1 = 14
        QCOMPARE(lf::test::shapeText(conv.out), std::string("32x16x14"));
        const Layer& dw = n.layer(n.find("dw"));
        QCOMPARE(dw.pad_t, 1);
        QCOMPARE(dw.pad_l, 0);
        QCOMPARE(dw.pad_b, 1);
        QCOMPARE(dw.pad_r, 2);
        QCOMPARE(lf::test::shapeText(dw.out), std::string("32x16x14")); // w 14+0+2-3+1
        const Layer& pool = n.layer(n.find("pool"));
        QVERIFY(pool.ceil_mode);
        QCOMPARE(int(pool.pool_mode), int(PoolMode::avg));
        // h: ceil((16-2)/2)+1 = 8, start 14 < 16; w: (14+2-2)/1+1 = 15, start 14 < 15
        QCOMPARE(lf::test::shapeText(pool.out), std::string("32x8x15"));
        QCOMPARE(lf::test::shapeText(n.layer(n.find("null")).out), std::string("32x8x15"));
        QCOMPARE(lf::test::shapeText(n.layer(n.find("up")).out), std::string("32x16x45"));
        const Layer& up = n.layer(n.find("up"));
        QCOMPARE(int(up.resize_mode), int(ResizeMode::bilinear));
        QCOMPARE(up.scale_h, 2);
        QCOMPARE(up.scale_w, 3);
        // (8-1)*2 - 2 + 3 + 1 + 1 = 17 rows, (15-1)*2 - 2 + 3 + 1 = 30 cols
        QCOMPARE(lf::test::shapeText(n.layer(n.find("de")).out), std::string("8x17x30"));
        QCOMPARE(lf::test::shapeText(n.layer(n.find("1e3")).out), std::string("64x8x15"));
        const Layer& ext = n.layer(n.find("ext"));
        QCOMPARE(ext.op_type, std::string("Custom Op"));
        QCOMPARE(lf::test::shapeText(ext.out), std::string("7x3x3"));
        QCOMPARE(int(n.layer(n.find("gp")).pool_mode), int(PoolMode::max));
        QCOMPARE(n.layer(n.find("fc")).folded,
                 (std::vector<std::string>{"dropout", "flatten", "softmax"}));
    }

    // Written in a loose style (defaults spelled out, block and flow mixed, other key
    // order, folded layers as layers): reading then writing gives the canonical text, and
    // that text is a fixed point.
    void looseNetworkNormalizes() {
        const std::string loose = dataText("loose.net.yaml");
        const std::string want = dataText("loose.expected.net.yaml");
        QString err;
        const std::string once = roundTripNetwork(loose, &err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE_TEXT(once, want);
        QCOMPARE_TEXT(roundTripNetwork(once, &err), want);
        // Same network, same hash.
        QCOMPARE(readNetworkYaml(loose, "a")->canonicalHash(),
                 readNetworkYaml(want, "b")->canonicalHash());
    }

    void paddingForms_data() {
        QTest::addColumn<QString>("padding");
        QTest::addColumn<QString>("written");
        QTest::addColumn<int>("t");
        QTest::addColumn<int>("l");
        QTest::addColumn<int>("b");
        QTest::addColumn<int>("r");
        QTest::newRow("one value") << "2"
                                   << "[2, 2]" << 2 << 2 << 2 << 2;
        QTest::newRow("one-element list") << "[2]"
                                          << "[2, 2]" << 2 << 2 << 2 << 2;
        QTest::newRow("[tb, lr]") << "[1, 3]"
                                  << "[1, 3]" << 1 << 3 << 1 << 3;
        QTest::newRow("[t, l, b, r]") << "[1, 2, 3, 4]"
                                      << "[1, 2, 3, 4]" << 1 << 2 << 3 << 4;
        QTest::newRow("[t, l, b, r] symmetric") << "[1, 2, 1, 2]"
                                                << "[1, 2]" << 1 << 2 << 1 << 2;
        QTest::newRow("zero") << "[0, 0, 0, 0]"
                              << "" << 0 << 0 << 0 << 0;
    }
    void paddingForms() {
        QFETCH(QString, padding);
        QFETCH(QString, written);
        QFETCH(int, t);
        QFETCH(int, l);
        QFETCH(int, b);
        QFETCH(int, r);
        const std::string text = lf::test::netYaml(
            {"{name: x, channels: 1, height: 9, width: 9}"},
            {"{name: c, type: conv, inputs: [x], out_channels: 1, kernel: 3, padding: " +
             padding.toStdString() + "}"});
        auto n = readNetworkYaml(text, "p.net.yaml");
        QVERIFY_OK(n);
        const Layer& c = n->layer(n->find("c"));
        QCOMPARE(c.pad_t, t);
        QCOMPARE(c.pad_l, l);
        QCOMPARE(c.pad_b, b);
        QCOMPARE(c.pad_r, r);
        const std::string out = writeNetworkYaml(*n);
        if (written.isEmpty())
            QVERIFY(out.find("padding") == std::string::npos);
        else
            QVERIFY2(out.find("    padding: " + written.toStdString() + "\n") != std::string::npos,
                     out.c_str());
        QString err;
        QCOMPARE_TEXT(roundTripNetwork(out, &err), out);
    }

    // Names another YAML reader would read as bool, null, number or structure must come back
    // as the same text.
    void awkwardNames_data() {
        QTest::addColumn<QString>("name");
        for (const char* s :
             {"yes",         "no",        "on",          "off",         "y",     "n",
              "true",        "False",     "NULL",        "~",           "010",   "0x1F",
              "1e3",         "-1",        "+5",          ".5",          ".inf",  "-.inf",
              ".nan",        "a: b",      "a #b",        "-",           "- x",   "[x]",
              "{x}",         "*ref",      "&anc",        "!tag",        "%dir",  "@at",
              "`tick",       "'single'",  "\"double\"",  "back\\slash", " lead", "trail ",
              "two  spaces", "tab\there", "line\nbreak", "µ-conv",      "层",    "?",
              "?x",          ":x",        "x:",          "|",           ">",     "#"})
            QTest::newRow(QString::fromUtf8(s).replace('\n', "\\n").replace('\t', "\\t").toUtf8())
                << QString::fromUtf8(s);
    }
    void awkwardNames() {
        QFETCH(QString, name);
        const std::string nm = name.toStdString();
        // Build the network in memory so the test does not depend on how we quote.
        NetworkSpec spec;
        spec.file = "mem";
        spec.name = nm;
        spec.description = nm;
        spec.inputs.push_back(InputSpec{nm, Shape{1, 2, 2}, {}, {}});
        LayerSpec l;
        l.layer.name = nm + "_c";
        l.layer.type = LayerType::conv;
        l.layer.out_channels = 1;
        l.layer.activation = nm;
        l.layer.folded = {nm};
        l.input_names = {nm};
        spec.layers.push_back(l);
        auto built = buildNetwork(spec);
        QVERIFY_OK(built);
        const std::string text = writeNetworkYaml(*built);
        auto back = readNetworkYaml(text, "q.net.yaml");
        QVERIFY2(back.ok(), (back.ok() ? text : back.error().toString() + "\n" + text).c_str());
        QCOMPARE(back->name(), nm);
        QCOMPARE(back->description(), nm);
        QCOMPARE(back->layer(0).name, nm);
        QCOMPARE(back->layer(1).name, nm + "_c");
        QCOMPARE(back->layer(1).activation, nm);
        QCOMPARE(back->layer(1).folded, std::vector<std::string>{nm});
        QCOMPARE_TEXT(writeNetworkYaml(*back), text);
        // The hardware writer quotes the same way.
        Hardware hw;
        hw.name = nm;
        hw.description = nm;
        auto hb = readHardwareYaml(writeHardwareYaml(hw), "q.hw.yaml");
        QVERIFY_OK(hb);
        QCOMPARE(hb->name, nm);
        QCOMPARE(hb->description, nm);
    }

    void everyBundledNetworkRoundTrips_data() {
        QTest::addColumn<QString>("name");
        for (const BundledFile& f : bundledFiles())
            if (f.kind == BundledKind::network) QTest::newRow(f.name) << QString(f.name);
    }
    void everyBundledNetworkRoundTrips() {
        QFETCH(QString, name);
        const BundledFile* f = findBundled(BundledKind::network, name.toStdString());
        QVERIFY(f);
        auto n = readNetworkYaml(f->text, bundledFileLabel(*f));
        QVERIFY_OK(n);
        const std::string once = writeNetworkYaml(*n);
        auto again = readNetworkYaml(once, "again");
        QVERIFY_OK(again);
        QVERIFY(*again == *n);
        QCOMPARE(again->size(), n->size());
        for (LayerId id = 0; id < n->size(); ++id) {
            QCOMPARE(again->layer(id).name, n->layer(id).name);
            QVERIFY(again->layer(id).out == n->layer(id).out);
            QCOMPARE(again->layer(id).inputs, n->layer(id).inputs);
        }
        QCOMPARE_TEXT(writeNetworkYaml(*again), once);
    }

    void canonicalHardwareIsFixedPoint() {
        QString err;
        const std::string out = roundTripHardware(kHw(), &err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE_TEXT(out, kHw());
        auto h = readHardwareYaml(kHw(), "h");
        QVERIFY_OK(h);
        QCOMPARE(h->name, std::string("on"));
        QCOMPARE(h->frequency_mhz, 312.5);
        QCOMPARE(h->batch, 4);
        QCOMPARE(h->precision.weight_bits, 8);
        QCOMPARE(h->dram.bandwidth_bytes_per_cycle, 12.8);
        QCOMPARE(h->dram.burst_bytes, int64_t(128));
        QCOMPARE(h->dram.cas_cycles, 14.5);
        QCOMPARE(h->dram.energy_pj_per_word, 0.1);
        QCOMPARE(h->buffer.bytes, int64_t(1048576));
        QCOMPARE(h->buffer.banks, 8);
        QCOMPARE(int(h->buffer.energy.model), int(SramEnergyModel::banked));
        QCOMPARE(h->buffer.energy.bank_bits, 160000.0);
        QCOMPARE(h->buffer.energy.bank_factor, 0.00305);
        QCOMPARE(h->pe_array.macs_per_pe_per_cycle, 2);
        QCOMPARE(QString::fromStdString(toString(h->pe_array.dataflow)), QString("ky*oy|ic*oc"));
        QCOMPARE(h->register_file.pj_per_access, 0.96);
        QCOMPARE(h->mac_pj, 1.75);
        QCOMPARE(int(h->overlap), int(OverlapMode::overlapped));
        QVERIFY(h->cores.has_value());
        QCOMPARE(h->cores->tle, 4);
        QCOMPARE(h->cores->mb_bytes, (std::vector<int64_t>{8192, 8192, 16384}));
    }

    void hardwareEnergyModels_data() {
        QTest::addColumn<QString>("energy");
        QTest::addColumn<QString>("written");
        QTest::newRow("constant") << "{model: constant, pj_per_access: 26.70}"
                                  << "{model: constant, pj_per_access: 26.7}";
        QTest::newRow("constant default") << "{}"
                                          << "{model: constant, pj_per_access: 0}";
        QTest::newRow("sqrt") << "{model: sqrt, a: 0.0120, b: 4.61}"
                              << "{model: sqrt, a: 0.012, b: 4.61}";
    }
    void hardwareEnergyModels() {
        QFETCH(QString, energy);
        QFETCH(QString, written);
        const std::string text =
            "format: layerfuse/hardware@1\nname: e\nbuffer: {bytes: 1024, energy: " +
            energy.toStdString() + "}\n";
        QString err;
        const std::string out = roundTripHardware(text, &err);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QVERIFY2(out.find("buffer: {bytes: 1024, banks: 1, energy: " + written.toStdString() +
                          "}\n") != std::string::npos,
                 out.c_str());
        QCOMPARE_TEXT(roundTripHardware(out, &err), out);
    }

    // Doubles keep every bit through a write/read cycle.
    void hardwareDoublesExact() {
        Hardware hw;
        hw.frequency_mhz = 1.0 / 3.0;
        hw.dram.bandwidth_bytes_per_cycle = 0.1 + 0.2;
        hw.dram.energy_pj_per_word = 1e-300;
        hw.mac_pj = 123456789.125;
        hw.buffer.energy.pj_per_access = 6.02214076e13;
        auto back = readHardwareYaml(writeHardwareYaml(hw), "d");
        QVERIFY_OK(back);
        QVERIFY(*back == hw);
    }

    void everyBundledHardwareRoundTrips_data() {
        QTest::addColumn<QString>("name");
        for (const BundledFile& f : bundledFiles())
            if (f.kind == BundledKind::hardware) QTest::newRow(f.name) << QString(f.name);
    }
    void everyBundledHardwareRoundTrips() {
        QFETCH(QString, name);
        const BundledFile* f = findBundled(BundledKind::hardware, name.toStdString());
        QVERIFY(f);
        auto h = readHardwareYaml(f->text, bundledFileLabel(*f));
        QVERIFY_OK(h);
        const std::string once = writeHardwareYaml(*h);
        auto again = readHardwareYaml(once, "again");
        QVERIFY_OK(again);
        QVERIFY(*again == *h);
        QCOMPARE_TEXT(writeHardwareYaml(*again), once);
    }

    // A German C locale (decimal comma) must not change what is read or written.
    void decimalCommaCLocale() {
        LocaleGuard guard;
        const QString why = lf::test::switchToLocale(LC_ALL, "de_DE.UTF-8", "de_DE", "UTF-8");
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(std::localeconv()->decimal_point[0], ','); // the locale is really in effect
        QString err;
        QCOMPARE_TEXT(roundTripHardware(kHw(), &err), kHw());
        QVERIFY2(err.isEmpty(), qPrintable(err));
        auto h = readHardwareYaml(kHw(), "h");
        QVERIFY_OK(h);
        QCOMPARE(h->frequency_mhz, 312.5);
        QCOMPARE(h->dram.bandwidth_bytes_per_cycle, 12.8);
        QCOMPARE(h->buffer.energy.bank_factor, 0.00305);
        QCOMPARE_TEXT(roundTripNetwork(kNet(), &err), kNet());
    }

    // The same with a C++ global locale that groups thousands and uses a decimal comma
    // (what std::locale::global(std::locale("de_DE.UTF-8")) does); needs no installed locale.
    void decimalCommaCppLocale() {
        LocaleGuard guard;
        std::locale::global(std::locale(std::locale::classic(), new GermanPunct));
        QString err;
        QCOMPARE_TEXT(roundTripHardware(kHw(), &err), kHw());
        QVERIFY2(err.isEmpty(), qPrintable(err));
        auto h = readHardwareYaml(kHw(), "h");
        QVERIFY_OK(h);
        QCOMPARE(h->buffer.bytes, int64_t(1048576));
        QCOMPARE(h->dram.bandwidth_bytes_per_cycle, 12.8);
        QCOMPARE_TEXT(roundTripNetwork(kNet(), &err), kNet());
    }

    // Quoting must not depend on the locale either: in a Latin-1 locale the C library calls
    // both UTF-8 bytes of "ê" (C3 AA: 'Ã', 'ª') letters, yet the canonical text stays the same.
    void quotingIndependentOfLocale() {
        Hardware hw;
        hw.name = "fête";
        hw.description = "São Tomé";
        const std::string inC = writeHardwareYaml(hw);
        LocaleGuard guard;
        const QString why =
            lf::test::switchToLocale(LC_ALL, "de_DE.ISO-8859-1", "de_DE", "ISO-8859-1");
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(std::isalnum(0xFC)); // the locale is really in effect: 'ü' is a letter
        QCOMPARE_TEXT(writeHardwareYaml(hw), inC);
    }

    void fileRoundTrip() {
        const QString path = lf::test::writeTempFile("rt.net.yaml", kNet());
        auto n = loadNetworkYamlFile(path.toStdString());
        QVERIFY_OK(n);
        QCOMPARE_TEXT(writeNetworkYaml(*n), kNet());
        const QString hpath = lf::test::writeTempFile("rt.hw.yaml", kHw());
        auto h = loadHardwareYamlFile(hpath.toStdString());
        QVERIFY_OK(h);
        QCOMPARE_TEXT(writeHardwareYaml(*h), kHw());
    }
};

QTEST_GUILESS_MAIN(TestYamlIo)
#include "tst_yaml_io.moc"
