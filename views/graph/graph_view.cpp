#include "graph/graph_view.h"

#include "graph/graph_scene.h"

#include <QApplication>
#include <QGestureEvent>
#include <QNativeGestureEvent>
#include <QPinchGesture>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lf::graph {

GraphView::GraphView(GraphScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), scene_(scene) {
    setDragMode(RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(NoAnchor); // docks settling or a window resize keep the top-left in place
    setViewportUpdateMode(SmartViewportUpdate);
    setOptimizationFlags(DontAdjustForAntialiasing);
    setFrameShape(QFrame::NoFrame);
    setMouseTracking(true);
    viewport()->grabGesture(Qt::PinchGesture);
    setFocusPolicy(Qt::StrongFocus);
}

double GraphView::zoom() const {
    return transform().m11();
}

void GraphView::zoomBy(double factor, std::optional<QPointF> viewportPos) {
    const double current = zoom();
    const double target = std::clamp(current * factor, kMinZoom, kMaxZoom);
    if (std::abs(target - current) < 1e-9) return;
    const QPointF vp = viewportPos.value_or(QPointF(viewport()->rect().center()));
    const QPointF anchor = mapToScene(vp.toPoint());
    const ViewportAnchor saved = transformationAnchor();
    setTransformationAnchor(NoAnchor);
    scale(target / current, target / current);
    // Keep the anchor's scene point under the same viewport position.
    const QPointF moved = mapFromScene(anchor);
    const QPointF delta = moved - vp;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(std::lround(delta.x())));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + int(std::lround(delta.y())));
    setTransformationAnchor(saved);
    emit zoomChanged(zoom());
}

void GraphView::setZoom(double z) {
    zoomBy(z / zoom());
}

void GraphView::fitToView() {
    const QRectF r = scene_->graphRect().adjusted(-20, -20, 20, 20);
    if (r.isEmpty()) return;
    const double sx = viewport()->width() / r.width(), sy = viewport()->height() / r.height();
    const double fit = std::min(sx, sy);
    if (fit >= kReadableZoom) {
        const double z = std::min(fit, 1.5);
        setTransform(QTransform::fromScale(z, z));
        centerOn(r.center());
    } else {
        // A hairline helps nobody: the smallest readable zoom, the graph's start in sight.
        const double z = kReadableZoom;
        setTransform(QTransform::fromScale(z, z));
        const double halfW = viewport()->width() / (2 * z), halfH = viewport()->height() / (2 * z);
        centerOn(
            QPointF(r.width() > 2 * halfW ? r.left() + halfW : r.center().x(), r.top() + halfH));
    }
    emit zoomChanged(zoom());
}

bool GraphView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::Gesture) {
        auto* ge = static_cast<QGestureEvent*>(event);
        if (auto* pinch = static_cast<QPinchGesture*>(ge->gesture(Qt::PinchGesture))) {
            if (pinch->changeFlags() & QPinchGesture::ScaleFactorChanged)
                zoomBy(pinch->scaleFactor(), mapFromGlobal(pinch->centerPoint().toPoint()));
            ge->accept(pinch);
            return true;
        }
    }
    if (event->type() == QEvent::NativeGesture) {
        auto* ng = static_cast<QNativeGestureEvent*>(event);
        if (ng->gestureType() == Qt::ZoomNativeGesture) {
            zoomBy(1.0 + ng->value(), ng->position());
            return true;
        }
    }
    return QGraphicsView::viewportEvent(event);
}

void GraphView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        zoomBy(std::pow(1.2, steps), event->position());
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && spaceHeld_)) {
        panning_ = true;
        panLast_ = event->position().toPoint();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    pressNode_ = kNoLayer;
    if (event->button() == Qt::LeftButton &&
        !(event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier))) {
        for (QGraphicsItem* item : items(event->position().toPoint()))
            if (auto* n = qgraphicsitem_cast<NodeItem*>(item)) {
                pressNode_ = n->layerId();
                pressPos_ = event->position().toPoint();
                pressScene_ = mapToScene(pressPos_);
                nodeOrigin_ = n->pos();
                break;
            }
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseMoveEvent(QMouseEvent* event) {
    if (panning_) {
        const QPoint p = event->position().toPoint();
        const QPoint d = p - panLast_;
        panLast_ = p;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        event->accept();
        return;
    }
    if (pressNode_ != kNoLayer && (event->buttons() & Qt::LeftButton)) {
        if (!draggingNode_ && (event->position().toPoint() - pressPos_).manhattanLength() >=
                                  QApplication::startDragDistance())
            draggingNode_ = true;
        if (draggingNode_) {
            const QPointF scenePos = mapToScene(event->position().toPoint());
            if (NodeItem* n = scene_->node(pressNode_)) {
                n->setPos(nodeOrigin_ + (scenePos - pressScene_));
                n->setZValue(10);
            }
            dropGroup_ = scene_->groupIndexAt(scenePos, pressNode_);
            scene_->setDropTarget(dropGroup_);
            viewport()->setCursor(dropGroup_ >= 0 ? Qt::DragMoveCursor : Qt::ForbiddenCursor);
            event->accept();
            return;
        }
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphView::endNodeDrag(bool drop) {
    const LayerId layer = pressNode_;
    const int target = dropGroup_;
    if (NodeItem* n = scene_->node(layer)) {
        n->setPos(nodeOrigin_);
        n->setZValue(2);
    }
    scene_->setDropTarget(-1);
    viewport()->unsetCursor();
    draggingNode_ = false;
    dropGroup_ = -1;
    pressNode_ = kNoLayer;
    if (drop && target >= 0) emit layerDropped(layer, target);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
    if (panning_) {
        panning_ = false;
        viewport()->setCursor(spaceHeld_ ? Qt::OpenHandCursor : Qt::ArrowCursor);
        event->accept();
        return;
    }
    if (draggingNode_) {
        QGraphicsView::mouseReleaseEvent(event);
        endNodeDrag(true);
        return;
    }
    pressNode_ = kNoLayer;
    QGraphicsView::mouseReleaseEvent(event);
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        spaceHeld_ = true;
        viewport()->setCursor(Qt::OpenHandCursor);
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape && draggingNode_) {
        endNodeDrag(false);
        event->accept();
        return;
    }
    if (event->modifiers() == Qt::NoModifier || event->modifiers() == Qt::KeypadModifier) {
        switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomBy(1.25);
            return;
        case Qt::Key_Minus:
            zoomBy(1 / 1.25);
            return;
        default:
            break;
        }
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        spaceHeld_ = false;
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

void GraphView::contextMenuEvent(QContextMenuEvent* event) {
    LayerId layer = kNoLayer;
    for (QGraphicsItem* item : items(event->pos()))
        if (auto* n = qgraphicsitem_cast<NodeItem*>(item)) {
            layer = n->layerId();
            break;
        }
    emit contextMenuAt(event->globalPos(), layer);
    event->accept();
}

void GraphView::paintEvent(QPaintEvent* event) {
    QGraphicsView::paintEvent(event);
    if (!painted_ && !scene_->nodes().empty() && scene_->graphRect().isValid()) {
        painted_ = true;
        emit firstPaint();
    }
}

} // namespace lf::graph
