// `layerfuse-cli export` end to end: Timeloop files into a directory or one layer to
// standard output, the Stream-style file, metrics CSV/JSON identical to `evaluate`, and the
// exit codes (1 with FILE:LINE:COLUMN for bad input, 2 for usage errors).
#include "cli_run.h"
#include "net_text.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <string>

using namespace lf;

namespace {

QString writeText(const QTemporaryDir& dir, const QString& name, const std::string& text) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(text.data(), qint64(text.size()));
    return path;
}

QString workedExample() {
    return QStringLiteral(LAYERFUSE_SOURCE_DIR
                          "/examples/schedules/l2net-worked-example.sched.yaml");
}

const char* const kFused = "format: layerfuse/schedule@1\nnetwork: {name: L2Net}\ngroups:\n"
                           "  - {name: g0, layers: [conv1, conv2]}\n";

#define QVERIFY_CONTAINS(text, part)                                                               \
    QVERIFY2((text).find(part) != std::string::npos, (text).c_str())

} // namespace

class TestCliExport : public QObject {
    Q_OBJECT
  private slots:
    // One file per unfused layer; conv2 of the worked example has the hand-derived factors
    // (tests/core/tst_exports.cpp): DRAM R=1 S=1 P=4 Q=4 C=1 K=1 N=1.
    void timeloopDirectory() {
        QTemporaryDir dir;
        const QString out = dir.filePath("tl");
        const test::CliRun r = test::runCli(
            {"export", "l2net", "--schedule", workedExample(), "--format", "timeloop", "-o", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY_CONTAINS(r.out, "conv1.timeloop.yaml");
        QVERIFY_CONTAINS(r.out, "conv2.timeloop.yaml");
        QCOMPARE(QDir(out).entryList(QDir::Files).size(), 2);
        const std::string conv2 = test::readBytes(out + "/conv2.timeloop.yaml");
        const YAML::Node doc = YAML::Load(conv2);
        QCOMPARE(doc["mapping"][0]["target"].as<std::string>(), std::string("DRAM"));
        QCOMPARE(doc["mapping"][0]["factors"].as<std::string>(),
                 std::string("R=1 S=1 P=4 Q=4 C=1 K=1 N=1"));
        QCOMPARE(doc["mapping"][1]["factors"].as<std::string>(),
                 std::string("R=3 S=3 P=4 Q=4 C=4 K=4 N=1"));
        // The schedule names convfusion-40nm (16-bit words, 512 KiB): the buffer holds
        // 524288 * 8 / 16 = 262144 words.
        const YAML::Node buffer = doc["architecture"]["subtree"][0]["subtree"][0]["local"][0];
        QCOMPARE(buffer["name"].as<std::string>(), std::string("Buffer"));
        QCOMPARE(buffer["attributes"]["depth"].as<int>(), 262144);
        QCOMPARE(buffer["attributes"]["word_bits"].as<int>(), 16);
    }

    void timeloopOneLayer() {
        const test::CliRun r = test::runCli({"export", "l2net", "--schedule", workedExample(),
                                             "--format", "timeloop", "--layer", "conv2"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const YAML::Node doc = YAML::Load(r.out);
        QCOMPARE(doc["problem"]["instance"]["P"].as<int>(), 16);
        QCOMPARE(doc["mapping"][1]["permutation"].as<std::string>(), std::string("RSCPQKN"));
        // Into an existing directory: the file is named after the layer.
        QTemporaryDir dir;
        const test::CliRun d = test::runCli(
            {"export", "l2net", "--format", "timeloop", "--layer", "conv1", "-o", dir.path()});
        QVERIFY2(d.code == 0, d.err.c_str());
        QVERIFY(QFile::exists(dir.filePath("conv1.timeloop.yaml")));
    }

    // A fused layer has no Timeloop mapping: exit 1 with the reason; nothing left to export
    // for the whole network is bad input too.
    void timeloopFusedLayers() {
        QTemporaryDir dir;
        const QString sched = writeText(dir, "fused.sched.yaml", kFused);
        const test::CliRun one = test::runCli(
            {"export", "l2net", "--schedule", sched, "--format", "timeloop", "--layer", "conv2"});
        QCOMPARE(one.code, 1);
        QVERIFY_CONTAINS(one.err, "fused in group 'g0'");
        const test::CliRun all = test::runCli({"export", "l2net", "--schedule", sched, "--format",
                                               "timeloop", "-o", dir.filePath("out")});
        QCOMPARE(all.code, 1);
        QVERIFY_CONTAINS(all.err, "nothing to export");
        const test::CliRun missing =
            test::runCli({"export", "l2net", "--format", "timeloop", "--layer", "conv9"});
        QCOMPARE(missing.code, 1);
        QVERIFY_CONTAINS(missing.err, "no layer named 'conv9'");
    }

    void streamFile() {
        QTemporaryDir dir;
        const QString sched = writeText(dir, "fused.sched.yaml", kFused);
        const QString out = dir.filePath("l2net.stream.yaml");
        const test::CliRun r =
            test::runCli({"export", "l2net", "--schedule", sched, "--format", "stream", "-o", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        const YAML::Node doc = YAML::Load(test::readBytes(out));
        QCOMPARE(doc["workload"].size(), size_t(2));
        QCOMPARE(doc["layer_stacks"].size(), size_t(1));
        QCOMPARE(doc["layer_stacks"][0].as<std::vector<int>>(), (std::vector<int>{0, 1}));
        // conv1: 3 -> 4 channels, 18x18 outputs of a 20x20 input, 3x3 kernel.
        QCOMPARE(doc["workload"][0]["loop_sizes"].as<std::vector<int>>(),
                 (std::vector<int>{1, 4, 3, 18, 18, 3, 3}));
    }

    // csv and json are the metrics exactly as `evaluate` prints them.
    void metricsMatchEvaluate() {
        for (const char* format : {"csv", "json"}) {
            const test::CliRun e = test::runCli(
                {"evaluate", "resnet18", "--hardware", "optimus-default", "--format", format});
            const test::CliRun x = test::runCli(
                {"export", "resnet18", "--hardware", "optimus-default", "--format", format});
            QVERIFY2(e.code == 0 && x.code == 0, (e.err + x.err).c_str());
            QVERIFY(!x.out.empty());
            QCOMPARE(x.out, e.out);
        }
        QTemporaryDir dir;
        const QString out = dir.filePath("m.csv");
        QCOMPARE(test::runCli({"export", "l2net", "--format", "csv", "-o", out}).code, 0);
        QVERIFY(test::readBytes(out).rfind("kind,name,group,type,macs", 0) == 0);
    }

    // Bad input: exit 1, FILE:LINE:COLUMN of the offending key.
    void badInput() {
        QTemporaryDir dir;
        const std::string badLine =
            "  - {name: c1, type: conv, inputs: [image], out_channels: 4, kernal: 3}";
        const QString net =
            writeText(dir, "bad.net.yaml",
                      "format: layerfuse/network@1\nname: Bad\ninputs:\n"
                      "  - {name: image, channels: 3, height: 8, width: 8}\nlayers:\n" +
                          badLine + "\n");
        const test::CliRun r = test::runCli({"export", net, "--format", "stream"});
        QCOMPARE(r.code, 1);
        const std::string where =
            net.toStdString() + ":6:" + std::to_string(badLine.find("kernal") + 1) + ": ";
        QVERIFY_CONTAINS(r.err, where);
        QVERIFY_CONTAINS(r.err, "unknown key 'kernal'");

        const QString sched =
            writeText(dir, "bad.sched.yaml",
                      "format: layerfuse/schedule@1\nlayers:\n  conv2: {tiles: {z: 0}}\n");
        const test::CliRun s = test::runCli(
            {"export", "l2net", "--schedule", sched, "--format", "timeloop", "--layer", "conv2"});
        QCOMPARE(s.code, 1);
        QVERIFY_CONTAINS(s.err, sched.toStdString() + ":3:");
        const test::CliRun w = test::runCli(
            {"export", "l2net", "--format", "stream", "-o", dir.filePath("no/such/dir/x.yaml")});
        QCOMPARE(w.code, 1);
        QVERIFY_CONTAINS(w.err, "cannot write file");
    }

    void usageErrors() {
        QCOMPARE(test::runCli({"export", "l2net"}).code, 2);                    // no --format
        QCOMPARE(test::runCli({"export", "l2net", "--format", "xml"}).code, 2); // unknown format
        const test::CliRun noDir =
            test::runCli({"export", "l2net", "--format", "timeloop"}); // no -o DIR
        QCOMPARE(noDir.code, 2);
        QVERIFY_CONTAINS(noDir.err, "-o DIR");
        QCOMPARE(test::runCli({"export", "l2net", "--format", "csv", "--layer", "conv1"}).code,
                 2); // --layer: timeloop only
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
