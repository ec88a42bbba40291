// The figure sets the studio shows for the network, a group and a layer, shared by the
// metrics panel and the inspectors. Every figure comes from lf::Metrics (core::evaluate);
// only units are converted here (elements to bytes at the hardware's precisions, cycles to
// time at its frequency).
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"

#include <QString>
#include <QStringList>

namespace lf {

class MetricGrid;

// Rows are keyed `prefix + name`, e.g. "total.dram_bytes", "group.latency", "layer.buf_x".
void addTotalsRows(MetricGrid& grid, const QString& prefix);
void showTotals(MetricGrid& grid, const QString& prefix, const Totals& cur, const Totals* prev,
                const Hardware& hw);

void addGroupRows(MetricGrid& grid, const QString& prefix);
// `capacityBytes`: the buffer the figures were computed for (Totals::buffer_capacity_bytes).
void showGroup(MetricGrid& grid, const QString& prefix, const GroupMetrics& cur,
               const GroupMetrics* prev, int64_t capacityBytes, const Hardware& hw);

void addLayerRows(MetricGrid& grid, const QString& prefix);
void showLayer(MetricGrid& grid, const QString& prefix, const LayerMetrics& cur,
               const LayerMetrics* prev, const Hardware& hw);

// The "Why this number" entry of a figure (core/teaching/explain.h): the names of the
// formulas that produce it, the first one shown wins (a group's buffer is "Buffer" under
// recompute, "Fusion buffer" under reuse, "fmap buffer" under optimus), in the group's
// section or the layer's. Empty for figures that are not broken down there (network totals,
// energy, latency).
struct MetricExplanation {
    QStringList formulas;
    bool ofGroup = false;
};
MetricExplanation metricExplanation(const QString& key);
// The What's This text of a figure: what it is and where Why This Number explains it.
QString metricWhatsThis(const QString& key, const QString& label, const QString& toolTip);

// The counterpart of a group / layer in the metrics before the last edit: groups are matched
// by name (indices shift when groups are fused or split), layers by id and name.
const GroupMetrics* findGroupMetrics(const Metrics* m, const std::string& name);
const LayerMetrics* findLayerMetrics(const Metrics* m, LayerId id, const std::string& name);

} // namespace lf
