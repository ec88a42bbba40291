// The reproduction report in the studio (views/repro/repro_report_view.h): rows grouped by
// paper with the paper's and our values, filters by paper, status and text, the details of a
// row, Open in Studio only for rows with a target (and the request carries the row), and the
// plots drawn live.
#include "repro/repro_report_view.h"

#include <QChart>
#include <QChartView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTextBrowser>
#include <QtTest>

using namespace lf;
using namespace lf::repro;

namespace {

Row makeRow(const std::string& id, Paper paper, RowStatus status, bool openable) {
    Row r;
    r.id = id;
    r.paper = paper;
    r.where = "Table 5";
    r.measured = "energy of " + id;
    r.paper_text = "54%";
    r.paper_value = 54;
    r.ours = status == RowStatus::match ? 54 : 80;
    r.unit = "%";
    r.tolerance = 0.1;
    r.tolerance_why = "within 10 %";
    r.status = status;
    r.note = status == RowStatus::match ? "" : "the paper's tiles are not printed";
    r.setup = "bundled vgg16-e";
    if (openable) r.open = OpenTarget{"vgg16-e", "hwff-config-1", std::nullopt, "", {}, "pairs"};
    return r;
}

std::vector<PaperReport> sample() {
    PaperReport hwff;
    hwff.paper = Paper::hwff;
    hwff.rows = {makeRow("hwff.a", Paper::hwff, RowStatus::match, true),
                 makeRow("hwff.b", Paper::hwff, RowStatus::differs, false),
                 makeRow("hwff.c", Paper::hwff, RowStatus::close, true)};
    Plot p;
    p.id = "hwff-fig";
    p.paper = Paper::hwff;
    p.where = "Fig. 12";
    p.title = "energy";
    p.series.push_back({"ours", {{1, 2}, {2, 3}, {3, 5}}, false, true});
    p.note = "bounded search";
    hwff.plots.push_back(p);
    PaperReport tso;
    tso.paper = Paper::tso;
    tso.rows = {makeRow("tso.a", Paper::tso, RowStatus::differs, false)};
    tso.not_reproduced = {"Fig. 9: the cores' traces are not published"};
    return {hwff, tso};
}

} // namespace

class TstReproReportView : public QObject {
    Q_OBJECT
  private slots:
    void rowsAndFilters() {
        ReproReportView v;
        v.setReports(sample());
        QCOMPARE(v.visibleRowCount(), 4);
        v.setPaperFilter(Paper::hwff);
        QCOMPARE(v.visibleRowCount(), 3);
        v.setStatusFilter(RowStatus::differs);
        QCOMPARE(v.visibleRowCount(), 1);
        v.setPaperFilter(std::nullopt);
        QCOMPARE(v.visibleRowCount(), 2); // hwff.b and tso.a
        v.setStatusFilter(std::nullopt);
        v.setTextFilter(QStringLiteral("ENERGY OF TSO"));
        QCOMPARE(v.visibleRowCount(), 1);
        v.setTextFilter({});
        QCOMPARE(v.visibleRowCount(), 4);
    }

    void detailsAndOpenFollowTheSelection() {
        ReproReportView v;
        v.setReports(sample());
        QSignalSpy open(&v, &ReproReportView::openRequested);
        QVERIFY(v.selectRow(QStringLiteral("hwff.b")));
        QCOMPARE(v.selectedRowId(), QStringLiteral("hwff.b"));
        QVERIFY(!v.openButton()->isEnabled()); // no target
        QVERIFY(v.details()->toPlainText().contains(QStringLiteral("not printed")));
        QVERIFY(v.details()->toPlainText().contains(QStringLiteral("nothing to open")));
        QVERIFY(v.selectRow(QStringLiteral("hwff.c")));
        QVERIFY(v.openButton()->isEnabled());
        QVERIFY(v.details()->toPlainText().contains(QStringLiteral("vgg16-e on hwff-config-1")));
        v.openButton()->click();
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.at(0).at(0).toString(), QStringLiteral("hwff.c"));
        QVERIFY(!v.selectRow(QStringLiteral("no.such.row")));
    }

    void selectingAFilteredRowClearsTheFilters() {
        ReproReportView v;
        v.setReports(sample());
        v.setPaperFilter(Paper::tso);
        QCOMPARE(v.visibleRowCount(), 1);
        QVERIFY(v.selectRow(QStringLiteral("hwff.a")));
        QCOMPARE(v.visibleRowCount(), 4);
        QCOMPARE(v.selectedRowId(), QStringLiteral("hwff.a"));
    }

    void plotsAreDrawnLive() {
        ReproReportView v;
        v.setReports(sample());
        QCOMPARE(v.shownPlotId(), QStringLiteral("hwff-fig")); // the first plot at once
        QVERIFY(v.chartView()->chart());
        QCOMPARE(v.chartView()->chart()->series().size(), 1);
        QVERIFY(v.chartView()->chart()->title().contains(QStringLiteral("Fig. 12")));
        QVERIFY(!v.showPlot(QStringLiteral("missing")));
        v.setReports({});
        QVERIFY(v.shownPlotId().isEmpty());
        QCOMPARE(v.chartView()->chart()->series().size(), 0);
    }
};

QTEST_MAIN(TstReproReportView)
#include "tst_repro_report_view.moc"
