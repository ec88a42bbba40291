// The DAG canvas with the mouse and keyboard (offscreen): drag a layer onto a group, rubber
// band and Shift-click selection, zoom, find, stable relayout, colour-by heatmaps, tooltips;
// on a deep network: Fit stops at a readable zoom, the overview, selections scroll to view.
#include "graph/graph_canvas.h"
#include "graph/graph_labels.h"
#include "graph/graph_overview.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/heat_legend.h"
#include "layers/layer_list.h"
#include "metrics/units.h"
#include "studio_window.h"
#include "test_support.h"

#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <set>

using namespace lf;
using namespace lf::graph;

namespace {

struct Session {
    MainWindow w{test::quietWindowOptions()};
    explicit Session(const char* network) {
        w.studio()->errorSink = [](const QString&, const QString&) {};
        w.resize(1280, 800);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w)) qWarning("the window was not exposed");
        waitFor([&] { w.files()->openBundled(QString::fromLatin1(network)); });
        QTest::qWait(20); // dock sizes settle
    }
    template <class F> bool waitFor(F&& f) {
        return test::editAndWait(w, std::forward<F>(f), 10000);
    }
    LayerId id(const char* name) const { return w.document()->network().find(name); }
    GraphView* view() const { return w.canvas()->view(); }
    GraphScene* scene() const { return w.canvas()->scene(); }
    QPoint at(LayerId id) const {
        return view()->mapFromScene(scene()->node(id)->sceneBoundingRect().center());
    }
    QRect rectOf(LayerId id) const {
        return view()->mapFromScene(scene()->node(id)->sceneBoundingRect()).boundingRect();
    }
    QWidget* viewport() const { return view()->viewport(); }
};

} // namespace

class TestCanvasPanel : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void dragALayerOntoAGroup() {
        Session s("l3net");
        QVERIFY(s.waitFor([&] { s.w.document()->fuse({s.id("conv1"), s.id("conv2")}); }));
        s.w.canvas()->fitToView();
        const QPoint from = s.at(s.id("conv3"));
        const QPoint to = s.at(s.id("conv1"));
        QVERIFY(s.viewport()->rect().contains(from) && s.viewport()->rect().contains(to));
        QSignalSpy moved(s.w.canvas(), &GraphCanvas::layerMoveRequested);
        QSignalSpy published(s.w.studio(), &Studio::statePublished);
        QTest::mousePress(s.viewport(), Qt::LeftButton, {}, from);
        for (int k = 1; k <= 8; ++k)
            QTest::mouseMove(s.viewport(), from + (to - from) * k / 8);
        QCOMPARE(s.scene()->node(s.id("conv1"))->look().dropTarget,
                 false); // fused: the cluster shows it
        QTest::mouseRelease(s.viewport(), Qt::LeftButton, {}, to);
        QCOMPARE(moved.count(), 1);
        QCOMPARE(moved.at(0).at(0).value<LayerId>(), s.id("conv3"));
        QVERIFY(published.wait(10000));
        const Schedule& sched = s.w.document()->schedule();
        QCOMPARE(sched.groups.size(), size_t(1));
        QCOMPARE(sched.groups[0].layers.size(), size_t(3));
        QCOMPARE(s.w.document()->undoStack()->undoText(), QStringLiteral("Move conv3 to g0"));
        // The node went back to its laid-out place (the layout decides positions).
        QCOMPARE(s.scene()->node(s.id("conv3"))->zValue(), 2.0);
    }

    void rubberBandAndModifierClicksSelect() {
        Session s("l3net");
        s.w.canvas()->fitToView();
        const QRect r1 = s.rectOf(s.id("conv1"));
        const QRect r2 = s.rectOf(s.id("conv2"));
        const QPoint start(std::min(r1.left(), r2.left()) - 40, r1.top() - 4);
        const QPoint end(std::max(r1.right(), r2.right()) + 40, r2.bottom() + 4);
        QTest::mousePress(s.viewport(), Qt::LeftButton, {}, start);
        for (int k = 1; k <= 6; ++k)
            QTest::mouseMove(s.viewport(), start + (end - start) * k / 6);
        QTest::mouseRelease(s.viewport(), Qt::LeftButton, {}, end);
        QCOMPARE(s.w.studio()->selection().layers,
                 (std::vector<LayerId>{s.id("conv1"), s.id("conv2")}));

        QTest::mouseClick(s.viewport(), Qt::LeftButton, {}, s.at(s.id("conv3")));
        QCOMPARE(s.w.studio()->selection().layers, (std::vector<LayerId>{s.id("conv3")}));
        QTest::mouseClick(s.viewport(), Qt::LeftButton, Qt::ShiftModifier, s.at(s.id("conv1")));
        QCOMPARE(s.w.studio()->selection().layers,
                 (std::vector<LayerId>{s.id("conv1"), s.id("conv3")}));
        QTest::mouseClick(s.viewport(), Qt::LeftButton, Qt::ControlModifier, s.at(s.id("conv3")));
        QCOMPARE(s.w.studio()->selection().layers, (std::vector<LayerId>{s.id("conv1")}));
        // The layer table follows the canvas.
        const QModelIndexList rows = s.w.layerList()->view()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.front().data(LayerTableModel::LayerIdRole).value<LayerId>(), s.id("conv1"));
    }

    void zoomWithWheelAndKeys() {
        Session s("resnet18");
        auto* v = s.view();
        v->setZoom(1.0);
        const QPointF pos(200, 200);
        QWheelEvent wheel(pos, v->viewport()->mapToGlobal(pos), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(v->viewport(), &wheel);
        QVERIFY(std::abs(v->zoom() - 1.2) < 1e-6);
        // The scene point under the cursor stays under it.
        v->setFocus();
        QTest::keyClick(v, Qt::Key_Minus);
        QVERIFY(std::abs(v->zoom() - 1.2 / 1.25) < 1e-6);
        s.w.action(QStringLiteral("zoomIn"))->trigger();
        QVERIFY(std::abs(v->zoom() - 1.2) < 1e-6);
        s.w.action(QStringLiteral("zoomFit"))->trigger();
        const QRectF visible = v->mapToScene(v->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(s.scene()->graphRect().adjusted(1, 1, -1, -1)) ||
                std::abs(v->zoom() - GraphView::kReadableZoom) < 1e-9);
    }

    void fitStopsAtAReadableZoomAndTheOverviewShowsTheRest() {
        // ResNet-152 fitted whole is a hairline (a few per cent): Fit stops at the readable
        // zoom, shows the network's start, and the overview takes the reader elsewhere.
        Session s("resnet152");
        s.w.action(QStringLiteral("zoomFit"))->trigger();
        QCOMPARE(s.view()->zoom(), GraphView::kReadableZoom);
        QVERIFY(s.viewport()->rect().contains(s.rectOf(s.id("image"))));
        GraphOverview* overview = s.w.canvas()->overview();
        QTRY_VERIFY(overview->isVisible());
        QVERIFY(overview->geometry().bottom() <= s.viewport()->height());
        // A click at the bottom of the overview brings the end of the network into sight.
        const QRectF area = overview->graphArea();
        QTest::mouseClick(overview, Qt::LeftButton, {},
                          QPointF(area.center().x(), area.bottom() - 2).toPoint());
        QVERIFY(s.viewport()->rect().intersects(s.rectOf(s.id("fc"))));
        QVERIFY(!s.viewport()->rect().intersects(s.rectOf(s.id("image"))));
        // A graph that fits needs no overview.
        QVERIFY(s.waitFor([&] { s.w.files()->openBundled(QStringLiteral("l2net")); }));
        s.w.action(QStringLiteral("zoomFit"))->trigger();
        QTRY_VERIFY(!overview->isVisible());
    }

    void selectionsMadeElsewhereScrollTheCanvasToThem() {
        Session s("resnet152");
        s.w.action(QStringLiteral("zoomFit"))->trigger();
        // The Layers dock: a row far down the network.
        const LayerId deep = s.id("layer4.1.conv2");
        QVERIFY(!s.viewport()->rect().intersects(s.rectOf(deep)));
        QTableView* table = s.w.layerList()->view();
        const QModelIndex row = table->model()->index(deep, 0);
        QCOMPARE(row.data().toString(), QStringLiteral("layer4.1.conv2"));
        table->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect |
                                                 QItemSelectionModel::Rows);
        QCOMPARE(s.w.studio()->selection().layers, std::vector<LayerId>{deep});
        QVERIFY(s.viewport()->rect().contains(s.rectOf(deep)));
        // A chart's bar selects a group: the canvas goes there too.
        const int group = s.w.document()->schedule().groupOf(s.id("layer2.3.conv1"));
        s.w.studio()->setSelection(StudioSelection{{}, group});
        QVERIFY(s.viewport()->rect().contains(s.rectOf(s.id("layer2.3.conv1"))));
        // A click on the canvas selects what is in sight: nothing moves.
        const int h = s.view()->horizontalScrollBar()->value();
        const int v = s.view()->verticalScrollBar()->value();
        QTest::mouseClick(s.viewport(), Qt::LeftButton, {}, s.at(s.id("layer2.3.conv1")));
        QCOMPARE(s.view()->horizontalScrollBar()->value(), h);
        QCOMPARE(s.view()->verticalScrollBar()->value(), v);
    }

    void findALayer() {
        Session s("resnet18");
        QVERIFY(s.w.canvas()->findLayer(QStringLiteral("layer3.1.conv2")));
        const LayerId id = s.id("layer3.1.conv2");
        QCOMPARE(s.w.studio()->selection().layers, std::vector<LayerId>{id});
        QVERIFY(s.viewport()->rect().contains(s.rectOf(id)));
        QVERIFY(!s.w.canvas()->findLayer(QStringLiteral("no such layer")));
        QCOMPARE(s.w.studio()->selection().layers, std::vector<LayerId>{id});
    }

    void relayoutKeepsTheViewStill() {
        Session s("resnet18");
        s.view()->setZoom(1.0);
        const LayerId anchor = s.id("layer2.0.conv1");
        s.w.canvas()->centerOnLayer(anchor);
        const QPointF sceneBefore = s.scene()->node(anchor)->pos();
        const QPoint before = s.at(anchor);
        QVERIFY(s.waitFor([&] {
            s.w.document()->fuse({s.id("layer1.1.conv1"), s.id("layer1.1.conv2")});
        }));
        const QPointF sceneAfter = s.scene()->node(anchor)->pos();
        QVERIFY2(std::abs(sceneAfter.y() - sceneBefore.y()) > 5,
                 "the new cluster should push the layer down");
        const QPoint after = s.at(anchor);
        QVERIFY2((after - before).manhattanLength() <= 2,
                 qPrintable(QStringLiteral("moved from %1,%2 to %3,%4")
                                .arg(before.x())
                                .arg(before.y())
                                .arg(after.x())
                                .arg(after.y())));
    }

    // What is on screen after a relayout that scrolls must be what a fresh paint gives: the
    // offscreen platform grabs the window's backing store, where stale fragments would stay.
    void relayoutLeavesNoStaleFragments() {
        Session s("resnet18");
        s.view()->setZoom(1.0);
        const LayerId anchor = s.id("layer3.1.conv1");
        s.w.canvas()->centerOnLayer(anchor);
        QTest::qWait(50);
        const QPoint before = s.at(anchor);
        const int scrollBefore = s.view()->verticalScrollBar()->value();
        // Six new clusters above the anchor: the relayout moves most items and scrolls.
        Schedule sched = s.w.document()->schedule();
        const Network& net = s.w.document()->network();
        int k = 0;
        for (const char* block : {"layer1.0", "layer1.1", "layer2.0", "layer2.1", "layer3.0"}) {
            const std::string b(block);
            sched = lf::test::fused(sched, net, {net.find(b + ".conv1"), net.find(b + ".conv2")},
                                    Strategy::recompute, "g" + std::to_string(k++));
        }
        bool applied = false;
        QVERIFY(s.waitFor(
            [&] { applied = s.w.document()->setSchedule(sched, QStringLiteral("fuse")).ok; }));
        QVERIFY(applied);
        QVERIFY(std::abs(s.view()->verticalScrollBar()->value() - scrollBefore) > 20);
        QVERIFY((s.at(anchor) - before).manhattanLength() <= 2);
        // The overview lies over the viewport in the window but is no part of its paint.
        s.w.canvas()->overview()->hide();
        QTest::qWait(100); // the queued paint events reach the backing store
        const QRect inWindow(s.viewport()->mapTo(&s.w, QPoint(0, 0)), s.viewport()->size());
        const QImage shown = QGuiApplication::primaryScreen()
                                 ->grabWindow(s.w.winId(), inWindow.x(), inWindow.y(),
                                              inWindow.width(), inWindow.height())
                                 .toImage()
                                 .convertToFormat(QImage::Format_RGB32);
        const QImage fresh = s.viewport()->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(shown.size(), fresh.size());
        int differing = 0;
        for (int y = 0; y < shown.height(); ++y)
            for (int x = 0; x < shown.width(); ++x)
                if (shown.pixel(x, y) != fresh.pixel(x, y)) ++differing;
        QVERIFY2(differing == 0,
                 qPrintable(QStringLiteral("%1 pixels differ from a fresh paint").arg(differing)));
    }

    void colourByHeatmapWithLegend() {
        Session s("resnet18");
        auto* legend = s.w.canvas()->findChild<HeatLegend*>();
        QVERIFY(legend);
        QVERIFY(!legend->isVisible());
        s.w.action(QStringLiteral("colorBy-energy"))->trigger();
        QCOMPARE(s.w.canvas()->colorBy(), ColorBy::energy);
        QVERIFY(legend->isVisible());
        const Metrics& m = *s.w.studio()->state().metrics;
        const auto hottest = std::max_element(m.layers.begin(), m.layers.end(),
                                              [](const LayerMetrics& a, const LayerMetrics& b) {
                                                  return a.energy.total() < b.energy.total();
                                              });
        QCOMPARE(s.scene()->node(hottest->id)->look().fill, heatColor(1.0));
        std::set<QRgb> fills;
        for (const LayerMetrics& lm : m.layers)
            fills.insert(s.scene()->node(lm.id)->look().fill.rgb());
        QVERIFY(fills.size() >= 5);
        s.w.action(QStringLiteral("colorBy-group"))->trigger();
        QVERIFY(!legend->isVisible());
    }

    void tooltipsAndOverCapacityFlags() {
        Session s("l3net");
        Hardware tiny = s.w.document()->hardware();
        tiny.buffer.bytes = 64;
        QVERIFY(s.waitFor([&] { s.w.document()->setHardware(tiny, {}, 0); }));
        QVERIFY(s.waitFor([&] { s.w.document()->fuse({s.id("conv1"), s.id("conv2")}); }));
        const StudioState& st = s.w.studio()->state();
        const QString layerTip = layerToolTip(st, s.id("conv2"));
        const LayerMetrics* lm = st.metrics->layer(s.id("conv2"));
        QVERIFY(layerTip.contains(QStringLiteral("MACs")));
        QVERIFY(layerTip.contains(QString::fromStdString(humanCount(double(lm->macs)))));
        QVERIFY(layerTip.contains(QStringLiteral("g0 (recompute, 2 layers)")));
        QVERIFY(layerTip.contains(QStringLiteral("over capacity")));
        const QString groupTip = groupToolTip(st, 0);
        QVERIFY(groupTip.contains(QStringLiteral("of 64 B")));
        auto groups = s.scene()->groupItems();
        QCOMPARE(groups.size(), size_t(1));
        QVERIFY(groups.front()->look().overCapacity);
        // conv3 alone is flagged on its own node.
        QVERIFY(s.scene()->node(s.id("conv3"))->look().overCapacity);
        QVERIFY(edgeToolTip(st, s.id("conv1"), s.id("conv2")).contains(QStringLiteral("4×20×20")));
    }

    void exportsTheGraph() {
        Session s("l3net");
        QTemporaryDir dir;
        QString error;
        const QString svg = dir.filePath(QStringLiteral("g.svg"));
        QVERIFY(s.w.canvas()->exportSvg(svg, &error));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("conv3"));
        const QString png = dir.filePath(QStringLiteral("g.png"));
        QVERIFY(s.w.canvas()->exportPng(png, &error));
        const QImage img(png);
        QVERIFY(!img.isNull());
        QVERIFY(img.width() > 200 && img.height() > 200);
    }

    // A network above GraphScene::kMaxDrawnLayers opens (from a file, through the busy
    // loader) without a drawing: the canvas says why, exports refuse, and selecting, fusing
    // and finding layers still work. A small network afterwards is drawn again.
    void networkTooLargeToDraw() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.net.yaml"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray text = "format: layerfuse/network@1\nname: long\ninputs:\n"
                              "  - {name: x, channels: 4, height: 8, width: 8}\nlayers:\n";
            QByteArray prev = "x";
            for (int k = 0; k <= GraphScene::kMaxDrawnLayers; ++k) {
                const QByteArray name = "c" + QByteArray::number(k);
                text += "  - {name: " + name + ", type: conv, inputs: [" + prev +
                        "], out_channels: 4, kernel: 3, padding: [1, 1]}\n";
                prev = name;
            }
            f.write(text);
        }
        Session s("l3net");
        QVERIFY(!s.scene()->tooLargeToDraw());
        QVERIFY(s.waitFor([&] { QVERIFY(s.w.files()->openPath(path)); }));
        QCOMPARE(s.w.document()->network().size(), GraphScene::kMaxDrawnLayers + 2);
        QVERIFY(s.scene()->tooLargeToDraw());
        QVERIFY(s.scene()->items().isEmpty());
        QVERIFY(s.scene()->nodes().empty());
        QLabel* notice = nullptr;
        for (QLabel* l : s.view()->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains(QStringLiteral("the canvas draws")))
                notice = l;
        QVERIFY(notice);
        QVERIFY(notice->text().contains(QStringLiteral("5,002 layers")));
        QVERIFY(!s.view()->horizontalScrollBar()->isVisible());
        QVERIFY(!s.view()->verticalScrollBar()->isVisible());

        QVERIFY(s.waitFor([&] { s.w.document()->fuse({s.id("c10"), s.id("c11")}); }));
        const Schedule& sched = s.w.document()->schedule();
        QCOMPARE(sched.groups[size_t(sched.groupOf(s.id("c10")))].layers.size(), size_t(2));
        QVERIFY(s.scene()->items().isEmpty());

        QString error;
        QVERIFY(!s.w.canvas()->exportSvg(dir.filePath(QStringLiteral("g.svg")), &error));
        QVERIFY(error.contains(QStringLiteral("5,000")));
        QVERIFY(!s.w.canvas()->exportPng(dir.filePath(QStringLiteral("g.png")), &error));

        QSignalSpy picked(s.w.canvas(), &GraphCanvas::selectionRequested);
        QVERIFY(s.w.canvas()->findLayer(QStringLiteral("c4000")));
        QCOMPARE(picked.count(), 1);
        QCOMPARE(picked.at(0).at(0).value<StudioSelection>().layers,
                 std::vector<LayerId>{s.id("c4000")});

        QVERIFY(s.waitFor([&] { s.w.files()->openBundled(QStringLiteral("l3net")); }));
        QVERIFY(!s.scene()->tooLargeToDraw());
        QVERIFY(!notice->isVisible());
        QVERIFY(s.scene()->node(s.id("conv2")));
    }
};

QTEST_MAIN(TestCanvasPanel)
#include "tst_canvas_panel.moc"
