// GraphOverview: the minimap in the corner of the canvas for a graph that does not fit its
// view — the whole graph drawn small with the part in sight outlined; a click or a drag in
// it moves the view there. It shows itself only while the graph is larger than the view.
#pragma once

#include <QPixmap>
#include <QTimer>
#include <QWidget>

namespace lf::graph {

class GraphScene;
class GraphView;

class GraphOverview : public QWidget {
    Q_OBJECT
  public:
    GraphOverview(GraphView* view, GraphScene* scene, QWidget* parent);

    // Re-reads the graph's size and the view's; shows or hides itself; redraws later.
    void refresh();
    // Where the overview draws the graph (widget coordinates) and the part in sight.
    QRectF graphArea() const;
    QRectF visibleArea() const;
    // The scene point a widget point of the overview stands for.
    QPointF toScene(const QPointF& p) const;

    static constexpr int kLongSide = 180;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    void redraw();
    // Draws the next band of the new picture; the last one replaces the picture shown.
    void drawBand(int generation);

    GraphView* view_;
    GraphScene* scene_;
    QPixmap picture_;
    // The picture of thousands of layers is drawn in bands, one per event-loop turn, so that
    // no turn stalls the window; the one shown stays until the new one is whole.
    static constexpr int kNodesPerBand = 400;
    QPixmap next_;
    int band_ = 0, bands_ = 1;
    int generation_ = 0; // bumped when the scene changes: a half-drawn picture is dropped
    QTimer redrawTimer_;
};

} // namespace lf::graph
