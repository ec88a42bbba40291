// The drawing of a tile pyramid: every feature map of a fused group to one common scale,
// top (group inputs) to bottom (the group's output), each labelled with its size and its
// tile extent R(l, t); over it, the current step's region, its overlaps with the previous
// tiles (recomputed, kept in reuse buffers or reloaded), what the step evicted, and the
// region a hovered loop iterates. Items are created once per pyramid and only moved per
// step, so animation is cheap.
#pragma once

#include "teaching/teaching_style.h"
#include "teaching/tile_pyramid.h"

#include <QGraphicsScene>

#include <utility>
#include <vector>

class QGraphicsRectItem;
class QGraphicsSimpleTextItem;

namespace lf {

class TilePyramidScene : public QGraphicsScene {
    Q_OBJECT
  public:
    explicit TilePyramidScene(QObject* parent = nullptr);

    // Builds the maps and labels (the pyramid must outlive the next call): top of the
    // pyramid (group inputs) to its bottom (the output), in a column (Qt::Vertical) or, for
    // wide views, in a row.
    void setPyramid(const TilePyramid& pyramid, const teaching::PyramidColors& colors,
                    Qt::Orientation orientation = Qt::Vertical);
    void clearPyramid(const QString& message);
    // Places the step's regions; `previous` is the step before (nullptr for the first).
    void showStep(const PyramidStep& step, const PyramidStep* previous);
    // Outlines regions (map level, rectangle in elements of that map) with a caption.
    void setHighlight(const std::vector<std::pair<int, Rect>>& regions, const QString& caption);

    int levelCount() const { return int(levels_.size()); }
    Qt::Orientation orientation() const { return orientation_; }
    double unit() const { return unit_; } // scene pixels per element
    QGraphicsSimpleTextItem* labelItem(int level) const { return levels_[size_t(level)].label; }
    QGraphicsRectItem* mapItem(int level) const { return levels_[size_t(level)].map; }
    QGraphicsRectItem* regionItem(int level) const { return levels_[size_t(level)].region; }
    QGraphicsRectItem* overlapItem(int level, bool above) const {
        return above ? levels_[size_t(level)].overlapAbove : levels_[size_t(level)].overlapLeft;
    }
    const std::vector<QGraphicsRectItem*>& highlightItems() const { return highlights_; }
    // A rectangle of a map in scene coordinates.
    QRectF sceneRectOf(int level, const Rect& r) const;

  private:
    struct Level {
        QPointF origin;
        QGraphicsRectItem* map = nullptr;
        QGraphicsRectItem* evicted = nullptr;
        QGraphicsRectItem* region = nullptr;
        QGraphicsRectItem* overlapLeft = nullptr;
        QGraphicsRectItem* overlapAbove = nullptr;
        QGraphicsSimpleTextItem* label = nullptr;
    };
    std::vector<Level> levels_;
    std::vector<QGraphicsRectItem*> highlights_;
    QGraphicsSimpleTextItem* caption_ = nullptr;
    const TilePyramid* pyramid_ = nullptr;
    teaching::PyramidColors colors_;
    double unit_ = 1;
    Qt::Orientation orientation_ = Qt::Vertical;
};

// "conv2\n18×18×4 · R(l,t) = 6×6" (the label of one map: its name and role, then its size
// and tile extent).
QString pyramidLevelLabel(const TilePyramid& p, int level);

} // namespace lf
