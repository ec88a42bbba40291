// `layerfuse-cli optimize` and `explore` as a user runs them (docs/cli.md): the
// optimized ResNet-50 schedule reads back into `evaluate --schedule` with less DRAM traffic
// than the default schedule (issue 5's done-when check), by either method; `explore --csv`
// writes the documented columns, one row per front point, each point's schedule with
// --save-schedules; usage errors exit 2.
#include "cli_run.h"
#include "net_text.h"
#include "search/explore_front.h"
#include "test_support.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <sstream>

using namespace lf;

namespace {

using Run = lf::test::CliRun;

Run cli(const QStringList& args) {
    return lf::test::runCli(args, 120000);
}

int64_t dramOf(const std::string& json) {
    return nlohmann::json::parse(json)["totals"]["dram_accesses"].get<int64_t>();
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
        out.push_back(cell);
    return out;
}

} // namespace

class TstCliSearch : public QObject {
    Q_OBJECT
  private slots:
    void optimizeLowersResNet50Traffic() {
        QTemporaryDir dir;
        const Run base = cli({"evaluate", "resnet50", "--format", "json"});
        QVERIFY_RUN(base, 0);
        for (const char* method : {"optimus", "dse"}) {
            const QString out = dir.filePath(QString("s-%1.sched.yaml").arg(method));
            const Run opt = cli({"optimize", "resnet50", "--method", method, "-o", out});
            QVERIFY_RUN(opt, 0);
            const Run ev = cli({"evaluate", "resnet50", "--schedule", out, "--format", "json"});
            QVERIFY_RUN(ev, 0);
            QVERIFY2(dramOf(ev.out) < dramOf(base.out), method);
        }
    }

    void optimizeWritesToStdoutWithMetrics() {
        const Run r = cli({"optimize", "l3net", "--objective", "energy"});
        QVERIFY_RUN(r, 0);
        QVERIFY(r.out.rfind("format: layerfuse/schedule@1", 0) == 0);
        QVERIFY(r.out.find("metrics:") != std::string::npos);
    }

    void exploreWritesTheFront() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("front.csv"), schedules = dir.filePath("points");
        const Run r = cli(
            {"explore", "l3net", "--tiles", "all", "--csv", csv, "--save-schedules", schedules});
        QVERIFY_RUN(r, 0);
        const std::string text = test::readBytes(csv);
        std::stringstream ss(text);
        std::string line;
        std::getline(ss, line);
        const auto header = split(line);
        for (const char* col :
             {"point", "dram_accesses", "buffer_bytes", "macs", "energy_pj", "latency_cycles"})
            QVERIFY2(std::find(header.begin(), header.end(), col) != header.end(), col);
        int rows = 0;
        while (std::getline(ss, line)) {
            const auto cells = split(line);
            QCOMPARE(cells.size(), header.size());
            QCOMPARE(cells[0], std::to_string(rows));
            ++rows;
        }
        QVERIFY(rows > 20);
        QCOMPARE(int(QDir(schedules).entryList({"*.sched.yaml"}).size()), rows);
        // A saved point evaluates to its row.
        const Run ev = cli({"evaluate", "l3net", "--schedule",
                            QDir(schedules).filePath("point-0000.sched.yaml"), "--format", "json"});
        QVERIFY_RUN(ev, 0);
        std::stringstream again(text);
        std::getline(again, line);
        std::getline(again, line);
        QCOMPARE(std::to_string(dramOf(ev.out)), split(line)[1]);
    }

    // The CLI writes the same front CSV as the studio's Explore dialog (core's frontCsv).
    void exploreCsvIsTheStudiosCsv() {
        const Run r = cli({"explore", "l3net", "--max-depth", "2"});
        QVERIFY_RUN(r, 0);
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions o;
        o.max_depth = 2;
        QCOMPARE(r.out, frontCsv(evaluateFront(net, hw, explore(net, hw, o))));
    }

    void usageErrors() {
        QVERIFY_RUN(cli({"optimize", "l3net", "--objective", "speed"}), 2);
        QVERIFY_RUN(cli({"explore", "l3net", "--tiles", "odd"}), 2);
        const Run missing = cli({"optimize", "no-such-network"});
        QVERIFY_RUN(missing, 1);
    }
};

QTEST_GUILESS_MAIN(TstCliSearch)
#include "tst_cli_search.moc"
