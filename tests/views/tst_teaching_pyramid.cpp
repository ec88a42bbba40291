// TilePyramidView: the 3-layer 3×3 group of L3Net with a 4×4 output tile shows the maps to
// scale with tile extents 10, 8, 6, 4; stepping (slider, play) moves the regions, overlaps
// are coloured by strategy, the occupancy gauge and the step table follow, and a hovered
// loop is outlined.
#include "metrics/buffer_use.h"
#include "models/evaluate.h"
#include "qt_text.h"
#include "studio_states.h"
#include "teaching/teaching_style.h"
#include "teaching/tile_pyramid_scene.h"
#include "teaching/tile_pyramid_view.h"
#include "test_support.h"

#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QProgressBar>
#include <QSlider>
#include <QTableWidget>
#include <QtTest>

using namespace lf;

namespace {

StudioSelection wholeGroup(const StudioState& s) {
    StudioSelection sel;
    sel.layers = s.schedule.groups[0].layers;
    sel.group = 0;
    return sel;
}

} // namespace

class TestTeachingPyramid : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void extentsInLabels();
    void mapsToScale();
    void steppingMovesTheRegions();
    void overlapsColouredByStrategy();
    void gaugeAndTable();
    void playAnimates();
    void hoveredLoopIsOutlined();
    void doubleClickSelectsTheLayer();
    void noGroupNoPyramid();
};

void TestTeachingPyramid::extentsInLabels() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    QCOMPARE(view.shownGroup(), 0);
    QCOMPARE(view.scene()->levelCount(), 4);
    // R(l, t) = (t−1)·S + K backwards from t = 4: 6, 8, 10.
    const char* expect[4] = {"R(l,t) = 10×10", "R(l,t) = 8×8", "R(l,t) = 6×6", "R(l,t) = 4×4"};
    const char* sizes[4] = {"22×22×3", "20×20×4", "18×18×4", "16×16×4"};
    for (int q = 0; q < 4; ++q) {
        const QString label = view.scene()->labelItem(q)->text();
        QVERIFY2(label.contains(QString::fromUtf8(expect[q])), qPrintable(label));
        QVERIFY2(label.contains(QString::fromUtf8(sizes[q])), qPrintable(label));
        QVERIFY(view.stepTable()->item(q, 0)->text().contains(QString::fromUtf8(expect[q])));
    }
    QVERIFY(view.scene()->labelItem(0)->text().contains(QLatin1String("group input")));
    // 16/4 × 16/4 output tiles.
    QCOMPARE(view.stepCount(), 16);
    QCOMPARE(view.findChild<QSlider*>(QStringLiteral("tilePyramidStep"))->maximum(), 15);
}

void TestTeachingPyramid::mapsToScale() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    // One scale for every map: widths in the ratio 22 : 20 : 18 : 16.
    const double u = view.scene()->unit();
    const int widths[4] = {22, 20, 18, 16};
    for (int q = 0; q < 4; ++q) {
        QCOMPARE(view.scene()->mapItem(q)->rect().width(), widths[q] * u);
        QCOMPARE(view.scene()->mapItem(q)->rect().height(), widths[q] * u);
    }
    // From the top of the pyramid to its bottom: downwards, or rightwards in a wide view.
    for (int q = 1; q < 4; ++q) {
        const QRectF above = view.scene()->mapItem(q - 1)->rect(),
                     below = view.scene()->mapItem(q)->rect();
        if (view.scene()->orientation() == Qt::Vertical)
            QVERIFY(below.top() > above.bottom());
        else
            QVERIFY(below.left() > above.right());
    }
    // Both arrangements keep the scale.
    for (Qt::Orientation o : {Qt::Vertical, Qt::Horizontal}) {
        view.scene()->setPyramid(view.pyramid(), teaching::pyramidColors(false), o);
        QCOMPARE(view.scene()->mapItem(0)->rect().width() /
                     view.scene()->mapItem(3)->rect().width(),
                 22.0 / 16.0);
    }
}

void TestTeachingPyramid::steppingMovesTheRegions() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    TilePyramidScene* sc = view.scene();
    QCOMPARE(view.step(), 0);
    // Step 0: output tile (0,0) 4×4, conv2 rows/cols [0,6), input [0,10).
    QCOMPARE(sc->regionItem(3)->rect(), sc->sceneRectOf(3, Rect{0, 0, 4, 4}));
    QCOMPARE(sc->regionItem(2)->rect(), sc->sceneRectOf(2, Rect{0, 0, 6, 6}));
    QCOMPARE(sc->regionItem(0)->rect(), sc->sceneRectOf(0, Rect{0, 0, 10, 10}));
    const QRectF before = sc->regionItem(3)->rect();
    // Step 5 = tile (1, 1): everything shifts by 4 elements right and down.
    view.findChild<QSlider*>(QStringLiteral("tilePyramidStep"))->setValue(5);
    QCOMPARE(view.step(), 5);
    QVERIFY(sc->regionItem(3)->rect() != before);
    QCOMPARE(sc->regionItem(3)->rect(), sc->sceneRectOf(3, Rect{4, 4, 4, 4}));
    QCOMPARE(sc->regionItem(2)->rect(), sc->sceneRectOf(2, Rect{4, 4, 6, 6}));
    QCOMPARE(sc->regionItem(0)->rect(), sc->sceneRectOf(0, Rect{4, 4, 10, 10}));
    QVERIFY(view.stepText().contains(QLatin1String("step 6 / 16")));
    // The last tile (3, 3) of the 16×16 output.
    view.setStep(15);
    QCOMPARE(sc->regionItem(3)->rect(), sc->sceneRectOf(3, Rect{12, 12, 4, 4}));
    QCOMPARE(sc->regionItem(0)->rect(), sc->sceneRectOf(0, Rect{12, 12, 10, 10}));
    // An edit of another setting keeps the step.
    StudioState edited = s;
    edited.schedule.groups[0].weights_resident = true;
    view.setState(edited);
    QCOMPARE(view.step(), 15);
}

void TestTeachingPyramid::overlapsColouredByStrategy() {
    const teaching::PyramidColors c = teaching::pyramidColors(false);
    for (Strategy st : {Strategy::recompute, Strategy::reuse}) {
        TilePyramidView view;
        QPalette p = view.palette();
        p.setColor(QPalette::Base, Qt::white);
        view.setPalette(p);
        const StudioState s = test::l3netFusedState(st, "convfusion-40nm");
        view.setState(s);
        view.setSelection(wholeGroup(s));
        QVERIFY(!view.scene()->overlapItem(2, false)->isVisible()); // step 0 has no left neighbour
        view.setStep(1);
        // conv2's region [4,10) overlaps the previous [0,6) in 2 columns × 6 rows.
        QGraphicsRectItem* left = view.scene()->overlapItem(2, false);
        QVERIFY(left->isVisible());
        QCOMPARE(left->rect(), view.scene()->sceneRectOf(2, Rect{4, 0, 2, 6}));
        QCOMPARE(left->brush().color(), st == Strategy::recompute ? c.recomputed : c.reused);
        QVERIFY(!view.scene()->overlapItem(2, true)->isVisible()); // first row: nothing above
    }
}

void TestTeachingPyramid::gaugeAndTable() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    // Live at step 0: 10·10·3 + 8·8·4 + 6·6·4 + 4·4·4 = 300 + 256 + 144 + 64 = 764 elements
    // (all channels of every region); the gauge shows the group's footprint from the metrics.
    QCOMPARE(view.currentStep().live_elements, int64_t(764));
    const BufferUse use = groupBufferUse(*s.metrics, 0);
    QVERIFY2(view.occupancyGauge()->format().contains(qs(use.text())),
             qPrintable(view.occupancyGauge()->format()));
    QVERIFY(view.occupancyGauge()->value() > 0);
    view.setStep(1);
    QTableWidget* t = view.stepTable();
    // conv2 (row 2) at step 1: 6·6·4 = 144 computed, of which 2·6·4 = 48 recomputed;
    // the input (row 0) loads its 10×10×3 window.
    QCOMPARE(t->item(2, 3)->text(), QStringLiteral("144"));
    QCOMPARE(t->item(2, 4)->text(), QStringLiteral("48"));
    QCOMPARE(t->item(0, 2)->text(), QStringLiteral("300"));
    QCOMPARE(t->item(2, 1)->text(), QStringLiteral("6×6 at (4, 0)"));
}

void TestTeachingPyramid::playAnimates() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::reuse, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    view.setInterval(20);
    view.setPlaying(true);
    QVERIFY(view.isPlaying());
    QTRY_VERIFY(view.step() >= 3);
    view.setPlaying(false);
    const int at = view.step();
    QTest::qWait(80);
    QCOMPARE(view.step(), at);
}

void TestTeachingPyramid::hoveredLoopIsOutlined() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    view.setStep(5); // tile (1, 1)
    const LayerId conv3 = s.network.computeIds()[2];
    // The y loops of conv3: its output rows [4, 8) across the map, and the rows of conv2 they read.
    view.highlightLoop(conv3, int(Dim::y));
    const auto& h = view.scene()->highlightItems();
    QCOMPARE(int(h.size()), 2);
    QCOMPARE(h[0]->rect(), view.scene()->sceneRectOf(3, Rect{0, 4, 16, 4}));
    QCOMPARE(h[1]->rect(), view.scene()->sceneRectOf(2, Rect{0, 4, 18, 6}));
    // The kernel loops: one 3×3 window of conv3's input region.
    view.highlightLoop(conv3, 4);
    QCOMPARE(int(view.scene()->highlightItems().size()), 1);
    QCOMPARE(view.scene()->highlightItems()[0]->rect(),
             view.scene()->sceneRectOf(2, Rect{4, 4, 3, 3}));
    // A layer outside the group, or leaving the loop, clears.
    view.highlightLoop(kNoLayer, -1);
    QVERIFY(view.scene()->highlightItems().empty());
}

void TestTeachingPyramid::doubleClickSelectsTheLayer() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection(wholeGroup(s));
    view.resize(700, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy spy(&view, &TilePyramidView::selectionRequested);
    // The middle of conv2's map (level 2).
    const QPointF centre = view.scene()->mapItem(2)->rect().center();
    QCOMPARE(view.layerAt(centre), s.network.computeIds()[1]);
    const QPoint at = view.graphicsView()->mapFromScene(centre);
    QTest::mouseDClick(view.graphicsView()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<StudioSelection>().layers,
             std::vector<LayerId>{s.network.computeIds()[1]});
}

void TestTeachingPyramid::noGroupNoPyramid() {
    TilePyramidView view;
    const StudioState s = test::l3netFusedState(Strategy::recompute, "convfusion-40nm");
    view.setState(s);
    view.setSelection({});
    QCOMPARE(view.shownGroup(), -1);
    QCOMPARE(view.stepCount(), 0);
    QCOMPARE(view.scene()->levelCount(), 0);
    // A single layer of the group shows the group's pyramid.
    StudioSelection one;
    one.layers = {s.network.computeIds()[1]};
    view.setSelection(one);
    QCOMPARE(view.shownGroup(), 0);
    QCOMPARE(view.scene()->levelCount(), 4);
}

QTEST_MAIN(TestTeachingPyramid)
#include "tst_teaching_pyramid.moc"
