// layerfuse-cli with ONNX models: `convert model.onnx out.net.yaml` (the YAML loads back to
// the same network), --input-shape for dynamic inputs, --allow-unsupported, exit codes.
#include "cli_run.h"
#include "net_text.h"
#include "onnx_model_builder.h"
#include "test_support.h"

#include "io/network_yaml.h"
#include "io/onnx_import.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

using namespace lf;
using lf::test::OnnxModelBuilder;

namespace {

using Run = lf::test::CliRun;

Run cli(const QStringList& args) {
    return lf::test::runCli(args, 60000);
}

QString cls() {
    return lf::test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx"));
}

// conv -> Hardmax: one operator without a layer equivalent.
QString oddModel() {
    OnnxModelBuilder b(13);
    b.input("x", {1, 3, 8, 8});
    b.weight("w", {4, 3, 3, 3});
    b.node("Conv", {"x", "w"}, {"a"}, "conv");
    b.node("Hardmax", {"a"}, {"y"}, "odd");
    b.output("y");
    return lf::test::writeTempFile("odd.onnx", b.bytes());
}

#define QVERIFY_CONTAINS(text, part)                                                               \
    QVERIFY2((text).find(part) != std::string::npos, (text).c_str())

} // namespace

class TestCliOnnx : public QObject {
    Q_OBJECT
  private slots:
    void convertRealModel() {
        QTemporaryDir dir;
        const QString out = dir.filePath("cls.net.yaml");
        const Run r = cli({"convert", cls(), out, "--input-shape", "3,48,192"});
        QVERIFY2(r.code == 0, r.err.c_str());
        auto fromYaml = loadNetworkYamlFile(out.toStdString());
        QVERIFY2(fromYaml.ok(), fromYaml.ok() ? "" : fromYaml.error().toString().c_str());
        OnnxImportOptions o;
        o.input_shape = {3, 48, 192};
        auto direct = importOnnx(cls().toStdString(), o);
        QVERIFY(direct.ok());
        QCOMPARE(fromYaml->canonicalHash(), direct->canonicalHash());
        QCOMPARE(fromYaml->size(), 82);
        // Converting the YAML again gives the same bytes.
        const QString again = dir.filePath("again.net.yaml");
        QCOMPARE(cli({"convert", out, again}).code, 0);
        QCOMPARE(lf::test::readBytes(again), lf::test::readBytes(out));
    }

    void dynamicInputNeedsShape() {
        const Run r = cli({"convert", cls(), "-"});
        QCOMPARE(r.code, 1);
        QVERIFY_CONTAINS(r.err,
                         "ch_ppocr_mobile_v2.0_cls_infer.onnx: input 'x' has dynamic dimensions");
        QVERIFY_CONTAINS(r.err, "--input-shape");
        const Run bad = cli({"convert", cls(), "-", "--input-shape", "3,x,192"});
        QCOMPARE(bad.code, 1);
        QVERIFY_CONTAINS(bad.err, "--input-shape");
    }

    void unsupportedOperators() {
        const QString path = oddModel();
        const Run r = cli({"convert", path, "-"});
        QCOMPARE(r.code, 1);
        QVERIFY_CONTAINS(r.err, "Hardmax (node 'odd', inputs [1,4,6,6])");
        QVERIFY_CONTAINS(r.err, "--allow-unsupported");
        const Run ok = cli({"convert", path, "-", "--allow-unsupported"});
        QVERIFY2(ok.code == 0, ok.err.c_str());
        QVERIFY_CONTAINS(ok.out, "type: opaque");
        QVERIFY_CONTAINS(ok.out, "op: Hardmax");
    }

    void evaluateReadsOnnx() {
        const Run r = cli({"evaluate", cls(), "--input-shape", "3,48,192", "--format", "json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(!r.out.empty());
    }

    // convert --report lists what became of every node, as text or JSON.
    void importReport() {
        const QString mlsd = lf::test::testData(QStringLiteral("onnx/mlsd_320x320_tiny.onnx"));
        QTemporaryDir dir;
        const Run text = cli({"convert", mlsd, dir.filePath("m.net.yaml"), "--report"});
        QVERIFY2(text.code == 0, text.err.c_str());
        QVERIFY_CONTAINS(text.out, "Import report for");
        QVERIFY_CONTAINS(text.out, "is NHWC: read as 4x320x320");
        QVERIFY_CONTAINS(text.out, "Clip 20 (relu6)");
        QVERIFY_CONTAINS(text.out, "pre-processing of input");
        QVERIFY_CONTAINS(text.out, "padding merged into the next conv / pool: Pad 3");
        QVERIFY_CONTAINS(text.out, "Split 1");
        QVERIFY_CONTAINS(text.out, "opaque: none");
        QVERIFY_CONTAINS(text.out, "1649100800 MACs");

        const Run js = cli({"convert", mlsd, "-", "--report", "--format", "json"});
        QVERIFY2(js.code == 0, js.err.c_str());
        QVERIFY_CONTAINS(js.out, "format: layerfuse/network@1"); // YAML on stdout
        const auto j = nlohmann::json::parse(js.err);            // report on stderr
        QCOMPARE(j["layer_kinds"]["conv"].get<int>(), 41);
        QCOMPARE(j["macs"].get<int64_t>(), int64_t(1649100800));
        QCOMPARE(j["fates"]["opaque"].get<int>(), 0);
        int folded = 0;
        for (const auto& n : j["nodes"])
            folded += n["fate"] == "folded";
        QCOMPARE(folded, j["fates"]["folded"].get<int>());
        QVERIFY(j["nodes"].size() == j["nodes_total"].get<size_t>());

        // A refused model: the report says which node became opaque and why.
        const QString path = oddModel();
        const Run bad = cli({"convert", path, "-", "--report"});
        QCOMPARE(bad.code, 1);
        QVERIFY_CONTAINS(bad.err, "opaque: 1\n    Hardmax (node 'odd', inputs [1,4,6,6])");
        QVERIFY(cli({"convert", mlsd, "-", "--report", "--format", "xml"}).code == 2);
    }

    void corruptFile() {
        const std::string good = lf::test::readBytes(cls());
        const QString path = lf::test::writeTempFile("cut.onnx", good.substr(0, good.size() / 3));
        const Run r = cli({"convert", path, "-", "--input-shape", "3,48,192"});
        QCOMPARE(r.code, 1);
        QVERIFY_CONTAINS(r.err, "truncated or corrupt");
    }
};

QTEST_GUILESS_MAIN(TestCliOnnx)
#include "tst_cli_onnx.moc"
