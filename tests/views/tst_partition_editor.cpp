// PartitionEditor (docs/models/hw-flow-fusion.md "Partitions"): dragging a sub-array with the mouse
// keeps it inside the PE array, on divisor sizes and clear of the other layers; register-file share
// sliders keep every section at 100 %; showing a state never emits.
#include "models/evaluate.h"
#include "partition/partition_editor.h"
#include "partition/partition_geometry.h"
#include "partition/rf_share_editor.h"
#include "partition/subarray_canvas.h"
#include "test_support.h"
#include "text_fit/clipped_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QRandomGenerator>
#include <QSlider>
#include <QTableWidget>
#include <QtTest>

using namespace lf;

namespace {

// L2Net on hwff-config-1 (a 32 × 16 PE array) with conv1 and conv2 fused into g0.
StudioState fusedL2Net(PartitionKind kind) {
    StudioState s;
    s.network = test::bundledNetwork("l2net");
    s.hardware = test::bundledHardware("hwff-config-1");
    s.schedule = defaultSchedule(s.network, s.hardware);
    FusionGroup g;
    g.name = "g0";
    g.layers = {s.network.find("conv1"), s.network.find("conv2")};
    g.partition.kind = kind;
    s.schedule.groups = {g};
    normalize(s.schedule, s.network);
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    return s;
}

// Three chained convolutions fused in one temporal group.
StudioState threeLayerGroup() {
    StudioState s;
    s.network = test::networkFromYaml(R"(format: layerfuse/network@1
name: chain3
inputs:
  - {name: x, channels: 8, height: 12, width: 12}
layers:
  - {name: c1, type: conv, inputs: [x], out_channels: 8, kernel: 3, padding: 1}
  - {name: c2, type: conv, inputs: [c1], out_channels: 8, kernel: 3, padding: 1}
  - {name: c3, type: conv, inputs: [c2], out_channels: 8, kernel: 3, padding: 1}
)");
    s.hardware = test::bundledHardware("hwff-config-1");
    s.schedule = defaultSchedule(s.network, s.hardware);
    FusionGroup g;
    g.name = "all";
    g.layers = {s.network.find("c1"), s.network.find("c2"), s.network.find("c3")};
    s.schedule.groups = {g};
    normalize(s.schedule, s.network);
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    return s;
}

FusionGroup lastGroup(const QSignalSpy& spy) {
    return spy.at(spy.count() - 1).at(1).value<FusionGroup>();
}

void drag(QWidget* w, QPointF from, QPointF to) {
    QTest::mousePress(w, Qt::LeftButton, {}, from.toPoint());
    const int steps = 6;
    for (int k = 1; k <= steps; ++k) {
        const QPointF p = from + (to - from) * (double(k) / steps);
        QTest::mouseMove(w, p.toPoint());
    }
    QTest::mouseRelease(w, Qt::LeftButton, {}, to.toPoint());
}

void checkPlaceable(const FusionGroup& g, const Hardware& hw) {
    std::vector<std::pair<LayerId, SubArray>> list(g.partition.subarrays.begin(),
                                                   g.partition.subarrays.end());
    QCOMPARE(list.size(), g.layers.size());
    for (size_t a = 0; a < list.size(); ++a) {
        QVERIFY(insideArray(list[a].second, hw.pe_array.cols, hw.pe_array.rows));
        for (size_t b = a + 1; b < list.size(); ++b)
            QVERIFY(!overlaps(list[a].second, list[b].second));
    }
}

} // namespace

class TestPartitionEditor : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void dragEdgeResizesToDivisor();
    void dragIntoNeighbourIsRefused();
    void dragBodyMoves();
    void clickSelectsLayer();
    void rfSlidersKeepSectionsAt100();
    void kindToggle();
    void resultsFromMetrics();
    void setStateDoesNotEmit();
    void rebalanceByHand();
    void dragNeverLeavesArrayOrOverlaps();
    void titleNamesGroupAndArray();
    void manyLayersKeepTheHeadersWhole();
};

void TestPartitionEditor::dragEdgeResizesToDivisor() {
    const StudioState s = fusedL2Net(PartitionKind::spatial);
    const LayerId conv2 = s.network.find("conv2");
    PartitionEditor ed;
    ed.resize(700, 560);
    ed.setState(s);
    ed.setSelection({{}, 0});
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    SubArrayCanvas* canvas = ed.canvas();
    // Default: equal column strips, conv1 at columns 0-15, conv2 at 16-31.
    const QRectF r = canvas->rectOf(conv2);
    QVERIFY(!r.isEmpty());
    const double cell = canvas->cellSize();
    QCOMPARE(r.width(), 16 * cell);
    QSignalSpy spy(&ed, &PartitionEditor::groupEdited);
    // Drag conv2's left edge 8 PEs to the right: 8 columns wide (a divisor of 32) at column 24.
    const QPointF from(r.left() + 1, r.center().y());
    drag(canvas, from, from + QPointF(8 * cell, 0));
    QVERIFY(spy.count() >= 1);
    const FusionGroup g = lastGroup(spy);
    QCOMPARE(spy.at(0).at(0).toInt(), 0);
    QCOMPARE(g.partition.kind, PartitionKind::spatial);
    const SubArray got = g.partition.subarrays.at(conv2);
    QCOMPARE(got.col, 24);
    QCOMPARE(got.cols, 8);
    QCOMPARE(got.row, 0);
    QCOMPARE(got.rows, 16);
    QVERIFY(32 % got.cols == 0);
    checkPlaceable(g, s.hardware);
    // One gesture, one merge id.
    const int mergeId = spy.at(0).at(3).toInt();
    QVERIFY(mergeId != 0);
    for (int k = 0; k < spy.count(); ++k)
        QCOMPARE(spy.at(k).at(3).toInt(), mergeId);
    // A second drag is a separate undo step.
    spy.clear();
    const QRectF r2 = canvas->rectOf(conv2);
    drag(canvas, QPointF(r2.center().x(), r2.bottom() - 1),
         QPointF(r2.center().x(), r2.bottom() - 1 - 8 * cell));
    QVERIFY(spy.count() >= 1);
    QVERIFY(spy.at(0).at(3).toInt() != mergeId);
    const SubArray got2 = lastGroup(spy).partition.subarrays.at(conv2);
    QCOMPARE(got2.rows, 8); // a divisor of 16
    QCOMPARE(got2.row, 0);
    checkPlaceable(lastGroup(spy), s.hardware);
}

void TestPartitionEditor::dragIntoNeighbourIsRefused() {
    const StudioState s = fusedL2Net(PartitionKind::spatial);
    const LayerId conv1 = s.network.find("conv1");
    PartitionEditor ed;
    ed.resize(700, 560);
    ed.setState(s);
    ed.setSelection({{}, 0});
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    SubArrayCanvas* canvas = ed.canvas();
    const QRectF r = canvas->rectOf(conv1);
    QSignalSpy spy(&ed, &PartitionEditor::groupEdited);
    // Widening conv1 to the right runs into conv2 (columns 16-31): nothing fits, nothing changes.
    const QPointF from(r.right() - 1, r.center().y());
    drag(canvas, from, from + QPointF(10 * canvas->cellSize(), 0));
    QCOMPARE(spy.count(), 0);
    QCOMPARE(canvas->rectOf(conv1), r);
    // ... and the editor says why, where the drag was made.
    const QString note = ed.findChild<QLabel*>(QStringLiteral("partitionSnapNote"))->text();
    QVERIFY2(note.startsWith(QStringLiteral("conv1 stays 16 × 16")), qPrintable(note));
    QVERIFY(note.contains(QLatin1String("divide 32 (1, 2, 4, 8, 16, 32)")));
    QVERIFY(note.contains(QLatin1String("never overlaps")));
    // The next edit clears it.
    ed.setState(s);
    QVERIFY(ed.findChild<QLabel*>(QStringLiteral("partitionSnapNote"))->text().isEmpty());
}

void TestPartitionEditor::dragBodyMoves() {
    StudioState s = fusedL2Net(PartitionKind::spatial);
    const LayerId conv1 = s.network.find("conv1"), conv2 = s.network.find("conv2");
    s.schedule.groups[0].partition.subarrays = {{conv1, SubArray{0, 0, 8, 16}},
                                                {conv2, SubArray{24, 0, 8, 16}}};
    PartitionEditor ed;
    ed.resize(700, 560);
    ed.setState(s);
    ed.setSelection({{}, 0});
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    SubArrayCanvas* canvas = ed.canvas();
    QSignalSpy spy(&ed, &PartitionEditor::groupEdited);
    const QRectF r = canvas->rectOf(conv2);
    drag(canvas, r.center(), r.center() - QPointF(10 * canvas->cellSize(), 0));
    QVERIFY(spy.count() >= 1);
    const FusionGroup g = lastGroup(spy);
    QCOMPARE(g.partition.subarrays.at(conv2), (SubArray{14, 0, 8, 16}));
    QCOMPARE(g.partition.subarrays.at(conv1), (SubArray{0, 0, 8, 16}));
    checkPlaceable(g, s.hardware);
    // Further left it would overlap conv1: it stops against it at column 8.
    spy.clear();
    const QRectF r2 = canvas->rectOf(conv2);
    drag(canvas, r2.center(), r2.center() - QPointF(12 * canvas->cellSize(), 0));
    QCOMPARE(lastGroup(spy).partition.subarrays.at(conv2), (SubArray{8, 0, 8, 16}));
    checkPlaceable(lastGroup(spy), s.hardware);
}

void TestPartitionEditor::clickSelectsLayer() {
    const StudioState s = fusedL2Net(PartitionKind::spatial);
    const LayerId conv1 = s.network.find("conv1");
    PartitionEditor ed;
    ed.resize(700, 560);
    ed.setState(s);
    ed.setSelection({{}, 0});
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    QSignalSpy sel(&ed, &PartitionEditor::selectionRequested);
    QSignalSpy edits(&ed, &PartitionEditor::groupEdited);
    QTest::mouseClick(ed.canvas(), Qt::LeftButton, {},
                      ed.canvas()->rectOf(conv1).center().toPoint());
    QCOMPARE(edits.count(), 0);
    QCOMPARE(sel.count(), 1);
    const StudioSelection want{{conv1}, 0};
    QVERIFY(sel.at(0).at(0).value<StudioSelection>() == want);
}

void TestPartitionEditor::rfSlidersKeepSectionsAt100() {
    const StudioState s = threeLayerGroup();
    const LayerId c1 = s.network.find("c1"), c2 = s.network.find("c2"), c3 = s.network.find("c3");
    PartitionEditor ed;
    ed.setState(s);
    ed.setSelection({{}, 0});
    RfShareEditor* rf = ed.rfEditor();
    // Default 1/3 each, shown as whole percent summing to 100.
    QCOMPARE(rf->percent(RfSection::weight), (std::vector<int>{34, 33, 33}));
    QSignalSpy spy(&ed, &PartitionEditor::groupEdited);
    rf->slider(RfSection::weight, c1)->setValue(50);
    QCOMPARE(spy.count(), 1);
    FusionGroup g = lastGroup(spy);
    // The other 50 % split in proportion 33 : 33.
    QCOMPARE(g.partition.rf_share.at(c1).weight, 0.50);
    QCOMPARE(g.partition.rf_share.at(c2).weight, 0.25);
    QCOMPARE(g.partition.rf_share.at(c3).weight, 0.25);
    auto sum = [&](double RfShare::*m) {
        return g.partition.rf_share.at(c1).*m + g.partition.rf_share.at(c2).*m +
               g.partition.rf_share.at(c3).*m;
    };
    QVERIFY(std::abs(sum(&RfShare::weight) - 1.0) < 1e-9);
    QVERIFY(std::abs(sum(&RfShare::input) - 1.0) < 1e-9); // other sections untouched: 1/3 each
    QVERIFY(std::abs(sum(&RfShare::psum) - 1.0) < 1e-9);
    QVERIFY(std::abs(g.partition.rf_share.at(c2).input - 1.0 / 3) < 1e-12);
    QVERIFY(checkGroup(s.network, s.hardware, g).empty());
    // c2 to 90 %: the remaining 10 % split 50 : 25 between c1 and c3 -> 6.67 / 3.33 -> 7 / 3.
    rf->slider(RfSection::weight, c2)->setValue(90);
    g = lastGroup(spy);
    QCOMPARE(g.partition.rf_share.at(c1).weight, 0.07);
    QCOMPARE(g.partition.rf_share.at(c2).weight, 0.90);
    QCOMPARE(g.partition.rf_share.at(c3).weight, 0.03);
    QVERIFY(std::abs(sum(&RfShare::weight) - 1.0) < 1e-9);
    QCOMPARE(rf->percent(RfSection::weight), (std::vector<int>{7, 90, 3}));
    // The psum section moves on its own.
    rf->slider(RfSection::psum, c3)->setValue(0);
    g = lastGroup(spy);
    QCOMPARE(g.partition.rf_share.at(c3).psum, 0.0);
    QVERIFY(std::abs(sum(&RfShare::psum) - 1.0) < 1e-9);
    QCOMPARE(g.partition.rf_share.at(c2).weight, 0.90);
    // The other 100 % split 34 : 33 -> 50.75 / 49.25 -> 51 / 49.
    QCOMPARE(rf->percent(RfSection::psum), (std::vector<int>{51, 49, 0}));
}

void TestPartitionEditor::kindToggle() {
    const StudioState s = fusedL2Net(PartitionKind::temporal);
    PartitionEditor ed;
    ed.setState(s);
    ed.setSelection({{}, 0});
    QVERIFY(ed.temporalButton()->isChecked());
    QSignalSpy spy(&ed, &PartitionEditor::groupEdited);
    ed.spatialButton()->click();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(lastGroup(spy).partition.kind, PartitionKind::spatial);
    ed.temporalButton()->click();
    QCOMPARE(spy.count(), 2);
    QCOMPARE(lastGroup(spy).partition.kind, PartitionKind::temporal);
}

void TestPartitionEditor::resultsFromMetrics() {
    StudioState s = fusedL2Net(PartitionKind::spatial);
    const LayerId conv1 = s.network.find("conv1");
    auto m = std::make_shared<Metrics>(*s.metrics);
    LayerMetrics& lm = m->layers[size_t(m->layer_index[size_t(conv1)])];
    lm.pes = 256;
    lm.compute_cycles = 4000;
    lm.utilization = 0.5;
    auto prev = std::make_shared<Metrics>(*m);
    prev->layers[size_t(prev->layer_index[size_t(conv1)])].compute_cycles = 8000;
    s.metrics = m;
    s.previous = prev;
    PartitionEditor ed;
    ed.setState(s);
    ed.setSelection({{}, 0});
    QTableWidget* t = ed.resultTable();
    QCOMPARE(t->rowCount(), 2);
    QCOMPARE(t->item(0, 0)->text(), QStringLiteral("conv1"));
    QCOMPARE(t->item(0, 1)->text(), QStringLiteral("16 × 16 at (0, 0)"));
    QCOMPARE(t->item(0, 2)->text(), QStringLiteral("256"));
    QVERIFY2(t->item(0, 3)->text().contains(QStringLiteral("▼ 50 %")),
             qPrintable(t->item(0, 3)->text()));
    QVERIFY(t->item(0, 4)->text().startsWith(QStringLiteral("50.0 %")));
}

void TestPartitionEditor::setStateDoesNotEmit() {
    PartitionEditor ed;
    ed.resize(600, 500);
    ed.show();
    QSignalSpy a(&ed, &PartitionEditor::groupEdited);
    QSignalSpy b(&ed, &PartitionEditor::selectionRequested);
    for (PartitionKind k :
         {PartitionKind::spatial, PartitionKind::temporal, PartitionKind::spatial}) {
        StudioState s = fusedL2Net(k);
        s.schedule.groups[0].partition.rf_share[s.network.find("conv1")] = RfShare{0.2, 0.7, 0.5};
        ed.setState(s);
        ed.setSelection({{s.network.find("conv2")}, 0});
        ed.setSelection({{}, -1});
        ed.setSelection({{}, 0});
        QCOMPARE(ed.spatialButton()->isChecked(), k == PartitionKind::spatial);
    }
    QCOMPARE(a.count(), 0);
    QCOMPARE(b.count(), 0);
}

void TestPartitionEditor::rebalanceByHand() {
    QCOMPARE(rebalancePercent({50, 30, 20}, 0, 80), (std::vector<int>{80, 12, 8}));
    QCOMPARE(rebalancePercent({50, 30, 20}, 2, 100), (std::vector<int>{0, 0, 100}));
    QCOMPARE(rebalancePercent({100, 0, 0}, 0, 40), (std::vector<int>{40, 30, 30}));
    QCOMPARE(rebalancePercent({50, 50}, 1, 130), (std::vector<int>{0, 100}));
    QCOMPARE(fractionsToPercent({1.0 / 3, 1.0 / 3, 1.0 / 3}), (std::vector<int>{34, 33, 33}));
    QCOMPARE(fractionsToPercent({0.2, 0.3}), (std::vector<int>{20, 30})); // sums kept as they are
}

void TestPartitionEditor::dragNeverLeavesArrayOrOverlaps() {
    // Random drags of every kind on a 32 × 16 array with three sub-arrays.
    QRandomGenerator rng(7);
    const int cols = 32, rows = 16;
    const unsigned kinds[] = {kEdgeMove,
                              kEdgeLeft,
                              kEdgeRight,
                              kEdgeTop,
                              kEdgeBottom,
                              kEdgeLeft | kEdgeTop,
                              kEdgeRight | kEdgeBottom};
    for (int iter = 0; iter < 3000; ++iter) {
        std::vector<SubArray> rects{{0, 0, 8, 16}, {8, 0, 16, 8}, {24, 8, 8, 8}};
        const size_t k = size_t(rng.bounded(3));
        std::vector<SubArray> others;
        for (size_t i = 0; i < rects.size(); ++i)
            if (i != k) others.push_back(rects[i]);
        const unsigned edges = kinds[rng.bounded(7)];
        const double dc = rng.bounded(80.0) - 40, dr = rng.bounded(40.0) - 20;
        const SubArray got = dragSubArray(rects[k], edges, dc, dr, cols, rows, others);
        QVERIFY(placeable(got, cols, rows, others));
        if (!(edges & kEdgeMove)) {
            // Resized sides are divisors of the array (or the side as it was).
            QVERIFY(cols % got.cols == 0 || got.cols == rects[k].cols);
            QVERIFY(rows % got.rows == 0 || got.rows == rects[k].rows);
        } else {
            QCOMPARE(got.cols, rects[k].cols);
            QCOMPARE(got.rows, rects[k].rows);
        }
    }
}

// The title names the group, its layer count and the array (columns × rows), for one layer too.
void TestPartitionEditor::titleNamesGroupAndArray() {
    const StudioState s = fusedL2Net(PartitionKind::temporal);
    PartitionEditor ed;
    ed.setState(s);
    auto titled = [&](const QString& text) {
        for (const QLabel* l : ed.findChildren<QLabel*>())
            if (l->text() == text) return true;
        return false;
    };
    ed.setSelection({{}, 0});
    QVERIFY(titled(QStringLiteral("Group g0 — 2 layers on a 32 × 16 PE array")));
    StudioState unfused = s; // L2Net unfused: every layer a singleton group
    unfused.schedule = defaultSchedule(s.network, s.hardware);
    normalize(unfused.schedule, s.network);
    unfused.metrics = std::make_shared<const Metrics>(
        evaluate(unfused.network, unfused.hardware, unfused.schedule));
    QVERIFY(!unfused.schedule.groups.empty());
    QCOMPARE(unfused.schedule.groups[0].layers.size(), size_t(1));
    ed.setState(unfused);
    ed.setSelection({{}, 0});
    const QString name = QString::fromStdString(unfused.schedule.groups[0].name);
    QVERIFY(titled(QStringLiteral("Group %1 — 1 layer on a 32 × 16 PE array").arg(name)));
}

// A group of 19 layers (what Auto-fuse makes of ResNet-18's tail on hwff-config-1), split
// spatially after being temporal: every figure shows its change, and in a dock as narrow as at
// 1920 × 1080 the shares column was squeezed below the width of its header "Share".
void TestPartitionEditor::manyLayersKeepTheHeadersWhole() {
    StudioState s;
    s.network = test::bundledNetwork("resnet18");
    s.hardware = test::bundledHardware("hwff-config-1");
    s.schedule = defaultSchedule(s.network, s.hardware);
    FusionGroup g;
    g.name = "tail";
    g.strategy = Strategy::reuse; // as Auto-fuse makes it (recomputing 19 layers deep explodes)
    for (LayerId id = s.network.find("layer2.1.conv1"); id < s.network.size(); ++id)
        g.layers.push_back(id);
    QCOMPARE(g.layers.size(), size_t(19));
    std::vector<FusionGroup> groups;
    for (const FusionGroup& one : s.schedule.groups)
        if (std::find(g.layers.begin(), g.layers.end(), one.layers.front()) == g.layers.end())
            groups.push_back(one);
    groups.push_back(g);
    s.schedule.groups = groups;
    normalize(s.schedule, s.network);
    const int tail = int(s.schedule.groups.size()) - 1;
    QCOMPARE(s.schedule.groups[size_t(tail)].layers.size(), size_t(19));
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));

    PartitionEditor ed;
    ed.setState(s);
    ed.setSelection({{}, tail});
    ed.resize(800, 700);
    ed.show();
    QVERIFY(QTest::qWaitForWindowExposed(&ed));
    // The edit: the group split spatially, every figure against the temporal one.
    s.previous = s.metrics;
    s.schedule.groups[size_t(tail)].partition.kind = PartitionKind::spatial;
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    ed.setState(s);
    // The user narrows the dock by its edge.
    for (int width = 800; width >= 500; width -= 20) {
        ed.resize(width, 700);
        QCoreApplication::processEvents();
    }
    QTableWidget* t = ed.resultTable();
    QCOMPARE(t->rowCount(), 19);
    QVERIFY2(t->item(0, 3)->text().contains(QStringLiteral("%")),
             qPrintable(t->item(0, 3)->text()));
    auto clipped = [&] {
        QStringList texts;
        for (const ClippedText& c : clippedTexts(&ed))
            texts << describe(c);
        return texts;
    };
    QTRY_VERIFY2(clipped().isEmpty(), qPrintable(clipped().join('\n')));
    const int share = t->horizontalHeader()->sectionSizeHint(1);
    QVERIFY(t->columnWidth(1) >= share);
    QVERIFY(t->viewport()->height() >= 3 * t->rowHeight(0)); // rows to read, not a sliver
    // Narrower still, and scrolled to the longest names: whole or there to scroll to.
    ed.resize(380, 700);
    t->scrollToBottom();
    QTRY_VERIFY2(clipped().isEmpty(), qPrintable(clipped().join('\n')));
    QVERIFY(t->columnWidth(1) >= share);
}

QTEST_MAIN(TestPartitionEditor)
#include "tst_partition_editor.moc"
