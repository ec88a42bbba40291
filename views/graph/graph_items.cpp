#include "graph/graph_items.h"

#include "graph/color_scale.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <functional>

namespace lf::graph {

namespace {

constexpr double kPad = 8;
constexpr double kBarHeight = 4;

// The point `distance` along `path` from its start, or its midpoint when the path is shorter
// than twice that. Walks only the start of the path (curves cut in short chords), where
// QPainterPath::percentAtLength measures the whole path.
QPointF pointNearStart(const QPainterPath& path, double distance) {
    constexpr int kCurveSteps = 64;
    QVarLengthArray<QPointF, 64> pts;
    double length = 0;
    auto add = [&](QPointF p) {
        if (!pts.isEmpty()) {
            const QPointF d = p - pts.back();
            length += std::sqrt(d.x() * d.x() + d.y() * d.y());
        }
        pts.append(p);
    };
    for (int i = 0; i < path.elementCount() && length < 2 * distance; ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        if (e.isMoveTo() && !pts.isEmpty()) break; // only the first subpath
        if (e.type == QPainterPath::CurveToElement && i + 2 < path.elementCount()) {
            const QPointF p0 = pts.isEmpty() ? QPointF(e) : pts.back();
            const QPointF c1 = e, c2 = path.elementAt(i + 1), p3 = path.elementAt(i + 2);
            for (int k = 1; k <= kCurveSteps && length < 2 * distance; ++k) {
                const double t = double(k) / kCurveSteps, u = 1 - t;
                add(u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p3);
            }
            i += 2;
        } else {
            add(e);
        }
    }
    if (pts.isEmpty()) return {};
    const double target = std::min(distance, length / 2);
    double walked = 0;
    for (qsizetype k = 1; k < pts.size(); ++k) {
        const QPointF d = pts[k] - pts[k - 1];
        const double step = std::sqrt(d.x() * d.x() + d.y() * d.y());
        if (walked + step >= target && step > 0) return pts[k - 1] + d * ((target - walked) / step);
        walked += step;
    }
    return pts.back();
}

double lodOf(const QStyleOptionGraphicsItem* option, const QPainter* p) {
    return option->levelOfDetailFromTransform(p->worldTransform());
}

void drawFillBar(QPainter* p, const QRectF& r, double ratio, const CanvasTheme& t) {
    p->setPen(Qt::NoPen);
    p->setBrush(t.barTrack);
    p->drawRoundedRect(r, r.height() / 2, r.height() / 2);
    const double f = std::clamp(ratio, 0.0, 1.0);
    if (f > 0) {
        p->setBrush(ratio > 1.0 ? t.overCapacity : t.barFill);
        p->drawRoundedRect(
            QRectF(r.topLeft(), QSizeF(std::max(r.height(), r.width() * f), r.height())),
            r.height() / 2, r.height() / 2);
    }
}

} // namespace

// --- NodeItem -------------------------------------------------------------------------------

NodeItem::NodeItem(LayerId id, const ItemStyle* style) : id_(id), style_(style) {
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(false);
    setZValue(2);
}

void NodeItem::setLook(const Look& look) {
    if (look == look_) return;
    look_ = look;
    update();
}

void NodeItem::setSize(QSizeF size) {
    if (size == size_) return;
    prepareGeometryChange();
    size_ = size;
}

QRectF NodeItem::boundingRect() const {
    return QRectF(QPointF(-2, -2), size_ + QSizeF(4, 4));
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const CanvasTheme& t = *style_->theme;
    const QRectF r(QPointF(0, 0), size_);
    const double lod = lodOf(option, p);
    const bool selected = isSelected();
    if (lod < kLodShapes) {
        p->fillRect(r, selected ? t.selection : look_.fill);
        return;
    }
    QPen pen(look_.border, 1.0);
    if (look_.overCapacity)
        pen = QPen(t.overCapacity, 2.0);
    else if (look_.invalid)
        pen = QPen(t.invalid, 2.0, Qt::DashLine);
    if (look_.highlighted) pen = QPen(t.highlight, 3.0, Qt::DashLine);
    if (look_.dropTarget) pen = QPen(t.dropTarget, 2.5, Qt::DashLine);
    if (selected) pen = QPen(t.selection, 3.0);
    pen.setCosmetic(lod < kLodText);
    p->setPen(pen);
    p->setBrush(look_.fill);
    p->drawRoundedRect(r, 6, 6);
    if (lod < kLodText) return;

    const double w = r.width() - 2 * kPad;
    double y = kPad;
    auto line = [&](const QString& text, const QFont& font, const QColor& color) {
        const QFontMetricsF fm(font);
        p->setFont(font);
        p->setPen(color);
        p->drawText(QRectF(kPad, y, w, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                    fm.elidedText(text, Qt::ElideMiddle, w));
        y += fm.height();
    };
    QColor muted = look_.text;
    muted.setAlphaF(0.75f);
    line(look_.name, style_->nameFont, look_.text);
    line(look_.detail, style_->detailFont, muted);
    line(look_.shape, style_->detailFont, muted);
    if (look_.fill_ratio)
        drawFillBar(p, QRectF(kPad, r.height() - kBarHeight - 5, w, kBarHeight), *look_.fill_ratio,
                    t);
}

// --- EdgeItem -------------------------------------------------------------------------------

double ItemStyle::edgeLabelWidth(const QString& label) const {
    if (!(measuredEdgeFont_ == edgeFont)) {
        edgeLabelWidths_.clear();
        measuredEdgeFont_ = edgeFont;
    }
    auto it = edgeLabelWidths_.constFind(label);
    if (it == edgeLabelWidths_.constEnd())
        it = edgeLabelWidths_.insert(label, QFontMetricsF(edgeFont).horizontalAdvance(label));
    return *it;
}

EdgeItem::EdgeItem(LayerId tail, LayerId head, const ItemStyle* style)
    : tail_(tail), head_(head), style_(style) {
    setZValue(1);
    setAcceptedMouseButtons(Qt::NoButton);
}

void EdgeItem::setRoute(const QPainterPath& path, std::optional<QPointF> arrowTip) {
    prepareGeometryChange();
    path_ = path;
    anchor_.reset();
    label_.clear();
    avoid_.clear();
    keepOut_.clear();
    arrow_.clear();
    if (arrowTip && !path.isEmpty()) {
        const QPointF base = path.currentPosition();
        QPointF dir = *arrowTip - base;
        const double len = std::hypot(dir.x(), dir.y());
        if (len > 0.01) {
            dir /= len;
            const QPointF normal(-dir.y(), dir.x());
            const double halfWidth = std::max(3.0, len * 0.4);
            arrow_ << *arrowTip << base + normal * halfWidth << base - normal * halfWidth;
        }
    }
    recompute();
}

void EdgeItem::setLabel(const QString& label, const std::vector<QRectF>& avoid,
                        const std::vector<QRectF>& keepOut) {
    // Without a label the frames change nothing.
    if (label.isEmpty() && label_.isEmpty()) return;
    if (label == label_ && avoid == avoid_ && keepOut == keepOut_) return;
    prepareGeometryChange();
    label_ = label;
    avoid_ = avoid;
    keepOut_ = keepOut;
    recompute();
}

QRectF EdgeItem::labelRect() const {
    if (label_.isEmpty()) return {};
    const QFontMetricsF fm(style_->edgeFont);
    return QRectF(placeLabel() - QPointF(0, fm.ascent()),
                  QSizeF(style_->edgeLabelWidth(label_) + 2, fm.height()));
}

namespace {

// Whether a label box straddles the border of a group frame (it may sit inside or outside).
bool crossesBorder(const QRectF& box, const std::vector<QRectF>& frames) {
    for (const QRectF& f : frames)
        if (box.intersects(f.adjusted(-2, -2, 2, 2)) && !f.adjusted(2, 2, -2, -2).contains(box))
            return true;
    return false;
}

} // namespace

QPointF EdgeItem::labelAnchor() const {
    if (!anchor_) {
        if (path_.isEmpty()) {
            anchor_ = QPointF();
        } else {
            const QFontMetricsF fm(style_->edgeFont);
            anchor_ = pointNearStart(path_, fm.ascent() + 3) + QPointF(5, 0);
        }
    }
    return *anchor_;
}

void EdgeItem::recompute() {
    // Placing a label costs path lengths: it waits until the label is painted or asked for
    // (placeLabel). The bounds hold every place it can take: on the route, right of it or
    // its width to the left.
    labelPos_.reset();
    bounds_ = path_.boundingRect() | arrow_.boundingRect();
    if (!label_.isEmpty() && !path_.isEmpty()) {
        const QFontMetricsF fm(style_->edgeFont);
        const double w = style_->edgeLabelWidth(label_) + 2;
        const QRectF route = path_.boundingRect();
        bounds_ |= route.adjusted(-w - 5, -fm.ascent(), w + 5, fm.height() - fm.ascent());
    }
    bounds_.adjust(-2, -2, 2, 2);
    shape_ = QPainterPath(); // built on the first hit test: most edges are never hit-tested
}

QPointF EdgeItem::placeLabel() const {
    if (labelPos_) return *labelPos_;
    // The tensor size sits just below its producer, clear of cluster captions further down.
    labelPos_ = labelAnchor();
    if (path_.isEmpty() || label_.isEmpty()) return *labelPos_;
    const QFontMetricsF fm(style_->edgeFont);
    const double length = path_.length();
    const double at = length > 0 ? std::min(0.5, (fm.ascent() + 3) / length) : 0.0;
    auto place = [&](double distance, double dx) {
        return path_.pointAtPercent(path_.percentAtLength(distance)) + QPointF(dx, 0);
    };
    // Slide down the edge (right of it, else left) until the label crosses no group frame:
    // a size drawn over a cluster border cannot be read.
    const double w = style_->edgeLabelWidth(label_) + 2;
    auto boxAt = [&](QPointF p) {
        return QRectF(p - QPointF(0, fm.ascent()), QSizeF(w, fm.height()));
    };
    auto onCaption = [&](const QRectF& box) {
        return std::any_of(keepOut_.begin(), keepOut_.end(),
                           [&](const QRectF& k) { return box.intersects(k); });
    };
    // First clear of borders and captions, else at least of borders.
    auto slide = [&](const std::function<bool(const QRectF&)>& bad) {
        for (double d = at * length; d <= 0.95 * length; d += 3)
            for (double dx : {5.0, -w - 5.0})
                if (const QPointF p = place(d, dx); !bad(boxAt(p))) {
                    labelPos_ = p;
                    return true;
                }
        return false;
    };
    if (crossesBorder(boxAt(*labelPos_), avoid_) || onCaption(boxAt(*labelPos_)))
        slide([&](const QRectF& b) { return crossesBorder(b, avoid_) || onCaption(b); }) ||
            slide([&](const QRectF& b) { return crossesBorder(b, avoid_); });
    return *labelPos_;
}

QRectF EdgeItem::boundingRect() const {
    return bounds_;
}
QPainterPath EdgeItem::shape() const {
    if (shape_.isEmpty() && !path_.isEmpty()) {
        QPainterPathStroker stroker;
        stroker.setWidth(6);
        shape_ = stroker.createStroke(path_);
        shape_.addPolygon(arrow_);
    }
    return shape_;
}

void EdgeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const CanvasTheme& t = *style_->theme;
    const double lod = lodOf(option, p);
    QPen pen(t.edge, 1.3);
    pen.setCosmetic(lod < kLodText);
    p->setPen(pen);
    p->setBrush(Qt::NoBrush);
    if (lod < kLodShapes) {
        // Straight segment between the ends: far cheaper than the spline at this size.
        if (!path_.isEmpty()) p->drawLine(path_.pointAtPercent(0), path_.currentPosition());
        return;
    }
    p->drawPath(path_);
    if (!arrow_.isEmpty()) {
        p->setPen(Qt::NoPen);
        p->setBrush(t.edge);
        p->drawPolygon(arrow_);
    }
    if (lod >= kLodText && !label_.isEmpty()) {
        p->setFont(style_->edgeFont);
        p->setPen(t.edgeLabel);
        p->drawText(placeLabel(), label_);
    }
}

// --- GroupItem ------------------------------------------------------------------------------

GroupItem::GroupItem(int key, const ItemStyle* style) : key_(key), style_(style) {
    setZValue(0);
}

void GroupItem::setLook(const Look& look) {
    if (look == look_) return;
    look_ = look;
    update();
}

void GroupItem::setRect(const QRectF& rect, double headerHeight) {
    prepareGeometryChange();
    rect_ = rect;
    header_ = headerHeight;
}

// The caption's name line, and below it the buffer fill bar (item coordinates).
QRectF GroupItem::nameRect() const {
    const double pad = 10;
    return QRectF(rect_.left() + pad, rect_.top() + 5, rect_.width() - 2 * pad,
                  QFontMetricsF(style_->headerFont).height());
}
QRectF GroupItem::barRect() const {
    const QRectF name = nameRect();
    return QRectF(name.left(), name.bottom() + 3, name.width(), 5);
}

QRectF GroupItem::captionRect() const {
    return QRectF(rect_.left(), rect_.top(), rect_.width(), barRect().bottom() + 2 - rect_.top());
}

bool GroupItem::inHeader(const QPointF& pos) const {
    return rect_.contains(pos) && pos.y() <= rect_.top() + header_ + 6;
}

QRectF GroupItem::boundingRect() const {
    return rect_.adjusted(-2, -2, 2, 2);
}

void GroupItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
    const CanvasTheme& t = *style_->theme;
    const double lod = lodOf(option, p);
    QColor fill = look_.fill;
    fill.setAlphaF(t.dark ? 0.55f : 0.6f);
    QPen pen(look_.border, 1.2);
    if (look_.invalid) pen = QPen(t.invalid, 2.0, Qt::DashLine);
    if (look_.overCapacity) pen = QPen(t.overCapacity, 2.5);
    if (look_.highlighted) pen = QPen(t.highlight, 3.5, Qt::DashLine);
    if (look_.dropTarget || look_.selected)
        pen = QPen(t.selection, 3.0, look_.dropTarget ? Qt::DashLine : Qt::SolidLine);
    pen.setCosmetic(lod < kLodText);
    p->setPen(pen);
    p->setBrush(fill);
    p->drawRoundedRect(rect_, 10, 10);
    if (lod < kLodText) return;

    const QFontMetricsF fm(style_->headerFont);
    const QRectF text = nameRect();
    p->setFont(style_->headerFont);
    p->setPen(t.text);
    QString caption = look_.name;
    if (look_.known)
        caption += QStringLiteral("  ·  %1 %").arg(int(std::lround(look_.fill_ratio * 100)));
    p->drawText(text, Qt::AlignLeft | Qt::AlignVCenter,
                fm.elidedText(caption, Qt::ElideRight, text.width()));
    if (look_.known) drawFillBar(p, barRect(), look_.fill_ratio, t);
}

} // namespace lf::graph
