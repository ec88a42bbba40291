#include "inspectors/layer_inspector.h"

#include "edit_merge_ids.h"
#include "inspectors/divisor_spin_box.h"
#include "inspectors/loop_order_list.h"
#include "inspectors/unchanged_note.h"
#include "metrics/metric_grid.h"
#include "metrics/metric_sections.h"
#include "network/dims.h"
#include "qt_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace lf {

namespace {

// Dims in the order the tile row shows them: Tx, Ty, Tz, Ti.
constexpr std::array<Dim, 4> kTileRow{Dim::x, Dim::y, Dim::z, Dim::i};

const char* const kDataflowPresets[] = {"ox|oc", "ic|oc", "ox|oy", "ky*oy|ic*oc"};

QString arrTitle(Arr a) {
    switch (a) {
    case Arr::X:
        return LayerInspector::tr("X (inputs)");
    case Arr::Y:
        return LayerInspector::tr("Y (outputs)");
    case Arr::W:
        return LayerInspector::tr("W (weights)");
    }
    return {};
}

QString orderText(const std::array<Dim, 4>& o) {
    QString s;
    for (Dim d : o)
        s += QLatin1Char(dimChar(d));
    return s;
}

} // namespace

LayerInspector::LayerInspector(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    pages_ = new QStackedWidget(this);
    outer->addWidget(pages_);

    placeholder_ = new QLabel(tr("Select one layer to inspect it."), pages_);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setEnabled(false);
    pages_->addWidget(placeholder_);

    auto* scroll = new QScrollArea(pages_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildEditor());
    pages_->addWidget(scroll);
    refresh();
}

QWidget* LayerInspector::buildEditor() {
    auto* body = new QWidget;
    auto* v = new QVBoxLayout(body);

    title_ = new QLabel(body);
    QFont tf = title_->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.15);
    title_->setFont(tf);
    title_->setWordWrap(true);
    v->addWidget(title_);
    groupLink_ = new QLabel(body);
    groupLink_->setTextFormat(Qt::RichText);
    connect(groupLink_, &QLabel::linkActivated, this, [this] {
        if (layer_ == kNoLayer) return;
        const int g = state_.schedule.groupOf(layer_);
        emit selectionRequested(StudioSelection{{layer_}, g});
    });
    v->addWidget(groupLink_);

    // Dimensions (ConvFusion notation, docs/models/README.md).
    auto* dimsBox = new QGroupBox(tr("Dimensions"), body);
    auto* dg = new QGridLayout(dimsBox);
    const char* const dimNames[8] = {"Dx", "Dy", "Dz", "Di", "Dm", "Dn", "S", "groups"};
    const char* const dimTips[8] = {"output width",   "output height",     "output channels",
                                    "input channels", "kernel width",      "kernel height",
                                    "stride (x × y)", "convolution groups"};
    for (int k = 0; k < 8; ++k) {
        auto* name = new QLabel(QString::fromLatin1(dimNames[k]), dimsBox);
        name->setToolTip(tr(dimTips[k]));
        dims_[size_t(k)] = new QLabel(dimsBox);
        dims_[size_t(k)]->setObjectName(QStringLiteral("dim:") + QString::fromLatin1(dimNames[k]));
        dims_[size_t(k)]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        dg->addWidget(name, k / 4, (k % 4) * 2);
        dg->addWidget(dims_[size_t(k)], k / 4, (k % 4) * 2 + 1);
    }
    v->addWidget(dimsBox);

    // Tiles.
    auto* tilesBox = new QGroupBox(tr("Tiles"), body);
    auto* tg = new QGridLayout(tilesBox);
    int col = 0;
    for (Dim d : kTileRow) {
        auto* name = new QLabel(QStringLiteral("T") + QLatin1Char(dimChar(d)), tilesBox);
        auto* sb = new DivisorSpinBox(tilesBox);
        sb->setObjectName(QStringLiteral("tile:") + QLatin1Char(dimChar(d)));
        auto* lim = new QLabel(tilesBox);
        name->setBuddy(sb);
        tiles_[size_t(d)] = sb;
        tileLimits_[size_t(d)] = lim;
        tg->addWidget(name, col / 2, (col % 2) * 3);
        tg->addWidget(sb, col / 2, (col % 2) * 3 + 1);
        tg->addWidget(lim, col / 2, (col % 2) * 3 + 2);
        connect(sb, &QSpinBox::valueChanged, this,
                [this, d](int value) { onTileChanged(d, value); });
        ++col;
    }
    snap_ = new QCheckBox(tr("Snap to divisors"), tilesBox);
    snap_->setObjectName(QStringLiteral("snapToDivisors"));
    snap_->setToolTip(tr("Step tile sizes through the divisors of each dimension"));
    connect(snap_, &QCheckBox::toggled, this, [this](bool on) { setSnapToDivisors(on); });
    tg->addWidget(snap_, 2, 0, 1, 6);
    v->addWidget(tilesBox);

    // Loop order.
    auto* orderBox = new QGroupBox(tr("Loop order (outermost first)"), body);
    auto* ol = new QVBoxLayout(orderBox);
    order_ = new LoopOrderList(orderBox);
    ol->addWidget(order_);
    connect(order_, &LoopOrderList::orderEdited, this,
            [this](std::array<Dim, 4> o) { onOrderEdited(o); });
    unchanged_ = new UnchangedNote(orderBox);
    ol->addWidget(unchanged_);
    v->addWidget(orderBox);

    // Store / compute levels.
    auto* levelBox = new QGroupBox(tr("Store and compute levels"), body);
    levelBox->setToolTip(tr("Store level: the loop at which an array's tile is (re)loaded into the "
                            "buffer. Compute level: the loop whose iteration computes with it; "
                            "it lies at or below the store level, and Y is stored at or below "
                            "X and W."));
    auto* lg = new QGridLayout(levelBox);
    lg->addWidget(new QLabel(tr("Store"), levelBox), 0, 1);
    lg->addWidget(new QLabel(tr("Compute"), levelBox), 0, 2);
    for (Arr a : kAllArrs) {
        const int row = int(a) + 1;
        lg->addWidget(new QLabel(arrTitle(a), levelBox), row, 0);
        for (LevelKind k : {LevelKind::store, LevelKind::compute}) {
            auto* cb = new QComboBox(levelBox);
            cb->setObjectName(QStringLiteral("%1:%2").arg(
                k == LevelKind::store ? "store" : "compute", QLatin1String(arrName(a))));
            cb->setSizeAdjustPolicy(QComboBox::AdjustToContents);
            (k == LevelKind::store ? store_ : compute_)[size_t(a)] = cb;
            lg->addWidget(cb, row, k == LevelKind::store ? 1 : 2);
            connect(cb, &QComboBox::activated, this,
                    [this, a, k](int index) { onLevelChosen(a, k, index); });
        }
    }
    v->addWidget(levelBox);

    // Spatial unrolling.
    auto* unrollBox = new QGroupBox(tr("Spatial unrolling"), body);
    auto* uf = new QVBoxLayout(unrollBox);
    unroll_ = new QComboBox(unrollBox);
    unroll_->setObjectName(QStringLiteral("unroll"));
    unroll_->setEditable(true);
    unroll_->setInsertPolicy(QComboBox::NoInsert);
    unroll_->setToolTip(tr("Loop dims mapped onto PE columns | rows, e.g. \"ox|oc\" or "
                           "\"ky*oy|ic*oc\"; dims: ox, oy, oc, ic, kx, ky, b"));
    unroll_->addItem(QString(), QString()); // the hardware's dataflow; text set in refresh
    for (const char* p : kDataflowPresets)
        unroll_->addItem(QString::fromLatin1(p), QString::fromLatin1(p));
    connect(unroll_, &QComboBox::activated, this, [this] { onUnrollEntered(); });
    connect(unroll_->lineEdit(), &QLineEdit::editingFinished, this, [this] { onUnrollEntered(); });
    uf->addWidget(unroll_);
    unrollError_ = new QLabel(unrollBox);
    unrollError_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    unrollError_->setWordWrap(true);
    unrollError_->hide();
    uf->addWidget(unrollError_);
    v->addWidget(unrollBox);

    violations_ = new QLabel(body);
    violations_->setObjectName(QStringLiteral("violations"));
    violations_->setWordWrap(true);
    violations_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    v->addWidget(violations_);

    auto* metricsBox = new QGroupBox(tr("Metrics"), body);
    auto* mv = new QVBoxLayout(metricsBox);
    metricsStatus_ = new QLabel(metricsBox);
    mv->addWidget(metricsStatus_);
    metrics_ = new MetricGrid(metricsBox);
    addLayerRows(*metrics_, QStringLiteral("layer."));
    mv->addWidget(metrics_);
    v->addWidget(metricsBox);
    v->addStretch(1);
    return body;
}

void LayerInspector::setState(const StudioState& state) {
    state_ = state;
    refresh();
    unchanged_->update(state_, [this](const Schedule& before, const Schedule& after) {
        return layer_ != kNoLayer && size_t(layer_) < before.layers.size() &&
               size_t(layer_) < after.layers.size() &&
               !(before.layers[size_t(layer_)] == after.layers[size_t(layer_)]);
    });
}

QLabel* LayerInspector::unchangedNote() const {
    return unchanged_;
}

void LayerInspector::setSelection(const StudioSelection& selection) {
    selection_ = selection;
    refresh();
}

void LayerInspector::setSnapToDivisors(bool snap) {
    {
        const QSignalBlocker b(snap_);
        snap_->setChecked(snap);
    }
    for (DivisorSpinBox* sb : tiles_)
        sb->setSnapToDivisors(snap);
}

bool LayerInspector::snapsToDivisors() const {
    return snap_->isChecked();
}

const LayerSchedule* LayerInspector::current() const {
    if (layer_ == kNoLayer || size_t(layer_) >= state_.schedule.layers.size()) return nullptr;
    return &state_.schedule.layers[size_t(layer_)];
}

void LayerInspector::refresh() {
    const Network& net = state_.network;
    layer_ = kNoLayer;
    if (selection_.layers.size() == 1) {
        const LayerId id = selection_.layers.front();
        if (id >= 0 && id < net.size() && isCompute(net.layer(id).type) &&
            size_t(id) < state_.schedule.layers.size())
            layer_ = id;
        else if (id >= 0 && id < net.size())
            placeholder_->setText(
                tr("%1 is a %2 layer: it has no schedule.")
                    .arg(qs(net.layer(id).name), qs(toString(net.layer(id).type))));
    } else if (selection_.layers.size() > 1) {
        placeholder_->setText(tr("%n layers selected. Select one layer to inspect it.", nullptr,
                                 int(selection_.layers.size())));
    } else {
        placeholder_->setText(tr("Select one layer to inspect it."));
    }
    if (layer_ == kNoLayer) {
        pages_->setCurrentIndex(0);
        return;
    }
    pages_->setCurrentIndex(1);
    updating_ = true;
    const Layer& l = net.layer(layer_);
    const LayerDims d = layerDims(net, layer_);
    const LayerSchedule& s = *current();
    title_->setText(tr("%1 — %2, output %3 × %4 × %5")
                        .arg(qs(l.name), qs(toString(l.type)))
                        .arg(l.out.c)
                        .arg(l.out.h)
                        .arg(l.out.w));
    const int g = state_.schedule.groupOf(layer_);
    groupLink_->setText(g >= 0
                            ? tr("in group <a href=\"#group\">%1</a>")
                                  .arg(qs(state_.schedule.groups[size_t(g)].name).toHtmlEscaped())
                            : QString());

    const std::array<QString, 8> dimText{
        QString::number(d.Dx),
        QString::number(d.Dy),
        QString::number(d.Dz),
        QString::number(d.Di),
        QString::number(d.Dm),
        QString::number(d.Dn),
        d.Sx == d.Sy ? QString::number(d.Sx) : QStringLiteral("%1 × %2").arg(d.Sx).arg(d.Sy),
        QString::number(d.G)};
    for (size_t k = 0; k < 8; ++k)
        dims_[k]->setText(dimText[k]);

    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    for (Dim dim : kAllDims) {
        DivisorSpinBox* sb = tiles_[size_t(dim)];
        const QSignalBlocker b(sb);
        const int lim = int(std::min<int64_t>(D[size_t(dim)], std::numeric_limits<int>::max()));
        if (sb->maximum() != lim) sb->setLimit(lim);
        const int t = int(std::clamp<int64_t>(s.T(dim), 1, lim));
        // Only touch the value when it differs, so text being typed is not overwritten.
        if (sb->value() != t) sb->setValue(t);
        sb->setSnapToDivisors(snap_->isChecked());
        const bool perGroup = d.G > 1 && (dim == Dim::z || dim == Dim::i);
        tileLimits_[size_t(dim)]->setText(perGroup ? tr("/ %1 per group").arg(lim)
                                                   : tr("/ %1").arg(lim));
    }
    order_->setOrder(s.order);
    refreshLevels(s);
    refreshUnroll(s);

    QStringList problems;
    for (const Violation& v : checkLayer(net, layer_, s))
        problems << QStringLiteral("⚠ ") + qs(v.message);
    violations_->setText(problems.join(QLatin1Char('\n')));
    violations_->setVisible(!problems.isEmpty());
    refreshMetrics();
    updating_ = false;
}

void LayerInspector::refreshLevels(const LayerSchedule& s) {
    for (Arr a : kAllArrs)
        for (LevelKind k : {LevelKind::store, LevelKind::compute}) {
            QComboBox* cb = levelComboBox(a, k);
            const QSignalBlocker b(cb);
            const std::vector<Level> legal = legalLevels(state_.network, layer_, s, a, k);
            // Rebuild only when the offered set or its names changed (keeps an open popup).
            bool same = cb->count() == int(legal.size());
            for (int i = 0; same && i < cb->count(); ++i)
                same = cb->itemData(i).toInt() == int(legal[size_t(i)]) &&
                       cb->itemText(i) == qs(levelLabel(legal[size_t(i)], s.order));
            if (!same) {
                cb->clear();
                for (Level l : legal)
                    cb->addItem(qs(levelLabel(l, s.order)), int(l));
            }
            const Level cur = k == LevelKind::store ? s.SL(a) : s.CL(a);
            cb->setCurrentIndex(cb->findData(int(cur)));
        }
}

void LayerInspector::refreshUnroll(const LayerSchedule& s) {
    const QSignalBlocker b(unroll_);
    unroll_->setItemText(0,
                         tr("hardware: %1").arg(qs(toString(state_.hardware.pe_array.dataflow))));
    if (!unroll_->lineEdit()->hasFocus()) {
        if (!s.unroll) {
            unroll_->setCurrentIndex(0);
        } else {
            const QString text = qs(toString(*s.unroll));
            const int idx = unroll_->findData(text);
            if (idx > 0)
                unroll_->setCurrentIndex(idx);
            else
                unroll_->setEditText(text);
        }
        unrollError_->hide();
    }
}

void LayerInspector::refreshMetrics() {
    const Metrics* m = state_.metrics.get();
    const LayerMetrics* lm = m ? m->layer(layer_) : nullptr;
    metrics_->setEnabled(lm != nullptr);
    if (!m) {
        metricsStatus_->setText(tr("Evaluating…"));
        metricsStatus_->show();
        return;
    }
    metricsStatus_->hide();
    if (!lm) {
        metrics_->clearValues();
        return;
    }
    showLayer(*metrics_, QStringLiteral("layer."), *lm,
              findLayerMetrics(state_.previous.get(), lm->id, lm->name), state_.hardware);
}

void LayerInspector::propose(const LayerSchedule& s, const QString& text, int mergeId) {
    const LayerSchedule* cur = current();
    if (!cur || *cur == s) return;
    // Keep the proposal as the shown schedule so that a second edit made before the new
    // state arrives builds on this one instead of undoing it.
    state_.schedule.layers[size_t(layer_)] = s;
    const LayerId id = layer_;
    emit layerScheduleEdited(id, s, text, mergeId);
    if (!updating_) refresh(); // level choices and warnings follow the new schedule
}

void LayerInspector::onTileChanged(Dim d, int value) {
    const LayerSchedule* cur = current();
    if (updating_ || !cur) return;
    LayerSchedule s = *cur;
    s.tile[size_t(d)] = value;
    const QString name = qs(state_.network.layer(layer_).name);
    propose(s, tr("Set T%1 of %2 to %3").arg(QLatin1Char(dimChar(d))).arg(name).arg(value),
            merge::stableId(merge::Field::tile, layer_ * 4 + int(d)));
}

void LayerInspector::onOrderEdited(const std::array<Dim, 4>& order) {
    const LayerSchedule* cur = current();
    if (updating_ || !cur) return;
    LayerSchedule s = *cur;
    s.order = order;
    propose(s,
            tr("Set loop order of %1 to %2")
                .arg(qs(state_.network.layer(layer_).name), orderText(order)),
            0);
}

void LayerInspector::onLevelChosen(Arr a, LevelKind k, int index) {
    const LayerSchedule* cur = current();
    if (updating_ || !cur || index < 0) return;
    const Level l = Level(levelComboBox(a, k)->itemData(index).toInt());
    const LayerSchedule s = withLevel(*cur, a, k, l);
    const QString what = k == LevelKind::store ? tr("store level") : tr("compute level");
    propose(s,
            tr("Set %1 of %2 in %3 to %4")
                .arg(what, QLatin1String(arrName(a)), qs(state_.network.layer(layer_).name),
                     qs(levelName(l, s.order))),
            0);
}

void LayerInspector::onUnrollEntered() {
    const LayerSchedule* cur = current();
    if (updating_ || !cur) return;
    LayerSchedule s = *cur;
    const QString text = unroll_->currentText().trimmed();
    const QString name = qs(state_.network.layer(layer_).name);
    if (text == unroll_->itemText(0) || text.isEmpty()) {
        s.unroll.reset();
    } else {
        auto df = parseDataflow(text.toStdString());
        if (!df) {
            unrollError_->setText(tr("\"%1\" is not COLS|ROWS with dims ox, oy, oc, ic, kx, ky, b "
                                     "(e.g. ox|oc or ky*oy|ic*oc)")
                                      .arg(text));
            unrollError_->show();
            return;
        }
        s.unroll = *df;
    }
    unrollError_->hide();
    propose(s,
            s.unroll ? tr("Unroll %1 as %2").arg(name, qs(toString(*s.unroll)))
                     : tr("Unroll %1 as the hardware dataflow").arg(name),
            0);
}

} // namespace lf
