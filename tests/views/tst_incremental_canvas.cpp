// The canvas after an edit: only the items whose looks changed are repainted, and the
// picture a scene reaches by updates in place is the picture of a scene built afresh for the
// same state (items, looks, edge labels and pixels).
#include "edits/schedule_edits.h"
#include "graph/graph_scene.h"
#include "studio_states.h"
#include "test_support.h"

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>

using namespace lf;
using namespace lf::graph;

namespace {

QImage picture(GraphScene& scene) {
    const QRectF r = scene.graphRect();
    QImage img(r.size().toSize(), QImage::Format_ARGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    scene.render(&p, QRectF(QPointF(0, 0), r.size()), r);
    return img;
}

StudioState fusedState(const StudioState& s, const char* a, const char* b) {
    ScheduleEdit e =
        fuseLayers(s.network, s.hardware, s.schedule, {s.network.find(a), s.network.find(b)});
    if (!e.ok) qFatal("%s", e.reason.c_str());
    return test::evaluatedState(s.network, s.hardware, e.schedule);
}

// The union of the scene areas reported changed once the event loop ran.
QRectF changedArea(GraphScene& scene, const std::function<void()>& change) {
    QCoreApplication::processEvents(); // what earlier changes scheduled
    QSignalSpy spy(&scene, &QGraphicsScene::changed);
    change();
    QCoreApplication::processEvents();
    QRectF area;
    for (const QList<QVariant>& args : spy)
        for (const QRectF& r : args.front().value<QList<QRectF>>())
            area |= r;
    return area;
}

} // namespace

class TestIncrementalCanvas : public QObject {
    Q_OBJECT
  private slots:
    void aStateThatChangesNothingRepaintsNothing() {
        GraphScene scene;
        const StudioState s = test::defaultState("resnet18");
        QVERIFY(scene.setState(s).relaidOut);
        QVERIFY(changedArea(scene, [&] { scene.setState(s); }).isEmpty());
    }

    void aHighlightRepaintsOnlyItsLayer() {
        GraphScene scene;
        const StudioState s = test::defaultState("resnet18");
        QVERIFY(scene.setState(s).relaidOut);
        const LayerId id = s.network.find("layer2.0.conv1");
        const int group = s.schedule.groupOf(id);
        QVERIFY(group >= 0 && s.schedule.groups[size_t(group)].layers.size() == 1);
        const QRectF area = changedArea(scene, [&] { scene.setHighlightedGroups({group}); });
        QVERIFY(!area.isEmpty());
        QVERIFY(scene.node(id)->sceneBoundingRect().contains(area));
    }

    void anEditRepaintsTheItemsItChangesAndNoOthers() {
        GraphScene scene;
        const StudioState s = test::defaultState("resnet18");
        QVERIFY(scene.setState(s).relaidOut);
        QVERIFY(scene.groupItems().empty()); // the changed areas can only be nodes'
        std::vector<NodeItem::Look> before;
        for (const NodeItem* n : scene.nodes())
            before.push_back(n->look());
        // New metrics for an edit that keeps the layout (a smaller tile of one layer).
        const LayerId id = s.network.find("layer3.0.conv1");
        Schedule edited = s.schedule;
        int64_t& rows = edited.layers[size_t(id)].tile[size_t(Dim::y)];
        QVERIFY(rows > 1);
        rows /= 2;
        const StudioState t = test::evaluatedState(s.network, s.hardware, edited);
        QRectF expected;
        const QRectF area = changedArea(scene, [&] { QVERIFY(!scene.setState(t).relaidOut); });
        int changed = 0;
        for (NodeItem* n : scene.nodes())
            if (!(n->look() == before[size_t(n->layerId())])) {
                ++changed;
                expected |= n->sceneBoundingRect();
            }
        QVERIFY(changed >= 1); // the layer's buffer use
        QVERIFY(changed < int(scene.nodes().size()) / 4);
        QVERIFY(expected.contains(area));
    }

    void updatesInPlacePaintWhatAFreshSceneDoes() {
        const StudioState s = test::defaultState("resnet18");
        const StudioState t = fusedState(fusedState(s, "layer1.0.conv1", "layer1.0.conv2"),
                                         "layer2.1.conv1", "layer2.1.conv2");
        GraphScene updated;
        QVERIFY(updated.setState(s).relaidOut);
        updated.setColorBy(ColorBy::energy);
        updated.setColorBy(ColorBy::group);
        QVERIFY(updated.setState(t).relaidOut);
        QVERIFY(!updated.setState(t).relaidOut);
        GraphScene fresh;
        QVERIFY(fresh.setState(t).relaidOut);

        QCOMPARE(updated.nodes().size(), fresh.nodes().size());
        for (size_t k = 0; k < fresh.nodes().size(); ++k) {
            QVERIFY(updated.nodes()[k]->look() == fresh.nodes()[k]->look());
            QCOMPARE(updated.nodes()[k]->pos(), fresh.nodes()[k]->pos());
        }
        QCOMPARE(updated.edges().size(), fresh.edges().size());
        for (size_t k = 0; k < fresh.edges().size(); ++k) {
            QCOMPARE(updated.edges()[k]->label(), fresh.edges()[k]->label());
            QCOMPARE(updated.edges()[k]->labelRect(), fresh.edges()[k]->labelRect());
        }
        QCOMPARE(updated.groupItems().size(), fresh.groupItems().size());
        QCOMPARE(picture(updated), picture(fresh));
    }

    // Labels are placed when first painted or asked for: the bounds an edge reports before
    // (for the scene's index and repaints) hold wherever the label lands.
    void edgeBoundsHoldTheirLabels() {
        StudioState s = test::defaultState("googlenet");
        s = fusedState(s, "inception3a.3x3_reduce", "inception3a.3x3");
        s = fusedState(s, "inception3b.pool", "inception3b.pool_proj");
        GraphScene scene;
        QVERIFY(scene.setState(s).relaidOut);
        int labels = 0;
        for (const EdgeItem* e : scene.edges()) {
            if (e->label().isEmpty()) continue;
            ++labels;
            const QRectF bounds = e->boundingRect();
            QVERIFY(bounds.contains(e->labelRect()));
        }
        QVERIFY(labels > 20);
    }
};

QTEST_MAIN(TestIncrementalCanvas)
#include "tst_incremental_canvas.moc"
