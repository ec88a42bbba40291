#include "inspectors/group_inspector.h"
#include "inspectors/unchanged_note.h"

#include "edit_merge_ids.h"
#include "metrics/metric_grid.h"
#include "metrics/metric_sections.h"
#include "metrics/metrics_panel.h"
#include "qt_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lf {

namespace {
constexpr int kLayerRole = Qt::UserRole + 1;
} // namespace

GroupInspector::GroupInspector(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    pages_ = new QStackedWidget(this);
    outer->addWidget(pages_);
    placeholder_ =
        new QLabel(tr("Select a fusion group (or one of its layers) to inspect it."), pages_);
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

QWidget* GroupInspector::buildEditor() {
    auto* body = new QWidget;
    auto* v = new QVBoxLayout(body);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    name_ = new QLineEdit(body);
    name_->setObjectName(QStringLiteral("groupName"));
    connect(name_, &QLineEdit::editingFinished, this, [this] { onNameEdited(); });
    form->addRow(tr("Name"), name_);
    nameError_ = new QLabel(body);
    nameError_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    nameError_->hide();
    form->addRow(QString(), nameError_);

    layers_ = new QListWidget(body);
    layers_->setObjectName(QStringLiteral("groupLayers"));
    layers_->setMaximumHeight(120);
    layers_->setToolTip(tr("Click a layer to select it"));
    connect(layers_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const LayerId id = item->data(kLayerRole).toInt();
        emit selectionRequested(StudioSelection{{id}, group_});
    });
    form->addRow(tr("Layers"), layers_);

    strategy_ = new QComboBox(body);
    strategy_->setObjectName(QStringLiteral("strategy"));
    strategy_->addItem(tr("recompute"), int(Strategy::recompute));
    strategy_->setItemData(
        0, tr("Producers recompute the overlap of consecutive tiles (ConvFusion §IV-E)"),
        Qt::ToolTipRole);
    strategy_->addItem(tr("reuse"), int(Strategy::reuse));
    strategy_->setItemData(1,
                           tr("Reuse buffers keep the overlap on chip, nothing is recomputed "
                              "(HW-Flow-Fusion §3.4)"),
                           Qt::ToolTipRole);
    strategy_->addItem(tr("optimus"), int(Strategy::optimus));
    strategy_->setItemData(2, tr("Optimus Eq. 3/4: the largest output tile height that fits"),
                           Qt::ToolTipRole);
    connect(strategy_, &QComboBox::activated, this, [this](int i) { onStrategyChosen(i); });
    form->addRow(tr("Strategy"), strategy_);

    auto* tileRow = new QWidget(body);
    auto* th = new QHBoxLayout(tileRow);
    th->setContentsMargins(0, 0, 0, 0);
    autoTile_ = new QCheckBox(tr("auto"), tileRow);
    autoTile_->setObjectName(QStringLiteral("autoTile"));
    autoTile_->setToolTip(
        tr("reuse: the last layer's Ty × Tx; optimus: the Eq. 4 scheduler's tile"));
    tileH_ = new QSpinBox(tileRow);
    tileH_->setObjectName(QStringLiteral("tileH"));
    tileW_ = new QSpinBox(tileRow);
    tileW_->setObjectName(QStringLiteral("tileW"));
    for (QSpinBox* sb : {tileH_, tileW_}) {
        sb->setKeyboardTracking(false);
        sb->setMinimum(1);
        connect(sb, &QSpinBox::valueChanged, this, [this] { onTileEdited(); });
    }
    connect(autoTile_, &QCheckBox::toggled, this, [this] { onTileEdited(); });
    th->addWidget(autoTile_);
    th->addWidget(tileH_);
    th->addWidget(new QLabel(QStringLiteral("×"), tileRow));
    th->addWidget(tileW_);
    th->addStretch(1);
    form->addRow(tr("Output tile (h × w)"), tileRow);
    tileHint_ = new QLabel(body);
    tileHint_->setWordWrap(true);
    tileHint_->setEnabled(false);
    form->addRow(QString(), tileHint_);
    fitRow_ = new QWidget(body);
    auto* fh = new QHBoxLayout(fitRow_);
    fh->setContentsMargins(0, 0, 0, 0);
    fitHint_ = new QLabel(fitRow_);
    fitHint_->setObjectName(QStringLiteral("fitHint"));
    fitHint_->setWordWrap(true);
    fitApply_ = new QPushButton(tr("Use it"), fitRow_);
    fitApply_->setObjectName(QStringLiteral("applyFittingTile"));
    fitApply_->setToolTip(tr("Set the nearest output tile that fits the buffer (undoable)"));
    connect(fitApply_, &QPushButton::clicked, this, [this] { applyFit(); });
    fh->addWidget(fitHint_, 1);
    fh->addWidget(fitApply_);
    form->addRow(QString(), fitRow_);
    fitRow_->setVisible(false);
    unchanged_ = new UnchangedNote(body);
    form->addRow(QString(), unchanged_);

    resident_ = new QCheckBox(tr("all weights stay on chip"), body);
    resident_->setObjectName(QStringLiteral("weightsResident"));
    connect(resident_, &QCheckBox::toggled, this, [this](bool on) { onResidentToggled(on); });
    form->addRow(tr("Weights"), resident_);

    partition_ = new QComboBox(body);
    partition_->setObjectName(QStringLiteral("partitionKind"));
    partition_->addItem(tr("temporal"), int(PartitionKind::temporal));
    partition_->setItemData(
        0, tr("Every layer uses the whole PE array and a share of each PE's register file"),
        Qt::ToolTipRole);
    partition_->addItem(tr("spatial"), int(PartitionKind::spatial));
    partition_->setItemData(1, tr("Every layer gets its own rectangle of the PE array"),
                            Qt::ToolTipRole);
    connect(partition_, &QComboBox::activated, this, [this](int i) { onPartitionChosen(i); });
    form->addRow(tr("Partition"), partition_);
    v->addLayout(form);

    problems_ = new QLabel(body);
    problems_->setObjectName(QStringLiteral("groupProblems"));
    problems_->setWordWrap(true);
    problems_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    v->addWidget(problems_);

    auto* metricsBox = new QGroupBox(tr("Metrics"), body);
    auto* mv = new QVBoxLayout(metricsBox);
    metricsStatus_ = new QLabel(metricsBox);
    mv->addWidget(metricsStatus_);
    metrics_ = new MetricGrid(metricsBox);
    addGroupRows(*metrics_, QStringLiteral("group."));
    mv->addWidget(metrics_);
    v->addWidget(metricsBox);
    v->addStretch(1);
    return body;
}

void GroupInspector::setState(const StudioState& state) {
    state_ = state;
    refresh();
    unchanged_->update(state_, [this](const Schedule& before, const Schedule& after) {
        return group_ >= 0 && size_t(group_) < before.groups.size() &&
               size_t(group_) < after.groups.size() &&
               !(before.groups[size_t(group_)] == after.groups[size_t(group_)]);
    });
}

QLabel* GroupInspector::unchangedNote() const {
    return unchanged_;
}

void GroupInspector::refreshFit() {
    const FittingTile* fit = fittingTileOf(state_, group_);
    const Metrics* m = state_.metrics.get();
    const bool over =
        m && group_ >= 0 && size_t(group_) < m->groups.size() && !m->groups[size_t(group_)].fits;
    fitRow_->setVisible(over);
    if (!over) return;
    fitApply_->setVisible(fit != nullptr);
    fitHint_->setText(
        fit ? tr("Over capacity: the nearest tile that fits is the %1.").arg(qs(fit->text()))
        : state_.fitting_tiles ? tr("Over capacity, and no smaller output tile fits: the "
                                    "weights or the channels alone exceed the buffer.")
                               : tr("Over capacity: looking for the nearest tile that fits…"));
}

void GroupInspector::applyFit() {
    const FittingTile* fit = fittingTileOf(state_, group_);
    const FusionGroup* cur = current();
    if (!fit || !cur) return;
    if (fit->sets_group_tile) {
        propose(fit->group_value,
                tr("Set output tile of %1 to %2 × %3 (fits the buffer)")
                    .arg(qs(cur->name))
                    .arg(fit->h)
                    .arg(fit->w),
                0);
        return;
    }
    emit layerScheduleEdited(fit->layer, fit->layer_schedule,
                             tr("Set the tile of %1 to %2 × %3 (fits the buffer)")
                                 .arg(qs(state_.network.layer(fit->layer).name))
                                 .arg(fit->h)
                                 .arg(fit->w),
                             0);
}

void GroupInspector::setSelection(const StudioSelection& selection) {
    selection_ = selection;
    refresh();
}

const FusionGroup* GroupInspector::current() const {
    if (group_ < 0 || size_t(group_) >= state_.schedule.groups.size()) return nullptr;
    return &state_.schedule.groups[size_t(group_)];
}

void GroupInspector::refresh() {
    group_ = selectedGroupIndex(state_, selection_);
    const FusionGroup* g = current();
    if (!g || g->layers.empty()) {
        group_ = -1;
        pages_->setCurrentIndex(0);
        return;
    }
    pages_->setCurrentIndex(1);
    updating_ = true;
    const Network& net = state_.network;
    if (!name_->hasFocus()) {
        name_->setText(qs(g->name));
        nameError_->hide();
    }

    // Layers: rebuild only when the membership changed (keeps the list's scroll position).
    bool same = layers_->count() == int(g->layers.size());
    for (int i = 0; same && i < layers_->count(); ++i)
        same = layers_->item(i)->data(kLayerRole).toInt() == g->layers[size_t(i)];
    if (!same) {
        const QSignalBlocker b(layers_);
        layers_->clear();
        for (LayerId id : g->layers) {
            const Layer& l = net.layer(id);
            auto* item = new QListWidgetItem(
                QStringLiteral("%1  (%2)")
                    .arg(qs(l.name), QString::fromUtf8(toString(l.type).data(),
                                                       qsizetype(toString(l.type).size()))),
                layers_);
            item->setData(kLayerRole, id);
        }
    }
    for (int i = 0; i < layers_->count(); ++i) {
        QListWidgetItem* item = layers_->item(i);
        const bool sel = std::binary_search(selection_.layers.begin(), selection_.layers.end(),
                                            LayerId(item->data(kLayerRole).toInt()));
        QFont f = item->font();
        f.setBold(sel);
        item->setFont(f);
    }

    {
        const QSignalBlocker b(strategy_);
        strategy_->setCurrentIndex(strategy_->findData(int(g->strategy)));
    }
    const Layer& last = net.layer(g->layers.back());
    {
        const QSignalBlocker b1(autoTile_), b2(tileH_), b3(tileW_);
        autoTile_->setChecked(!g->out_tile);
        tileH_->setMaximum(int(std::max<int64_t>(1, last.out.h)));
        tileW_->setMaximum(int(std::max<int64_t>(1, last.out.w)));
        const Metrics* m = state_.metrics.get();
        int64_t h = last.out.h, w = last.out.w;
        if (g->out_tile) {
            h = g->out_tile->h;
            w = g->out_tile->w;
        } else if (m && size_t(group_) < m->groups.size() &&
                   m->groups[size_t(group_)].out_tile_h > 0) {
            h = m->groups[size_t(group_)].out_tile_h;
            w = m->groups[size_t(group_)].out_tile_w;
        }
        if (tileH_->value() != int(h)) tileH_->setValue(int(h));
        if (tileW_->value() != int(w)) tileW_->setValue(int(w));
        const bool applies = g->strategy != Strategy::recompute;
        autoTile_->setEnabled(applies);
        tileH_->setEnabled(applies && g->out_tile.has_value());
        tileW_->setEnabled(applies && g->out_tile.has_value());
        tileHint_->setText(applies ? tr("of the %1 × %2 output of %3")
                                         .arg(last.out.h)
                                         .arg(last.out.w)
                                         .arg(qs(last.name))
                                   : tr("recompute uses each layer's own tiles"));
    }
    {
        const QSignalBlocker b(resident_);
        resident_->setChecked(g->weights_resident);
    }
    {
        const QSignalBlocker b(partition_);
        partition_->setCurrentIndex(partition_->findData(int(g->partition.kind)));
    }

    QStringList problems;
    for (const Violation& vi : checkGroup(net, state_.hardware, *g))
        problems << QStringLiteral("⛔ ") + qs(vi.message);
    if (const Metrics* m = state_.metrics.get(); m && size_t(group_) < m->groups.size())
        for (const std::string& w : m->groups[size_t(group_)].warnings)
            if (!problems.contains(QStringLiteral("⛔ ") + qs(w)))
                problems << QStringLiteral("⚠ ") + qs(w);
    problems_->setText(problems.join(QLatin1Char('\n')));
    problems_->setVisible(!problems.isEmpty());
    refreshMetrics();
    refreshFit();
    updating_ = false;
}

void GroupInspector::refreshMetrics() {
    const Metrics* m = state_.metrics.get();
    const GroupMetrics* gm =
        m && size_t(group_) < m->groups.size() ? &m->groups[size_t(group_)] : nullptr;
    metrics_->setEnabled(gm != nullptr);
    metricsStatus_->setVisible(!m);
    metricsStatus_->setText(tr("Evaluating…"));
    if (!m) return;
    if (!gm) {
        metrics_->clearValues();
        return;
    }
    showGroup(*metrics_, QStringLiteral("group."), *gm,
              findGroupMetrics(state_.previous.get(), gm->name), m->totals.buffer_capacity_bytes,
              state_.hardware);
}

void GroupInspector::propose(const FusionGroup& g, const QString& text, int mergeId) {
    const FusionGroup* cur = current();
    if (!cur || *cur == g) return;
    state_.schedule.groups[size_t(group_)] = g; // later edits build on this one
    const int index = group_;
    emit groupEdited(index, g, text, mergeId);
    if (!updating_) refresh(); // show what the edit enables (e.g. the output tile for reuse)
}

void GroupInspector::onNameEdited() {
    const FusionGroup* cur = current();
    if (updating_ || !cur) return;
    const QString text = name_->text().trimmed();
    QString error;
    if (text.isEmpty()) error = tr("A group needs a name.");
    for (size_t i = 0; error.isEmpty() && i < state_.schedule.groups.size(); ++i)
        if (int(i) != group_ && qs(state_.schedule.groups[i].name) == text)
            error = tr("Another group is already named %1.").arg(text);
    if (!error.isEmpty()) {
        nameError_->setText(error);
        nameError_->show();
        return;
    }
    nameError_->hide();
    FusionGroup g = *cur;
    g.name = text.toStdString();
    propose(g, tr("Rename group %1 to %2").arg(qs(cur->name), text), 0);
}

void GroupInspector::onStrategyChosen(int index) {
    const FusionGroup* cur = current();
    if (updating_ || !cur || index < 0) return;
    FusionGroup g = *cur;
    g.strategy = Strategy(strategy_->itemData(index).toInt());
    propose(g, tr("Set strategy of %1 to %2").arg(qs(g.name), QLatin1String(toString(g.strategy))),
            0);
}

void GroupInspector::onTileEdited() {
    const FusionGroup* cur = current();
    if (updating_ || !cur) return;
    FusionGroup g = *cur;
    if (autoTile_->isChecked())
        g.out_tile.reset();
    else
        g.out_tile = OutputTile{tileH_->value(), tileW_->value()};
    tileH_->setEnabled(!autoTile_->isChecked());
    tileW_->setEnabled(!autoTile_->isChecked());
    propose(g,
            g.out_tile ? tr("Set output tile of %1 to %2 × %3")
                             .arg(qs(g.name))
                             .arg(g.out_tile->h)
                             .arg(g.out_tile->w)
                       : tr("Derive the output tile of %1").arg(qs(g.name)),
            merge::stableId(merge::Field::outputTile, group_));
}

void GroupInspector::onResidentToggled(bool on) {
    const FusionGroup* cur = current();
    if (updating_ || !cur) return;
    FusionGroup g = *cur;
    g.weights_resident = on;
    propose(g,
            on ? tr("Keep the weights of %1 on chip").arg(qs(g.name))
               : tr("Stream the weights of %1").arg(qs(g.name)),
            0);
}

void GroupInspector::onPartitionChosen(int index) {
    const FusionGroup* cur = current();
    if (updating_ || !cur || index < 0) return;
    FusionGroup g = *cur;
    g.partition.kind = PartitionKind(partition_->itemData(index).toInt());
    propose(g,
            g.partition.kind == PartitionKind::spatial
                ? tr("Split the PE array between the layers of %1").arg(qs(g.name))
                : tr("Share the register files between the layers of %1").arg(qs(g.name)),
            0);
}

} // namespace lf
