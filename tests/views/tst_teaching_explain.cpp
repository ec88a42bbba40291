// ExplainView ("why this number"): the worked example's Buf_X row reads
// "Buf_X = T_i · D_n · ((T_x−1)·S_x + D_m) = 4 · 3 · 6 = 72" and equals the model's buffer,
// every term carries its reason, DRAM reload factors and group formulas are shown.
#include "models/evaluate.h"
#include "studio_states.h"
#include "teaching/explain_view.h"
#include "teaching/teaching_style.h"
#include "test_support.h"

#include <QTreeWidget>
#include <QtTest>

using namespace lf;

namespace {} // namespace

class TestTeachingExplain : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void bufXRowEqualsTheModel();
    void termsAndSources();
    void reloadFactors();
    void followsEdits();
    void groupFormulas();
    void collapsedRowsStayCollapsed();
    void numbersIgnoreTheLocale();
};

void TestTeachingExplain::bufXRowEqualsTheModel() {
    ExplainView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    QTreeWidgetItem* row = view.formulaItem(QStringLiteral("Buf_X"));
    QVERIFY(row);
    QCOMPARE(row->text(ExplainView::cFigure),
             QStringLiteral("Buf_X = T_i · D_n · ((T_x−1)·S_x + D_m) = 4 · 3 · 6 = 72"));
    QCOMPARE(row->text(ExplainView::cValue), QStringLiteral("72 elements"));
    // The model's on-chip X buffer of conv2 is the same 72 elements.
    const LayerMetrics* lm = s.metrics->layer(s.network.find("conv2"));
    QVERIFY(lm);
    QCOMPARE(lm->buf_x, 72);
    QCOMPARE(view.layerExplanation()->find("Buf_X")->value, lm->buf_x);
    // Trans_X: D_z · D_y · ⌈D_x/T_x⌉ · ⌈D_i/T_i⌉ = 4 · 16 · 4 · 1 = 256 (loops x, y, z, i in the
    // formula's order).
    QTreeWidgetItem* trans = view.formulaItem(QStringLiteral("Trans_X"));
    QVERIFY(trans);
    QVERIFY2(trans->text(ExplainView::cFigure).endsWith(QLatin1String("= 256")),
             qPrintable(trans->text(0)));
    QCOMPARE(trans->text(ExplainView::cValue), QStringLiteral("256 transfers"));
    // Acc_X = 72 · 256 = 18,432.
    QCOMPARE(view.formulaItem(QStringLiteral("Acc_X"))->text(ExplainView::cValue),
             QStringLiteral("18,432 elements"));
}

void TestTeachingExplain::termsAndSources() {
    ExplainView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    QTreeWidgetItem* row = view.formulaItem(QStringLiteral("Buf_X"));
    QCOMPARE(row->childCount(), 3);
    QCOMPARE(row->child(0)->text(ExplainView::cFigure), QStringLiteral("T_i"));
    QCOMPARE(row->child(0)->text(ExplainView::cValue), QStringLiteral("4"));
    // Loop yi is the store level: the y term is one kernel extent; x runs below it: a tile's
    // window.
    QCOMPARE(row->child(1)->text(ExplainView::cValue), QStringLiteral("3"));
    QVERIFY(row->child(1)->text(ExplainView::cWhy).contains(QLatin1String("at or above SL_X")));
    QCOMPARE(row->child(2)->text(ExplainView::cValue), QStringLiteral("6"));
    QVERIFY(row->child(2)->text(ExplainView::cWhy).contains(QLatin1String("below SL_X")));
    QCOMPARE(row->text(ExplainView::cSource), QStringLiteral("ConvFusion §IV-B2"));
    QVERIFY(row->isExpanded());
}

void TestTeachingExplain::reloadFactors() {
    ExplainView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    // Inputs: 18,432 loaded over 4·18·18 = 1,296 compulsory = 14.22×.
    QTreeWidgetItem* x = view.formulaItem(QStringLiteral("Inputs X"));
    QVERIFY(x);
    QCOMPARE(x->text(ExplainView::cValue), QStringLiteral("×14.22"));
    QVERIFY(x->text(ExplainView::cWhy).contains(QLatin1String("1,296")));
    // Weights: 144 elements per load, 16 loads, 144 weights in all: ×16.
    QTreeWidgetItem* w = view.formulaItem(QStringLiteral("Weights W"));
    QVERIFY(w);
    QCOMPARE(w->text(ExplainView::cValue), QStringLiteral("×16.00"));
}

void TestTeachingExplain::followsEdits() {
    ExplainView view;
    StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    // Folding x (CL_X = xi): Buf_X = 4 · 3 · 3 = 36.
    s.schedule.layers[size_t(s.network.find("conv2"))].compute[size_t(Arr::X)] = Level::l3;
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    view.setState(s);
    QTreeWidgetItem* row = view.formulaItem(QStringLiteral("Buf_X"));
    QCOMPARE(row->text(ExplainView::cValue), QStringLiteral("36 elements"));
    QVERIFY(row->child(2)->text(ExplainView::cWhy).contains(QLatin1String("folded")));
    QCOMPARE(s.metrics->layer(s.network.find("conv2"))->buf_x, 36);
}

void TestTeachingExplain::groupFormulas() {
    ExplainView view;
    StudioState s = test::workedExampleState();
    const LayerId c1 = s.network.find("conv1"), c2 = s.network.find("conv2");
    s.schedule.layers[size_t(c1)].tile = {4, 18, 18, 3};
    FusionGroup g;
    g.name = "seg";
    g.layers = {c1, c2};
    s.schedule.groups = {g};
    normalize(s.schedule, s.network);
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    view.setState(s);
    StudioSelection sel;
    sel.layers = {c1, c2};
    sel.group = 0;
    view.setSelection(sel);
    QVERIFY(!view.layerExplanation());
    QVERIFY(view.groupExplanation());
    // The segment's MACs sum the layers' (with recompute) and equal the model's group MACs.
    QTreeWidgetItem* macs = view.formulaItem(QStringLiteral("MACs"), true);
    QVERIFY(macs);
    QCOMPARE(view.groupExplanation()->find("MACs")->value, s.metrics->groups[0].macs);
    QCOMPARE(macs->text(ExplainView::cValue),
             teaching::exactCount(s.metrics->groups[0].macs) + QStringLiteral(" MACs"));
    QVERIFY(view.formulaItem(QStringLiteral("P(conv1)"), true));
    // conv1 alone: a fused producer with its productions.
    view.setSelection(test::layerSelection(s, "conv1"));
    QVERIFY(view.layerExplanation() && view.layerExplanation()->fused);
    QVERIFY(
        view.formulaItem(QStringLiteral("MACs"), true)); // the group's section follows the layer's
}

void TestTeachingExplain::collapsedRowsStayCollapsed() {
    ExplainView view;
    StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    view.formulaItem(QStringLiteral("Buf_X"))->setExpanded(false);
    s.schedule.layers[size_t(s.network.find("conv2"))].tile[size_t(Dim::x)] = 2;
    view.setState(s);
    QVERIFY(!view.formulaItem(QStringLiteral("Buf_X"))->isExpanded());
    QVERIFY(view.formulaItem(QStringLiteral("Trans_X"))->isExpanded());
}

void TestTeachingExplain::numbersIgnoreTheLocale() {
    // Under a decimal-comma locale the figures read the same (the lessons quote them so).
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    ExplainView view;
    const StudioState s = test::workedExampleState();
    view.setState(s);
    view.setSelection(test::layerSelection(s, "conv2"));
    QCOMPARE(view.formulaItem(QStringLiteral("Acc_X"))->text(ExplainView::cValue),
             QStringLiteral("18,432 elements"));
    QCOMPARE(view.formulaItem(QStringLiteral("Inputs X"))->text(ExplainView::cValue),
             QStringLiteral("×14.22"));
    QLocale::setDefault(saved);
}

QTEST_MAIN(TestTeachingExplain)
#include "tst_teaching_explain.moc"
