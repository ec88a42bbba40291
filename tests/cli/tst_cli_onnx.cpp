// layerfuse-cli with ONNX models: `convert model.onnx out.net.yaml` (the YAML loads back to
// the same network), --input-shape for dynamic inputs, --allow-unsupported, exit codes.
#include "cli_run.h"
#include "net_text.h"
#include "onnx_model_builder.h"
#include "test_support.h"

#include "io/network_yaml.h"
#include "io/onnx_import.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace lf;
using lf::test::OnnxModelBuilder;

namespace {

QString cls() {
    return lf::test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx"));
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
        const test::CliRun r = test::runCli({"convert", cls(), out, "--input-shape", "3,48,192"});
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
        QCOMPARE(test::runCli({"convert", out, again}).code, 0);
        QCOMPARE(lf::test::readBytes(again), lf::test::readBytes(out));
    }

    void dynamicInputNeedsShape() {
        const test::CliRun r = test::runCli({"convert", cls(), "-"});
        QCOMPARE(r.code, 1);
        QVERIFY_CONTAINS(r.err,
                         "ch_ppocr_mobile_v2.0_cls_infer.onnx: input 'x' has dynamic dimensions");
        QVERIFY_CONTAINS(r.err, "--input-shape");
        const test::CliRun bad = test::runCli({"convert", cls(), "-", "--input-shape", "3,x,192"});
        QCOMPARE(bad.code, 1);
        QVERIFY_CONTAINS(bad.err, "--input-shape");
    }

    void unsupportedOperators() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 8, 8});
        b.weight("w", {4, 3, 3, 3});
        b.node("Conv", {"x", "w"}, {"a"}, "conv");
        b.node("Hardmax", {"a"}, {"y"}, "odd");
        b.output("y");
        const QString path = lf::test::writeTempFile("odd.onnx", b.bytes());
        const test::CliRun r = test::runCli({"convert", path, "-"});
        QCOMPARE(r.code, 1);
        QVERIFY_CONTAINS(r.err, "Hardmax (node 'odd')");
        QVERIFY_CONTAINS(r.err, "--allow-unsupported");
        const test::CliRun ok = test::runCli({"convert", path, "-", "--allow-unsupported"});
        QVERIFY2(ok.code == 0, ok.err.c_str());
        QVERIFY_CONTAINS(ok.out, "type: opaque");
        QVERIFY_CONTAINS(ok.out, "op: Hardmax");
    }

    void evaluateReadsOnnx() {
        const test::CliRun r =
            test::runCli({"evaluate", cls(), "--input-shape", "3,48,192", "--format", "json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(!r.out.empty());
    }

    void corruptFile() {
        const std::string good = lf::test::readBytes(cls());
        const QString path = lf::test::writeTempFile("cut.onnx", good.substr(0, good.size() / 3));
        const test::CliRun r = test::runCli({"convert", path, "-", "--input-shape", "3,48,192"});
        QCOMPARE(r.code, 1);
        QVERIFY_CONTAINS(r.err, "truncated or corrupt");
    }
};

QTEST_GUILESS_MAIN(TestCliOnnx)
#include "tst_cli_onnx.moc"
