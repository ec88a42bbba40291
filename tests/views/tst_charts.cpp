// Charts: one bar per fusion group in every per-group chart, values in the chart's unit,
// a click on a bar or roofline point asks to select that group, the selected group is
// highlighted, and a chart exports to PNG and SVG.
#include "charts/chart_data.h"
#include "charts/chart_widgets.h"
#include "charts/charts_panel.h"
#include "models/evaluate.h"
#include "studio_states.h"
#include "test_support.h"

#include <QFile>
#include <QImage>
#include <QSet>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace lf;

namespace {

// L2Net on hwff-config-1 (8-bit activations and weights, 32-bit partial sums), each conv its
// own group, with group figures chosen by hand.
StudioState l2netState() {
    StudioState s = test::defaultState("l2net");
    auto m = std::make_shared<Metrics>(*s.metrics);
    if (m->groups.size() != 2) qFatal("L2Net should have two groups");
    GroupMetrics& a = m->groups[0];
    a.dram = Traffic{1200, 108, 0, 0}; // elements
    a.energy = Energy{500, 0, 1500, 2000};
    a.compute_cycles = 2000;
    a.memory_cycles = 500;
    a.macs = 8000;
    a.latency_cycles = 2500;
    a.ctc = 8000.0 / 1308;
    GroupMetrics& b = m->groups[1];
    b.dram = Traffic{0, 144, 1024, 100};
    b.energy = Energy{900, 100, 200, 800};
    b.compute_cycles = 400;
    b.memory_cycles = 1200;
    b.macs = 36864;
    b.latency_cycles = 1600;
    b.ctc = 36864.0 / 1568;
    s.metrics = m;
    return s;
}

// The box around everything drawn in a colour other than the background's.
QRect drawnArea(const QImage& img) {
    const QRgb bg = img.pixel(0, 0);
    QRect box;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) != bg) box |= QRect(x, y, 1, 1);
    return box;
}

int distinctColours(const QImage& img) {
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            colours.insert(img.pixel(x, y));
    return int(colours.size());
}

} // namespace

class TestCharts : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void dataInChartUnits();
    void oneBarPerGroup();
    void clickingABarSelectsItsGroup();
    void clickingARooflinePointSelectsItsGroup();
    void selectionIsHighlighted();
    void exportPngAndSvg();
    void evaluatingKeepsLastFigures();
    void manyGroupsShowTheLargest();
    void rooflineKeepsTheGroupsWithMostMacs();
    void axisLabelsKeepShortNames();
};

void TestCharts::dataInChartUnits() {
    const StudioState s = l2netState();
    QCOMPARE(s.hardware.precision.act_bits, 8);
    QCOMPARE(s.hardware.precision.weight_bits, 8);
    QCOMPARE(s.hardware.precision.psum_bits, 32);
    const BarChartData t = trafficChartData(*s.metrics, s.hardware);
    QCOMPARE(t.categories, (QStringList{QStringLiteral("conv1"), QStringLiteral("conv2")}));
    QCOMPARE(int(t.sets.size()), 4);
    // Largest stack: group 1 = 144 + 1024 (8 bit) + 100 × 4 B (32-bit psums) = 1568 B -> KB.
    QCOMPARE(t.unit, QStringLiteral("KB"));
    QCOMPARE(t.sets[0].values[0], 1200.0 / 1024);
    QCOMPARE(t.sets[3].values[1], 400.0 / 1024);
    QVERIFY(t.stacked);
    const BarChartData e = energyChartData(*s.metrics);
    QCOMPARE(e.unit, QStringLiteral("nJ")); // largest stack 4000 pJ
    QCOMPARE(e.sets[3].values[0], 2.0);
    const BarChartData l = latencyChartData(*s.metrics);
    QVERIFY(!l.stacked);
    QCOMPARE(l.unit, QStringLiteral("K cycles")); // largest bar 2000 cycles
    QCOMPARE(l.sets[1].values[1], 1.2);
    const RooflineData r = rooflineChartData(*s.metrics, s.hardware);
    const PeArrayConfig& pe = s.hardware.pe_array;
    QCOMPARE(r.computeRoof, double(pe.cols * pe.rows * pe.macs_per_pe_per_cycle));
    QCOMPARE(r.bandwidth, s.hardware.dram.bandwidth_bytes_per_cycle);
    QCOMPARE(int(r.points.size()), 2);
    QCOMPARE(r.points[1].macsPerCycle, 36864.0 / 1600);
}

void TestCharts::oneBarPerGroup() {
    const StudioState s = l2netState();
    ChartsPanel panel;
    panel.setState(s);
    for (ChartKind k : {ChartKind::traffic, ChartKind::energy, ChartKind::latency}) {
        panel.showChart(k);
        BarChartWidget* w = panel.barChart(k);
        QCOMPARE(w->drawnCategoryCount(), int(s.schedule.groups.size()));
        QCOMPARE(w->drawnSetCount(), k == ChartKind::latency ? 2 : 4);
        for (const BarSetData& set : w->data().sets)
            QCOMPARE(int(set.values.size()), 2);
    }
    panel.showChart(ChartKind::roofline);
    QCOMPARE(panel.rooflineChart()->drawnPointCount(), 2);
    // A new state with another number of groups rebuilds the bars.
    StudioState one = s;
    auto m = std::make_shared<Metrics>(*s.metrics);
    m->groups.pop_back();
    one.metrics = m;
    one.schedule.groups.pop_back();
    panel.setState(one);
    panel.showChart(ChartKind::traffic);
    QCOMPARE(panel.barChart(ChartKind::traffic)->drawnCategoryCount(), 1);
}

void TestCharts::clickingABarSelectsItsGroup() {
    const StudioState s = l2netState();
    ChartsPanel panel;
    panel.resize(900, 600);
    panel.setState(s);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &ChartsPanel::selectionRequested);
    for (ChartKind k : {ChartKind::traffic, ChartKind::latency}) {
        panel.showChart(k);
        BarChartWidget* w = panel.barChart(k);
        QTRY_VERIFY(!w->barCenter(1).isNull());
        for (int g : {1, 0}) {
            QTest::mouseClick(w->viewport(), Qt::LeftButton, {}, w->barCenter(g));
            QTRY_VERIFY(spy.count() > 0);
            const StudioSelection sel = spy.takeLast().at(0).value<StudioSelection>();
            QCOMPARE(sel.group, g);
            QCOMPARE(sel.layers, s.schedule.groups[size_t(g)].layers);
            spy.clear();
        }
    }
}

void TestCharts::clickingARooflinePointSelectsItsGroup() {
    const StudioState s = l2netState();
    ChartsPanel panel;
    panel.resize(900, 600);
    panel.setState(s);
    panel.showChart(ChartKind::roofline);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy spy(&panel, &ChartsPanel::selectionRequested);
    RooflineChartWidget* w = panel.rooflineChart();
    QTRY_VERIFY(!w->pointPosition(0).isNull());
    for (int g : {0, 1}) {
        QTest::mouseClick(w->viewport(), Qt::LeftButton, {}, w->pointPosition(g));
        QTRY_COMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).value<StudioSelection>().group, g);
    }
}

void TestCharts::selectionIsHighlighted() {
    const StudioState s = l2netState();
    ChartsPanel panel;
    panel.setState(s);
    panel.setSelection({{s.network.find("conv2")}, -1}); // the group of the selected layer
    QCOMPARE(panel.barChart(ChartKind::traffic)->highlightedCategory(), 1);
    QCOMPARE(panel.rooflineChart()->highlightedCategory(), 1);
    panel.setSelection({{}, 0});
    QCOMPARE(panel.barChart(ChartKind::energy)->highlightedCategory(), 0);
    panel.setSelection({});
    QCOMPARE(panel.barChart(ChartKind::latency)->highlightedCategory(), -1);
}

void TestCharts::exportPngAndSvg() {
    const StudioState s = l2netState();
    ChartsPanel panel; // never shown: export must not depend on the screen
    panel.setState(s);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("energy.png"));
    QCOMPARE(panel.exportChart(ChartKind::energy, png, QSize(640, 400)), QString());
    QImage img(png);
    QCOMPARE(img.size(), QSize(640, 400));
    QVERIFY2(distinctColours(img) > 20, "the exported chart is blank");
    // The chart fills the image (not drawn small in a corner or the middle).
    const QRect area = drawnArea(img);
    QVERIFY2(area.width() > 0.8 * img.width() && area.height() > 0.8 * img.height(),
             qPrintable(QStringLiteral("drawn area %1 x %2").arg(area.width()).arg(area.height())));
    const QString svg = dir.filePath(QStringLiteral("roofline.svg"));
    QCOMPARE(panel.exportChart(ChartKind::roofline, svg), QString());
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("viewBox=\"0 0 960 600\"")); // the default size when not on screen
    QVERIFY(text.size() > 2000);
    QVERIFY(text.contains("MAC / cycle")); // the axis titles are drawn
    // An unwritable place is reported, not ignored.
    QVERIFY(
        !panel.exportChart(ChartKind::traffic, dir.filePath(QStringLiteral("no/such/dir/x.png")))
             .isEmpty());
}

void TestCharts::evaluatingKeepsLastFigures() {
    StudioState s = l2netState();
    ChartsPanel panel;
    panel.setState(s);
    s.previous = s.metrics;
    s.metrics.reset();
    panel.setState(s);
    QCOMPARE(panel.barChart(ChartKind::traffic)->drawnCategoryCount(), 2);
}

// Names that fit under a bar are shown whole; long ones keep their distinguishing end. Short
// names used to come out numbered ("conv1 #2").
void TestCharts::axisLabelsKeepShortNames() {
    BarChartWidget w;
    BarChartData d;
    d.categories = {QStringLiteral("conv1"),
                    QStringLiteral("conv2"),
                    QStringLiteral("layer1.0.conv1"),
                    QStringLiteral("layer1.1.conv1"),
                    QStringLiteral("inception3a.pool_proj"),
                    QStringLiteral("inception3b.pool_proj")};
    d.sets = {{QStringLiteral("input"), QColor(Qt::blue), {1, 2, 3, 4, 5, 6}}};
    d.groups = {0, 1, 2, 3, 4, 5};
    w.setData(d);
    const QStringList labels = w.categoryLabels();
    QCOMPARE(labels.size(), 6);
    QCOMPARE(labels[0], QStringLiteral("conv1"));
    QCOMPARE(labels[1], QStringLiteral("conv2"));
    // Elided in the middle: the start and the end (where the names differ) stay.
    QCOMPARE(labels[2], QStringLiteral("lay….0.conv1"));
    QCOMPARE(labels[3], QStringLiteral("lay….1.conv1"));
    // GoogLeNet's names differ inside: longer until they are told apart, never "…a.pool_proj".
    QCOMPARE(labels[4], QStringLiteral("incept…n3a.pool_proj"));
    QCOMPARE(labels[5], QStringLiteral("incept…n3b.pool_proj"));
}

QTEST_MAIN(TestCharts)
// ResNet-152's default schedule has more groups than a bar chart draws: the chart keeps the
// kMaxChartGroups largest stacks in network order, and clicks and highlights still speak of
// group indices.
void TestCharts::manyGroupsShowTheLargest() {
    StudioState s;
    s.network = test::bundledNetwork("resnet152");
    s.hardware = test::bundledHardware("hwff-config-1");
    s.schedule = defaultSchedule(s.network, s.hardware);
    s.metrics = std::make_shared<Metrics>(evaluate(s.network, s.hardware, s.schedule));
    const Metrics& m = *s.metrics;
    const int n = int(m.groups.size());
    QVERIFY2(n > kMaxChartGroups + 50, qPrintable(QString::number(n)));

    const BarChartData t = trafficChartData(m, s.hardware);
    QCOMPARE(int(t.categories.size()), kMaxChartGroups);
    QCOMPARE(int(t.groups.size()), kMaxChartGroups);
    QCOMPARE(t.totalGroups, n);
    QVERIFY(t.title.contains(QStringLiteral("120 largest of")));
    QVERIFY(std::is_sorted(t.groups.begin(), t.groups.end()));
    // Bytes of a group's stack, straight from the metrics.
    const Precision& p = s.hardware.precision;
    auto bytes = [&](int g) {
        const Traffic& d = m.groups[size_t(g)].dram;
        return double(d.input + d.output) * p.act_bits / 8 + double(d.weight) * p.weight_bits / 8 +
               double(d.psum) * p.psum_bits / 8;
    };
    double smallestKept = 1e300;
    for (int c = 0; c < kMaxChartGroups; ++c) {
        const int g = t.groups[c];
        QCOMPARE(t.categories[c], QString::fromStdString(m.groups[size_t(g)].name));
        smallestKept = std::min(smallestKept, bytes(g));
        double stack = 0;
        for (const BarSetData& set : t.sets)
            stack += set.values[c];
        QVERIFY(
            std::abs(stack - bytes(g) / std::pow(1024.0, t.unit == QStringLiteral("MB") ? 2 : 1)) <
            1e-6 * stack + 1e-9);
    }
    for (int g = 0; g < n; ++g)
        if (!t.groups.contains(g)) QVERIFY(bytes(g) <= smallestKept);

    // Side by side: the kept groups are those with the tallest bar of the two.
    const BarChartData l = latencyChartData(m);
    QCOMPARE(int(l.categories.size()), kMaxChartGroups);
    double lowestKept = 1e300;
    for (int g : l.groups)
        lowestKept = std::min(lowestKept, double(std::max(m.groups[size_t(g)].compute_cycles,
                                                          m.groups[size_t(g)].memory_cycles)));
    for (int g = 0; g < n; ++g)
        if (!l.groups.contains(g))
            QVERIFY(double(std::max(m.groups[size_t(g)].compute_cycles,
                                    m.groups[size_t(g)].memory_cycles)) <= lowestKept);

    ChartsPanel panel;
    panel.resize(1200, 600);
    panel.setState(s);
    panel.showChart(ChartKind::traffic);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    BarChartWidget* w = panel.barChart(ChartKind::traffic);
    QCOMPARE(w->drawnCategoryCount(), kMaxChartGroups);
    // The tallest bar among groups whose index is beyond the category count.
    int kept = -1;
    for (int g : w->data().groups)
        if (g >= kMaxChartGroups && (kept < 0 || bytes(g) > bytes(kept))) kept = g;
    QVERIFY(kept >= kMaxChartGroups);
    int left = -1;
    for (int g = 0; g < n && left < 0; ++g)
        if (!w->data().groups.contains(g)) left = g;
    QVERIFY(left >= 0);
    QVERIFY(w->barCenter(left).isNull());
    QTRY_VERIFY(!w->barCenter(kept).isNull());
    QSignalSpy spy(&panel, &ChartsPanel::selectionRequested);
    QTest::mouseClick(w->viewport(), Qt::LeftButton, {}, w->barCenter(kept));
    QTRY_COMPARE(spy.count(), 1);
    const StudioSelection sel = spy.takeFirst().at(0).value<StudioSelection>();
    QCOMPARE(sel.group, kept);
    QCOMPARE(sel.layers, s.schedule.groups[size_t(kept)].layers);
    panel.setSelection({{}, kept});
    QCOMPARE(w->highlightedCategory(), kept);
}

void TestCharts::rooflineKeepsTheGroupsWithMostMacs() {
    const StudioState s = l2netState();
    Metrics m = *s.metrics;
    const GroupMetrics proto = m.groups[1];
    const int n = kMaxRooflinePoints + 500;
    m.groups.assign(size_t(n), proto);
    for (int g = 0; g < n; ++g) {
        m.groups[size_t(g)].name = "g" + std::to_string(g);
        m.groups[size_t(g)].macs = int64_t(1000 + (g * 7919) % n); // distinct, scrambled
    }
    m.groups[3].latency_cycles = 0; // not plottable on log axes
    const RooflineData r = rooflineChartData(m, s.hardware);
    QCOMPARE(int(r.points.size()), kMaxRooflinePoints);
    QCOMPARE(r.groups, n);
    QCOMPARE(r.skipped, n - 1 - kMaxRooflinePoints);
    int64_t fewestKept = INT64_MAX;
    QSet<int> kept;
    for (size_t k = 0; k < r.points.size(); ++k) {
        if (k > 0) QVERIFY(r.points[k - 1].category < r.points[k].category);
        kept.insert(r.points[k].category);
        fewestKept = std::min(fewestKept, m.groups[size_t(r.points[k].category)].macs);
    }
    QVERIFY(!kept.contains(3));
    for (int g = 0; g < n; ++g)
        if (g != 3 && !kept.contains(g)) QVERIFY(m.groups[size_t(g)].macs < fewestKept);
}

#include "tst_charts.moc"
