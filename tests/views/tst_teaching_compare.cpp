// CompareView: a snapshot A and the current state B side by side with deltas, the groups of
// B that differ named through groupsDiffer(), and the selected group under the three
// strategies evaluated off the GUI thread.
#include "metrics/metric_format.h"
#include "models/evaluate.h"
#include "studio_states.h"
#include "teaching/compare_view.h"
#include "teaching/strategy_comparison_view.h"
#include "teaching/teaching_style.h"
#include "test_support.h"

#include <QHeaderView>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace lf;

namespace {

void evaluateInto(StudioState& s) {
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
}

} // namespace

class TestTeachingCompare : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void noSnapshotNothingToCompare();
    void loopOrderChangeShowsDeltas();
    void tileChangeMarksItsGroup();
    void clearingForgetsA();
    void anotherNetworkComparesTotalsOnly();
    void strategiesSideBySide();
};

void TestTeachingCompare::noSnapshotNothingToCompare() {
    CompareView view;
    StudioState s = test::workedExampleState();
    s.metrics.reset();
    view.setState(s);
    QVERIFY(!view.snapshotButton()->isEnabled()); // nothing evaluated yet
    QVERIFY(!view.takeSnapshot());
    QVERIFY(!view.hasSnapshot());
    QCOMPARE(view.tree()->topLevelItemCount(), 0);
    evaluateInto(s);
    view.setState(s);
    QVERIFY(view.snapshotButton()->isEnabled());
}

void TestTeachingCompare::loopOrderChangeShowsDeltas() {
    CompareView view;
    QSignalSpy differ(&view, &CompareView::groupsDiffer);
    StudioState a = test::workedExampleState();
    view.setState(a);
    view.snapshotButton()->click();
    QVERIFY(view.hasSnapshot());
    QCOMPARE(differ.count(), 0); // A = B: nothing differs, nothing to say
    QCOMPARE(view.item(QStringLiteral("total.dram_input"))->text(CompareView::cDelta),
             QStringLiteral("="));

    // B: order y, x, z, i. X stays at yi (now l1): Trans_X = D_y · ⌈D_x/T_x⌉ · 1 · 1 = 16 · 4 = 64
    // windows of 72 = 4,608 input elements of conv2 instead of 256 · 72 = 18,432.
    StudioState b = a;
    LayerSchedule& ls = b.schedule.layers[size_t(b.network.find("conv2"))];
    ls.order = {Dim::y, Dim::x, Dim::z, Dim::i};
    ls.store = {Level::l1, Level::l1, Level::tile};
    ls.compute = ls.store;
    evaluateInto(b);
    view.setState(b);
    QCOMPARE(a.metrics->totals.dram.input - b.metrics->totals.dram.input, 18432 - 4608);
    QTreeWidgetItem* row = view.item(QStringLiteral("total.dram_input"));
    QVERIFY(row);
    QCOMPARE(row->text(CompareView::cA), teaching::exactCount(a.metrics->totals.dram.input));
    QCOMPARE(row->text(CompareView::cB), teaching::exactCount(b.metrics->totals.dram.input));
    QVERIFY2(row->text(CompareView::cDelta).startsWith(QStringLiteral("▼")),
             qPrintable(row->text(CompareView::cDelta)));
    QCOMPARE(row->foreground(CompareView::cDelta).color(), improvedColor());
    // conv2's group is the one that changed.
    const int gi = b.schedule.groupOf(b.network.find("conv2"));
    QCOMPARE(differ.count(), 1);
    QCOMPARE(differ.last().at(0).value<QList<int>>(), QList<int>{gi});
    QCOMPARE(view.differingGroups(), QList<int>{gi});
    QTreeWidgetItem* group = view.item(QStringLiteral("group.%1").arg(gi));
    QVERIFY(group && group->text(CompareView::cFigure).contains(QLatin1String("changed")));
    QVERIFY(group->isExpanded());
    QVERIFY(group->text(CompareView::cDelta).startsWith(QStringLiteral("▼")));
    // The other group is the same.
    const int other = b.schedule.groupOf(b.network.find("conv1"));
    QVERIFY(!view.item(QStringLiteral("group.%1").arg(other))
                 ->text(0)
                 .contains(QLatin1String("changed")));
}

void TestTeachingCompare::tileChangeMarksItsGroup() {
    CompareView view;
    QSignalSpy differ(&view, &CompareView::groupsDiffer);
    StudioState a = test::workedExampleState();
    view.setState(a);
    QVERIFY(view.takeSnapshot());
    // T_x of conv2 4 → 2: the X window shrinks to (2−1)+3 = 4 columns, Buf_X = 4·3·4 = 48 < 72,
    // loaded 4·16·8·1 = 512 times: 512 · 48 = 24,576 input elements instead of 18,432.
    StudioState b = a;
    b.schedule.layers[size_t(b.network.find("conv2"))].tile[size_t(Dim::x)] = 2;
    evaluateInto(b);
    view.setState(b);
    const int gi = b.schedule.groupOf(b.network.find("conv2"));
    QCOMPARE(differ.count(), 1);
    QCOMPARE(differ.last().at(0).value<QList<int>>(), QList<int>{gi});
    QCOMPARE(b.metrics->totals.dram.input - a.metrics->totals.dram.input, 24576 - 18432);
    QTreeWidgetItem* input = view.item(QStringLiteral("group.%1.dram_input").arg(gi));
    QVERIFY(input);
    QVERIFY(input->text(CompareView::cDelta).startsWith(QStringLiteral("▲")));
    QCOMPARE(input->foreground(CompareView::cDelta).color(), worsenedColor());
    // Editing back to A: nothing differs any more.
    view.setState(a);
    QCOMPARE(differ.count(), 2);
    QVERIFY(differ.last().at(0).value<QList<int>>().isEmpty());
}

void TestTeachingCompare::clearingForgetsA() {
    CompareView view;
    QSignalSpy differ(&view, &CompareView::groupsDiffer);
    StudioState a = test::workedExampleState();
    view.setState(a);
    view.takeSnapshot();
    StudioState b = a;
    b.schedule.layers[size_t(b.network.find("conv2"))].tile[size_t(Dim::x)] = 2;
    evaluateInto(b);
    view.setState(b);
    QCOMPARE(differ.count(), 1);
    view.clearSnapshot();
    QVERIFY(!view.hasSnapshot());
    QCOMPARE(differ.count(), 2);
    QVERIFY(differ.last().at(0).value<QList<int>>().isEmpty());
    QCOMPARE(view.tree()->topLevelItemCount(), 0);
}

void TestTeachingCompare::anotherNetworkComparesTotalsOnly() {
    CompareView view;
    view.setState(test::workedExampleState());
    view.takeSnapshot();
    view.setState(test::l3netFusedState(Strategy::recompute, "hwff-config-1"));
    QVERIFY(view.item(QStringLiteral("total.macs")));
    QVERIFY(!view.item(QStringLiteral("groups")));
    QVERIFY(view.differingGroups().isEmpty());
}

void TestTeachingCompare::strategiesSideBySide() {
    CompareView view;
    StudioState s = test::l3netFusedState(Strategy::recompute, "hwff-config-1");
    // conv3 in 4×4 output tiles: under recompute its producers redo the K−1 = 2 overlapping
    // rows and columns of neighbouring tiles.
    s.schedule.layers[size_t(s.network.computeIds()[2])].tile = {4, 4, 4, 4};
    evaluateInto(s);
    view.setState(s);
    StudioSelection sel;
    sel.layers = s.schedule.groups[0].layers;
    sel.group = 0;
    view.setSelection(sel);
    StrategyComparisonView* st = view.strategies();
    QSignalSpy ready(st, &StrategyComparisonView::comparisonReady);
    view.tabs()->setCurrentWidget(st); // evaluations start once the tab is shown
    QVERIFY(ready.wait(20000));
    QCOMPARE(ready.last().at(0).toInt(), 0);
    // Each column is the group evaluated with only its strategy changed.
    for (int k = 0; k < 3; ++k) {
        Schedule variant = s.schedule;
        variant.groups[0].strategy = StrategyComparisonView::kStrategies[size_t(k)];
        const Metrics m = evaluate(s.network, s.hardware, variant);
        QCOMPARE(st->result(k).dram_bytes, m.groups[0].dram_bytes);
        QCOMPARE(st->result(k).macs, m.groups[0].macs);
        QCOMPARE(st->result(k).buffer_bytes, m.groups[0].buffer_bytes);
        QCOMPARE(st->table()->item(0, k)->text(), formatBytes(double(m.groups[0].dram_bytes)));
    }
    // Recompute does extra MACs on the overlaps; reuse buffers compute each output once.
    QVERIFY(st->result(0).recompute_macs > 0);
    QCOMPARE(st->result(1).recompute_macs, 0);
    QVERIFY(st->table()->horizontalHeaderItem(0)->text().contains(QLatin1String("current")));
    // In a narrow panel (the Compare dock at 1280 × 800) every line of every header fits its
    // column ("recompute (current)" on one line was cut at both ends).
    view.resize(550, 320);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QHeaderView* header = st->table()->horizontalHeader();
    const QFontMetrics metrics(header->font());
    for (int k = 0; k < 3; ++k)
        for (const QString& line : st->table()->horizontalHeaderItem(k)->text().split(u'\n'))
            QVERIFY2(metrics.horizontalAdvance(line) + 8 <= header->sectionSize(k),
                     qPrintable(line));
    // "Use reuse" proposes the group with that strategy.
    QSignalSpy edited(&view, &CompareView::groupEdited);
    const auto buttons = st->findChildren<QPushButton*>();
    QPushButton* useReuse = nullptr;
    for (QPushButton* b : buttons)
        if (b->text() == QStringLiteral("Use reuse")) useReuse = b;
    QVERIFY(useReuse && useReuse->isEnabled());
    useReuse->click();
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.at(0).at(0).toInt(), 0);
    const FusionGroup g = edited.at(0).at(1).value<FusionGroup>();
    QCOMPARE(g.strategy, Strategy::reuse);
    QCOMPARE(g.layers, s.schedule.groups[0].layers);
}

QTEST_MAIN(TestTeachingCompare)
#include "tst_teaching_compare.moc"
