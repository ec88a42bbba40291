// GraphCanvas: the studio's DAG canvas widget — a GraphView on a GraphScene plus a find bar
// and the colour-by legend. It shows StudioState snapshots and emits intents (selection,
// move a layer to a group); the window owns the actions and the document.
#pragma once

#include "graph/color_scale.h"
#include "studio_state.h"

#include "graph/graph_scene.h"

#include <QList>
#include <QPointF>
#include <QWidget>

#include <optional>

class QAction;
class QCompleter;
class QLabel;
class QLineEdit;
class QToolButton;

namespace lf::graph {

class GraphOverview;
class GraphScene;
class GraphView;
class HeatLegend;

class GraphCanvas : public QWidget {
    Q_OBJECT
  public:
    explicit GraphCanvas(QWidget* parent = nullptr);
    ~GraphCanvas() override;

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);
    // Outline these groups (indices into the schedule's groups), e.g. the groups that differ
    // from the Compare view's snapshot A; empty clears.
    void setHighlightedGroups(const QList<int>& groups);

    void setColorBy(ColorBy mode);
    ColorBy colorBy() const;

    double zoom() const;
    void setZoom(double zoom);
    void zoomIn();
    void zoomOut();
    void fitToView();
    // Scroll position as the scene point at the viewport centre (saved in projects).
    QPointF viewCenter() const;
    void setViewCenter(const QPointF& scenePos);

    // Scrolls the selected layers (or group) into sight, at a readable zoom.
    void revealSelection();
    GraphOverview* overview() const { return overview_; }

    // Find a layer by (part of) its name: selects it and centres it. False when not found.
    bool findLayer(const QString& name);
    void showFindBar();
    void centerOnLayer(LayerId id);

    // Actions offered by the context menu (owned by the caller).
    void setContextActions(const QList<QAction*>& actions);

    bool exportSvg(const QString& path, QString* error) const;
    bool exportPng(const QString& path, QString* error) const;
    QImage renderImage(double scale) const;

    // Layouts on a thread of their own (the studio): the previous picture stays until the
    // new layout arrives (layoutApplied). Off by default: setState() lays out at once.
    void setAsyncLayout(bool on);

    GraphScene* scene() const { return scene_; }
    GraphView* view() const { return view_; }
    double lastLayoutMs() const { return lastLayoutMs_; }

  signals:
    void selectionRequested(const lf::StudioSelection& selection);
    void layerMoveRequested(lf::LayerId layer, int groupIndex);
    void statusMessage(const QString& message);
    void zoomChanged(double zoom);
    void firstPaint();
    // An asynchronous layout reached the canvas.
    void layoutApplied();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void captureAnchor();
    void afterLayout(const GraphScene::Update& update);
    QString tooLargeMessage() const;
    void placeOverlays();
    void updateSceneRect();
    void initialView();
    void updateCompleter();

    GraphScene* scene_;
    GraphView* view_;
    HeatLegend* legend_;
    GraphOverview* overview_;
    QLabel* notice_; // over the view when the network is too large to draw
    QWidget* findBar_;
    QLineEdit* findEdit_;
    QCompleter* completer_ = nullptr;
    QList<QAction*> contextActions_;
    double lastLayoutMs_ = 0;
    LayerId anchor_ = kNoLayer;
    QPointF anchorViewport_;
    std::optional<QPointF> pendingCenter_;
};

} // namespace lf::graph
