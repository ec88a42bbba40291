// `layerfuse-cli reproduce` as a user runs it (issue 15's done-when checks on the cheaper
// papers): JSON with rows and statuses, a progress line per paper on stderr, the aligned text,
// -o DIR writing the report and every row's schedule (which `evaluate --schedule` reads back),
// the HTML report with its plots (inline SVG or PNG) when the CLI is built with the studio;
// an unknown paper is a usage error.
#include "cli_run.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lf;
using lf::test::runCli;

class TstCliReproduce : public QObject {
    Q_OBJECT
  private slots:
    void jsonWithProgressLines() {
        const auto r = runCli({"reproduce", "stoutchinin", "--format", "json"});
        QVERIFY2(r.ok(), r.describe().c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["papers"].size(), size_t(1));
        const auto& rows = j["papers"][0]["rows"];
        QVERIFY(rows.size() >= 5);
        for (const auto& row : rows) {
            QVERIFY(row.contains("paper_text") && row.contains("ours") && row.contains("ratio"));
            const std::string s = row["status"];
            QVERIFY(s == "match" || s == "close" || s == "differs");
        }
        QVERIFY(r.err.find("reproduce: Stoutchinin: ") != std::string::npos);
    }

    void textIsAligned() {
        const auto r = runCli({"reproduce", "hwff"});
        QVERIFY2(r.ok(), r.describe().c_str());
        QVERIFY(r.out.find("HW-Flow-Fusion — ") == 0);
        QVERIFY(r.out.find("  status   where") != std::string::npos);
        QVERIFY(r.out.find("Total: ") != std::string::npos);
    }

    void outputDirectoryWithSchedulesAndPlots() {
        QTemporaryDir dir;
        const QString out = dir.filePath("report");
        const auto r = runCli({"reproduce", "hwff", "--format", "html", "-o", out});
        QVERIFY2(r.ok(), r.describe().c_str());
        QFile html(out + "/reproduce.html");
        QVERIFY(html.open(QIODevice::ReadOnly));
        const std::string page = html.readAll().toStdString();
        QVERIFY(page.find("<table>") != std::string::npos);
        const bool plots = page.find("<svg") != std::string::npos ||
                           page.find("data:image/png;base64,") != std::string::npos;
        const bool note = page.find("built with the studio") != std::string::npos;
        QVERIFY(plots != note); // plots when built with the studio, else the note says why
        const QStringList schedules =
            QDir(out + "/schedules").entryList({"*.sched.yaml"}, QDir::Files);
        QVERIFY(!schedules.isEmpty());
        // A schedule with the row's hardware inline reads back into evaluate.
        const QString one = out + "/schedules/hwff.table5.temporal-volume-vgg16-e.sched.yaml";
        QVERIFY(QFile::exists(one));
        const auto e = runCli({"evaluate", "vgg16-e", "--hardware", "hwff-config-1", "--schedule",
                               one, "--format", "json"});
        QVERIFY2(e.ok(), e.describe().c_str());
        QVERIFY(nlohmann::json::parse(e.out)["totals"]["dram_accesses"].get<int64_t>() > 0);
    }

    void unknownPaperIsAUsageError() {
        const auto r = runCli({"reproduce", "nonesuch"});
        QVERIFY2(r.ok(2), r.describe().c_str());
    }
};

QTEST_GUILESS_MAIN(TstCliReproduce)
#include "tst_cli_reproduce.moc"
