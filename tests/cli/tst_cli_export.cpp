// `layerfuse-cli export` end to end: Timeloop files into a directory or one layer to
// standard output, the ZigZag and Stream directories, `convert` to ONNX and back, metrics
// CSV/JSON identical to `evaluate`, and the exit codes (1 with FILE:LINE:COLUMN for bad
// input, 2 for usage errors).
#include "cli_run.h"
#include "net_text.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <string>

using namespace lf;

namespace {

using Run = test::CliRun;

Run cli(const QStringList& args) {
    return test::runCli(args);
}

std::string readText(const QString& path) {
    return test::readBytes(path);
}

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
    // (tests/core/tst_timeloop_export.cpp): DRAM R=1 S=1 P=4 Q=4 C=1 K=1 N=1.
    void timeloopDirectory() {
        QTemporaryDir dir;
        const QString out = dir.filePath("tl");
        const Run r = cli(
            {"export", "l2net", "--schedule", workedExample(), "--format", "timeloop", "-o", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY_CONTAINS(r.out, "conv1.timeloop.yaml");
        QVERIFY_CONTAINS(r.out, "conv2.timeloop.yaml");
        QCOMPARE(QDir(out).entryList(QDir::Files).size(), 2);
        const std::string conv2 = readText(out + "/conv2.timeloop.yaml");
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
        const Run r = cli({"export", "l2net", "--schedule", workedExample(), "--format", "timeloop",
                           "--layer", "conv2"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const YAML::Node doc = YAML::Load(r.out);
        QCOMPARE(doc["problem"]["instance"]["P"].as<int>(), 16);
        QCOMPARE(doc["mapping"][1]["permutation"].as<std::string>(), std::string("RSCPQKN"));
        // Into an existing directory: the file is named after the layer.
        QTemporaryDir dir;
        const Run d =
            cli({"export", "l2net", "--format", "timeloop", "--layer", "conv1", "-o", dir.path()});
        QVERIFY2(d.code == 0, d.err.c_str());
        QVERIFY(QFile::exists(dir.filePath("conv1.timeloop.yaml")));
    }

    // A fused layer has no Timeloop mapping: exit 1 with the reason; nothing left to export
    // for the whole network is bad input too.
    void timeloopFusedLayers() {
        QTemporaryDir dir;
        const QString sched = writeText(dir, "fused.sched.yaml", kFused);
        const Run one = cli(
            {"export", "l2net", "--schedule", sched, "--format", "timeloop", "--layer", "conv2"});
        QCOMPARE(one.code, 1);
        QVERIFY_CONTAINS(one.err, "fused in group 'g0'");
        const Run all = cli({"export", "l2net", "--schedule", sched, "--format", "timeloop", "-o",
                             dir.filePath("out")});
        QCOMPARE(all.code, 1);
        QVERIFY_CONTAINS(all.err, "nothing to export");
        const Run missing = cli({"export", "l2net", "--format", "timeloop", "--layer", "conv9"});
        QCOMPARE(missing.code, 1);
        QVERIFY_CONTAINS(missing.err, "no layer named 'conv9'");
    }

    // Stream: workload.onnx, mapping.yaml and accelerator.yaml in the directory, one fused
    // group with both convolutions (and conv1's ReLU between them).
    void streamDirectory() {
        QTemporaryDir dir;
        const QString sched = writeText(dir, "fused.sched.yaml", kFused);
        const QString out = dir.filePath("stream");
        const Run r =
            cli({"export", "l2net", "--schedule", sched, "--format", "stream", "-o", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY_CONTAINS(r.out, "workload.onnx");
        QVERIFY(QFile::exists(out + "/workload.onnx"));
        const YAML::Node mapping = YAML::Load(readText(out + "/mapping.yaml"));
        QCOMPARE(mapping["fused_groups"].size(), size_t(1));
        const auto layers = mapping["fused_groups"][0]["layers"].as<std::vector<std::string>>();
        QCOMPARE(layers.front(), std::string("conv1"));
        QCOMPARE(layers.back(), std::string("conv2"));
        const YAML::Node acc = YAML::Load(readText(out + "/accelerator.yaml"));
        QCOMPARE(acc["offchip_core_id"].as<int>(), 1);
        // A network Stream has no parser for is refused with the reason, nothing written.
        const Run mb =
            cli({"export", "mobilenetv2", "--format", "stream", "-o", dir.filePath("mb")});
        QCOMPARE(mb.code, 1);
        QVERIFY_CONTAINS(mb.err, "depthwise");
        QVERIFY(!QFile::exists(dir.filePath("mb/workload.onnx")));
    }

    // ZigZag: the three files, and notes on standard error for what ZigZag cannot express.
    void zigzagDirectory() {
        QTemporaryDir dir;
        const QString sched = writeText(dir, "fused.sched.yaml", kFused);
        const QString out = dir.filePath("zz");
        const Run r =
            cli({"export", "l2net", "--schedule", sched, "--format", "zigzag", "-o", out});
        QVERIFY2(r.code == 0, r.err.c_str());
        for (const char* f : {"workload.yaml", "accelerator.yaml", "mapping.yaml"}) {
            QVERIFY_CONTAINS(r.out, f);
            QVERIFY(QFile::exists(out + "/" + f));
        }
        QVERIFY_CONTAINS(r.err, "note: fusion group g0 (conv1, conv2) is costed by ZigZag layer "
                                "by layer");
        const YAML::Node mapping = YAML::Load(readText(out + "/mapping.yaml"));
        QCOMPARE(mapping[mapping.size() - 1]["name"].as<std::string>(), std::string("default"));
    }

    // convert to .onnx and back: the same canonical network (the sha256 a schedule names).
    void convertToOnnxAndBack() {
        QTemporaryDir dir;
        const QString onnx = dir.filePath("r.onnx");
        const QString yaml = dir.filePath("r.net.yaml");
        const Run to = cli({"convert", "resnet18", onnx});
        QVERIFY2(to.code == 0, to.err.c_str());
        const Run back = cli({"convert", onnx, yaml});
        QVERIFY2(back.code == 0, back.err.c_str());
        const Run a = cli({"evaluate", "resnet18", "--format", "json"});
        const Run b = cli({"evaluate", yaml, "--format", "json"});
        QVERIFY2(a.code == 0 && b.code == 0, (a.err + b.err).c_str());
        const YAML::Node ja = YAML::Load(a.out), jb = YAML::Load(b.out);
        QCOMPARE(jb["totals"]["macs"].as<int64_t>(), ja["totals"]["macs"].as<int64_t>());
        QCOMPARE(jb["layers"].size(), ja["layers"].size());
        const Run bad = cli({"convert", "resnet18", dir.filePath("no/such/dir/x.onnx")});
        QCOMPARE(bad.code, 1);
        QVERIFY_CONTAINS(bad.err, "cannot create a file in its directory");
    }

    // A ZigZag accelerator wherever --hardware is accepted; one LayerFuse cannot take is bad
    // input with FILE:LINE:COLUMN.
    void zigzagAcceleratorAsHardware() {
        const QString acc = lf::test::testData("zigzag/small_eyeriss.yaml");
        const Run e = cli({"evaluate", "l2net", "--hardware", acc, "--format", "json"});
        QVERIFY2(e.code == 0, e.err.c_str());
        QCOMPARE(YAML::Load(e.out)["hardware"].as<std::string>(), std::string("small_eyeriss"));
        // What the import assumed (the accelerator carries no operand widths, for one).
        QVERIFY_CONTAINS(e.err, "note: " + acc.toStdString() + ": ");
        QTemporaryDir dir;
        const Run x = cli(
            {"export", "l2net", "--hardware", acc, "--format", "zigzag", "-o", dir.filePath("zz")});
        QVERIFY2(x.code == 0, x.err.c_str());
        const QString imc = lf::test::testData("zigzag/imc.yaml");
        const Run bad = cli({"evaluate", "l2net", "--hardware", imc});
        QCOMPARE(bad.code, 1);
        QVERIFY_CONTAINS(bad.err, imc.toStdString() + ":");
        QVERIFY_CONTAINS(bad.err, "in-memory computing arrays are not supported");
    }

    // csv and json are the metrics exactly as `evaluate` prints them.
    void metricsMatchEvaluate() {
        for (const char* format : {"csv", "json"}) {
            const Run e =
                cli({"evaluate", "resnet18", "--hardware", "optimus-default", "--format", format});
            const Run x =
                cli({"export", "resnet18", "--hardware", "optimus-default", "--format", format});
            QVERIFY2(e.code == 0 && x.code == 0, (e.err + x.err).c_str());
            QVERIFY(!x.out.empty());
            QCOMPARE(x.out, e.out);
        }
        QTemporaryDir dir;
        const QString out = dir.filePath("m.csv");
        QCOMPARE(cli({"export", "l2net", "--format", "csv", "-o", out}).code, 0);
        QVERIFY(readText(out).rfind("kind,name,group,type,macs", 0) == 0);
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
        const Run r = cli({"export", net, "--format", "stream", "-o", dir.filePath("s")});
        QCOMPARE(r.code, 1);
        const std::string where =
            net.toStdString() + ":6:" + std::to_string(badLine.find("kernal") + 1) + ": ";
        QVERIFY_CONTAINS(r.err, where);
        QVERIFY_CONTAINS(r.err, "unknown key 'kernal'");

        const QString sched =
            writeText(dir, "bad.sched.yaml",
                      "format: layerfuse/schedule@1\nlayers:\n  conv2: {tiles: {z: 0}}\n");
        const Run s = cli(
            {"export", "l2net", "--schedule", sched, "--format", "timeloop", "--layer", "conv2"});
        QCOMPARE(s.code, 1);
        QVERIFY_CONTAINS(s.err, sched.toStdString() + ":3:");
        QFile blocker(dir.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const Run w = cli({"export", "l2net", "--format", "zigzag", "-o", dir.filePath("file/x")});
        QCOMPARE(w.code, 1);
        QVERIFY_CONTAINS(w.err, "cannot create directory");
    }

    void usageErrors() {
        QCOMPARE(cli({"export", "l2net"}).code, 2);                         // no --format
        QCOMPARE(cli({"export", "l2net", "--format", "xml"}).code, 2);      // unknown format
        const Run noDir = cli({"export", "l2net", "--format", "timeloop"}); // no -o DIR
        QCOMPARE(noDir.code, 2);
        QVERIFY_CONTAINS(noDir.err, "-o DIR");
        QCOMPARE(cli({"export", "l2net", "--format", "csv", "--layer", "conv1"}).code,
                 2); // --layer: timeloop only
        for (const char* format : {"zigzag", "stream"}) {
            const Run r = cli({"export", "l2net", "--format", format}); // no -o DIR
            QCOMPARE(r.code, 2);
            QVERIFY_CONTAINS(r.err, "give -o DIR");
        }
    }
};

QTEST_GUILESS_MAIN(TestCliExport)
#include "tst_cli_export.moc"
