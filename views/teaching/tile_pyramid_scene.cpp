#include "teaching/tile_pyramid_scene.h"

#include "qt_text.h"

#include <QBrush>
#include <QFont>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QPen>

#include <algorithm>

namespace lf {

namespace {

// The widest map is drawn about this wide; tiny maps are still a few pixels per element.
// Labels are sized in scene units so that they stay readable when the view fits the scene.
constexpr double kTargetWidth = 360;
constexpr double kMinUnit = 0.25, kMaxUnit = 24;
constexpr int kLabelPixels = 18;
constexpr double kLabelHeight = 50, kGap = 16, kRowGap = 48;

QGraphicsRectItem* makeRect(QGraphicsScene* scene, const QBrush& brush, const QPen& pen, qreal z) {
    auto* item = scene->addRect(QRectF(), pen, brush);
    item->setZValue(z);
    item->setVisible(false);
    return item;
}

} // namespace

QString pyramidLevelLabel(const TilePyramid& p, int level) {
    const PyramidLevel& lv = p.levels[size_t(level)];
    QString role;
    if (lv.group_input)
        role = TilePyramidScene::tr(" (group input, DRAM)");
    else if (level == int(p.levels.size()) - 1)
        role = TilePyramidScene::tr(" (group output)");
    return TilePyramidScene::tr("%1%2\n%3×%4×%5 · R(l,t) = %6×%7")
        .arg(qs(lv.name), role)
        .arg(lv.width)
        .arg(lv.height)
        .arg(lv.channels)
        .arg(lv.tile_w)
        .arg(lv.tile_h);
}

TilePyramidScene::TilePyramidScene(QObject* parent) : QGraphicsScene(parent) {}

void TilePyramidScene::clearPyramid(const QString& message) {
    clear();
    levels_.clear();
    highlights_.clear();
    caption_ = nullptr;
    pyramid_ = nullptr;
    if (!message.isEmpty()) addSimpleText(message);
    setSceneRect(itemsBoundingRect());
}

void TilePyramidScene::setPyramid(const TilePyramid& p, const teaching::PyramidColors& colors,
                                  Qt::Orientation orientation) {
    clearPyramid({});
    pyramid_ = &p;
    colors_ = colors;
    int64_t maxW = 1, maxH = 1;
    for (const PyramidLevel& lv : p.levels) {
        maxW = std::max(maxW, lv.width);
        maxH = std::max(maxH, lv.height);
    }
    unit_ = std::clamp(kTargetWidth / double(std::max(maxW, maxH)), kMinUnit, kMaxUnit);
    orientation_ = orientation;
    const bool row = orientation == Qt::Horizontal;

    QFont labelFont;
    labelFont.setPixelSize(kLabelPixels);
    const QPen border(colors.mapBorder, 0);
    const QPen none(Qt::NoPen);
    double x = 0, y = 0;
    for (int q = 0; q < int(p.levels.size()); ++q) {
        const PyramidLevel& lv = p.levels[size_t(q)];
        Level L;
        const double w = double(lv.width) * unit_, h = double(lv.height) * unit_;
        auto* label = addSimpleText(pyramidLevelLabel(p, q), labelFont);
        label->setBrush(colors.text);
        L.label = label;
        if (row) {
            // Side by side, centred on a common middle line.
            const double cell = std::max(w, label->boundingRect().width());
            label->setPos(x, 0);
            L.origin = QPointF(x + (cell - w) / 2, kLabelHeight + (double(maxH) * unit_ - h) / 2);
            x += cell + kRowGap;
        } else {
            label->setPos((kTargetWidth - label->boundingRect().width()) / 2, y);
            y += kLabelHeight;
            L.origin = QPointF((kTargetWidth - w) / 2, y);
            y += h + kGap;
        }
        L.map = addRect(QRectF(L.origin, QSizeF(w, h)), border, QBrush(colors.map));
        L.map->setZValue(0);
        L.evicted = makeRect(this, QBrush(colors.evicted, Qt::BDiagPattern),
                             QPen(colors.evicted.darker(130), 0, Qt::DashLine), 1);
        L.region = makeRect(this, QBrush(lv.group_input ? colors.loaded : colors.computed),
                            QPen(colors.mapBorder.darker(150), 0), 2);
        L.overlapLeft = makeRect(this, QBrush(), none, 3);
        L.overlapAbove = makeRect(this, QBrush(), none, 3);
        levels_.push_back(L);
    }
    caption_ = addSimpleText(QString(), labelFont);
    caption_->setBrush(colors.highlight);
    caption_->setPos(0, row ? kLabelHeight + double(maxH) * unit_ + kGap : y);
    caption_->setZValue(5);
    setSceneRect(itemsBoundingRect().adjusted(-8, -8, 8, 8 + kLabelHeight));
}

QRectF TilePyramidScene::sceneRectOf(int level, const Rect& r) const {
    const Level& L = levels_[size_t(level)];
    return QRectF(L.origin.x() + double(r.x) * unit_, L.origin.y() + double(r.y) * unit_,
                  double(r.w) * unit_, double(r.h) * unit_);
}

void TilePyramidScene::showStep(const PyramidStep& step, const PyramidStep* previous) {
    if (!pyramid_) return;
    for (int q = 0; q < int(levels_.size()) && size_t(q) < step.levels.size(); ++q) {
        const Level& L = levels_[size_t(q)];
        const LevelStep& s = step.levels[size_t(q)];
        const bool input = pyramid_->levels[size_t(q)].group_input;
        auto place = [&](QGraphicsRectItem* item, const Rect& r) {
            item->setVisible(!r.empty());
            if (!r.empty()) item->setRect(sceneRectOf(q, r));
        };
        place(L.region, s.region);
        place(L.evicted, previous ? previous->levels[size_t(q)].region : Rect{});
        // What an overlap with an earlier tile is: recomputed (recompute), kept in a reuse
        // buffer (reuse; Optimus line buffers keep the rows above), or loaded again from DRAM
        // (group inputs, except Optimus line-buffered rows).
        auto roleBrush = [&](bool above) {
            if (input) {
                if (above && pyramid_->strategy == Strategy::optimus) return QBrush(colors_.reused);
                return QBrush(colors_.loaded.darker(140), Qt::Dense3Pattern);
            }
            return QBrush(pyramid_->strategy == Strategy::recompute ? colors_.recomputed
                                                                    : colors_.reused);
        };
        L.overlapLeft->setBrush(roleBrush(false));
        L.overlapAbove->setBrush(roleBrush(true));
        place(L.overlapLeft, s.overlap_left);
        place(L.overlapAbove, s.overlap_above);
    }
}

void TilePyramidScene::setHighlight(const std::vector<std::pair<int, Rect>>& regions,
                                    const QString& caption) {
    for (QGraphicsRectItem* item : highlights_) {
        removeItem(item);
        delete item;
    }
    highlights_.clear();
    if (caption_) caption_->setText(caption);
    for (const auto& [level, r] : regions) {
        if (level < 0 || level >= int(levels_.size()) || r.empty()) continue;
        QColor fill = colors_.highlight;
        fill.setAlpha(40);
        auto* item = addRect(sceneRectOf(level, r), QPen(colors_.highlight, 2.5), QBrush(fill));
        item->setZValue(4);
        highlights_.push_back(item);
    }
}

} // namespace lf
