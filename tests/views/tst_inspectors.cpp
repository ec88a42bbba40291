// LayerInspector and GroupInspector: edits leave as intents carrying the new values (with a
// merge id for scrubbing), the level combos offer exactly the legal levels (ConvFusion
// ConvFusion §III-C: CL at or below SL, SL_Y at or below SL_X and SL_W), and showing a state never
// emits.
#include "inspectors/divisor_spin_box.h"
#include "inspectors/group_inspector.h"
#include "inspectors/layer_inspector.h"
#include "inspectors/loop_order_list.h"
#include "models/evaluate.h"
#include "qt_text.h"
#include "search/fitting_tile.h"
#include "studio_states.h"
#include "test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolButton>
#include <QtTest>

#include <set>

using namespace lf;

namespace {

using EditSpy = QSignalSpy;

LayerSchedule scheduleArg(const EditSpy& spy, int k) {
    return spy.at(k).at(1).value<LayerSchedule>();
}

// The legal levels of one combo, from the constraints themselves (not from the code under
// test): a store level drags the array's compute level along (the compute level is then
// free), a compute level must be at or below its store level, SL_Y at or below SL_X, SL_W.
std::set<int> expectedLevels(const LayerSchedule& s, Arr a, LevelKind k) {
    std::set<int> out;
    for (int l = 0; l <= 4; ++l) {
        if (k == LevelKind::compute) {
            if (l >= int(s.SL(a))) out.insert(l);
        } else if (a == Arr::Y) {
            if (l >= int(s.SL(Arr::X)) && l >= int(s.SL(Arr::W))) out.insert(l);
        } else {
            if (l <= int(s.SL(Arr::Y))) out.insert(l);
        }
    }
    return out;
}

std::set<int> offeredLevels(QComboBox* cb) {
    std::set<int> out;
    for (int i = 0; i < cb->count(); ++i)
        out.insert(cb->itemData(i).toInt());
    return out;
}

} // namespace

class TestInspectors : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void tileSpinBoxEmitsNewTileWithMergeId();
    void snapToDivisorsSteps();
    void levelCombosOfferOnlyLegalLevels_data();
    void levelCombosOfferOnlyLegalLevels();
    void choosingALevelGivesALegalSchedule();
    void loopOrderButtons();
    void loopOrderDropReorders();
    void unrollOverride();
    void setStateDoesNotEmit();
    void setStateKeepsFocusedText();
    void placeholderForManyOrNonComputeLayers();
    void groupEditsEmitGroup();
    void groupRenameRefusesDuplicates();
    void groupShowsViolations();
    void groupSetStateDoesNotEmit();
    void intentsCrossQueuedConnections();
    void unchangedEditIsExplainedWhereItWasMade();
    void overCapacityOffersTheNearestFittingTile();
};

void TestInspectors::tileSpinBoxEmitsNewTileWithMergeId() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, s.schedule.groupOf(conv2)});
    QCOMPARE(insp.layer(), conv2);
    EditSpy spy(&insp, &LayerInspector::layerScheduleEdited);
    DivisorSpinBox* tx = insp.tileSpinBox(Dim::x);
    QCOMPARE(tx->maximum(), 16); // conv2: D_x = 16 (20 - 3 + 1 - 3 + 1)
    tx->setValue(8);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<LayerId>(), conv2);
    const LayerSchedule sent = scheduleArg(spy, 0);
    QCOMPARE(sent.T(Dim::x), int64_t(8));
    QCOMPARE(sent.T(Dim::y), s.schedule.layers[size_t(conv2)].T(Dim::y)); // others untouched
    QVERIFY(spy.at(0).at(2).toString().contains(QStringLiteral("Tx")));
    QVERIFY(spy.at(0).at(2).toString().contains(QStringLiteral("conv2")));
    const int mergeId = spy.at(0).at(3).toInt();
    QVERIFY(mergeId != 0);
    // Scrubbing the same spin box (arrow key) merges into the same undo step.
    tx->setFocus();
    QTest::keyClick(tx, Qt::Key_Down);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(scheduleArg(spy, 1).T(Dim::x), int64_t(7));
    QCOMPARE(spy.at(1).at(3).toInt(), mergeId);
    // Another tile does not merge with Tx.
    insp.tileSpinBox(Dim::z)->setValue(2);
    QCOMPARE(spy.count(), 3);
    QVERIFY(spy.at(2).at(3).toInt() != mergeId);
    QCOMPARE(scheduleArg(spy, 2).T(Dim::x), int64_t(7)); // builds on the previous edit
}

void TestInspectors::snapToDivisorsSteps() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv1 = s.network.find("conv1"); // D_x = 18: divisors 1 2 3 6 9 18
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv1}, s.schedule.groupOf(conv1)});
    insp.setSnapToDivisors(true);
    EditSpy spy(&insp, &LayerInspector::layerScheduleEdited);
    DivisorSpinBox* tx = insp.tileSpinBox(Dim::x);
    QCOMPARE(tx->value(), 18);
    tx->stepBy(-1);
    QCOMPARE(tx->value(), 9);
    tx->stepBy(-1);
    QCOMPARE(tx->value(), 6);
    tx->stepBy(2);
    QCOMPARE(tx->value(), 18);
    QCOMPARE(spy.count(), 3);
    QCOMPARE(scheduleArg(spy, 0).T(Dim::x), int64_t(9));
    QCOMPARE(scheduleArg(spy, 1).T(Dim::x), int64_t(6));
    // A typed non-divisor is rounded to the nearest divisor when the typing ends.
    tx->selectAll();
    QTest::keyClicks(tx, QStringLiteral("8"));
    QTest::keyClick(tx, Qt::Key_Return);
    QCOMPARE(tx->value(), 9);
    QCOMPARE(spy.count(), 4);
    QCOMPARE(scheduleArg(spy, 3).T(Dim::x), int64_t(9));
    QCOMPARE(tx->nearestDivisor(8), 9);
    QCOMPARE(tx->nearestDivisor(4), 3);
    QCOMPARE(divisorsOf(18), (std::vector<int>{1, 2, 3, 6, 9, 18}));
}

void TestInspectors::levelCombosOfferOnlyLegalLevels_data() {
    QTest::addColumn<int>("slx");
    QTest::addColumn<int>("cly");
    QTest::addColumn<int>("sly");
    QTest::addColumn<int>("clx");
    QTest::addColumn<int>("slw");
    QTest::addColumn<int>("clw");
    QTest::newRow("all at tile") << 0 << 0 << 0 << 0 << 0 << 0;
    QTest::newRow("mixed") << 1 << 4 << 3 << 2 << 0 << 0;
    QTest::newRow("deep") << 2 << 4 << 4 << 3 << 4 << 4;
    QTest::newRow("Y at l2") << 0 << 2 << 2 << 4 << 2 << 3;
}

void TestInspectors::levelCombosOfferOnlyLegalLevels() {
    QFETCH(int, slx);
    QFETCH(int, cly);
    QFETCH(int, sly);
    QFETCH(int, clx);
    QFETCH(int, slw);
    QFETCH(int, clw);
    StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerSchedule& ls = s.schedule.layers[size_t(conv2)];
    ls.store = {Level(slx), Level(sly), Level(slw)};
    ls.compute = {Level(clx), Level(cly), Level(clw)};
    QVERIFY(checkLayer(s.network, conv2, ls).empty());
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    for (Arr a : kAllArrs)
        for (LevelKind k : {LevelKind::store, LevelKind::compute}) {
            QComboBox* cb = insp.levelComboBox(a, k);
            QCOMPARE(offeredLevels(cb), expectedLevels(ls, a, k));
            // The current level is the one shown.
            const Level cur = k == LevelKind::store ? ls.SL(a) : ls.CL(a);
            QCOMPARE(cb->currentData().toInt(), int(cur));
        }
}

void TestInspectors::choosingALevelGivesALegalSchedule() {
    StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerSchedule& ls = s.schedule.layers[size_t(conv2)];
    ls.store = {Level::l1, Level::l3, Level::tile};
    ls.compute = {Level::l2, Level::l4, Level::tile};
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    EditSpy spy(&insp, &LayerInspector::layerScheduleEdited);
    int expected = 0;
    for (Arr a : kAllArrs)
        for (LevelKind k : {LevelKind::store, LevelKind::compute}) {
            QComboBox* cb = insp.levelComboBox(a, k);
            for (int i = 0; i < cb->count(); ++i) {
                insp.setState(s); // back to the starting schedule
                const int level = cb->itemData(i).toInt();
                const int current = k == LevelKind::store ? int(ls.SL(a)) : int(ls.CL(a));
                cb->setCurrentIndex(i);
                emit cb->activated(i);
                if (level == current) continue; // no change, no intent
                ++expected;
                QCOMPARE(spy.count(), expected);
                const LayerSchedule sent = scheduleArg(spy, expected - 1);
                const auto v = checkLayer(s.network, conv2, sent);
                QVERIFY2(v.empty(), v.empty() ? "" : v.front().message.c_str());
                QCOMPARE(int(k == LevelKind::store ? sent.SL(a) : sent.CL(a)), level);
            }
        }
    QVERIFY(expected > 6);
    // Store X at l3 (below its compute level l2) drags the compute level along.
    insp.setState(s);
    QComboBox* sx = insp.levelComboBox(Arr::X, LevelKind::store);
    const int idx = sx->findData(int(Level::l3));
    QVERIFY(idx >= 0);
    emit sx->activated(idx);
    const LayerSchedule sent = scheduleArg(spy, spy.count() - 1);
    QCOMPARE(sent.SL(Arr::X), Level::l3);
    QCOMPARE(sent.CL(Arr::X), Level::l3);
}

void TestInspectors::loopOrderButtons() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    EditSpy spy(&insp, &LayerInspector::layerScheduleEdited);
    LoopOrderList* list = insp.loopOrderList();
    list->list()->setCurrentRow(0);
    auto* down = list->findChild<QToolButton*>(QStringLiteral("moveDown"));
    QVERIFY(down && down->isEnabled());
    QTest::mouseClick(down, Qt::LeftButton);
    QCOMPARE(spy.count(), 1);
    const std::array<Dim, 4> want{Dim::y, Dim::z, Dim::x, Dim::i};
    QVERIFY(scheduleArg(spy, 0).order == want);
    QCOMPARE(list->list()->currentRow(), 1);
    // The level names follow the new order: l1 is now the y loop.
    QComboBox* sy = insp.levelComboBox(Arr::Y, LevelKind::store);
    QVERIFY(sy->itemText(sy->findData(int(Level::l1))).startsWith(QStringLiteral("yi")));
    // The top entry cannot move up.
    list->list()->setCurrentRow(0);
    QVERIFY(!list->findChild<QToolButton*>(QStringLiteral("moveUp"))->isEnabled());
}

void TestInspectors::loopOrderDropReorders() {
    // A drop inside the list moves rows in its model; the new order is read once it settles.
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    EditSpy spy(&insp, &LayerInspector::layerScheduleEdited);
    QAbstractItemModel* model = insp.loopOrderList()->list()->model();
    QVERIFY(model->moveRows(QModelIndex(), 0, 1, QModelIndex(), 3)); // z below x
    QTRY_COMPARE(spy.count(), 1);
    const std::array<Dim, 4> want{Dim::y, Dim::x, Dim::z, Dim::i};
    QVERIFY(scheduleArg(spy, 0).order == want);
}

void TestInspectors::unrollOverride() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    EditSpy spy(&insp, &LayerInspector::layerScheduleEdited);
    QComboBox* cb = insp.unrollComboBox();
    // The first entry is the hardware's dataflow.
    QVERIFY(
        cb->itemText(0).contains(QString::fromStdString(toString(s.hardware.pe_array.dataflow))));
    const int idx = cb->findText(QStringLiteral("ox|oc"));
    cb->setCurrentIndex(idx);
    emit cb->activated(idx);
    QCOMPARE(spy.count(), 1);
    const LayerSchedule sent = scheduleArg(spy, 0);
    QVERIFY(sent.unroll.has_value());
    QCOMPARE(toString(*sent.unroll), std::string("ox|oc"));
    // Text that is not a dataflow is refused, not emitted.
    cb->setEditText(QStringLiteral("ox|zz"));
    emit cb->lineEdit()->editingFinished();
    QCOMPARE(spy.count(), 1);
}

void TestInspectors::setStateDoesNotEmit() {
    StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    GroupInspector group;
    EditSpy a(&insp, &LayerInspector::layerScheduleEdited);
    EditSpy b(&insp, &LayerInspector::selectionRequested);
    EditSpy c(&group, &GroupInspector::groupEdited);
    EditSpy d(&group, &GroupInspector::selectionRequested);
    for (int round = 0; round < 3; ++round) {
        LayerSchedule& ls = s.schedule.layers[size_t(conv2)];
        ls.tile = {2 + round, 4, 8 - round, 1 + round};
        ls.order = round == 1 ? std::array<Dim, 4>{Dim::i, Dim::x, Dim::y, Dim::z} : ls.order;
        ls.store = {Level(round), Level(round + 1), Level(round)};
        ls.compute = {Level(round + 1), Level(round + 1), Level(round)};
        ls.unroll = round == 2 ? parseDataflow("ic|oc") : std::nullopt;
        FusionGroup& g = s.schedule.groups[size_t(s.schedule.groupOf(conv2))];
        g.strategy = Strategy(round);
        g.weights_resident = round % 2;
        g.out_tile = round == 1 ? std::optional<OutputTile>(OutputTile{4, 8}) : std::nullopt;
        g.partition.kind = round == 2 ? PartitionKind::spatial : PartitionKind::temporal;
        insp.setState(s);
        group.setState(s);
        insp.setSelection({{conv2}, round == 0 ? -1 : s.schedule.groupOf(conv2)});
        group.setSelection({{conv2}, -1});
        QCOMPARE(insp.tileSpinBox(Dim::z)->value(), 2 + round);
        QCOMPARE(insp.tileSpinBox(Dim::x)->value(), 8 - round);
        QCOMPARE(group.weightsResidentCheckBox()->isChecked(), bool(round % 2));
    }
    QCOMPARE(a.count(), 0);
    QCOMPARE(b.count(), 0);
    QCOMPARE(c.count(), 0);
    QCOMPARE(d.count(), 0);
}

void TestInspectors::setStateKeepsFocusedText() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    insp.show();
    QVERIFY(QTest::qWaitForWindowExposed(&insp));
    DivisorSpinBox* ty = insp.tileSpinBox(Dim::y);
    ty->setFocus();
    QTRY_VERIFY(ty->hasFocus());
    // A new state (e.g. metrics arriving) must not take focus away or reset the value.
    insp.setState(s);
    QVERIFY(ty->hasFocus());
    QCOMPARE(ty->value(), 16);
}

void TestInspectors::placeholderForManyOrNonComputeLayers() {
    const StudioState s = test::defaultState("l2net");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{s.network.find("conv1"), s.network.find("conv2")}, -1});
    QCOMPARE(insp.layer(), kNoLayer);
    insp.setSelection({{s.network.find("image")}, -1}); // the input layer has no schedule
    QCOMPARE(insp.layer(), kNoLayer);
    insp.setSelection({{s.network.find("conv1")}, -1});
    QCOMPARE(insp.layer(), s.network.find("conv1"));
}

void TestInspectors::groupEditsEmitGroup() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    const int gi = s.schedule.groupOf(conv2);
    GroupInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1}); // the group of the selected layer
    QCOMPARE(insp.group(), gi);
    QSignalSpy spy(&insp, &GroupInspector::groupEdited);

    QComboBox* st = insp.strategyComboBox();
    const int reuse = st->findData(int(Strategy::reuse));
    st->setCurrentIndex(reuse);
    emit st->activated(reuse);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), gi);
    QCOMPARE(spy.at(0).at(1).value<FusionGroup>().strategy, Strategy::reuse);

    // With reuse the output tile applies: leave "auto" and set 4 × 8.
    insp.autoTileCheckBox()->setChecked(false);
    QCOMPARE(spy.count(), 2);
    FusionGroup g = spy.at(1).at(1).value<FusionGroup>();
    QVERIFY(g.out_tile.has_value());
    QCOMPARE(g.strategy, Strategy::reuse); // builds on the strategy edit
    insp.tileHeightSpinBox()->setValue(4);
    insp.tileWidthSpinBox()->setValue(8);
    g = spy.at(spy.count() - 1).at(1).value<FusionGroup>();
    QCOMPARE(g.out_tile->h, int64_t(4));
    QCOMPARE(g.out_tile->w, int64_t(8));
    QVERIFY(spy.at(spy.count() - 1).at(3).toInt() != 0); // tile scrubbing merges
    QCOMPARE(insp.tileHeightSpinBox()->maximum(), 16);   // conv2's output is 16 × 16

    const int before = int(spy.count());
    insp.weightsResidentCheckBox()->setChecked(true);
    QCOMPARE(spy.count(), before + 1);
    QVERIFY(spy.at(before).at(1).value<FusionGroup>().weights_resident);

    QComboBox* pk = insp.partitionComboBox();
    const int spatial = pk->findData(int(PartitionKind::spatial));
    pk->setCurrentIndex(spatial);
    emit pk->activated(spatial);
    QCOMPARE(spy.count(), before + 2);
    QCOMPARE(spy.at(before + 1).at(1).value<FusionGroup>().partition.kind, PartitionKind::spatial);

    // Clicking a member layer asks to select it.
    QSignalSpy sel(&insp, &GroupInspector::selectionRequested);
    QListWidget* layers = insp.layerList();
    QCOMPARE(layers->count(), 1);
    emit layers->itemClicked(layers->item(0));
    QCOMPARE(sel.count(), 1);
    QCOMPARE(sel.at(0).at(0).value<StudioSelection>().layers, std::vector<LayerId>{conv2});
}

void TestInspectors::groupRenameRefusesDuplicates() {
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    GroupInspector insp;
    insp.setState(s);
    insp.setSelection({{}, s.schedule.groupOf(conv2)});
    QSignalSpy spy(&insp, &GroupInspector::groupEdited);
    insp.nameEdit()->setText(QStringLiteral("conv1")); // the other group's name
    emit insp.nameEdit()->editingFinished();
    QCOMPARE(spy.count(), 0);
    insp.nameEdit()->setText(QStringLiteral(""));
    emit insp.nameEdit()->editingFinished();
    QCOMPARE(spy.count(), 0);
    insp.nameEdit()->setText(QStringLiteral("tail"));
    emit insp.nameEdit()->editingFinished();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(1).value<FusionGroup>().name, std::string("tail"));
    QVERIFY(spy.at(0).at(2).toString().contains(QStringLiteral("tail")));
}

void TestInspectors::groupShowsViolations() {
    StudioState s = test::defaultState("l2net");
    const LayerId conv1 = s.network.find("conv1"), conv2 = s.network.find("conv2");
    // One group of both layers, spatial, with overlapping sub-arrays.
    FusionGroup g;
    g.name = "g0";
    g.layers = {conv1, conv2};
    g.partition.kind = PartitionKind::spatial;
    g.partition.subarrays[conv1] = SubArray{0, 0, 16, 16};
    g.partition.subarrays[conv2] = SubArray{8, 0, 16, 16};
    s.schedule.groups = {g};
    normalize(s.schedule, s.network);
    GroupInspector insp;
    insp.setState(s);
    insp.setSelection({{}, 0});
    QVERIFY(!insp.problemsLabel()->isHidden());
    QVERIFY2(insp.problemsLabel()->text().contains(QStringLiteral("overlap")),
             qPrintable(insp.problemsLabel()->text()));
    QCOMPARE(insp.layerList()->count(), 2);
}

void TestInspectors::groupSetStateDoesNotEmit() {
    StudioState s = test::defaultState("l2net");
    GroupInspector insp;
    QSignalSpy spy(&insp, &GroupInspector::groupEdited);
    insp.setSelection({{}, 1});
    for (int k = 0; k < 3; ++k) {
        s.schedule.groups[1].name = "renamed" + std::to_string(k);
        s.schedule.groups[1].strategy = Strategy(k);
        insp.setState(s);
        QCOMPARE(insp.nameEdit()->text(), QString::fromStdString(s.schedule.groups[1].name));
    }
    s.metrics.reset(); // evaluating
    insp.setState(s);
    QCOMPARE(spy.count(), 0);
}

void TestInspectors::intentsCrossQueuedConnections() {
    // The Document may sit behind a queued connection: the values must arrive intact.
    const StudioState s = test::defaultState("l2net");
    const LayerId conv2 = s.network.find("conv2");
    LayerInspector insp;
    insp.setState(s);
    insp.setSelection({{conv2}, -1});
    QObject receiver;
    LayerSchedule got;
    LayerId gotId = kNoLayer;
    int gotMerge = 0;
    connect(
        &insp, &LayerInspector::layerScheduleEdited, &receiver,
        [&](LayerId id, const LayerSchedule& ls, const QString&, int mergeId) {
            gotId = id;
            got = ls;
            gotMerge = mergeId;
        },
        Qt::QueuedConnection);
    insp.tileSpinBox(Dim::y)->setValue(4);
    QCOMPARE(gotId, kNoLayer); // not delivered yet
    QTRY_COMPARE(gotId, conv2);
    QCOMPARE(got.T(Dim::y), int64_t(4));
    QVERIFY(gotMerge != 0);
    // The state type itself travels in a QVariant.
    const QVariant v = QVariant::fromValue(s);
    QCOMPARE(v.value<StudioState>().schedule.groups.size(), s.schedule.groups.size());
}

// Reordering the loops of a layer whose tiles are its full dimensions moves no figure: the
// layer inspector says why under the loop order; an edit that moves figures hides it.
void TestInspectors::unchangedEditIsExplainedWhereItWasMade() {
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const LayerId conv2 = net.find("conv2");
    const LayerDims d = layerDims(net, conv2);
    Schedule s = defaultSchedule(net, hw);
    s.layers[size_t(conv2)].tile = {d.Dz, d.Dy, d.Dx, d.Di};
    const StudioState a = test::evaluatedState(net, hw, s);
    s.layers[size_t(conv2)].order = {Dim::x, Dim::y, Dim::z, Dim::i};
    StudioState b = test::evaluatedState(net, hw, s);
    b.previous = a.metrics;
    LayerInspector w;
    w.setSelection(test::layerSelection(a, "conv2"));
    w.setState(a);
    QVERIFY(w.unchangedNote()->isHidden());
    w.setState(b);
    QVERIFY(!w.unchangedNote()->isHidden());
    QVERIFY2(w.unchangedNote()->text().contains(QLatin1String("Every loop runs once")),
             qPrintable(w.unchangedNote()->text()));
    // The same state again (e.g. a selection change) keeps the note.
    w.setState(b);
    QVERIFY(!w.unchangedNote()->isHidden());
    // An edit that moves a figure hides it.
    s.layers[size_t(conv2)].tile[size_t(Dim::z)] = 1;
    StudioState c = test::evaluatedState(net, hw, s);
    c.previous = b.metrics;
    w.setState(c);
    QVERIFY(w.unchangedNote()->isHidden());
}

// A group over the buffer shows the nearest tile that fits; "Use it" proposes it as one edit.
void TestInspectors::overCapacityOffersTheNearestFittingTile() {
    StudioState s = test::l3netFusedState(Strategy::reuse, "convfusion-40nm");
    s.hardware.buffer.bytes = s.metrics->groups[0].buffer_bytes - 1; // the 4×4 tile misses

    s = test::evaluatedState(s.network, s.hardware, s.schedule);
    QVERIFY(!s.metrics->groups[0].fits);
    auto fit = nearestFittingTile(s.network, s.hardware, s.schedule, 0);
    QVERIFY(fit);
    s.fitting_tiles = std::make_shared<const std::vector<FittingTile>>(std::vector{*fit});
    GroupInspector w;
    w.setState(s);
    w.setSelection(StudioSelection{{}, 0});
    QVERIFY(w.fitHintLabel()->isVisibleTo(&w));
    QVERIFY2(w.fitHintLabel()->text().contains(qs(fit->text())),
             qPrintable(w.fitHintLabel()->text()));
    QSignalSpy edits(&w, &GroupInspector::groupEdited);
    w.fitApplyButton()->click();
    QCOMPARE(edits.count(), 1);
    const FusionGroup g = edits.front().at(1).value<FusionGroup>();
    QVERIFY(g.out_tile);
    QCOMPARE(g.out_tile->h, fit->h);
    QCOMPARE(g.out_tile->w, fit->w);
    // A group that fits shows nothing.
    w.setState(test::l3netFusedState(Strategy::reuse, "convfusion-40nm"));
    QVERIFY(!w.fitHintLabel()->isVisibleTo(&w));
}

QTEST_MAIN(TestInspectors)
#include "tst_inspectors.moc"
