#include "partition/subarray_canvas.h"

#include "edit_merge_ids.h"
#include "partition/partition_geometry.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace lf {

namespace {
constexpr double kMargin = 8; // px around the array
constexpr double kGrip = 6;   // px of an edge that grabs it
} // namespace

QColor partitionColor(int index) {
    // Golden-angle hues: neighbours in a group never look alike.
    const int hue = int(std::fmod(205.0 + index * 137.508, 360.0));
    return QColor::fromHsv(hue, 150, 215);
}

SubArrayCanvas::SubArrayCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAccessibleName(tr("PE array partition"));
}

QSize SubArrayCanvas::sizeHint() const {
    return {360, 220};
}
QSize SubArrayCanvas::minimumSizeHint() const {
    return {160, 100};
}

void SubArrayCanvas::setArray(int cols, int rows, const std::vector<Entry>& entries) {
    cols_ = std::max(1, cols);
    rows_ = std::max(1, rows);
    if (dragIndex_ >= 0 && size_t(dragIndex_) < entries_.size()) {
        // Keep the rectangle under the mouse where the drag put it.
        const Entry dragged = entries_[size_t(dragIndex_)];
        entries_ = entries;
        const int i = indexOf(dragged.layer);
        if (i >= 0) entries_[size_t(i)].rect = dragged.rect;
        dragIndex_ = i;
    } else {
        entries_ = entries;
    }
    update();
}

void SubArrayCanvas::setCurrentLayer(LayerId id) {
    if (current_ == id) return;
    current_ = id;
    update();
}

int SubArrayCanvas::indexOf(LayerId id) const {
    for (size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].layer == id) return int(i);
    return -1;
}

double SubArrayCanvas::cellSize() const {
    const double w = (width() - 2 * kMargin) / cols_;
    const double h = (height() - 2 * kMargin) / rows_;
    return std::max(0.5, std::min(w, h));
}

QRectF SubArrayCanvas::arrayRect() const {
    const double c = cellSize();
    const QSizeF size(c * cols_, c * rows_);
    return QRectF(QPointF((width() - size.width()) / 2, (height() - size.height()) / 2), size);
}

QRectF SubArrayCanvas::toWidget(const SubArray& s) const {
    const QRectF a = arrayRect();
    const double c = cellSize();
    return QRectF(a.left() + s.col * c, a.top() + s.row * c, s.cols * c, s.rows * c);
}

QRectF SubArrayCanvas::rectOf(LayerId id) const {
    const int i = indexOf(id);
    return i < 0 ? QRectF() : toWidget(entries_[size_t(i)].rect);
}

int SubArrayCanvas::hitTest(const QPointF& p, unsigned* edges) const {
    // Topmost (last drawn) first; the current layer is drawn last.
    std::vector<int> order;
    for (size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].layer != current_) order.push_back(int(i));
    if (const int cur = indexOf(current_); cur >= 0) order.push_back(cur);
    std::reverse(order.begin(), order.end());
    // A rectangle containing the point wins over a neighbour whose grip reaches over it, so
    // on a shared border each side grabs its own edge.
    for (const bool inside : {true, false})
        for (int i : order) {
            const QRectF r = toWidget(entries_[size_t(i)].rect);
            const double grip = std::min(kGrip, std::max(2.0, std::min(r.width(), r.height()) / 4));
            if (inside ? !r.contains(p) : !r.adjusted(-grip, -grip, grip, grip).contains(p))
                continue;
            unsigned e = 0;
            if (std::abs(p.x() - r.left()) <= grip)
                e |= kEdgeLeft;
            else if (std::abs(p.x() - r.right()) <= grip)
                e |= kEdgeRight;
            if (std::abs(p.y() - r.top()) <= grip)
                e |= kEdgeTop;
            else if (std::abs(p.y() - r.bottom()) <= grip)
                e |= kEdgeBottom;
            if (e == 0) {
                if (!r.contains(p)) continue;
                e = kEdgeMove;
            }
            if (edges) *edges = e;
            return i;
        }
    if (edges) *edges = 0;
    return -1;
}

std::vector<SubArray> SubArrayCanvas::othersThan(int index) const {
    std::vector<SubArray> out;
    for (size_t i = 0; i < entries_.size(); ++i)
        if (int(i) != index) out.push_back(entries_[i].rect);
    return out;
}

void SubArrayCanvas::updateCursor(const QPointF& p) {
    unsigned e = 0;
    const int i = dragIndex_ >= 0 ? dragIndex_ : hitTest(p, &e);
    if (dragIndex_ >= 0) e = dragEdges_;
    Qt::CursorShape shape = Qt::ArrowCursor;
    if (i >= 0) {
        const bool h = e & (kEdgeLeft | kEdgeRight), v = e & (kEdgeTop | kEdgeBottom);
        if (e & kEdgeMove)
            shape = dragIndex_ >= 0 ? Qt::ClosedHandCursor : Qt::OpenHandCursor;
        else if (h && v)
            shape = ((e & kEdgeLeft) != 0) == ((e & kEdgeTop) != 0) ? Qt::SizeFDiagCursor
                                                                    : Qt::SizeBDiagCursor;
        else if (h)
            shape = Qt::SizeHorCursor;
        else if (v)
            shape = Qt::SizeVerCursor;
    }
    setCursor(shape);
}

void SubArrayCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    const QRectF a = arrayRect();
    const double c = cellSize();
    p.fillRect(a, pal.color(QPalette::Base));

    // Grid: every PE when cells are large enough to see, otherwise every 8th line.
    QColor line = pal.color(QPalette::Mid);
    line.setAlpha(110);
    p.setPen(QPen(line, 0));
    const int step = c >= 5 ? 1 : c >= 1.5 ? 4 : 8;
    for (int x = 0; x <= cols_; x += step)
        p.drawLine(QPointF(a.left() + x * c, a.top()), QPointF(a.left() + x * c, a.bottom()));
    for (int y = 0; y <= rows_; y += step)
        p.drawLine(QPointF(a.left(), a.top() + y * c), QPointF(a.right(), a.top() + y * c));
    p.setPen(QPen(pal.color(QPalette::Text), 1));
    p.drawRect(a);

    p.setRenderHint(QPainter::Antialiasing, true);
    auto draw = [&](const Entry& e, bool current) {
        const QRectF r = toWidget(e.rect).adjusted(1, 1, -1, -1);
        QColor fill = e.color;
        fill.setAlpha(current ? 200 : 150);
        p.setBrush(fill);
        QPen pen(e.color.darker(160), current ? 2.5 : 1.2);
        if (current && dragIndex_ >= 0) pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.drawRoundedRect(r, 3, 3);
        p.setPen(QColor(20, 20, 20));
        const QString label =
            QStringLiteral("%1\n%2 × %3").arg(e.name).arg(e.rect.cols).arg(e.rect.rows);
        const QFontMetricsF fm(font());
        if (r.height() >= 2 * fm.height() &&
            r.width() >= fm.horizontalAdvance(QStringLiteral("xx×xx")))
            p.drawText(r.adjusted(2, 2, -2, -2), Qt::AlignCenter | Qt::TextWrapAnywhere, label);
        else if (r.height() >= fm.height())
            p.drawText(r, Qt::AlignCenter, fm.elidedText(e.name, Qt::ElideRight, r.width()));
    };
    const int cur = indexOf(current_);
    for (size_t i = 0; i < entries_.size(); ++i)
        if (int(i) != cur) draw(entries_[i], false);
    if (cur >= 0) draw(entries_[size_t(cur)], true);
}

void SubArrayCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    unsigned e = 0;
    const int i = hitTest(event->position(), &e);
    if (i < 0) return;
    dragIndex_ = i;
    dragEdges_ = e;
    dragStart_ = entries_[size_t(i)].rect;
    pressPos_ = event->position();
    dragMoved_ = false;
    dragMergeId_ = merge::freshId();
    current_ = entries_[size_t(i)].layer;
    updateCursor(event->position());
    update();
}

void SubArrayCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (dragIndex_ < 0) {
        updateCursor(event->position());
        return;
    }
    const double c = cellSize();
    const QPointF d = (event->position() - pressPos_) / c;
    if (!dragMoved_ && (event->position() - pressPos_).manhattanLength() < 3) return;
    dragMoved_ = true;
    Entry& entry = entries_[size_t(dragIndex_)];
    const SubArray next =
        dragSubArray(dragStart_, dragEdges_, d.x(), d.y(), cols_, rows_, othersThan(dragIndex_));
    if (next == entry.rect) return;
    entry.rect = next;
    update();
    emit subArrayEdited(entry.layer, next, !(dragEdges_ & kEdgeMove), dragMergeId_);
}

void SubArrayCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || dragIndex_ < 0)
        return QWidget::mouseReleaseEvent(event);
    const Entry& entry = entries_[size_t(dragIndex_)];
    const LayerId id = entry.layer;
    const bool clicked = !dragMoved_;
    if (dragMoved_ && entry.rect == dragStart_) {
        auto divisors = [](int n) {
            QStringList d;
            for (int k = 1; k <= n; ++k)
                if (n % k == 0) d << QString::number(k);
            return d.join(QStringLiteral(", "));
        };
        emit dragSnappedBack(
            id, tr("%1 stays %2 × %3: a rectangle takes widths that divide %4 (%5) and heights "
                   "that divide %6 (%7), and never overlaps another. Drag further to reach the "
                   "next size, or make room first.")
                    .arg(entry.name)
                    .arg(entry.rect.cols)
                    .arg(entry.rect.rows)
                    .arg(cols_)
                    .arg(divisors(cols_))
                    .arg(rows_)
                    .arg(divisors(rows_)));
    }
    dragIndex_ = -1;
    dragEdges_ = 0;
    updateCursor(event->position());
    update();
    if (clicked) emit layerClicked(id);
}

void SubArrayCanvas::leaveEvent(QEvent* event) {
    if (dragIndex_ < 0) unsetCursor();
    QWidget::leaveEvent(event);
}

void SubArrayCanvas::keyPressEvent(QKeyEvent* event) {
    const int i = indexOf(current_);
    int dx = 0, dy = 0;
    switch (event->key()) {
    case Qt::Key_Left:
        dx = -1;
        break;
    case Qt::Key_Right:
        dx = 1;
        break;
    case Qt::Key_Up:
        dy = -1;
        break;
    case Qt::Key_Down:
        dy = 1;
        break;
    default:
        return QWidget::keyPressEvent(event);
    }
    if (i < 0 || dragIndex_ >= 0) return;
    Entry& e = entries_[size_t(i)];
    SubArray next = e.rect;
    const bool resize = event->modifiers() & Qt::ShiftModifier;
    if (resize) {
        // Next divisor up or down along the axis; the right / bottom edge moves.
        auto nextLen = [](int len, int extent, int dir) {
            int l = len + dir;
            while (l >= 1 && l <= extent && extent % l != 0)
                l += dir;
            return std::clamp(l, 1, extent);
        };
        if (dx) next.cols = nextLen(e.rect.cols, cols_, dx);
        if (dy) next.rows = nextLen(e.rect.rows, rows_, dy);
    } else {
        next.col += dx;
        next.row += dy;
    }
    if (next == e.rect || !placeable(next, cols_, rows_, othersThan(i))) return;
    e.rect = next;
    update();
    // Key repeats of one kind merge into one undo step.
    emit subArrayEdited(
        e.layer, next, resize,
        merge::stableId(merge::Field::subarray, int(e.layer) * 2 + (resize ? 1 : 0)));
}

} // namespace lf
