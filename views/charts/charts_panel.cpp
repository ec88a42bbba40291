#include "charts/charts_panel.h"

#include "charts/chart_data.h"
#include "charts/chart_widgets.h"
#include "metrics/metrics_panel.h"

#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

namespace lf {

ChartsPanel::ChartsPanel(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    traffic_ = new BarChartWidget(tabs_);
    energy_ = new BarChartWidget(tabs_);
    roofline_ = new RooflineChartWidget(tabs_);
    latency_ = new BarChartWidget(tabs_);
    tabs_->addTab(traffic_, tr("Traffic"));
    tabs_->addTab(energy_, tr("Energy"));
    tabs_->addTab(roofline_, tr("Roofline"));
    tabs_->addTab(latency_, tr("Latency"));
    v->addWidget(tabs_);
    status_ = new QLabel(this);
    status_->setEnabled(false);
    status_->hide();
    v->addWidget(status_);

    for (BarChartWidget* w : {traffic_, energy_, latency_})
        connect(w, &BarChartWidget::categoryClicked, this, [this](int g) { onCategoryClicked(g); });
    connect(roofline_, &RooflineChartWidget::categoryClicked, this,
            [this](int g) { onCategoryClicked(g); });
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int i) {
        if (i >= 0) bringUpToDate(ChartKind(i));
    });
}

BarChartWidget* ChartsPanel::barChart(ChartKind kind) const {
    switch (kind) {
    case ChartKind::traffic:
        return traffic_;
    case ChartKind::energy:
        return energy_;
    case ChartKind::latency:
        return latency_;
    case ChartKind::roofline:
        return nullptr;
    }
    return nullptr;
}

void ChartsPanel::setState(const StudioState& state) {
    state_ = state;
    // While an evaluation runs the charts keep the last figures, marked as stale.
    status_->setVisible(!state_.metrics);
    status_->setText(tr("Evaluating…"));
    if (!state_.metrics) return;
    stale_.fill(true);
    drawn_ = state_.metrics;
    drawnHardware_ = state_.hardware;
    bringUpToDate(currentChart());
    setSelection(selection_);
}

void ChartsPanel::setSelection(const StudioSelection& selection) {
    selection_ = selection;
    const int g = selectedGroupIndex(state_, selection_);
    for (BarChartWidget* w : {traffic_, energy_, latency_})
        w->setHighlightedCategory(g);
    roofline_->setHighlightedCategory(g);
}

void ChartsPanel::showChart(ChartKind kind) {
    tabs_->setCurrentIndex(int(kind));
}

ChartKind ChartsPanel::currentChart() const {
    return ChartKind(std::max(0, tabs_->currentIndex()));
}

void ChartsPanel::bringUpToDate(ChartKind kind) {
    if (!stale_[size_t(kind)] || !drawn_) return;
    stale_[size_t(kind)] = false;
    const Metrics& m = *drawn_;
    switch (kind) {
    case ChartKind::traffic:
        traffic_->setData(trafficChartData(m, drawnHardware_));
        break;
    case ChartKind::energy:
        energy_->setData(energyChartData(m));
        break;
    case ChartKind::roofline:
        roofline_->setData(rooflineChartData(m, drawnHardware_));
        break;
    case ChartKind::latency:
        latency_->setData(latencyChartData(m));
        break;
    }
}

QString ChartsPanel::exportChart(ChartKind kind, const QString& path, QSize size) {
    bringUpToDate(kind);
    if (kind == ChartKind::roofline) return roofline_->exportImage(path, size);
    return barChart(kind)->exportImage(path, size);
}

void ChartsPanel::onCategoryClicked(int group) {
    // Bars stand for the groups of the metrics drawn, which lag behind the schedule while an
    // evaluation runs: find the clicked group in the current schedule by its layers.
    const Metrics* drawn = drawn_.get();
    if (!drawn || group < 0 || size_t(group) >= drawn->groups.size()) return;
    const std::vector<LayerId>& layers = drawn->groups[size_t(group)].layers;
    int index = -1;
    for (size_t i = 0; i < state_.schedule.groups.size(); ++i)
        if (state_.schedule.groups[i].layers == layers) index = int(i);
    emit selectionRequested(StudioSelection{layers, index});
}

} // namespace lf
