// The reproduction report writers (core/repro/repro_report.h) on hand-made reports: the
// JSON fields, the aligned text, the HTML (escaped, plots inline or a note when absent) and
// the status counts.

#include "repro/repro_report.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lf;
using namespace lf::repro;

namespace {

std::vector<PaperReport> sample() {
    PaperReport p;
    p.paper = Paper::tso;
    p.seconds = 0.25;
    Row a;
    a.id = "tso.x.bursts";
    a.where = "Fig. 1";
    a.measured = "bursts <of> slicing & co";
    a.paper_text = "1024";
    a.paper_value = 1024;
    a.ours = 1024;
    a.unit = "bursts";
    a.tolerance_why = "a count";
    a.setup = "tso-nmp";
    a.status = RowStatus::match;
    Row b = a;
    b.id = "tso.x.time";
    b.paper_text = "84us";
    b.paper_value = 84;
    b.ours = 38.7;
    b.unit = "us";
    b.status = RowStatus::differs;
    b.note = "the board's burst time is ~49 ns";
    b.open = OpenTarget{"lenet5", "tso-nmp", std::nullopt, "", std::nullopt, "default"};
    p.rows = {a, b};
    Plot pl;
    pl.id = "tso-plot";
    pl.where = "Fig. 1";
    pl.title = "time <by> width";
    pl.series.push_back({"model", {{16, 1}, {32, 2}}, false, true});
    Plot bars = pl;
    bars.id = "tso-bars";
    bars.categories = {"a", "b"};
    p.plots = {pl, bars};
    p.not_reproduced = {"Table I: accuracy"};
    return {p};
}

} // namespace

class TstReproReport : public QObject {
    Q_OBJECT
  private slots:
    void counts() {
        const auto r = sample();
        const StatusCounts c = countStatuses(r);
        QCOMPARE(c.match, 1);
        QCOMPARE(c.differs, 1);
        QCOMPARE(c.total(), 2);
        QCOMPARE(QString::fromStdString(summaryLine(r.front())),
                 QStringLiteral("TSO: 2 rows (1 match, 0 close, 1 differ), 2 plots, 0.25 s"));
    }

    void json() {
        const nlohmann::json j =
            reportJson(sample(), {{"tso.x.time", "schedules/tso.x.time.sched.yaml"}});
        QCOMPARE(j["format"].get<std::string>(), std::string("layerfuse/reproduce@1"));
        QCOMPARE(j["summary"]["rows"].get<int>(), 2);
        const auto& p = j["papers"][0];
        QCOMPARE(p["paper"].get<std::string>(), std::string("tso"));
        const auto& row = p["rows"][1];
        QCOMPARE(row["status"].get<std::string>(), std::string("differs"));
        QCOMPARE(row["paper_text"].get<std::string>(), std::string("84us"));
        QVERIFY(std::fabs(row["ratio"].get<double>() - 38.7 / 84) < 1e-12);
        QCOMPARE(row["open"]["network"].get<std::string>(), std::string("lenet5"));
        QCOMPARE(row["open"]["schedule_file"].get<std::string>(),
                 std::string("schedules/tso.x.time.sched.yaml"));
        QVERIFY(!p["rows"][0].contains("open"));
        QCOMPARE(p["plots"][0]["series"][0]["points"][1][0].get<double>(), 32.0);
        QCOMPARE(p["not_reproduced"][0].get<std::string>(), std::string("Table I: accuracy"));
    }

    void text() {
        const std::string t = reportText(sample());
        QVERIFY(t.find("match    Fig. 1") != std::string::npos);
        QVERIFY(t.find("why: the board's burst time is ~49 ns") != std::string::npos);
        QVERIFY(t.find("not reproduced: Table I: accuracy") != std::string::npos);
        // The ours column is aligned: both rows start "ours" at the same column.
        const size_t l1 = t.find("1024 bursts"), l2 = t.find("38.7 us");
        QVERIFY(l1 != std::string::npos && l2 != std::string::npos);
        QCOMPARE(l1 - t.rfind('\n', l1), l2 - t.rfind('\n', l2));
    }

    void html() {
        const std::string svg = "<?xml version=\"1.0\"?>\n<svg id=\"inlined\"></svg>";
        const std::string h =
            reportHtml(sample(), {{"tso-plot", svg}, {"tso-bars", "data:image/png;base64,AAAA"}},
                       "no plots here");
        QVERIFY(h.find("bursts &lt;of&gt; slicing &amp; co") != std::string::npos);
        QVERIFY(h.find("<svg id=\"inlined\">") != std::string::npos);
        QVERIFY(h.find("<?xml") == std::string::npos); // the prolog is dropped inside the page
        QVERIFY(h.find("src=\"data:image/png;base64,AAAA\"") != std::string::npos);
        QVERIFY(h.find("class=\"differs\"") != std::string::npos);
        QVERIFY(h.find("no plots here") == std::string::npos);
        const std::string bare = reportHtml(sample(), {}, "no plots here");
        QVERIFY(bare.find("no plots here") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstReproReport)
#include "tst_repro_report.moc"
