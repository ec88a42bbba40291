#include "metrics/metrics_panel.h"

#include "metrics/metric_grid.h"
#include "metrics/metric_sections.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace lf {

int selectedGroupIndex(const StudioState& state, const StudioSelection& sel) {
    const int n = int(state.schedule.groups.size());
    if (sel.group >= 0 && sel.group < n) return sel.group;
    if (sel.layers.size() == 1) return state.schedule.groupOf(sel.layers.front());
    return -1;
}

namespace {
QLabel* sectionTitle(QWidget* parent) {
    auto* l = new QLabel(parent);
    QFont f = l->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    l->setFont(f);
    l->setWordWrap(true);
    return l;
}
} // namespace

MetricsPanel::MetricsPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll_);

    auto* body = new QWidget(scroll_);
    auto* v = new QVBoxLayout(body);
    status_ = new QLabel(body);
    status_->setObjectName(QStringLiteral("status"));
    status_->setWordWrap(true);
    v->addWidget(status_);

    auto* totalsTitle = sectionTitle(body);
    totalsTitle->setText(tr("Network"));
    v->addWidget(totalsTitle);
    totals_ = new MetricGrid(body);
    addTotalsRows(*totals_, QStringLiteral("total."));
    v->addWidget(totals_);

    groupTitle_ = sectionTitle(body);
    v->addWidget(groupTitle_);
    group_ = new MetricGrid(body);
    addGroupRows(*group_, QStringLiteral("group."));
    v->addWidget(group_);
    warnings_ = new QLabel(body);
    warnings_->setObjectName(QStringLiteral("groupWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("color: %1").arg(worsenedColor().name()));
    v->addWidget(warnings_);

    layerTitle_ = sectionTitle(body);
    v->addWidget(layerTitle_);
    layer_ = new MetricGrid(body);
    addLayerRows(*layer_, QStringLiteral("layer."));
    v->addWidget(layer_);
    v->addStretch(1);
    scroll_->setWidget(body);
    for (MetricGrid* g : {totals_, group_, layer_}) {
        for (const QString& key : g->keys())
            g->setWhatsThis(key, metricWhatsThis(key, g->labelText(key), g->toolTip(key)));
        connect(g, &MetricGrid::whatsThisRequested, this, &MetricsPanel::explainRequested);
    }
    refresh();
}

void MetricsPanel::setState(const StudioState& state) {
    state_ = state;
    refresh();
}

void MetricsPanel::setSelection(const StudioSelection& selection) {
    // The studio sends the selection again after each new state: the figures are shown.
    if (selection == selection_) return;
    selection_ = selection;
    refresh();
}

void MetricsPanel::refresh() {
    const Metrics* m = state_.metrics.get();
    const Metrics* prev = state_.previous.get();
    const bool evaluating = !m;
    for (QWidget* w : {static_cast<QWidget*>(totals_), static_cast<QWidget*>(group_),
                       static_cast<QWidget*>(layer_)})
        w->setEnabled(!evaluating);
    if (evaluating) {
        status_->setText(state_.network.empty() ? tr("No network open.") : tr("Evaluating…"));
        if (!everShown_) {
            totals_->clearValues();
            group_->clearValues();
            layer_->clearValues();
        }
        const bool haveGroup = everShown_ && !groupTitle_->text().isEmpty();
        groupTitle_->setVisible(haveGroup);
        group_->setVisible(haveGroup);
        return;
    }
    everShown_ = true;
    status_->setText(
        tr("%1 on %2")
            .arg(QString::fromStdString(m->network), QString::fromStdString(m->hardware)));
    showTotals(*totals_, QStringLiteral("total."), m->totals, prev ? &prev->totals : nullptr,
               state_.hardware);

    // Selected group (schedule and metrics list groups in the same order).
    const int gi = selectedGroupIndex(state_, selection_);
    const GroupMetrics* gm = nullptr;
    if (gi >= 0 && size_t(gi) < m->groups.size()) gm = &m->groups[size_t(gi)];
    if (gm) {
        groupTitle_->setText(tr("Group %1").arg(QString::fromStdString(gm->name)));
        showGroup(*group_, QStringLiteral("group."), *gm, findGroupMetrics(prev, gm->name),
                  m->totals.buffer_capacity_bytes, state_.hardware);
        QStringList warn;
        for (const std::string& w : gm->warnings)
            warn << QStringLiteral("⚠ ") + QString::fromStdString(w);
        warnings_->setText(warn.join(QLatin1Char('\n')));
    } else {
        groupTitle_->clear();
        warnings_->clear();
    }
    groupTitle_->setVisible(gm);
    group_->setVisible(gm);
    warnings_->setVisible(gm && !warnings_->text().isEmpty());

    // Selected layer (only when exactly one is selected).
    const LayerMetrics* lm =
        selection_.layers.size() == 1 ? m->layer(selection_.layers.front()) : nullptr;
    if (lm) {
        layerTitle_->setText(tr("Layer %1 (%2)")
                                 .arg(QString::fromStdString(lm->name),
                                      QString::fromUtf8(toString(lm->type).data(),
                                                        qsizetype(toString(lm->type).size()))));
        showLayer(*layer_, QStringLiteral("layer."), *lm, findLayerMetrics(prev, lm->id, lm->name),
                  state_.hardware);
    } else {
        layerTitle_->clear();
    }
    layerTitle_->setVisible(lm);
    layer_->setVisible(lm);
}

} // namespace lf
