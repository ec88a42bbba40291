// Layouts off the GUI thread (AsyncLayouter, GraphScene::setAsyncLayout): setState returns
// before Graphviz runs, the items of a new network wait hidden for their first layout, and
// after an edit the previous picture stays until the new layout arrives; only the latest
// of several requests is applied.
#include "edits/schedule_edits.h"
#include "graph/async_layouter.h"
#include "graph/graph_canvas.h"
#include "graph/graph_scene.h"
#include "studio_states.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace lf;
using namespace lf::graph;

class TestAsyncLayout : public QObject {
    Q_OBJECT
  private slots:
    void theSceneKeepsItsPictureUntilTheLayoutArrives() {
        GraphScene scene;
        scene.setAsyncLayout(true);
        QSignalSpy applied(&scene, &GraphScene::layoutApplied);
        StudioState s = test::defaultState("l3net");
        const GraphScene::Update first = scene.setState(s);
        QVERIFY(first.layoutPending && !first.relaidOut);
        QVERIFY(scene.layoutPending());
        QVERIFY(!scene.graphRect().isValid());
        QVERIFY(!scene.nodes().front()->isVisible()); // no heap of items at the origin
        QVERIFY(applied.wait(30000));
        QVERIFY(applied.front().front().value<GraphScene::Update>().networkChanged);
        QVERIFY(!scene.layoutPending());
        QVERIFY(scene.nodes().front()->isVisible());
        QVERIFY(scene.graphRect().isValid());
        QVERIFY(scene.groupItems().empty());

        // A fusion: the old positions stay until the new layout is applied.
        const LayerId conv1 = s.network.find("conv1"), conv2 = s.network.find("conv2");
        const QPointF before = scene.node(conv2)->pos();
        ScheduleEdit e = fuseLayers(s.network, s.hardware, s.schedule, {conv1, conv2});
        QVERIFY(e.ok);
        s.schedule = e.schedule;
        const GraphScene::Update edit = scene.setState(s);
        QVERIFY(edit.layoutPending);
        QCOMPARE(scene.node(conv2)->pos(), before);
        QVERIFY(scene.groupItems().empty());
        QVERIFY(applied.wait(30000));
        QVERIFY(!applied.back().front().value<GraphScene::Update>().networkChanged);
        QCOMPARE(scene.groupItems().size(), size_t(1));
        QCOMPARE(scene.lastRequest().clusters.size(), size_t(1));
    }

    // Above a number of edges a layout is applied in one event-loop turn and the edges are
    // labelled in the next: at the layoutApplied signal the routes are new and unlabelled.
    void largeGraphsAreLabelledInTheNextTurn() {
        for (const bool later : {false, true}) {
            GraphScene scene;
            scene.setAsyncLayout(true);
            if (later) scene.setLabelsInNextTurnAbove(0);
            int labelledAtSignal = -1;
            connect(&scene, &GraphScene::layoutApplied, this, [&] {
                labelledAtSignal = 0;
                for (const EdgeItem* e : scene.edges())
                    labelledAtSignal += !e->label().isEmpty();
            });
            scene.setState(test::defaultState("l3net"));
            QTRY_VERIFY_WITH_TIMEOUT(labelledAtSignal >= 0, 30000);
            QCOMPARE(labelledAtSignal == 0, later);
            int labelled = 0;
            QCoreApplication::processEvents();
            for (const EdgeItem* e : scene.edges())
                labelled += !e->label().isEmpty();
            QVERIFY(labelled > 0);
        }
    }

    void onlyTheLatestRequestIsApplied() {
        GraphScene scene;
        scene.setAsyncLayout(true);
        QSignalSpy applied(&scene, &GraphScene::layoutApplied);
        StudioState s = test::defaultState("l3net");
        scene.setState(s);
        const LayerId conv1 = s.network.find("conv1"), conv2 = s.network.find("conv2");
        ScheduleEdit e = fuseLayers(s.network, s.hardware, s.schedule, {conv1, conv2});
        QVERIFY(e.ok);
        StudioState fused = s;
        fused.schedule = e.schedule;
        scene.setState(fused); // three requests back to back, ending with the fusion
        scene.setState(s);
        scene.setState(fused);
        QTRY_VERIFY_WITH_TIMEOUT(!scene.layoutPending(), 30000);
        QCOMPARE(scene.groupItems().size(), size_t(1));
        QCOMPARE(scene.lastRequest().clusters.size(), size_t(1));
    }

    void theLayouterRunsOnItsOwnThread() {
        QThread* ranOn = nullptr;
        struct Recording final : Layouter {
            QThread** ranOn;
            explicit Recording(QThread** r) : ranOn(r) {}
            LayoutResult layout(const LayoutRequest&) override {
                *ranOn = QThread::currentThread();
                LayoutResult r;
                r.ok = true;
                return r;
            }
        };
        uint64_t got = 0;
        AsyncLayouter async([&] { return std::make_unique<Recording>(&ranOn); },
                            [&](uint64_t ticket, LayoutResult) { got = ticket; });
        const uint64_t ticket = async.request({});
        QVERIFY(async.busy());
        QTRY_COMPARE_WITH_TIMEOUT(got, ticket, 10000);
        QVERIFY(!async.busy());
        QVERIFY(ranOn && ranOn != QThread::currentThread());
    }

    void theCanvasSignalsTheAppliedLayout() {
        GraphCanvas canvas;
        canvas.setAsyncLayout(true);
        canvas.resize(800, 600);
        QSignalSpy applied(&canvas, &GraphCanvas::layoutApplied);
        canvas.setState(test::defaultState("resnet18"));
        canvas.setViewCenter({10, 10}); // a project's saved view, before its first layout
        QVERIFY(applied.wait(30000));
        QVERIFY(canvas.scene()->graphRect().isValid());
    }
};

QTEST_MAIN(TestAsyncLayout)
#include "tst_async_layout.moc"
