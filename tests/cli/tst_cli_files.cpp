// What layerfuse-cli writes and reads besides its arguments (issue 17): every file it writes
// is replaced whole (a temporary file renamed over it, never truncated in place); a write
// that fails — a full disk, a closed pipe, `> /dev/full` — exits 1 with a message; a
// schedule's `hardware: {name: X}` is a bundled preset or a file relative to the schedule
// (never the working directory) with FILE:LINE:COLUMN otherwise; long values are cut in
// messages; `optimize` on wide fan-outs and long chains finishes within its bounds and says
// what it did not explore, in its summary and in `--report` JSON.
#include "cli_run.h"
#include "net_text.h"
#include "synthetic_networks.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

using namespace lf;
using test::runCli;

#define QVERIFY_CLI(run, expectedCode) QVERIFY2((run).ok(expectedCode), (run).describe().c_str())

namespace {

test::CliRunOptions in(const QString& dir) {
    test::CliRunOptions o;
    o.working_directory = dir;
    o.timeout_ms = 300000;
    return o;
}

} // namespace

namespace {

void writeFile(const QString& path, const std::string& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
}

// The file names in `dir` other than `keep`.
QStringList othersIn(const QString& dir, const QStringList& keep) {
    QStringList out;
    for (const QString& f : QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System))
        if (!keep.contains(f)) out << f;
    return out;
}

} // namespace

class TstCliFiles : public QObject {
    Q_OBJECT
  private slots:
    void outputsReplaceTheFileWhole_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("convert") << QStringList{"convert", "l2net", "OUT"};
        QTest::newRow("optimize -o") << QStringList{"optimize", "l2net", "-o", "OUT"};
        QTest::newRow("explore --csv") << QStringList{"explore", "l2net", "--csv", "OUT"};
        QTest::newRow("export -o")
            << QStringList{"export", "l2net", "--format", "json", "-o", "OUT"};
        QTest::newRow("optimize --report")
            << QStringList{"optimize", "l2net", "-o", "s.sched.yaml", "--report", "OUT"};
    }
    void outputsReplaceTheFileWhole() {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString out = dir.filePath("out.txt"), keep = dir.filePath("keep.txt");
        writeFile(out, "old contents\n");
        // A second name for the old file: writing in place would change it too.
        QCOMPARE(::link(QFile::encodeName(out).constData(), QFile::encodeName(keep).constData()),
                 0);
        args.replaceInStrings(QStringLiteral("OUT"), out);
        const auto r = runCli(args, in(dir.path()));
        QVERIFY_CLI(r, 0);
        QCOMPARE(test::readBytes(keep), std::string("old contents\n"));
        const std::string now = test::readBytes(out);
        QVERIFY(!now.empty() && now != "old contents\n");
        QCOMPARE(othersIn(dir.path(), {"out.txt", "keep.txt", "s.sched.yaml"}), QStringList{});
    }

    // A file that cannot be written: exit 1, the path and the reason on stderr, and the old
    // file untouched.
    void failedWritesExitOne() {
        QTemporaryDir dir;
        const QString missing = dir.filePath("no-such-dir/out.yaml");
        auto r = runCli({"convert", "l2net", missing});
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.find("no-such-dir/out.yaml") != std::string::npos, r.err.c_str());
        r = runCli({"optimize", "l2net", "-o", dir.path()});
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.find("is a directory") != std::string::npos, r.err.c_str());
        r = runCli({"export", "l2net", "--format", "csv", "-o", "/dev/full"});
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.find("No space left on device") != std::string::npos, r.err.c_str());
        QVERIFY(QFileInfo("/dev/full").exists() && !QFileInfo("/dev/full").isFile());
    }

    // Issue 17: `> /dev/full` exited 0.
    void fullStandardOutputExitsOne_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("evaluate") << QStringList{"evaluate", "resnet50", "--format", "json"};
        QTest::newRow("convert -") << QStringList{"convert", "l2net", "-"};
        QTest::newRow("optimize") << QStringList{"optimize", "l2net"};
        QTest::newRow("explore") << QStringList{"explore", "l2net"};
        QTest::newRow("export") << QStringList{"export", "l2net", "--format", "csv"};
        QTest::newRow("examples") << QStringList{"examples"};
        QTest::newRow("--help") << QStringList{"--help"};
    }
    void fullStandardOutputExitsOne() {
        QFETCH(QStringList, args);
        test::CliRunOptions o;
        o.stdout_file = QStringLiteral("/dev/full");
        const auto r = runCli(args, o);
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.find("standard output: cannot write: No space left on device") !=
                     std::string::npos,
                 r.err.c_str());
    }

    // A closed pipe (`| head -c 1`): exit 1 with a message, not killed by SIGPIPE.
    void closedPipeExitsOne() {
        QProcess sh;
        sh.start("/bin/bash", {"-c",
                               "\"$0\" evaluate resnet152 --format json 2>err.txt | head -c 1 "
                               ">/dev/null; echo \"${PIPESTATUS[0]}\"; cat err.txt",
                               test::cliPath()});
        QTemporaryDir dir;
        sh.setWorkingDirectory(dir.path());
        QVERIFY(sh.waitForFinished(120000));
        const QString out = QString::fromUtf8(sh.readAllStandardOutput());
        QVERIFY2(out.startsWith("1\n"), qPrintable(out));
        QVERIFY2(out.contains("standard output: cannot write: Broken pipe"), qPrintable(out));
    }

    // Issue 17: `hardware: {name: X}` was also opened relative to the working directory
    // (/etc/passwd got parsed) and its error had no LINE:COLUMN.
    void scheduleHardwareNamesResolveNextToTheSchedule() {
        QTemporaryDir dir, elsewhere;
        QVERIFY(QDir(dir.path()).mkpath("sched/hw"));
        const QString sched = dir.filePath("sched/s.sched.yaml");
        auto scheduleNaming = [&](const std::string& hw) {
            writeFile(sched, "format: layerfuse/schedule@1\nhardware: {name: " + hw + "}\n");
        };
        auto hardwareOf = [&](const test::CliRun& r) {
            return nlohmann::json::parse(r.out)["hardware"].get<std::string>();
        };
        const std::string myHw = test::readBytes(
            QStringLiteral(LAYERFUSE_SOURCE_DIR "/examples/hardware/hwff-config-2.hw.yaml"));
        // A preset.
        scheduleNaming("optimus-config-3");
        auto r = runCli({"evaluate", "l2net", "--schedule", sched, "--format", "json"},
                        in(elsewhere.path()));
        QVERIFY_CLI(r, 0);
        QCOMPARE(hardwareOf(r), std::string("optimus-config-3"));
        // A file next to the schedule, from another working directory.
        writeFile(dir.filePath("sched/hw/mine.hw.yaml"),
                  "format: layerfuse/hardware@1\nname: mine\n" +
                      myHw.substr(myHw.find("\nfrequency_mhz") + 1));
        scheduleNaming("hw/mine.hw.yaml");
        r = runCli({"evaluate", "l2net", "--schedule", sched, "--format", "json"},
                   in(elsewhere.path()));
        QVERIFY_CLI(r, 0);
        QCOMPARE(hardwareOf(r), std::string("mine"));
        // The same name in the working directory only: refused at the name.
        QVERIFY(QDir(elsewhere.path()).mkpath("hw"));
        QVERIFY(QFile::copy(dir.filePath("sched/hw/mine.hw.yaml"),
                            elsewhere.filePath("hw/other.hw.yaml")));
        scheduleNaming("hw/other.hw.yaml");
        r = runCli({"evaluate", "l2net", "--schedule", sched}, in(elsewhere.path()));
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.rfind(sched.toStdString() + ":2:18: hardware 'hw/other.hw.yaml'", 0) == 0,
                 r.err.c_str());
        // An absolute path: refused at the name, never opened.
        scheduleNaming("/etc/passwd");
        r = runCli({"evaluate", "l2net", "--schedule", sched}, in(elsewhere.path()));
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.rfind(sched.toStdString() + ":2:18: hardware '/etc/passwd' is not a "
                                                   "bundled preset",
                             0) == 0,
                 r.err.c_str());
        // The same rules for `export`.
        r = runCli({"export", "l2net", "--schedule", sched, "--format", "csv"},
                   in(elsewhere.path()));
        QVERIFY_CLI(r, 1);
        QVERIFY(r.err.find(":2:18:") != std::string::npos);
    }

    // Issue 17: an 8 MB value became an 8 MB line.
    void longValuesAreCutInMessages() {
        QTemporaryDir dir;
        const std::string huge(8 << 20, 'x');
        const QString net = dir.filePath("long.net.yaml");
        writeFile(net, test::netYaml({"{name: x, channels: 1, height: 4, width: 4}"},
                                     {"{name: c, type: " + huge + ", inputs: [x]}"}));
        auto r = runCli({"evaluate", net});
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.size() < 1000, std::to_string(r.err.size()).c_str());
        QVERIFY2(r.err.find("…' (8388608 bytes)") != std::string::npos,
                 r.err.substr(0, 500).c_str());
        const QString sched = dir.filePath("long.sched.yaml");
        writeFile(sched, "format: layerfuse/schedule@1\nhardware: {name: " + huge + "}\n");
        r = runCli({"evaluate", "l2net", "--schedule", sched});
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.size() < 1000, std::to_string(r.err.size()).c_str());
        const QString hw = dir.filePath("long.hw.yaml");
        writeFile(hw, "format: layerfuse/hardware@1\nname: h\noverlap: " + huge + "\n");
        r = runCli({"evaluate", "l2net", "--hardware", hw});
        QVERIFY_CLI(r, 1);
        QVERIFY2(r.err.size() < 1000, std::to_string(r.err.size()).c_str());
    }

    // Issue 17: one conv feeding 30 1×1 convs ended in std::bad_alloc after 4-7 GB.
    void optimizeSaysWhatItDidNotExplore() {
        QTemporaryDir dir;
        const QString net = dir.filePath("fan30.net.yaml"), report = dir.filePath("r.json");
        writeFile(net, test::fanOutNetworkYaml(30));
        const auto r = runCli({"optimize", net, "--hardware", "optimus-default", "-o",
                               dir.filePath("s.sched.yaml"), "--report", report});
        QVERIFY_CLI(r, 0);
        QVERIFY2(r.err.find("not explored: groups limited in size") != std::string::npos,
                 r.err.c_str());
        const auto j = nlohmann::json::parse(test::readBytes(report));
        QCOMPARE(j["method"].get<std::string>(), std::string("optimus"));
        QCOMPARE(j["complete"].get<bool>(), false);
        bool stem = false;
        for (const auto& l : j["not_explored"]["limited_vertices"])
            stem = stem || l["layer"].get<std::string>() == "stem";
        QVERIFY(stem);
        QVERIFY(j["not_explored"]["groups_not_formed_at_least"].get<int64_t>() > 0);
        QVERIFY(j["peak_resident_bytes"].get<int64_t>() < (int64_t(1) << 30));
        // A complete search says so too.
        const auto ok = runCli(
            {"optimize", "resnet18", "-o", dir.filePath("t.sched.yaml"), "--report", report});
        QVERIFY_CLI(ok, 0);
        QVERIFY(ok.err.find("not explored") == std::string::npos);
        QCOMPARE(nlohmann::json::parse(test::readBytes(report))["complete"].get<bool>(), true);
    }

    // Issue 17: `optimize --method dse` on a 5,000-layer chain ran out of time at 6.2 GB.
    void optimizeDseOnALongChain() {
        QTemporaryDir dir;
        const QString net = dir.filePath("chain.net.yaml"), report = dir.filePath("r.json");
        writeFile(net, test::chainYaml(5000));
        const auto r = runCli({"optimize", net, "--method", "dse", "-o",
                               dir.filePath("s.sched.yaml"), "--report", report});
        QVERIFY_CLI(r, 0);
        const auto j = nlohmann::json::parse(test::readBytes(report));
        QCOMPARE(j["method"].get<std::string>(), std::string("dse"));
        QCOMPARE(j["depth_searched"].get<int>(), 3);
        QCOMPARE(j["complete"].get<bool>(), true);
        QVERIFY(j["peak_resident_bytes"].get<int64_t>() < (int64_t(1) << 30));
        const auto ev = runCli(
            {"evaluate", net, "--schedule", dir.filePath("s.sched.yaml"), "--format", "json"});
        QVERIFY_CLI(ev, 0);
        QCOMPARE(nlohmann::json::parse(ev.out)["totals"]["fits"].get<bool>(), true);
    }
};

QTEST_GUILESS_MAIN(TstCliFiles)
#include "tst_cli_files.moc"
