#include "graph/graph_canvas.h"

#include "graph/graph_items.h"
#include "graph/graph_overview.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "graph/heat_legend.h"

#include <QAction>
#include <QCompleter>
#include <QEvent>
#include <QHBoxLayout>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>
#include <QStringListModel>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lf::graph {

namespace {
constexpr double kSceneMargin = 400; // room to scroll past the graph (keeps anchoring possible)
constexpr double kReadableZoom = GraphView::kReadableZoom;
} // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QWidget(parent) {
    scene_ = new GraphScene(this);
    view_ = new GraphView(scene_, this);
    scene_->setTheme(CanvasTheme::fromPalette(palette()));
    scene_->setFonts(font());

    findBar_ = new QWidget(this);
    auto* findLayout = new QHBoxLayout(findBar_);
    findLayout->setContentsMargins(8, 4, 8, 4);
    auto* findLabel = new QLabel(tr("Find layer:"), findBar_);
    findEdit_ = new QLineEdit(findBar_);
    findEdit_->setPlaceholderText(tr("name, e.g. conv1"));
    findEdit_->setClearButtonEnabled(true);
    auto* close = new QToolButton(findBar_);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Close (Esc)"));
    findLayout->addWidget(findLabel);
    findLayout->addWidget(findEdit_, 1);
    findLayout->addWidget(close);
    findBar_->hide();
    findEdit_->installEventFilter(this);
    connect(close, &QToolButton::clicked, findBar_, &QWidget::hide);
    connect(findEdit_, &QLineEdit::returnPressed, this, [this] {
        if (!findLayer(findEdit_->text()))
            emit statusMessage(tr("No layer named “%1”").arg(findEdit_->text()));
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(findBar_);
    layout->addWidget(view_, 1);

    legend_ = new HeatLegend(view_);
    overview_ = new GraphOverview(view_, scene_, view_);
    notice_ = new QLabel(view_);
    notice_->setWordWrap(true);
    notice_->setAlignment(Qt::AlignCenter);
    notice_->setMargin(16);
    notice_->hide();

    connect(scene_, &GraphScene::selectionIntent, this, &GraphCanvas::selectionRequested);
    connect(scene_, &GraphScene::layoutAboutToBeApplied, this, &GraphCanvas::captureAnchor);
    connect(scene_, &GraphScene::layoutApplied, this, &GraphCanvas::afterLayout);
    connect(view_, &GraphView::layerDropped, this, &GraphCanvas::layerMoveRequested);
    connect(view_, &GraphView::zoomChanged, this, &GraphCanvas::zoomChanged);
    connect(view_, &GraphView::firstPaint, this, &GraphCanvas::firstPaint);
    connect(view_, &GraphView::contextMenuAt, this, [this](const QPoint& global, LayerId layer) {
        if (layer != kNoLayer) {
            // A right-click on a layer outside the selection selects that layer first.
            const StudioSelection sel = scene_->selection();
            if (!std::binary_search(sel.layers.begin(), sel.layers.end(), layer)) {
                StudioSelection one;
                one.layers = {layer};
                scene_->setSelection(one);
                emit selectionRequested(one);
            }
        }
        if (contextActions_.isEmpty()) return;
        QMenu menu(this);
        for (QAction* a : std::as_const(contextActions_)) {
            if (a)
                menu.addAction(a);
            else
                menu.addSeparator();
        }
        menu.exec(global);
    });
}

GraphCanvas::~GraphCanvas() = default;

void GraphCanvas::captureAnchor() {
    // Anchor: a selected layer in sight, else the layer nearest the centre, stays put on screen
    // when a relayout moves things (only groups changed: the view must not jump).
    anchor_ = kNoLayer;
    if (scene_->nodes().empty() || !scene_->graphRect().isValid()) return;
    const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    const QPointF centre = visible.center();
    double best = 1e300;
    for (NodeItem* n : scene_->nodes()) {
        const QRectF r = n->sceneBoundingRect();
        if (!visible.intersects(r)) continue;
        const QPointF d = r.center() - centre;
        double dist = d.x() * d.x() + d.y() * d.y();
        if (n->isSelected()) dist *= 1e-6;
        if (dist < best) {
            best = dist;
            anchor_ = n->layerId();
        }
    }
    if (anchor_ != kNoLayer)
        anchorViewport_ = view_->mapFromScene(scene_->node(anchor_)->sceneBoundingRect().center());
}

void GraphCanvas::setState(const StudioState& state) {
    const bool sameNetwork = !scene_->nodes().empty() &&
                             state.network.size() == scene_->state().network.size() &&
                             &state.network.layers() == &scene_->state().network.layers();
    if (sameNetwork && !scene_->asyncLayout())
        captureAnchor();
    else
        anchor_ = kNoLayer;
    const GraphScene::Update u = scene_->setState(state);
    if (u.networkChanged) {
        notice_->setVisible(scene_->tooLargeToDraw());
        if (scene_->tooLargeToDraw()) {
            notice_->setText(
                tr("%1 has %L2 layers: the canvas draws networks of up to %L3 layers.\n"
                   "Select layers in the Layers dock or with Find (Ctrl+F); fusing, the "
                   "inspectors, metrics and charts work as usual.")
                    .arg(QString::fromStdString(state.network.name()))
                    .arg(state.network.size())
                    .arg(GraphScene::kMaxDrawnLayers));
            updateSceneRect();
            updateCompleter();
        }
    }
    if (!u.layoutPending) afterLayout(u);
    legend_->setValues(scene_->colorBy(), scene_->heat());
    placeOverlays();
}

void GraphCanvas::afterLayout(const GraphScene::Update& u) {
    if (!u.error.isEmpty()) emit statusMessage(tr("Layout failed: %1").arg(u.error));
    if (!u.relaidOut) return;
    lastLayoutMs_ = u.layoutMs;
    updateSceneRect();
    if (u.networkChanged) {
        updateCompleter();
        if (pendingCenter_) {
            view_->centerOn(*pendingCenter_); // a project's saved view, given before its layout
            pendingCenter_.reset();
        } else {
            initialView();
        }
    } else if (anchor_ != kNoLayer) {
        const QPointF now =
            view_->mapFromScene(scene_->node(anchor_)->sceneBoundingRect().center());
        const QPointF d = now - anchorViewport_;
        const int dx = int(std::lround(d.x())), dy = int(std::lround(d.y()));
        view_->horizontalScrollBar()->setValue(view_->horizontalScrollBar()->value() + dx);
        view_->verticalScrollBar()->setValue(view_->verticalScrollBar()->value() + dy);
        // Moving items and scrolling in the same frame: the scroll blits the old pixels,
        // which can leave stale fragments of moved items; repaint the whole viewport then.
        if (dx != 0 || dy != 0) view_->viewport()->update();
    }
    if (scene_->asyncLayout()) emit layoutApplied();
}

void GraphCanvas::setHighlightedGroups(const QList<int>& groups) {
    scene_->setHighlightedGroups(std::vector<int>(groups.begin(), groups.end()));
}

void GraphCanvas::setSelection(const StudioSelection& selection) {
    // A selection made elsewhere (the Layers dock, Find, a chart) brings its layers into
    // sight; one made on the canvas is in sight already, so nothing moves.
    const bool changed = !(selection == scene_->selection());
    scene_->setSelection(selection);
    if (changed) revealSelection();
}

void GraphCanvas::revealSelection() {
    const StudioSelection sel = scene_->selection();
    std::vector<LayerId> layers = sel.layers;
    const Schedule& schedule = scene_->state().schedule;
    if (layers.empty() && sel.group >= 0 && size_t(sel.group) < schedule.groups.size())
        layers = schedule.groups[size_t(sel.group)].layers;
    QRectF target;
    for (LayerId id : layers)
        if (NodeItem* n = scene_->node(id)) target |= n->sceneBoundingRect();
    if (target.isEmpty()) return;
    const QRectF seen = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    if (seen.contains(target)) return;
    if (view_->zoom() < kReadableZoom) view_->setZoom(kReadableZoom);
    const QRectF now = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    if (target.width() <= now.width() - 80 && target.height() <= now.height() - 80)
        view_->ensureVisible(target, 40, 40);
    else // larger than the view: its first layer in the middle
        view_->centerOn(scene_->node(layers.front())->sceneBoundingRect().center());
    overview_->refresh();
}

void GraphCanvas::setColorBy(ColorBy mode) {
    scene_->setColorBy(mode);
    legend_->setValues(mode, scene_->heat());
    placeOverlays();
}

ColorBy GraphCanvas::colorBy() const {
    return scene_->colorBy();
}

double GraphCanvas::zoom() const {
    return view_->zoom();
}
void GraphCanvas::setZoom(double z) {
    view_->setZoom(z);
}
void GraphCanvas::zoomIn() {
    view_->zoomBy(1.25);
}
void GraphCanvas::zoomOut() {
    view_->zoomBy(1 / 1.25);
}
void GraphCanvas::fitToView() {
    view_->fitToView();
}

QPointF GraphCanvas::viewCenter() const {
    return view_->mapToScene(view_->viewport()->rect().center());
}
void GraphCanvas::setViewCenter(const QPointF& p) {
    if (scene_->layoutPending() && !scene_->graphRect().isValid())
        pendingCenter_ = p; // the first layout of the network is on its way
    else
        view_->centerOn(p);
}

void GraphCanvas::setAsyncLayout(bool on) {
    scene_->setAsyncLayout(on);
}

void GraphCanvas::updateSceneRect() {
    // Nothing drawn (a network too large to draw): nothing to scroll either.
    if (scene_->tooLargeToDraw()) {
        view_->setSceneRect(QRectF(0, 0, 1, 1));
        return;
    }
    view_->setSceneRect(
        scene_->graphRect().adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
}

void GraphCanvas::initialView() {
    // Small graphs fit; tall ones open readable at the top, fitted to the width if possible.
    const QRectF g = scene_->graphRect();
    const QSize vp = view_->viewport()->size();
    if (g.isEmpty() || vp.isEmpty()) return;
    const double fit = std::min(vp.width() / (g.width() + 40), vp.height() / (g.height() + 40));
    if (fit >= kReadableZoom) {
        view_->fitToView();
        return;
    }
    const double z = std::clamp(vp.width() / (g.width() + 40), kReadableZoom, 1.0);
    view_->setTransform(QTransform::fromScale(z, z));
    const double halfW = vp.width() / (2 * z), halfH = vp.height() / (2 * z);
    view_->centerOn(QPointF(g.width() > 2 * halfW ? g.left() + halfW - 20 : g.center().x(),
                            g.top() + halfH - 20));
    emit zoomChanged(view_->zoom());
}

void GraphCanvas::centerOnLayer(LayerId id) {
    if (NodeItem* n = scene_->node(id)) view_->centerOn(n);
}

bool GraphCanvas::findLayer(const QString& name) {
    const LayerId id = scene_->findLayer(name);
    if (id == kNoLayer) return false;
    StudioSelection sel;
    sel.layers = {id};
    scene_->setSelection(sel);
    if (view_->zoom() < kReadableZoom) view_->setZoom(1.0);
    centerOnLayer(id);
    emit selectionRequested(sel);
    return true;
}

void GraphCanvas::showFindBar() {
    findBar_->show();
    findEdit_->setFocus();
    findEdit_->selectAll();
}

void GraphCanvas::updateCompleter() {
    QStringList names;
    const Network& net = scene_->state().network;
    names.reserve(net.size());
    for (const Layer& l : net.layers())
        names << QString::fromStdString(l.name);
    if (!completer_) {
        completer_ = new QCompleter(this);
        completer_->setCaseSensitivity(Qt::CaseInsensitive);
        completer_->setFilterMode(Qt::MatchContains);
        completer_->setModel(new QStringListModel(completer_));
        findEdit_->setCompleter(completer_);
        connect(completer_, qOverload<const QString&>(&QCompleter::activated), this,
                [this](const QString& text) { findLayer(text); });
    }
    static_cast<QStringListModel*>(completer_->model())->setStringList(names);
}

void GraphCanvas::setContextActions(const QList<QAction*>& actions) {
    contextActions_ = actions;
}

QImage GraphCanvas::renderImage(double scale) const {
    if (scene_->tooLargeToDraw()) return {};
    const QRectF src = scene_->graphRect().adjusted(-16, -16, 16, 16);
    // Keep the bitmap within what image viewers open comfortably.
    const double maxSide = 16000;
    scale = std::min(scale, maxSide / std::max(src.width(), src.height()));
    QImage img(QSize(int(std::ceil(src.width() * scale)), int(std::ceil(src.height() * scale))),
               QImage::Format_ARGB32_Premultiplied);
    img.fill(scene_->theme().background);
    QPainter p(&img);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene_->render(&p, QRectF(QPointF(0, 0), img.size()), src);
    return img;
}

bool GraphCanvas::exportPng(const QString& path, QString* error) const {
    if (scene_->tooLargeToDraw()) {
        if (error) *error = tooLargeMessage();
        return false;
    }
    const QImage img = renderImage(2.0);
    if (img.isNull() || !img.save(path, "PNG")) {
        if (error) *error = tr("Cannot write %1").arg(path);
        return false;
    }
    return true;
}

QString GraphCanvas::tooLargeMessage() const {
    return tr("the network has %L1 layers; the canvas draws networks of up to %L2 layers")
        .arg(scene_->state().network.size())
        .arg(GraphScene::kMaxDrawnLayers);
}

bool GraphCanvas::exportSvg(const QString& path, QString* error) const {
    if (scene_->tooLargeToDraw()) {
        if (error) *error = tooLargeMessage();
        return false;
    }
    const QRectF src = scene_->graphRect().adjusted(-16, -16, 16, 16);
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(src.size().toSize());
    gen.setViewBox(QRectF(QPointF(0, 0), src.size()));
    gen.setTitle(QString::fromStdString(scene_->state().network.name()));
    gen.setDescription(tr("Layer-fusion schedule drawn by LayerFuse"));
    QPainter p;
    if (!p.begin(&gen)) {
        if (error) *error = tr("Cannot write %1").arg(path);
        return false;
    }
    p.fillRect(QRectF(QPointF(0, 0), src.size()), scene_->theme().background);
    scene_->render(&p, QRectF(QPointF(0, 0), src.size()), src);
    p.end();
    return true;
}

void GraphCanvas::placeOverlays() {
    notice_->setGeometry(view_->viewport()->rect().adjusted(24, 24, -24, -24));
    legend_->resize(legend_->sizeHint());
    legend_->move(view_->viewport()->width() - legend_->width() - 12, 12);
    legend_->raise();
    overview_->refresh();
}

void GraphCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    placeOverlays();
}

void GraphCanvas::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        scene_->setTheme(CanvasTheme::fromPalette(palette()));
    if (event->type() == QEvent::FontChange) {
        scene_->setFonts(font());
        StudioState s = scene_->state();
        if (!s.network.empty()) setState(s);
    }
    QWidget::changeEvent(event);
}

bool GraphCanvas::eventFilter(QObject* watched, QEvent* event) {
    if (watched == findEdit_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        findBar_->hide();
        view_->setFocus();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace lf::graph
