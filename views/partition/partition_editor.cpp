#include "partition/partition_editor.h"

#include "metrics/metric_format.h"
#include "metrics/metric_sections.h"
#include "metrics/metrics_panel.h"
#include "partition/rf_share_editor.h"
#include "partition/subarray_canvas.h"
#include "qt_text.h"
#include "text_fit/column_fit.h"

#include <QButtonGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lf {

namespace {
enum Column { kLayer, kResource, kPes, kCycles, kUtilization, kColumns };
} // namespace

PartitionEditor::PartitionEditor(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    pages_ = new QStackedWidget(this);
    outer->addWidget(pages_);
    placeholder_ = new QLabel(
        tr("Select a fusion group to partition the hardware between its layers."), pages_);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setEnabled(false);
    pages_->addWidget(placeholder_);

    auto* body = new QWidget(pages_);
    auto* v = new QVBoxLayout(body);
    title_ = new QLabel(body);
    QFont tf = title_->font();
    tf.setBold(true);
    title_->setFont(tf);
    title_->setWordWrap(true);
    v->addWidget(title_);

    auto* kindRow = new QHBoxLayout;
    temporal_ = new QRadioButton(tr("Temporal — share register files"), body);
    temporal_->setObjectName(QStringLiteral("temporal"));
    temporal_->setToolTip(
        tr("Every layer uses the whole PE array and a share of each PE's register file"));
    spatial_ = new QRadioButton(tr("Spatial — split the PE array"), body);
    spatial_->setObjectName(QStringLiteral("spatial"));
    spatial_->setToolTip(
        tr("Every layer gets its own rectangle of PEs and the whole register file"));
    auto* kinds = new QButtonGroup(this);
    kinds->addButton(temporal_);
    kinds->addButton(spatial_);
    connect(spatial_, &QRadioButton::toggled, this, [this](bool on) { onKindChosen(on); });
    // The two kinds one above the other: side by side they made the dock 510 px wide.
    auto* kindColumn = new QVBoxLayout;
    kindColumn->addWidget(temporal_);
    kindColumn->addWidget(spatial_);
    kindRow->addLayout(kindColumn);
    kindRow->addStretch(1);
    reset_ = new QPushButton(tr("Equal split"), body);
    reset_->setObjectName(QStringLiteral("equalSplit"));
    reset_->setToolTip(
        tr("Back to the default partition: equal column strips or 1/N of each section"));
    connect(reset_, &QPushButton::clicked, this, [this] { onResetClicked(); });
    kindRow->addWidget(reset_);
    v->addLayout(kindRow);

    hint_ = new QLabel(body);
    hint_->setWordWrap(true);
    hint_->setEnabled(false);
    v->addWidget(hint_);
    // Why the last drag changed nothing (until the next edit).
    snapNote_ = new QLabel(body);
    snapNote_->setObjectName(QStringLiteral("partitionSnapNote"));
    snapNote_->setWordWrap(true);
    v->addWidget(snapNote_);

    auto* split = new QSplitter(Qt::Vertical, body);
    kindPages_ = new QStackedWidget(split);
    auto* rfScroll = new QScrollArea(kindPages_);
    rfScroll->setWidgetResizable(true);
    rfScroll->setFrameShape(QFrame::NoFrame);
    rf_ = new RfShareEditor;
    rfScroll->setWidget(rf_);
    kindPages_->addWidget(rfScroll);
    canvas_ = new SubArrayCanvas(kindPages_);
    kindPages_->addWidget(canvas_);
    connect(canvas_, &SubArrayCanvas::subArrayEdited, this,
            [this](LayerId id, SubArray r, bool resized, int mergeId) {
                onSubArrayEdited(id, r, resized, mergeId);
            });
    connect(canvas_, &SubArrayCanvas::dragSnappedBack, this,
            [this](LayerId, const QString& why) { snapNote_->setText(why); });
    connect(canvas_, &SubArrayCanvas::layerClicked, this, [this](LayerId id) {
        emit selectionRequested(StudioSelection{{id}, group_});
    });
    connect(
        rf_, &RfShareEditor::sharesEdited, this,
        [this](RfSection s, std::vector<double> f, int mergeId) { onSharesEdited(s, f, mergeId); });

    table_ = new QTableWidget(0, kColumns, split);
    table_->setObjectName(QStringLiteral("partitionResults"));
    table_->setHorizontalHeaderLabels(
        {tr("Layer"), tr("Share"), tr("PEs"), tr("Compute"), tr("Utilization")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    // The figures whole; the shares (the longest text) take what is left, elided in the
    // middle on one line, but never less than their header (fitColumns).
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->setWordWrap(false);
    table_->viewport()->installEventFilter(this);
    connect(table_->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] { fitColumns(); });
    // Three rows in sight at least: the PE array above gives up the room first.
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                             3 * table_->verticalHeader()->defaultSectionSize() +
                             table_->horizontalScrollBar()->sizeHint().height() +
                             2 * table_->frameWidth());
    split->addWidget(kindPages_);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    v->addWidget(split, 1);

    problems_ = new QLabel(body);
    problems_->setObjectName(QStringLiteral("partitionProblems"));
    problems_->setWordWrap(true);
    problems_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    v->addWidget(problems_);
    pages_->addWidget(body);
    refresh();
}

void PartitionEditor::setState(const StudioState& state) {
    state_ = state;
    snapNote_->clear();
    refresh();
}

void PartitionEditor::setSelection(const StudioSelection& selection) {
    selection_ = selection;
    refresh();
}

const FusionGroup* PartitionEditor::current() const {
    if (group_ < 0 || size_t(group_) >= state_.schedule.groups.size()) return nullptr;
    return &state_.schedule.groups[size_t(group_)];
}

void PartitionEditor::refresh() {
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
    const Hardware& hw = state_.hardware;
    const bool spatial = g->partition.kind == PartitionKind::spatial;
    const QString layers =
        g->layers.size() == 1 ? tr("1 layer") : tr("%1 layers").arg(g->layers.size());
    title_->setText(tr("Group %1 — %2 on a %3 × %4 PE array")
                        .arg(qs(g->name), layers)
                        .arg(hw.pe_array.cols)
                        .arg(hw.pe_array.rows));
    {
        const QSignalBlocker b1(temporal_), b2(spatial_);
        (spatial ? spatial_ : temporal_)->setChecked(true);
    }
    kindPages_->setCurrentIndex(spatial ? 1 : 0);
    QString hint;
    if (g->layers.size() == 1)
        hint = tr("A partition divides the hardware between the layers of a fused group; this "
                  "group has one layer.");
    else if (spatial)
        hint = tr("Drag a rectangle to move it, an edge to resize it (sizes snap to divisors of %1 "
                  "× %2). "
                  "Arrow keys move, Shift+arrows resize.")
                   .arg(hw.pe_array.cols)
                   .arg(hw.pe_array.rows);
    else if (hw.register_file.bytes_per_pe == 0)
        hint =
            tr("This hardware has no register file: every layer uses the whole array and buffer.");
    else
        hint = tr("Each section's shares sum to 100 %; moving one slider rebalances the others.");
    hint_->setText(hint);

    const auto subs = effectiveSubarrays(*g, hw);
    std::vector<SubArrayCanvas::Entry> rects;
    std::vector<RfShareEditor::Entry> shares;
    for (size_t i = 0; i < g->layers.size(); ++i) {
        const LayerId id = g->layers[i];
        const QString name = qs(net.layer(id).name);
        const QColor color = partitionColor(int(i));
        auto it = subs.find(id);
        rects.push_back({id, name, color, it != subs.end() ? it->second : SubArray{}});
        shares.push_back({id, name, color, rfShareOf(*g, id)});
    }
    canvas_->setArray(hw.pe_array.cols, hw.pe_array.rows, rects);
    canvas_->setCurrentLayer(selection_.layers.size() == 1 ? selection_.layers.front() : kNoLayer);
    rf_->setShares(shares,
                   {hw.register_file.weight, hw.register_file.input, hw.register_file.psum});

    QStringList problems;
    for (const Violation& vi : checkGroup(net, hw, *g))
        if (vi.message.find("sub-array") != std::string::npos ||
            vi.message.find("RF share") != std::string::npos)
            problems << QStringLiteral("⛔ ") + qs(vi.message);
    problems_->setText(problems.join(QLatin1Char('\n')));
    problems_->setVisible(!problems.isEmpty());
    refreshTable();
    updating_ = false;
}

void PartitionEditor::refreshTable() {
    const FusionGroup* g = current();
    const Metrics* m = state_.metrics.get();
    const Metrics* prev = state_.previous.get();
    const Hardware& hw = state_.hardware;
    const auto subs = effectiveSubarrays(*g, hw);
    table_->setRowCount(int(g->layers.size()));
    table_->setEnabled(m != nullptr);
    auto cell = [this](int row, int col, const QString& text, const QColor& color = {}) {
        QTableWidgetItem* item = table_->item(row, col);
        if (!item) {
            item = new QTableWidgetItem;
            table_->setItem(row, col, item);
        }
        item->setText(text);
        item->setToolTip(text); // whole when the column elides it
        item->setForeground(color.isValid() ? QBrush(color) : QBrush());
        if (col != kLayer) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    };
    for (size_t i = 0; i < g->layers.size(); ++i) {
        const LayerId id = g->layers[i];
        const int row = int(i);
        cell(row, kLayer, qs(state_.network.layer(id).name), partitionColor(row).darker(130));
        if (g->partition.kind == PartitionKind::spatial) {
            const SubArray s = subs.count(id) ? subs.at(id) : SubArray{};
            cell(row, kResource,
                 tr("%1 × %2 at (%3, %4)").arg(s.cols).arg(s.rows).arg(s.col).arg(s.row));
        } else {
            const RfShare r = rfShareOf(*g, id);
            cell(row, kResource,
                 tr("W %1 · I %2 · P %3")
                     .arg(formatPercent(r.weight), formatPercent(r.input), formatPercent(r.psum)));
        }
        const LayerMetrics* lm = m ? m->layer(id) : nullptr;
        if (!lm) {
            for (int c : {kPes, kCycles, kUtilization})
                cell(row, c, m ? tr("—") : tr("…"));
            continue;
        }
        const LayerMetrics* lp = findLayerMetrics(prev, id, lm->name);
        cell(row, kPes, QString::number(lm->pes));
        const MetricDelta dc = metricDelta(
            double(lm->compute_cycles),
            lp ? std::optional<double>(double(lp->compute_cycles)) : std::nullopt, Better::lower);
        cell(row, kCycles,
             (formatCycles(double(lm->compute_cycles), hw.frequency_mhz) + QLatin1Char(' ') +
              dc.text)
                 .trimmed(),
             dc.color());
        const MetricDelta du =
            metricDelta(lm->utilization, lp ? std::optional<double>(lp->utilization) : std::nullopt,
                        Better::higher);
        cell(row, kUtilization,
             (formatPercent(lm->utilization) + QLatin1Char(' ') + du.text).trimmed(), du.color());
    }
    fitColumns();
}

void PartitionEditor::fitColumns() {
    // With a group of many layers the figures show their changes and leave the shares little
    // room: the shares keep at least their header's width, the figures after them that do not
    // fit are there to scroll to.
    fitColumnsToView(table_, kResource, table_->horizontalHeader()->sectionSizeHint(kResource));
}

bool PartitionEditor::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, event);
}

void PartitionEditor::propose(const FusionGroup& g, const QString& text, int mergeId) {
    const FusionGroup* cur = current();
    if (!cur || *cur == g) return;
    state_.schedule.groups[size_t(group_)] = g; // later steps of a drag build on this one
    emit groupEdited(group_, g, text, mergeId);
}

void PartitionEditor::onKindChosen(bool spatial) {
    const FusionGroup* cur = current();
    if (updating_ || !cur) return;
    FusionGroup g = *cur;
    g.partition.kind = spatial ? PartitionKind::spatial : PartitionKind::temporal;
    propose(g,
            spatial ? tr("Split the PE array between the layers of %1").arg(qs(g.name))
                    : tr("Share the register files between the layers of %1").arg(qs(g.name)),
            0);
    refresh();
}

void PartitionEditor::onSubArrayEdited(LayerId layer, const SubArray& rect, bool resized,
                                       int mergeId) {
    const FusionGroup* cur = current();
    if (updating_ || !cur) return;
    FusionGroup g = *cur;
    g.partition.kind = PartitionKind::spatial;
    // Every layer's rectangle becomes explicit, so the others stay where they are drawn.
    g.partition.subarrays = effectiveSubarrays(*cur, state_.hardware);
    g.partition.subarrays[layer] = rect;
    const QString name = qs(state_.network.layer(layer).name);
    propose(
        g,
        resized
            ? tr("Resize the sub-array of %1 to %2 × %3").arg(name).arg(rect.cols).arg(rect.rows)
            : tr("Move the sub-array of %1").arg(name),
        mergeId);
    refreshTable();
}

void PartitionEditor::onSharesEdited(RfSection section, const std::vector<double>& fractions,
                                     int mergeId) {
    const FusionGroup* cur = current();
    if (updating_ || !cur || fractions.size() != cur->layers.size()) return;
    FusionGroup g = *cur;
    g.partition.kind = PartitionKind::temporal;
    for (size_t i = 0; i < cur->layers.size(); ++i) {
        const LayerId id = cur->layers[i];
        RfShare r = rfShareOf(*cur, id);
        (section == RfSection::weight  ? r.weight
         : section == RfSection::input ? r.input
                                       : r.psum) = fractions[i];
        g.partition.rf_share[id] = r;
    }
    propose(
        g, tr("Change the %1 RF shares of %2").arg(QLatin1String(sectionName(section)), qs(g.name)),
        mergeId);
    refreshTable();
}

void PartitionEditor::onResetClicked() {
    const FusionGroup* cur = current();
    if (!cur) return;
    FusionGroup g = *cur;
    if (g.partition.kind == PartitionKind::spatial)
        g.partition.subarrays.clear();
    else
        g.partition.rf_share.clear();
    propose(g, tr("Reset the partition of %1").arg(qs(g.name)), 0);
    refresh();
}

} // namespace lf
