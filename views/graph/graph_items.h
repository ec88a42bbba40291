// The items of the DAG canvas: layer nodes, tensor edges and fusion-group clusters. Items
// hold display values only (texts, colours, geometry); GraphScene fills them from the
// studio state and the layout, keyed by stable layer ids, and updates them in place.
// Painting drops detail as the zoom shrinks (level of detail) so that networks with a
// thousand layers stay smooth.
#pragma once

#include "network/layer.h"

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QHash>
#include <QPainterPath>

#include <optional>
#include <vector>

namespace lf::graph {

struct CanvasTheme;

// Shared look of all items (owned by the scene).
struct ItemStyle {
    const CanvasTheme* theme = nullptr;
    QFont nameFont, detailFont, edgeFont, headerFont;

    // Width of an edge label in edgeFont. Tensor sizes repeat across a network: each text is
    // measured once (measuring is most of the cost of labelling thousands of edges).
    double edgeLabelWidth(const QString& label) const;

  private:
    mutable QHash<QString, double> edgeLabelWidths_;
    mutable QFont measuredEdgeFont_;
};

// Below this zoom texts are not drawn; below kLodShapes only plain shapes.
inline constexpr double kLodText = 0.45;
inline constexpr double kLodShapes = 0.2;

class NodeItem : public QGraphicsItem {
  public:
    enum { Type = UserType + 101 };
    NodeItem(LayerId id, const ItemStyle* style);

    int type() const override { return Type; }
    LayerId layerId() const { return id_; }

    struct Look {
        QString name, detail, shape;
        QColor fill, text, border;
        bool overCapacity = false;
        bool invalid = false;             // its group breaks a rule (flagged, not refused)
        std::optional<double> fill_ratio; // buffer use / capacity of its (singleton) group
        bool dropTarget = false;
        bool highlighted = false; // its group differs from a compared schedule
        bool operator==(const Look&) const = default;
    };
    // Repaints only when the look changed (an edit leaves most items as they were).
    void setLook(const Look& look);
    const Look& look() const { return look_; }
    void setSize(QSizeF size);
    QSizeF size() const { return size_; }
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  private:
    LayerId id_;
    const ItemStyle* style_;
    QSizeF size_{100, 50};
    Look look_;
};

class EdgeItem : public QGraphicsItem {
  public:
    enum { Type = UserType + 102 };
    EdgeItem(LayerId tail, LayerId head, const ItemStyle* style);

    int type() const override { return Type; }
    LayerId tail() const { return tail_; }
    LayerId head() const { return head_; }
    // A new route drops the label: where it fits depends on the new layout (setLabel).
    void setRoute(const QPainterPath& path, std::optional<QPointF> arrowTip);
    // `avoid`: the group frames; the label goes where it crosses none of their borders and
    // covers none of the `keepOut` rectangles (their captions).
    void setLabel(const QString& label, const std::vector<QRectF>& avoid = {},
                  const std::vector<QRectF>& keepOut = {});
    const QString& label() const { return label_; }
    // The label's box in the scene (empty without a label).
    QRectF labelRect() const;
    // Where a label starts (just below the producer) before it slides clear of group
    // frames; the route alone decides it.
    QPointF labelAnchor() const;
    const QPainterPath& path() const { return path_; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  private:
    void recompute();
    QPointF placeLabel() const; // where the label goes, placed when first needed
    LayerId tail_, head_;
    const ItemStyle* style_;
    QPainterPath path_;
    QPolygonF arrow_;
    QString label_;
    std::vector<QRectF> avoid_, keepOut_;
    mutable std::optional<QPointF> labelPos_; // placed on first use (placeLabel)
    mutable std::optional<QPointF> anchor_;   // computed when first asked for (path lengths)
    QRectF bounds_;
    mutable QPainterPath shape_;
};

class GroupItem : public QGraphicsItem {
  public:
    enum { Type = UserType + 103 };
    GroupItem(int key, const ItemStyle* style);

    int type() const override { return Type; }
    int key() const { return key_; } // the group's first layer id (stable across edits)

    struct Look {
        QString name;
        int group_index = -1;
        QColor fill, border;
        double fill_ratio = 0; // buffer use / capacity
        bool known = false;    // metrics available
        bool overCapacity = false;
        bool invalid = false;
        bool selected = false;
        bool dropTarget = false;
        bool highlighted = false; // differs from a compared schedule
        bool operator==(const Look&) const = default;
    };
    void setLook(const Look& look);
    const Look& look() const { return look_; }
    void setRect(const QRectF& rect, double headerHeight);
    QRectF rect() const { return rect_; }
    bool inHeader(const QPointF& itemPos) const;
    // The part of the header (GraphScene::headerHeight()) that is painted: the name, the
    // buffer fill and its bar (item coordinates). Below it the header keeps room for the size
    // of a tensor entering the group.
    QRectF captionRect() const;
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  private:
    QRectF nameRect() const;
    QRectF barRect() const;
    int key_;
    const ItemStyle* style_;
    QRectF rect_;
    double header_ = 0;
    Look look_;
};

} // namespace lf::graph
