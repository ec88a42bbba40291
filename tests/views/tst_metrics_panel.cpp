// MetricsPanel: totals and the selected group/layer in human units with ▲▼ deltas against
// the metrics before the last edit (green = better, red = worse).
#include "examples/bundled.h"
#include "metrics/metric_format.h"
#include "metrics/metric_grid.h"
#include "metrics/metrics_panel.h"
#include "models/evaluate.h"
#include "studio_states.h"
#include "test_support.h"

#include <QLabel>
#include <QLocale>
#include <QtTest>

using namespace lf;

namespace {

// Metrics with chosen figures (the panel only shows them; the values are test inputs).
std::shared_ptr<const Metrics> withTotals(const Metrics& base, int64_t dramBytes, int64_t latency,
                                          double utilization, int64_t macs) {
    auto m = std::make_shared<Metrics>(base);
    m->totals.dram_bytes = dramBytes;
    m->totals.latency_cycles = latency;
    m->totals.utilization = utilization;
    m->totals.macs = macs;
    return m;
}

} // namespace

class TestMetricsPanel : public QObject {
    Q_OBJECT
  private slots:
    void deltaArrowsAndColours();
    void noPreviousNoDeltas();
    void evaluatingGreysOut();
    void selectionShowsGroupAndLayer();
    void humanUnits();
    void deltaFunction();
    void decimalCommaLocale();
    void deltaLabelsPaintTheirColour();
    void figureUnderThePointerIsSelectable();
};

void TestMetricsPanel::deltaArrowsAndColours() {
    StudioState s = test::defaultState("l2net");
    // Before: 1000 B DRAM, 1000 cycles, 30 % utilization, 500 MACs.
    // After: 2000 B (worse: +100 %), 500 cycles (better: -50 %), 60 % (better), 500 MACs (same).
    s.previous = withTotals(*s.metrics, 1000, 1000, 0.3, 500);
    s.metrics = withTotals(*s.metrics, 2000, 500, 0.6, 500);
    MetricsPanel panel;
    panel.setState(s);
    const MetricGrid* g = panel.totalsGrid();
    QCOMPARE(g->deltaText("total.dram_bytes"), QStringLiteral("▲ 100 %"));
    QCOMPARE(g->deltaColor("total.dram_bytes"), worsenedColor());
    QCOMPARE(g->deltaText("total.latency"), QStringLiteral("▼ 50 %"));
    QCOMPARE(g->deltaColor("total.latency"), improvedColor());
    QCOMPARE(g->deltaText("total.utilization"), QStringLiteral("▲ 100 %"));
    QCOMPARE(g->deltaColor("total.utilization"), improvedColor());
    QVERIFY(g->deltaText("total.macs").isEmpty());
    QVERIFY(!g->deltaColor("total.macs").isValid());
    // The delta label the user sees carries the same text.
    auto* label = panel.findChild<QLabel*>(QStringLiteral("delta:total.dram_bytes"));
    QVERIFY(label);
    QCOMPARE(label->text(), QStringLiteral("▲ 100 %"));
}

namespace {

// Counts style re-polishes (QEvent::StyleChange) of a widget.
class StyleChanges : public QObject {
  public:
    int count = 0;
    bool eventFilter(QObject*, QEvent* e) override {
        count += e->type() == QEvent::StyleChange;
        return false;
    }
};

} // namespace

// The delta is drawn in its colour; an edit and its undo turn it from red to green and back
// without re-polishing the label (a style sheet per figure did, on every edit), and a figure
// without a delta goes back to the panel's text colour.
void TestMetricsPanel::deltaLabelsPaintTheirColour() {
    StudioState worse = test::defaultState("l2net");
    worse.previous = withTotals(*worse.metrics, 1000, 1000, 0.3, 500);
    worse.metrics = withTotals(*worse.metrics, 2000, 1000, 0.3, 500);
    StudioState better = worse;
    better.previous = worse.metrics;
    better.metrics = worse.previous;
    MetricsPanel panel;
    panel.setState(worse);
    auto* label = panel.findChild<QLabel*>(QStringLiteral("delta:total.dram_bytes"));
    QVERIFY(label);
    QCOMPARE(label->palette().color(QPalette::WindowText), worsenedColor());
    StyleChanges polishes;
    label->installEventFilter(&polishes);
    panel.setState(better);
    QCOMPARE(label->text(), QStringLiteral("▼ 50 %"));
    QCOMPARE(label->palette().color(QPalette::WindowText), improvedColor());
    panel.setState(worse);
    QCOMPARE(label->palette().color(QPalette::WindowText), worsenedColor());
    QCOMPARE(polishes.count, 0);
    StudioState same = worse;
    same.previous = worse.metrics;
    panel.setState(same);
    QVERIFY(label->text().isEmpty());
    QCOMPARE(label->palette().color(QPalette::WindowText),
             panel.palette().color(QPalette::WindowText));
}

// A figure can be selected (and copied) when the pointer is on it; the others paint as plain
// labels, and one holding a selection stays selectable.
void TestMetricsPanel::figureUnderThePointerIsSelectable() {
    auto selectable = [](const QLabel* l) {
        return bool(l->textInteractionFlags() & Qt::TextSelectableByMouse);
    };
    MetricsPanel panel;
    panel.setState(test::defaultState("l2net"));
    auto* value = panel.findChild<QLabel*>(QStringLiteral("value:total.dram_bytes"));
    auto* other = panel.findChild<QLabel*>(QStringLiteral("value:total.macs"));
    QVERIFY(value && other);
    QVERIFY(!selectable(value));
    QEnterEvent enter(QPointF(2, 2), QPointF(2, 2), QPointF(2, 2));
    QCoreApplication::sendEvent(value, &enter);
    QVERIFY(selectable(value));
    QVERIFY(!selectable(other));
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(value, &leave);
    QVERIFY(!selectable(value));
    QCoreApplication::sendEvent(value, &enter);
    value->setSelection(0, 2);
    QVERIFY(value->hasSelectedText());
    QCoreApplication::sendEvent(value, &leave);
    QVERIFY(selectable(value));
}

void TestMetricsPanel::noPreviousNoDeltas() {
    StudioState s = test::defaultState("l2net");
    s.metrics = withTotals(*s.metrics, 2000, 500, 0.6, 500);
    MetricsPanel panel;
    panel.setState(s);
    QVERIFY(panel.totalsGrid()->deltaText("total.dram_bytes").isEmpty());
    QVERIFY(panel.totalsGrid()->deltaText("total.latency").isEmpty());
}

void TestMetricsPanel::evaluatingGreysOut() {
    StudioState s = test::defaultState("l2net");
    s.metrics = withTotals(*s.metrics, 2048, 500, 0.6, 500);
    MetricsPanel panel;
    panel.setState(s);
    QVERIFY(panel.totalsGrid()->isEnabled());
    const QString before = panel.totalsGrid()->valueText("total.dram_bytes");
    s.previous = s.metrics;
    s.metrics.reset();
    panel.setState(s);
    QVERIFY(!panel.totalsGrid()->isEnabled());
    // The last figures stay (greyed) instead of flickering away.
    QCOMPARE(panel.totalsGrid()->valueText("total.dram_bytes"), before);
    auto* status = panel.findChild<QLabel*>(QStringLiteral("status"));
    QVERIFY(status->text().contains(QStringLiteral("Evaluating")));
}

void TestMetricsPanel::selectionShowsGroupAndLayer() {
    StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    const int gi = s.schedule.groupOf(conv2);
    QVERIFY(gi >= 0);
    auto prev = std::make_shared<Metrics>(*s.metrics);
    auto cur = std::make_shared<Metrics>(*s.metrics);
    // Groups are matched by name: put the previous group at another index.
    prev->groups.insert(prev->groups.begin(), GroupMetrics{});
    prev->groups.front().name = "unrelated";
    for (GroupMetrics& g : prev->groups)
        if (g.name == "conv2") g.buffer_bytes = 4000;
    cur->groups[size_t(gi)].buffer_bytes = 1000; // 75 % smaller: better
    cur->layers[size_t(cur->layer_index[size_t(conv2)])].compute_cycles = 300;
    prev->layers[size_t(prev->layer_index[size_t(conv2)])].compute_cycles = 200; // +50 %: worse
    s.metrics = cur;
    s.previous = prev;

    MetricsPanel panel;
    panel.setState(s);
    QVERIFY(panel.groupGrid()->isHidden());
    QVERIFY(panel.layerGrid()->isHidden());
    panel.setSelection(StudioSelection{{conv2}, gi});
    QVERIFY(!panel.groupGrid()->isHidden());
    QVERIFY(!panel.layerGrid()->isHidden());
    QCOMPARE(panel.groupGrid()->deltaText("group.buffer"), QStringLiteral("▼ 75 %"));
    QCOMPARE(panel.groupGrid()->deltaColor("group.buffer"), improvedColor());
    QCOMPARE(panel.layerGrid()->deltaText("layer.compute_cycles"), QStringLiteral("▲ 50 %"));
    QCOMPARE(panel.layerGrid()->deltaColor("layer.compute_cycles"), worsenedColor());
    // Two layers selected and no group: no layer section.
    panel.setSelection(StudioSelection{{s.network.find("conv1"), conv2}, -1});
    QVERIFY(panel.layerGrid()->isHidden());
}

void TestMetricsPanel::humanUnits() {
    StudioState s = test::defaultState("l2net");
    auto m = std::make_shared<Metrics>(*s.metrics);
    m->totals.dram_bytes = 1536;           // 1.5 KB
    m->totals.latency_cycles = 200'000;    // at 200 MHz: 1 ms
    m->totals.energy.dram = 2.5e6;         // 2.5 µJ
    m->totals.buffer_peak_bytes = 3 << 20; // 3 MB
    m->totals.buffer_capacity_bytes = 512 << 10;
    m->totals.fits = false;
    s.metrics = m;
    MetricsPanel panel;
    panel.setState(s);
    const MetricGrid* g = panel.totalsGrid();
    QVERIFY2(g->valueText("total.dram_bytes").contains(QStringLiteral("1.5")) &&
                 g->valueText("total.dram_bytes").contains(QStringLiteral("KB")),
             qPrintable(g->valueText("total.dram_bytes")));
    QVERIFY2(g->valueText("total.latency").contains(QStringLiteral("ms")),
             qPrintable(g->valueText("total.latency")));
    QVERIFY2(g->valueText("total.energy_dram").contains(QStringLiteral("µJ")),
             qPrintable(g->valueText("total.energy_dram")));
    QVERIFY(g->valueText("total.buffer").contains(QStringLiteral("MB")));
    QVERIFY(g->valueText("total.buffer").contains(QStringLiteral("512")));
    QVERIFY(g->valueText("total.fits").startsWith(QStringLiteral("NO")));
}

void TestMetricsPanel::deltaFunction() {
    QCOMPARE(metricDelta(110, 100.0, Better::lower).text, QStringLiteral("▲ 10 %"));
    QVERIFY(metricDelta(110, 100.0, Better::lower).worsened);
    QCOMPARE(metricDelta(95, 100.0, Better::lower).text, QStringLiteral("▼ 5.0 %"));
    QVERIFY(metricDelta(95, 100.0, Better::lower).improved);
    QVERIFY(metricDelta(95, 100.0, Better::higher).worsened);
    QCOMPARE(metricDelta(5, 0.0, Better::lower).text, QStringLiteral("▲"));
    // A change too small for one decimal is still a change: not "▲ 0.0 %".
    QCOMPARE(metricDelta(501.2, 501.0, Better::lower).text, QStringLiteral("▲ <0.1 %"));
    QVERIFY(metricDelta(501.2, 501.0, Better::lower).worsened);
    QCOMPARE(metricDelta(100.06, 100.0, Better::lower).text, QStringLiteral("▲ 0.1 %"));
    QCOMPARE(percentChange(100, 187.5), QStringLiteral("+87.5 %"));
    QCOMPARE(percentChange(100, 43.8), QStringLiteral("-56.2 %"));
    QCOMPARE(percentChange(501, 501.2), QStringLiteral("+<0.1 %"));
    QCOMPARE(percentChange(501, 500.9), QStringLiteral("-<0.1 %"));
    QCOMPARE(percentChange(501, 501), QStringLiteral("="));
    QCOMPARE(metricDelta(7, 7.0, Better::lower).direction, 0);
    QCOMPARE(metricDelta(7, std::nullopt, Better::lower).direction, 0);
    const MetricDelta n = metricDelta(3, 1.0, Better::neither);
    QCOMPARE(n.direction, 1);
    QVERIFY(!n.improved && !n.worsened && !n.color().isValid());
}

void TestMetricsPanel::decimalCommaLocale() {
    // Figures are formatted the same whatever the user's locale.
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(formatPercent(0.5), QStringLiteral("50.0 %"));
    QCOMPARE(metricDelta(95, 100.0, Better::lower).text, QStringLiteral("▼ 5.0 %"));
    QLocale::setDefault(saved);
}

QTEST_MAIN(TestMetricsPanel)
#include "tst_metrics_panel.moc"
