// ParetoChartWidget: a legend that names each colour band once, and the open schedule's
// entry that tells where it stands in the third objective (MACs) the plot does not show.
#include "search/pareto_chart.h"

#include <QtTest>

using namespace lf;

class TestParetoChart : public QObject {
    Q_OBJECT
  private slots:
    // Three bands of 1.580 G, 1.582 G and 1.584 G MACs all read "1.58 G MACs": one entry.
    void legendNamesEachBandOnce() {
        ParetoChartWidget w;
        ParetoChartData d;
        d.points = {
            {1000, 100, 1.580e9}, {800, 200, 1.582e9}, {600, 400, 1.584e9}, {400, 800, 3.1e9}};
        w.setData(d);
        const QStringList names = w.colourBandNames();
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
        QCOMPARE(names.count(QStringLiteral("1.58 G MACs")), 1);
        QCOMPARE(w.drawnPointCount(), 4);
    }

    // An open schedule below the 2-D front that spends more MACs says so (ResNet-18 after
    // Auto-fuse with recompute: 96 % more MACs).
    void openScheduleOffTheFrontByMacs() {
        const std::vector<ParetoChartPoint> front = {{1000, 100, 1.0e9}, {500, 400, 1.0e9}};
        const ParetoChartPoint below{400, 300, 1.96e9}; // under {500, 400}
        const QString note = currentPointNote(front, below);
        QVERIFY2(note.contains(QLatin1String("1.96 G MACs")) &&
                     note.contains(QLatin1String("off the plotted front by 96 % more MACs")),
                 qPrintable(note));
        // On the front (or above it): only its MACs.
        QCOMPARE(currentPointNote(front, front[0]), QStringLiteral("open schedule · 1.00 G MACs"));
        QCOMPARE(currentPointNote(front, {2000, 500, 1e9}),
                 QStringLiteral("open schedule · 1.00 G MACs"));
        // Better in all three: the exploration did not hold it.
        QVERIFY(currentPointNote(front, {400, 90, 0.9e9}).contains(QLatin1String("did not hold")));
        ParetoChartWidget w;
        ParetoChartData d;
        d.points = front;
        w.setData(d);
        w.setCurrent(below);
        QCOMPARE(w.currentName(), note);
    }
};

QTEST_MAIN(TestParetoChart)
#include "tst_pareto_chart.moc"
