#include "graph/graph_overview.h"

#include "graph/graph_scene.h"
#include "graph/graph_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

#include <algorithm>

#include <utility>

namespace lf::graph {

GraphOverview::GraphOverview(GraphView* view, GraphScene* scene, QWidget* parent)
    : QWidget(parent), view_(view), scene_(scene) {
    setObjectName(QStringLiteral("graphOverview"));
    setToolTip(tr("Overview: click or drag to look elsewhere"));
    setCursor(Qt::PointingHandCursor);
    hide();
    // The picture of the whole graph is redrawn a moment after the scene settles.
    redrawTimer_.setSingleShot(true);
    redrawTimer_.setInterval(150);
    connect(&redrawTimer_, &QTimer::timeout, this, &GraphOverview::redraw);
    connect(scene_, &QGraphicsScene::changed, this, [this] {
        ++generation_;
        redrawTimer_.start();
    });
    for (QScrollBar* bar : {view_->horizontalScrollBar(), view_->verticalScrollBar()})
        connect(bar, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    connect(view_, &GraphView::zoomChanged, this, &GraphOverview::refresh);
}

void GraphOverview::refresh() {
    const QRectF g = scene_->graphRect();
    const QRectF seen = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    const bool fits =
        g.isEmpty() || scene_->tooLargeToDraw() || (seen.contains(g.adjusted(2, 2, -2, -2)));
    if (fits) {
        hide();
        return;
    }
    const double s = kLongSide / std::max(g.width(), g.height());
    const QSize size(std::max(40, int(g.width() * s) + 8), std::max(40, int(g.height() * s) + 8));
    resize(size);
    move(view_->viewport()->width() - width() - 12, view_->viewport()->height() - height() - 12);
    show();
    raise();
    redrawTimer_.start();
    update();
}

QRectF GraphOverview::graphArea() const {
    const QRectF g = scene_->graphRect();
    if (g.isEmpty()) return {};
    const QRectF inner = QRectF(rect()).adjusted(4, 4, -4, -4);
    const double s = std::min(inner.width() / g.width(), inner.height() / g.height());
    const QSizeF size(g.width() * s, g.height() * s);
    return QRectF(inner.center() - QPointF(size.width() / 2, size.height() / 2), size);
}

QRectF GraphOverview::visibleArea() const {
    const QRectF g = scene_->graphRect(), area = graphArea();
    if (g.isEmpty()) return {};
    const QRectF seen = view_->mapToScene(view_->viewport()->rect()).boundingRect() & g;
    const double s = area.width() / g.width();
    return QRectF(area.topLeft() + (seen.topLeft() - g.topLeft()) * s, seen.size() * s);
}

QPointF GraphOverview::toScene(const QPointF& p) const {
    const QRectF g = scene_->graphRect(), area = graphArea();
    if (area.isEmpty()) return g.center();
    return g.topLeft() + (p - area.topLeft()) * (g.width() / area.width());
}

void GraphOverview::redraw() {
    if (!isVisible()) return;
    next_ = QPixmap(graphArea().size().toSize());
    next_.fill(scene_->theme().background);
    band_ = 0;
    bands_ = std::max(1, int(scene_->nodes().size()) / kNodesPerBand);
    drawBand(++generation_);
}

void GraphOverview::drawBand(int generation) {
    if (generation != generation_ || next_.isNull()) return; // the scene changed meanwhile
    const QRectF g = scene_->graphRect();
    const double h = g.height() / bands_, th = double(next_.height()) / bands_;
    const QRectF target(0, band_ * th, next_.width(), th);
    QPainter p(&next_);
    p.setRenderHint(QPainter::Antialiasing);
    p.setClipRect(target);
    scene_->render(&p, target, QRectF(g.left(), g.top() + band_ * h, g.width(), h),
                   Qt::IgnoreAspectRatio);
    p.end();
    if (++band_ < bands_) {
        QTimer::singleShot(0, this, [this, generation] { drawBand(generation); });
        return;
    }
    picture_ = std::exchange(next_, QPixmap());
    update();
}

void GraphOverview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QColor frame = palette().color(QPalette::Mid);
    p.setPen(frame);
    p.setBrush(scene_->theme().background);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    if (!picture_.isNull()) p.drawPixmap(graphArea().topLeft(), picture_);
    QColor mark = palette().color(QPalette::Highlight);
    p.setPen(QPen(mark, 1.5));
    mark.setAlpha(40);
    p.setBrush(mark);
    p.drawRect(visibleArea());
}

void GraphOverview::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    view_->centerOn(toScene(event->position()));
    update();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return QWidget::mouseMoveEvent(event);
    view_->centerOn(toScene(event->position()));
    update();
}

} // namespace lf::graph
