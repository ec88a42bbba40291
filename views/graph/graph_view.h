// GraphView: the zoomable, pannable view of a GraphScene. Ctrl+wheel, pinch and keys zoom;
// wheel, scroll bars, middle-button or Space+drag pan; a drag on the background draws a
// rubber band; dragging a layer onto another group asks to move it there (an intent).
#pragma once

#include "network/layer.h"

#include <QGraphicsView>

namespace lf::graph {

class GraphScene;

class GraphView : public QGraphicsView {
    Q_OBJECT
  public:
    explicit GraphView(GraphScene* scene, QWidget* parent = nullptr);

    GraphScene* graphScene() const { return scene_; }
    double zoom() const;
    // Zooms by `factor` keeping the scene point under `viewportPos` (default: centre) fixed.
    void zoomBy(double factor, std::optional<QPointF> viewportPos = std::nullopt);
    void setZoom(double zoom);
    // Fits the graph to the view, but never below kReadableZoom: a graph too large for that
    // is shown from its start at that zoom (scroll, or use the overview, for the rest).
    void fitToView();
    static constexpr double kReadableZoom = 0.55;
    static constexpr double kMinZoom = 0.03;
    static constexpr double kMaxZoom = 4.0;
    bool hasPainted() const { return painted_; }

  signals:
    void zoomChanged(double zoom);
    void layerDropped(lf::LayerId layer, int groupIndex);
    void contextMenuAt(const QPoint& globalPos, lf::LayerId layer);
    // Emitted once, after the first paint that showed the graph.
    void firstPaint();

  protected:
    bool viewportEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

  private:
    void endNodeDrag(bool drop);

    GraphScene* scene_;
    bool panning_ = false;
    bool spaceHeld_ = false;
    QPoint panLast_;
    LayerId pressNode_ = kNoLayer;
    QPoint pressPos_;
    QPointF pressScene_;
    QPointF nodeOrigin_;
    bool draggingNode_ = false;
    int dropGroup_ = -1;
    bool painted_ = false;
};

} // namespace lf::graph
