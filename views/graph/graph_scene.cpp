#include "graph/graph_scene.h"

#include "graph/async_layouter.h"
#include "graph/graph_labels.h"
#include "graph/process_layouter.h"
#include "metrics/buffer_use.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsView>
#include <QToolTip>

#include <algorithm>

namespace lf::graph {

namespace {
constexpr double kNodePad = 8;
constexpr double kBarRoom = 9;
constexpr double kMinNodeWidth = 112;
constexpr double kMaxNodeWidth = 260;
// Above this many layers edges are routed as polylines (spline routing dominates dot's time).
constexpr size_t kPolylineAbove = 600;

QPainterPath toPath(const std::vector<LayoutPoint>& pts) {
    QPainterPath path;
    if (pts.empty()) return path;
    path.moveTo(pts[0].x, pts[0].y);
    for (size_t k = 1; k + 2 < pts.size(); k += 3)
        path.cubicTo(pts[k].x, pts[k].y, pts[k + 1].x, pts[k + 1].y, pts[k + 2].x, pts[k + 2].y);
    return path;
}
} // namespace

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent), layouter_(makeDefaultLayouter()) {
    theme_ = CanvasTheme::fromPalette(QApplication::palette());
    style_.theme = &theme_;
    setFonts(QApplication::font());
    // No BSP index: each layout moves every item, and Qt rebuilds its index at the next paint,
    // one insertion per item (68 M instructions on a 5,000-layer network, a stall of its
    // own). Without it a paint tests each item's bounds and a click searches linearly.
    setItemIndexMethod(QGraphicsScene::NoIndex);
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSceneSelectionChanged);
}

GraphScene::~GraphScene() {
    // Deleting selected items emits selectionChanged: nothing may look at them any more.
    syncing_ = true;
    nodes_.clear();
    edges_.clear();
    groups_.clear();
    clear();
}

void GraphScene::setLayouter(std::unique_ptr<Layouter> layouter) {
    layouter_ = std::move(layouter);
}

void GraphScene::setAsyncLayout(bool on) {
    if (on == asyncLayout()) return;
    delete async_;
    async_ = nullptr;
    inFlight_.clear();
    if (on)
        async_ = new AsyncLayouter(
            [] { return makeDefaultLayouter(); },
            [this](uint64_t ticket, LayoutResult r) { onLayoutDone(ticket, std::move(r)); }, this);
}

void GraphScene::setFonts(const QFont& base) {
    style_.nameFont = base;
    style_.nameFont.setBold(true);
    style_.detailFont = base;
    style_.detailFont.setPointSizeF(base.pointSizeF() * 0.9);
    style_.edgeFont = base;
    style_.edgeFont.setPointSizeF(base.pointSizeF() * 0.82);
    style_.headerFont = base;
    style_.headerFont.setBold(true);
    sizesDirty_ = true;
}

void GraphScene::setTheme(const CanvasTheme& theme) {
    theme_ = theme;
    setBackgroundBrush(theme_.background);
    applyLooks();
    update();
}

double GraphScene::headerHeight() const {
    // The caption (GroupItem::captionRect()), then a band for the size of a tensor entering
    // the group's first layer from above: its edge has no other room to carry it clear of the
    // caption.
    return QFontMetricsF(style_.headerFont).height() + 19 + QFontMetricsF(style_.edgeFont).height();
}

QSizeF GraphScene::measureNode(LayerId id) const {
    const NodeTexts& t = nodeTexts_[size_t(id)];
    const QFontMetricsF nameFm(style_.nameFont), detailFm(style_.detailFont);
    const double textWidth =
        std::max({nameFm.horizontalAdvance(t.name), detailFm.horizontalAdvance(t.detail),
                  detailFm.horizontalAdvance(t.shape)});
    const double w =
        std::clamp(std::ceil(textWidth + 2 * kNodePad + 4), kMinNodeWidth, kMaxNodeWidth);
    const double h = std::ceil(2 * kNodePad + nameFm.height() + 2 * detailFm.height() + kBarRoom);
    return {w, h};
}

GraphScene::Update GraphScene::setState(const StudioState& state) {
    Update u;
    const void* key = state.network.empty() ? nullptr : &state.network.layers();
    u.networkChanged = key != networkKey_;
    state_ = state;
    networkKey_ = key;
    if (u.networkChanged) rebuildItems();
    if (tooLarge_) return u;
    if (u.networkChanged || sizesDirty_ || clustersChanged()) {
        LayoutRequest req = buildRequest();
        if (async_) {
            const uint64_t ticket = async_->request(req);
            inFlight_[ticket] = {networkKey_, std::move(req)};
            u.layoutPending = true;
        } else {
            LayoutResult res = layouter_->layout(req);
            u.layoutMs = res.milliseconds;
            if (res.ok)
                applyLayout(std::move(req), std::move(res));
            else
                u.error = QString::fromStdString(res.error);
            u.relaidOut = u.error.isEmpty();
        }
    }
    applyLooks();
    return u;
}

void GraphScene::onLayoutDone(uint64_t ticket, LayoutResult result) {
    const auto it = inFlight_.find(ticket);
    if (it == inFlight_.end()) return; // made for items that are gone
    InFlight done = std::move(it->second);
    inFlight_.erase(inFlight_.begin(), std::next(it)); // older ones can only be staler
    if (done.networkKey != networkKey_) return;
    Update u;
    u.networkChanged = firstLayoutOfNetwork_;
    u.layoutMs = result.milliseconds;
    if (!result.ok) {
        u.error = QString::fromStdString(result.error);
    } else {
        emit layoutAboutToBeApplied();
        applyLayout(std::move(done.request), std::move(result));
        labelsLater_ = edges_.size() > labelsInNextTurnAbove_;
        applyLooks(); // the new group items
        if (labelsLater_) {
            labelsLater_ = false;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    if (!edges_.empty() && !layout_.edges.empty()) labelEdges();
                },
                Qt::QueuedConnection);
        }
        u.relaidOut = true;
    }
    // Items of a new network wait hidden for their first layout (or its failure).
    if (firstLayoutOfNetwork_) {
        for (NodeItem* n : nodes_)
            n->setVisible(true);
        for (EdgeItem* e : edges_)
            e->setVisible(true);
    }
    firstLayoutOfNetwork_ = false;
    emit layoutApplied(u);
}

void GraphScene::rebuildItems() {
    syncing_ = true;
    nodes_.clear();
    clear(); // deletes every item
    syncing_ = false;
    edges_.clear();
    groups_.clear();
    clusterMembers_.clear();
    layout_ = {};
    request_ = {};
    graphRect_ = {};
    const Network& net = state_.network;
    tooLarge_ = net.size() > kMaxDrawnLayers;
    if (tooLarge_) return;
    nodes_.assign(size_t(net.size()), nullptr);
    nodeTexts_.resize(size_t(net.size()));
    for (LayerId id = 0; id < net.size(); ++id)
        nodeTexts_[size_t(id)] = {QString::fromStdString(net.layer(id).name),
                                  layerDetailText(net, id), shapeText(net.layer(id).out)};
    labelsDirty_ = true;
    inFlight_.clear();
    firstLayoutOfNetwork_ = true;
    for (LayerId id = 0; id < net.size(); ++id) {
        auto* n = new NodeItem(id, &style_);
        n->setVisible(!async_);
        addItem(n);
        nodes_[size_t(id)] = n;
    }
    for (LayerId id = 0; id < net.size(); ++id)
        for (LayerId p : net.layer(id).inputs) {
            auto* e = new EdgeItem(p, id, &style_);
            e->setVisible(!async_);
            addItem(e);
            edges_.push_back(e);
        }
    sizesDirty_ = true;
}

bool GraphScene::clustersChanged() const {
    std::vector<std::vector<LayerId>> now;
    for (const FusionGroup& g : state_.schedule.groups)
        if (g.layers.size() > 1) now.push_back(g.layers);
    return now != clusterMembers_;
}

LayoutRequest GraphScene::buildRequest() {
    const Network& net = state_.network;
    if (sizesDirty_ || nodeSizes_.size() != size_t(net.size())) {
        // Text measuring is the costly part of a request: only fonts or the network change it.
        nodeSizes_.resize(size_t(net.size()));
        for (LayerId id = 0; id < net.size(); ++id)
            nodeSizes_[size_t(id)] = measureNode(id);
        sizesDirty_ = false;
    }
    LayoutRequest req;
    req.nodes.reserve(size_t(net.size()));
    for (LayerId id = 0; id < net.size(); ++id)
        req.nodes.push_back({id, nodeSizes_[size_t(id)].width(), nodeSizes_[size_t(id)].height()});
    for (const EdgeItem* e : edges_)
        req.edges.push_back({e->tail(), e->head()});
    clusterMembers_.clear();
    const double header = headerHeight();
    for (const FusionGroup& g : state_.schedule.groups) {
        if (g.layers.size() < 2) continue;
        clusterMembers_.push_back(g.layers);
        req.clusters.push_back(
            {g.layers.front(), std::vector<int>(g.layers.begin(), g.layers.end()), header});
    }
    req.polyline_edges = req.nodes.size() > kPolylineAbove;
    return req;
}

void GraphScene::applyLayout(LayoutRequest req, LayoutResult res) {
    const double header =
        req.clusters.empty() ? headerHeight() : req.clusters.front().header_height;
    for (size_t k = 0; k < req.nodes.size(); ++k) {
        NodeItem* n = nodes_[size_t(req.nodes[k].id)];
        const LayoutRect& r = res.nodes[k];
        n->setSize({r.width, r.height});
        n->setPos(r.x, r.y);
    }
    for (size_t k = 0; k < edges_.size(); ++k) {
        const auto& route = res.edges[k];
        std::optional<QPointF> tip;
        if (route.arrow_tip) tip = QPointF(route.arrow_tip->x, route.arrow_tip->y);
        edges_[k]->setRoute(toPath(route.path), tip);
    }
    std::map<int, GroupItem*> keep;
    for (size_t k = 0; k < req.clusters.size(); ++k) {
        const int key = req.clusters[k].id;
        GroupItem* item = nullptr;
        if (auto it = groups_.find(key); it != groups_.end()) {
            item = it->second;
            groups_.erase(it);
        } else {
            item = new GroupItem(key, &style_);
            addItem(item);
        }
        const LayoutRect& r = res.clusters[k];
        item->setRect(QRectF(r.x, r.y, r.width, r.height), header);
        keep[key] = item;
    }
    for (auto& [key, item] : groups_)
        delete item;
    groups_ = std::move(keep);
    graphRect_ = QRectF(0, 0, res.width, res.height);
    labelsDirty_ = true;
    request_ = std::move(req);
    layout_ = std::move(res);
}

void GraphScene::setColorBy(ColorBy mode) {
    if (mode == colorBy_) return;
    colorBy_ = mode;
    applyLooks();
}

void GraphScene::applyLooks() {
    if (nodes_.empty()) return;
    const Network& net = state_.network;
    const Schedule& sched = state_.schedule;
    const Metrics* m = state_.metrics.get();
    heat_ = heatValues(state_, colorBy_);
    const bool heatMode = colorBy_ != ColorBy::group;

    struct GroupInfo {
        bool invalid = false;
        const GroupMetrics* gm = nullptr;
        QColor color;
    };
    std::vector<GroupInfo> info(sched.groups.size());
    for (size_t gi = 0; gi < sched.groups.size(); ++gi) {
        const FusionGroup& g = sched.groups[gi];
        info[gi].invalid = !checkGroup(net, state_.hardware, g).empty() ||
                           (m && gi < m->groups.size() && !m->groups[gi].warnings.empty());
        if (m && gi < m->groups.size()) info[gi].gm = &m->groups[gi];
        if (g.layers.size() > 1) info[gi].color = groupColor(g.layers.front(), theme_.dark);
    }
    std::vector<int> groupOf(size_t(net.size()), -1);
    for (size_t gi = 0; gi < sched.groups.size(); ++gi)
        for (LayerId id : sched.groups[gi].layers)
            if (id >= 0 && id < net.size()) groupOf[size_t(id)] = int(gi);

    for (LayerId id = 0; id < net.size(); ++id) {
        NodeItem* n = nodes_[size_t(id)];
        const Layer& l = net.layer(id);
        const NodeTexts& texts = nodeTexts_[size_t(id)];
        NodeItem::Look look;
        look.name = texts.name;
        look.detail = texts.detail;
        look.shape = texts.shape;
        look.fill = theme_.nodeFill;
        look.border = theme_.nodeBorder;
        const int gi = groupOf[size_t(id)];
        const bool fused = gi >= 0 && sched.groups[size_t(gi)].layers.size() > 1;
        if (!heatMode && fused)
            look.fill = theme_.dark ? info[size_t(gi)].color.lighter(135)
                                    : info[size_t(gi)].color.lighter(106);
        if (heatMode && size_t(id) < heat_.value.size() && heat_.value[size_t(id)])
            look.fill = heatColor(heat_.normalized(*heat_.value[size_t(id)]));
        if (!isCompute(l.type)) look.fill = theme_.background;
        look.text = textOn(look.fill);
        if (gi >= 0 && !fused) {
            const GroupInfo& gin = info[size_t(gi)];
            look.invalid = gin.invalid;
            if (gin.gm) {
                const BufferUse use = groupBufferUse(*m, gi);
                look.overCapacity = !use.fits;
                look.fill_ratio = use.fraction();
            }
        }
        look.dropTarget = dropTarget_ >= 0 && gi == dropTarget_ && !fused;
        look.highlighted =
            gi >= 0 && !fused &&
            std::find(highlighted_.begin(), highlighted_.end(), gi) != highlighted_.end();
        n->setLook(look);
    }
    for (size_t gi = 0; gi < sched.groups.size(); ++gi) {
        const FusionGroup& g = sched.groups[gi];
        if (g.layers.size() < 2) continue;
        auto it = groups_.find(g.layers.front());
        if (it == groups_.end()) continue;
        GroupItem::Look look;
        look.name = QString::fromStdString(g.name);
        look.group_index = int(gi);
        look.fill = heatMode ? theme_.barTrack : info[gi].color;
        look.border = theme_.clusterBorder;
        look.invalid = info[gi].invalid;
        if (const GroupMetrics* gm = info[gi].gm) {
            look.known = true;
            (void)gm;
            const BufferUse use = groupBufferUse(*m, int(gi));
            look.overCapacity = !use.fits;
            look.fill_ratio = use.fraction();
        }
        look.selected = selectedGroup_ == int(gi);
        look.dropTarget = dropTarget_ == int(gi);
        look.highlighted =
            std::find(highlighted_.begin(), highlighted_.end(), int(gi)) != highlighted_.end();
        it->second->setLook(look);
    }
    if (!edges_.empty() && !layout_.edges.empty() && !labelsLater_) labelEdges();
}

void GraphScene::labelEdges() {
    // Called from applyLooks(), which follows every layout: labels depend on the routes (and
    // the group frames, both made by a layout), the network and the hardware's word size.
    // One label per tensor: a producer's out-edges all carry the same tensor, and their
    // labels would overlap just below it. The leftmost edge there carries it.
    const int actBits = state_.hardware.precision.act_bits;
    if (!labelsDirty_ && actBits == labelledActBits_) return;
    labelsDirty_ = false;
    labelledActBits_ = actBits;
    const Network& net = state_.network;
    std::vector<EdgeItem*> labelled(size_t(net.size()), nullptr);
    std::vector<int> outEdges(size_t(net.size()), 0);
    for (const EdgeItem* e : edges_)
        ++outEdges[size_t(e->tail())];
    for (EdgeItem* e : edges_) {
        EdgeItem*& best = labelled[size_t(e->tail())];
        // Anchors cost path lengths: only producers with several out-edges need them.
        if (!best ||
            (outEdges[size_t(e->tail())] > 1 && e->labelAnchor().x() < best->labelAnchor().x()))
            best = e;
    }
    std::vector<QRectF> frames, captions;
    for (const GroupItem* g : groupItems()) {
        frames.push_back(g->mapRectToScene(g->rect()));
        captions.push_back(g->mapRectToScene(g->captionRect()));
    }
    for (EdgeItem* e : edges_)
        e->setLabel(labelled[size_t(e->tail())] == e
                        ? tensorBytesText(net, state_.hardware, e->tail())
                        : QString(),
                    frames, captions);
}

void GraphScene::setHighlightedGroups(const std::vector<int>& groups) {
    if (groups == highlighted_) return;
    highlighted_ = groups;
    applyLooks();
}

void GraphScene::setDropTarget(int groupIndex) {
    if (groupIndex == dropTarget_) return;
    dropTarget_ = groupIndex;
    applyLooks();
}

NodeItem* GraphScene::node(LayerId id) const {
    return id >= 0 && size_t(id) < nodes_.size() ? nodes_[size_t(id)] : nullptr;
}

std::vector<GroupItem*> GraphScene::groupItems() const {
    std::vector<GroupItem*> out;
    for (const auto& [key, item] : groups_)
        out.push_back(item);
    return out;
}

int GraphScene::groupIndexAt(const QPointF& scenePos, LayerId dragged) const {
    const int own = state_.schedule.groupOf(dragged);
    for (QGraphicsItem* item : items(scenePos)) {
        int gi = -1;
        if (auto* n = qgraphicsitem_cast<NodeItem*>(item)) {
            if (n->layerId() == dragged) continue;
            gi = state_.schedule.groupOf(n->layerId());
        } else if (auto* g = qgraphicsitem_cast<GroupItem*>(item)) {
            gi = g->look().group_index;
        } else {
            continue;
        }
        return gi == own ? -1 : gi;
    }
    return -1;
}

LayerId GraphScene::findLayer(const QString& name) const {
    const Network& net = state_.network;
    const QString needle = name.trimmed();
    if (needle.isEmpty()) return kNoLayer;
    LayerId prefix = kNoLayer, contains = kNoLayer;
    for (LayerId id = 0; id < net.size(); ++id) {
        const QString n = QString::fromStdString(net.layer(id).name);
        if (n.compare(needle, Qt::CaseInsensitive) == 0) return id;
        if (prefix == kNoLayer && n.startsWith(needle, Qt::CaseInsensitive)) prefix = id;
        if (contains == kNoLayer && n.contains(needle, Qt::CaseInsensitive)) contains = id;
    }
    return prefix != kNoLayer ? prefix : contains;
}

void GraphScene::setSelection(const StudioSelection& sel) {
    syncing_ = true;
    for (NodeItem* n : nodes_)
        if (n)
            n->setSelected(std::binary_search(sel.layers.begin(), sel.layers.end(), n->layerId()));
    syncing_ = false;
    if (selectedGroup_ != sel.group) {
        selectedGroup_ = sel.group;
        applyLooks();
    }
}

StudioSelection GraphScene::selection() const {
    StudioSelection sel;
    for (const NodeItem* n : nodes_)
        if (n && n->isSelected()) sel.layers.push_back(n->layerId());
    const auto& groups = state_.schedule.groups;
    if (selectedGroup_ >= 0 && size_t(selectedGroup_) < groups.size() &&
        groups[size_t(selectedGroup_)].layers == sel.layers)
        sel.group = selectedGroup_;
    return sel;
}

void GraphScene::onSceneSelectionChanged() {
    if (syncing_) return;
    const StudioSelection sel = selection();
    if (sel.group != selectedGroup_) {
        selectedGroup_ = sel.group;
        applyLooks();
    }
    emit selectionIntent(sel);
}

void GraphScene::mousePressEvent(QGraphicsSceneMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QGraphicsScene::mousePressEvent(event);
        return;
    }
    const bool extend = event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier);
    QGraphicsItem* top = nullptr;
    for (QGraphicsItem* item : items(event->scenePos()))
        if (item->type() == NodeItem::Type || item->type() == GroupItem::Type) {
            top = item;
            break;
        }
    if (auto* n = qgraphicsitem_cast<NodeItem*>(top); n && extend) {
        // Shift- and Ctrl-click toggle one layer in the selection.
        n->setSelected(!n->isSelected());
        event->accept();
        return;
    }
    if (auto* g = qgraphicsitem_cast<GroupItem*>(top); g && g->inHeader(event->scenePos())) {
        // A click on a cluster's caption selects the whole group.
        const int gi = g->look().group_index;
        if (gi >= 0 && size_t(gi) < state_.schedule.groups.size()) {
            syncing_ = true;
            if (!extend) clearSelection();
            for (LayerId id : state_.schedule.groups[size_t(gi)].layers)
                if (NodeItem* n = node(id)) n->setSelected(true);
            syncing_ = false;
            selectedGroup_ = extend ? -1 : gi;
            applyLooks();
            emit selectionIntent(selection());
            event->accept();
            return;
        }
    }
    QGraphicsScene::mousePressEvent(event);
}

void GraphScene::helpEvent(QGraphicsSceneHelpEvent* event) {
    QString text;
    const auto* view =
        event->widget() ? qobject_cast<QGraphicsView*>(event->widget()->parentWidget()) : nullptr;
    const QTransform t = view ? view->transform() : QTransform();
    for (QGraphicsItem* item :
         items(event->scenePos(), Qt::IntersectsItemShape, Qt::DescendingOrder, t)) {
        if (auto* n = qgraphicsitem_cast<NodeItem*>(item))
            text = layerToolTip(state_, n->layerId());
        else if (auto* g = qgraphicsitem_cast<GroupItem*>(item))
            text = groupToolTip(state_, g->look().group_index);
        else if (auto* e = qgraphicsitem_cast<EdgeItem*>(item))
            text = edgeToolTip(state_, e->tail(), e->head());
        if (!text.isEmpty()) break;
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->screenPos(), text, event->widget());
    event->setAccepted(!text.isEmpty());
}

} // namespace lf::graph
