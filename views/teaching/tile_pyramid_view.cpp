#include "teaching/tile_pyramid_view.h"

#include "metrics/buffer_use.h"
#include "qt_text.h"
#include "teaching/teaching_style.h"
#include "teaching/teaching_subject.h"
#include "teaching/tile_pyramid_scene.h"

#include <QEvent>
#include <QGraphicsRectItem>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QProgressBar>
#include <QSlider>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace lf {

namespace {

enum Column { cMap, cRegion, cLoaded, cComputed, cRecomputed, cReused, cEvicted, cColumns };

QString regionText(const Rect& r) {
    if (r.empty()) return QStringLiteral("—");
    return QStringLiteral("%1×%2 at (%3, %4)").arg(r.w).arg(r.h).arg(r.x).arg(r.y);
}

QString swatch(const QColor& c, const QString& text) {
    return QStringLiteral("<span style='color:%1'>■</span> %2").arg(c.name(), text);
}

} // namespace

TilePyramidView::TilePyramidView(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    QFont tf = title_->font();
    tf.setBold(true);
    title_->setFont(tf);
    v->addWidget(title_);
    legend_ = new QLabel(this);
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true);
    v->addWidget(legend_);

    scene_ = new TilePyramidScene(this);
    view_ = new QGraphicsView(scene_, this);
    view_->setObjectName(QStringLiteral("tilePyramidCanvas"));
    view_->setRenderHint(QPainter::Antialiasing, false);
    view_->setDragMode(QGraphicsView::ScrollHandDrag);
    view_->setToolTip(tr("Double-click a map to select its layer"));
    view_->viewport()->installEventFilter(this);
    table_ = new QTableWidget(0, cColumns, this);
    table_->setObjectName(QStringLiteral("tilePyramidSteps"));
    table_->setHorizontalHeaderLabels({tr("Map"), tr("Region this step"), tr("Loaded"),
                                       tr("Computed"), tr("Recomputed"), tr("Kept (reuse)"),
                                       tr("Evicted")});
    table_->horizontalHeaderItem(cLoaded)->setToolTip(
        tr("Elements read from DRAM this step (all channels)"));
    table_->horizontalHeaderItem(cRecomputed)
        ->setToolTip(tr("Of the computed elements, those an earlier tile computed already"));
    table_->horizontalHeaderItem(cReused)->setToolTip(
        tr("Elements read from reuse buffers instead of being computed again"));
    table_->horizontalHeaderItem(cEvicted)->setToolTip(
        tr("Elements of the previous step's region no longer needed"));
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    // The figures whole; the map and its region (the longest texts) share the rest, elided
    // in the middle with their tooltips, so that a narrow dock cuts no column.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(cMap, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(cRegion, QHeaderView::Stretch);
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->setMinimumHeight(90);
    v->addWidget(view_, 3);
    v->addWidget(table_, 1);

    auto* controls = new QHBoxLayout;
    play_ = new QToolButton(this);
    play_->setCheckable(true);
    play_->setToolTip(tr("Play / pause the walk over the output tiles"));
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    controls->addWidget(play_);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("tilePyramidStep"));
    slider_->setRange(0, 0);
    slider_->setPageStep(1);
    controls->addWidget(slider_, 1);
    stepLabel_ = new QLabel(this);
    controls->addWidget(stepLabel_);
    v->addLayout(controls);

    gauge_ = new QProgressBar(this);
    gauge_->setObjectName(QStringLiteral("bufferOccupancy"));
    gauge_->setRange(0, 1000);
    gauge_->setTextVisible(true);
    v->addWidget(gauge_);

    timer_ = new QTimer(this);
    timer_->setInterval(600);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (stepCount() <= 0) return setPlaying(false);
        setStep((step() + 1) % stepCount());
    });
    connect(play_, &QToolButton::toggled, this, &TilePyramidView::setPlaying);
    connect(slider_, &QSlider::valueChanged, this, &TilePyramidView::setStep);
    refresh();
}

void TilePyramidView::setState(const StudioState& state) {
    state_ = state;
    refresh();
    updateGauge(); // the metrics may arrive after the pyramid was built
}

void TilePyramidView::setSelection(const StudioSelection& selection) {
    if (selection == selection_) return;
    selection_ = selection;
    refresh();
}

bool TilePyramidView::isPlaying() const {
    return timer_->isActive();
}

void TilePyramidView::setPlaying(bool playing) {
    playing = playing && stepCount() > 1;
    if (playing)
        timer_->start();
    else
        timer_->stop();
    const QSignalBlocker block(play_);
    play_->setChecked(playing);
    play_->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void TilePyramidView::setInterval(int milliseconds) {
    timer_->setInterval(std::max(16, milliseconds));
}

void TilePyramidView::refresh() {
    // A pyramid walks every output tile: build it only when it can be seen (a hidden dock
    // catches up when shown).
    if (window()->isVisible() && !isVisible()) {
        dirty_ = true;
        setPlaying(false);
        return;
    }
    dirty_ = false;
    const int group = teaching::selectedGroup(state_, selection_);
    const bool valid = group >= 0 && state_.network.size() > 0;
    const FusionGroup* g = valid ? &state_.schedule.groups[size_t(group)] : nullptr;
    // Everything the pyramid depends on; other edits leave it as it is.
    Inputs inputs;
    if (valid) {
        inputs.group = group;
        inputs.group_value = *g;
        for (LayerId id : g->layers)
            inputs.layers.push_back(state_.schedule.layers[size_t(id)]);
        inputs.hardware = state_.hardware;
        inputs.network = state_.network.canonicalHash();
        if (group == group_ && inputs == shown_) return;
    }
    // The same group (its layers unchanged): keep the step, so an edit does not restart
    // the walk over the tiles.
    const bool same = valid && group == group_ && g->layers == shown_.group_value.layers;
    shown_ = inputs;
    if (!valid) {
        group_ = -1;
        pyramid_ = {};
        current_ = {};
        previous_.reset();
        setPlaying(false);
        title_->setText(
            tr("Select a fusion group (or one of its layers) to see its tile pyramid."));
        scene_->clearPyramid({});
        table_->setRowCount(0);
        slider_->setRange(0, 0);
        stepLabel_->clear();
        gauge_->setValue(0);
        gauge_->setFormat(tr("no group"));
        return;
    }
    const int keepStep = same ? step() : 0;
    group_ = group;
    // The pyramid keeps a pointer to its network: give it a copy that lives as long as it.
    pyramidNetwork_ = state_.network;
    pyramid_ = tilePyramid(pyramidNetwork_, state_.hardware, state_.schedule, group);
    // h × w, as the group inspector and the metrics give the output tile (the maps below are
    // drawn and labelled width × height).
    title_->setText(tr("Group %1 (%2) — %3 output tiles of %4 × %5 (h × w), %6 maps")
                        .arg(qs(g->name), QString::fromLatin1(toString(g->strategy)))
                        .arg(pyramid_.steps())
                        .arg(pyramid_.tile_h)
                        .arg(pyramid_.tile_w)
                        .arg(pyramid_.levels.size()));
    rebuildScene();
    {
        const QSignalBlocker block(slider_);
        slider_->setRange(0, std::max(0, pyramid_.steps() - 1));
    }
    current_ = {};
    current_.index = -1;
    setStep(std::clamp(keepStep, 0, std::max(0, pyramid_.steps() - 1)));
    if (!same) fitScene();
}

void TilePyramidView::rebuildScene() {
    const teaching::PyramidColors c = teaching::pyramidColors(teaching::isDark(this));
    legend_->setText(swatch(c.loaded, tr("loaded")) + QStringLiteral(" &nbsp; ") +
                     swatch(c.computed, tr("computed")) + QStringLiteral(" &nbsp; ") +
                     swatch(c.recomputed, tr("recomputed overlap")) + QStringLiteral(" &nbsp; ") +
                     swatch(c.reused, tr("kept in reuse buffers")) + QStringLiteral(" &nbsp; ") +
                     swatch(c.evicted, tr("previous step (evicted where not shared)")) +
                     QStringLiteral(" &nbsp; ") + swatch(c.highlight, tr("hovered loop")));
    if (group_ < 0) return;
    scene_->setPyramid(pyramid_, c, preferredOrientation());
    table_->setRowCount(int(pyramid_.levels.size()));
    for (int q = 0; q < int(pyramid_.levels.size()); ++q) {
        auto* item = new QTableWidgetItem(
            pyramidLevelLabel(pyramid_, q).replace(QLatin1Char('\n'), QStringLiteral(" — ")));
        item->setToolTip(item->text());
        table_->setItem(q, cMap, item);
        for (int col = cRegion; col < cColumns; ++col) {
            auto* cell = new QTableWidgetItem;
            if (col != cRegion) cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(q, col, cell);
        }
    }
}

void TilePyramidView::setStep(int k) {
    if (group_ < 0) return;
    k = std::clamp(k, 0, std::max(0, pyramid_.steps() - 1));
    if (k == current_.index) return;
    current_ = pyramid_.step(k);
    if (k > 0)
        previous_ = pyramid_.step(k - 1);
    else
        previous_.reset();
    {
        const QSignalBlocker block(slider_);
        slider_->setValue(k);
    }
    showCurrentStep();
}

QString TilePyramidView::stepText() const {
    return stepLabel_->text();
}

void TilePyramidView::showCurrentStep() {
    scene_->showStep(current_, previous_ ? &*previous_ : nullptr);
    stepLabel_->setText(tr("step %1 / %2 · tile (%3, %4)")
                            .arg(current_.index + 1)
                            .arg(pyramid_.steps())
                            .arg(current_.tx)
                            .arg(current_.ty));
    updateTable();
    updateGauge();
    updateHighlight();
}

void TilePyramidView::updateTable() {
    for (int q = 0; q < table_->rowCount() && size_t(q) < current_.levels.size(); ++q) {
        const LevelStep& s = current_.levels[size_t(q)];
        table_->item(q, cRegion)->setText(regionText(s.region));
        table_->item(q, cRegion)->setToolTip(regionText(s.region));
        table_->item(q, cLoaded)->setText(teaching::exactCount(s.loaded));
        table_->item(q, cComputed)->setText(teaching::exactCount(s.computed));
        table_->item(q, cRecomputed)->setText(teaching::exactCount(s.recomputed));
        table_->item(q, cReused)->setText(teaching::exactCount(s.reused));
        table_->item(q, cEvicted)->setText(teaching::exactCount(s.evicted));
    }
}

void TilePyramidView::updateGauge() {
    // The group's footprint as its model counts it, read from the metrics like every other
    // view (core/metrics/buffer_use.h): the regions drawn hold every channel of every map,
    // which is not what the buffer keeps (e.g. only T_c channels of an ISOA operator).
    const Metrics* m = state_.metrics.get();
    const bool known = m && group_ >= 0 && size_t(group_) < m->groups.size() &&
                       size_t(group_) < state_.schedule.groups.size();
    if (!known) {
        gauge_->setValue(0);
        gauge_->setFormat(group_ >= 0 ? tr("buffer: evaluating…") : tr("no group"));
        gauge_->setToolTip({});
        gauge_->setPalette(palette());
        return;
    }
    const BufferUse use = groupBufferUse(*m, group_);
    gauge_->setValue(int(std::clamp(use.fraction(), 0.0, 1.0) * 1000));
    gauge_->setFormat(tr("buffer %1").arg(qs(use.text())));
    gauge_->setToolTip(
        tr("The group's on-chip footprint, the figure the metrics and the group inspector "
           "show. %1.")
            .arg(qs(bufferFootprintSource(state_.schedule.groups[size_t(group_)].strategy))));
    QPalette p = palette();
    if (!use.fits) p.setColor(QPalette::Highlight, QColor(0xd0, 0x45, 0x3a));
    gauge_->setPalette(p);
}

void TilePyramidView::highlightLoop(LayerId layer, int dim) {
    hoverLayer_ = layer;
    hoverDim_ = dim;
    updateHighlight();
}

void TilePyramidView::updateHighlight() {
    std::vector<std::pair<int, Rect>> regions;
    QString caption;
    int out = -1;
    for (int q = 0; q < int(pyramid_.levels.size()); ++q)
        if (pyramid_.levels[size_t(q)].id == hoverLayer_ && !pyramid_.levels[size_t(q)].group_input)
            out = q;
    if (group_ < 0 || out < 0 || hoverDim_ < 0 || size_t(out) >= current_.levels.size()) {
        scene_->setHighlight({}, {});
        return;
    }
    const Layer& layer = pyramidNetwork_.layer(hoverLayer_);
    // The layer's schedule as the pyramid was built (out >= 0: it is a member).
    const auto& members = shown_.group_value.layers;
    const auto member = std::find(members.begin(), members.end(), hoverLayer_) - members.begin();
    const LayerSchedule& ls = shown_.layers[size_t(member)];
    const Rect r = current_.levels[size_t(out)].region;
    const PyramidLevel& lv = pyramid_.levels[size_t(out)];
    std::vector<int> inputs; // the maps this layer reads
    for (int q = 0; q < int(pyramid_.consumers.size()); ++q)
        for (int c : pyramid_.consumers[size_t(q)])
            if (c == out) inputs.push_back(q);
    const QString name = qs(layer.name);
    switch (hoverDim_) {
    case int(Dim::z):
        regions.push_back({out, r});
        caption = tr("z loops of %1: its %2 output channels in tiles of T_z = %3, at this region")
                      .arg(name)
                      .arg(lv.channels)
                      .arg(ls.T(Dim::z));
        break;
    case int(Dim::y):
        regions.push_back({out, Rect{0, r.y, lv.width, r.h}});
        for (int q : inputs) {
            const Rect in = current_.levels[size_t(q)].region;
            regions.push_back({q, Rect{0, in.y, pyramid_.levels[size_t(q)].width, in.h}});
        }
        caption = tr("y loops of %1: output rows %2–%3 of this step and the input rows they read")
                      .arg(name)
                      .arg(r.y)
                      .arg(r.y + r.h - 1);
        break;
    case int(Dim::x):
        regions.push_back({out, Rect{r.x, 0, r.w, lv.height}});
        for (int q : inputs) {
            const Rect in = current_.levels[size_t(q)].region;
            regions.push_back({q, Rect{in.x, 0, in.w, pyramid_.levels[size_t(q)].height}});
        }
        caption =
            tr("x loops of %1: output columns %2–%3 of this step and the input columns they read")
                .arg(name)
                .arg(r.x)
                .arg(r.x + r.w - 1);
        break;
    case int(Dim::i):
        for (int q : inputs)
            regions.push_back({q, current_.levels[size_t(q)].region});
        caption = tr("i loops of %1: the input channels of its input region, in tiles of T_i = %2")
                      .arg(name)
                      .arg(ls.T(Dim::i));
        break;
    default: {
        // Kernel loops n (rows) and m (columns): one window of the input.
        const int64_t kh =
            int64_t(std::max(1, layer.kernel_h) - 1) * std::max(1, layer.dilation_h) + 1;
        const int64_t kw =
            int64_t(std::max(1, layer.kernel_w) - 1) * std::max(1, layer.dilation_w) + 1;
        for (int q : inputs) {
            const Rect in = current_.levels[size_t(q)].region;
            regions.push_back({q, Rect{in.x, in.y, std::min(kw, in.w), std::min(kh, in.h)}});
        }
        caption = tr("kernel loops n, m of %1: one %2×%3 window of the input per output element")
                      .arg(name)
                      .arg(kh)
                      .arg(kw);
        break;
    }
    }
    scene_->setHighlight(regions, caption);
}

void TilePyramidView::fitScene() {
    if (group_ < 0) return;
    const QRectF r = scene_->sceneRect();
    if (r.isEmpty()) return;
    // Fit the whole pyramid; tall ones keep a readable scale and scroll.
    const double sx = (view_->viewport()->width() - 4) / r.width();
    const double sy = (view_->viewport()->height() - 4) / r.height();
    const double s = std::clamp(std::max(std::min(sx, sy), std::min(sx, 0.5)), 0.05, 2.5);
    view_->resetTransform();
    view_->scale(s, s);
}

Qt::Orientation TilePyramidView::preferredOrientation() const {
    // Wide docks (under the canvas) show the maps side by side, tall ones stacked.
    const QSize v = view_->viewport()->size();
    return v.width() > 2 * v.height() ? Qt::Horizontal : Qt::Vertical;
}

void TilePyramidView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (group_ >= 0 && preferredOrientation() != scene_->orientation()) {
        rebuildScene();
        scene_->showStep(current_, previous_ ? &*previous_ : nullptr);
        updateHighlight();
    }
    fitScene();
}

LayerId TilePyramidView::layerAt(const QPointF& scenePos) const {
    for (int q = 0; q < scene_->levelCount(); ++q)
        if (scene_->mapItem(q)->rect().contains(scenePos)) return pyramid_.levels[size_t(q)].id;
    return kNoLayer;
}

bool TilePyramidView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->viewport() && event->type() == QEvent::MouseButtonDblClick &&
        group_ >= 0) {
        const auto* me = static_cast<QMouseEvent*>(event);
        const LayerId id = layerAt(view_->mapToScene(me->position().toPoint()));
        if (id != kNoLayer) {
            StudioSelection sel;
            sel.layers = {id};
            emit selectionRequested(sel);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TilePyramidView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (dirty_) refresh();
}

void TilePyramidView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && group_ >= 0) {
        rebuildScene();
        showCurrentStep();
    }
}

} // namespace lf
