// The PE array drawn as a grid (columns × rows) with one coloured, labelled rectangle per
// layer of a spatially partitioned group. Drag a rectangle to move it, an edge or corner to
// resize it; sizes snap to divisors of the array extents and a rectangle never leaves the
// array or overlaps another. Arrow keys move the current rectangle by one PE, Shift+arrows
// resize it to the next divisor.
#pragma once

#include "schedule/schedule.h"

#include <QColor>
#include <QWidget>

#include <vector>

namespace lf {

class SubArrayCanvas : public QWidget {
    Q_OBJECT
  public:
    struct Entry {
        LayerId layer = kNoLayer;
        QString name;
        QColor color;
        SubArray rect;
    };

    explicit SubArrayCanvas(QWidget* parent = nullptr);

    // Replaces the array and its rectangles; a drag in progress keeps its own rectangle.
    void setArray(int cols, int rows, const std::vector<Entry>& entries);
    void setCurrentLayer(LayerId id);
    LayerId currentLayer() const { return current_; }
    const std::vector<Entry>& entries() const { return entries_; }

    // Where a layer's rectangle is drawn, in widget coordinates (empty if absent).
    QRectF rectOf(LayerId id) const;
    double cellSize() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    // One drag gesture carries one mergeId; every step of it is reported.
    void subArrayEdited(lf::LayerId layer, lf::SubArray rect, bool resized, int mergeId);
    void layerClicked(lf::LayerId layer);
    // A drag ended where it began (sizes snap to divisors, rectangles never overlap):
    // `why` says so, for the user who saw nothing happen.
    void dragSnappedBack(lf::LayerId layer, const QString& why);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    QRectF arrayRect() const;
    QRectF toWidget(const SubArray& s) const;
    int indexOf(LayerId id) const;
    // The rectangle under a point and which of its edges the point grabs.
    int hitTest(const QPointF& p, unsigned* edges) const;
    std::vector<SubArray> othersThan(int index) const;
    void updateCursor(const QPointF& p);

    int cols_ = 1, rows_ = 1;
    std::vector<Entry> entries_;
    LayerId current_ = kNoLayer;
    // Drag state.
    int dragIndex_ = -1;
    unsigned dragEdges_ = 0;
    QPointF pressPos_;
    SubArray dragStart_;
    bool dragMoved_ = false;
    int dragMergeId_ = 0;
};

// A distinct colour per position in a group (readable on light and dark palettes).
QColor partitionColor(int index);

} // namespace lf
