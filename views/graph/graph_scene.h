// GraphScene: the DAG of the open network as QGraphicsItems, keyed by stable layer ids.
// setState() updates the items in place; it asks the Layouter for a new layout only when
// the network or the membership of fused groups changed (recolouring never relayouts).
// User gestures leave the scene as intents (signals); the scene never edits the schedule.
#pragma once

#include "graph/color_scale.h"
#include "graph/graph_items.h"
#include "graph/layouter.h"
#include "studio_state.h"

#include <QGraphicsScene>

#include <map>
#include <memory>
#include <vector>

namespace lf::graph {

class GraphScene : public QGraphicsScene {
    Q_OBJECT
  public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    struct Update {
        bool relaidOut = false;
        bool networkChanged = false;
        double layoutMs = 0;
        QString error;              // layout failure (items keep their previous geometry)
        bool layoutPending = false; // asynchronous: the layout comes with layoutApplied
    };
    Update setState(const StudioState& state);
    const StudioState& state() const { return state_; }

    // Networks with more layers are not drawn (no items, no layout): Graphviz takes many
    // seconds on them and the picture cannot be read; the studio's other views still work.
    static constexpr int kMaxDrawnLayers = 5000;
    bool tooLargeToDraw() const { return tooLarge_; }
    // A layout that arrives for a graph with more edges than this is applied in one event-loop
    // turn and its edges labelled in the next (two shorter stalls instead of one long one).
    void setLabelsInNextTurnAbove(size_t edges) { labelsInNextTurnAbove_ = edges; }

    void setColorBy(ColorBy mode);
    ColorBy colorBy() const { return colorBy_; }
    const HeatValues& heat() const { return heat_; }
    void setTheme(const CanvasTheme& theme);
    const CanvasTheme& theme() const { return theme_; }
    void setFonts(const QFont& base);

    // Selects exactly these layers (no intent is emitted).
    void setSelection(const StudioSelection& selection);
    // Groups (indices into the schedule's groups) drawn with a highlight outline, e.g. those
    // that differ from a compared schedule; empty clears.
    void setHighlightedGroups(const std::vector<int>& groups);
    const std::vector<int>& highlightedGroups() const { return highlighted_; }
    StudioSelection selection() const;

    NodeItem* node(LayerId id) const;
    const std::vector<NodeItem*>& nodes() const { return nodes_; }
    const std::vector<EdgeItem*>& edges() const { return edges_; }
    std::vector<GroupItem*> groupItems() const;
    // The group a drop at `scenePos` would move a layer into (-1: none).
    int groupIndexAt(const QPointF& scenePos, LayerId dragged) const;
    void setDropTarget(int groupIndex);
    // The area the graph covers (no margins).
    QRectF graphRect() const { return graphRect_; }
    // The last layout as plain data (request and result), for tests and exports.
    const LayoutRequest& lastRequest() const { return request_; }
    const LayoutResult& lastLayout() const { return layout_; }
    LayerId findLayer(const QString& name) const;

    void setLayouter(std::unique_ptr<Layouter> layouter);
    // On: layouts run on a thread of their own (AsyncLayouter, with the default layouter):
    // setState() returns at once, the previous picture stays until the new layout is
    // applied (layoutApplied). Off (default): setState() lays out before it returns.
    void setAsyncLayout(bool on);
    bool asyncLayout() const { return async_ != nullptr; }
    // Whether a requested layout has not been applied yet.
    bool layoutPending() const { return !inFlight_.empty(); }

  signals:
    // The user changed the selection on the canvas.
    void selectionIntent(const lf::StudioSelection& selection);
    // Asynchronous layouts: just before and after a new layout moves the items. `update`
    // says whether it is the first layout of a new network, or why it failed.
    void layoutAboutToBeApplied();
    void layoutApplied(const lf::graph::GraphScene::Update& update);

  protected:
    void helpEvent(QGraphicsSceneHelpEvent* event) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

  private:
    std::vector<int> highlighted_;
    void rebuildItems();
    bool clustersChanged() const;
    LayoutRequest buildRequest();
    void applyLayout(LayoutRequest request, LayoutResult result);
    void onLayoutDone(uint64_t ticket, LayoutResult result);
    void applyLooks();
    void labelEdges();
    void onSceneSelectionChanged();
    double headerHeight() const;
    QSizeF measureNode(LayerId id) const;

    std::unique_ptr<Layouter> layouter_;
    class AsyncLayouter* async_ = nullptr;
    struct InFlight {
        const void* networkKey = nullptr;
        LayoutRequest request;
    };
    std::map<uint64_t, InFlight> inFlight_; // asynchronous requests by ticket
    bool firstLayoutOfNetwork_ = false;     // no layout applied since the items were made
    std::vector<QSizeF> nodeSizes_;         // measured; valid unless sizesDirty_
    StudioState state_;
    const void* networkKey_ = nullptr;
    std::vector<std::vector<LayerId>> clusterMembers_; // fused groups the layout was made for
    ItemStyle style_;
    CanvasTheme theme_;
    ColorBy colorBy_ = ColorBy::group;
    HeatValues heat_;
    std::vector<NodeItem*> nodes_; // by LayerId
    struct NodeTexts {
        QString name, detail, shape;
    };
    std::vector<NodeTexts> nodeTexts_; // by LayerId; they change only with the network
    bool labelsDirty_ = true;          // a layout moved the edges since they were labelled
    size_t labelsInNextTurnAbove_ = 2000;
    bool labelsLater_ = false; // applyLooks leaves the labels to a queued labelEdges()
    int labelledActBits_ = -1; // the word size the edge labels were made for
    std::vector<EdgeItem*> edges_;
    std::map<int, GroupItem*> groups_; // by key (first layer id)
    LayoutRequest request_;
    LayoutResult layout_;
    QRectF graphRect_;
    int dropTarget_ = -1;
    int selectedGroup_ = -1;
    bool syncing_ = false;
    bool sizesDirty_ = false;
    bool tooLarge_ = false;
};

} // namespace lf::graph

Q_DECLARE_METATYPE(lf::graph::GraphScene::Update)
