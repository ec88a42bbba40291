// Plain data behind the studio's charts, derived from lf::Metrics (figures) and the
// hardware (units and roofs). Nothing here knows the chart library: the adapter in
// chart_widgets.h draws these values, so a move to another chart module touches one file.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace lf {

struct BarSetData {
    QString name;
    QColor color;
    QList<double> values; // one per category, already divided by the chart's unit
    friend bool operator==(const BarSetData&, const BarSetData&) = default;
};

struct BarChartData {
    QString title;          // with the unit, e.g. "DRAM traffic per group (KB)"
    QString valueTitle;     // value axis title: the unit
    QString unit;           // "KB"
    QStringList categories; // one per fusion group drawn
    QList<int> groups;      // the group index of each category (Metrics::groups)
    int totalGroups = 0;    // groups in the metrics; more than categories when limited
    std::vector<BarSetData> sets;
    bool stacked = true;
    friend bool operator==(const BarChartData&, const BarChartData&) = default;
};

// Bar charts draw at most this many groups: beyond that the bars are thinner than a pixel
// and the category axis slows down quadratically. When a network has more groups the
// charts show the ones with the largest bars, in network order, and say so in the title.
inline constexpr int kMaxChartGroups = 120;
// The roofline plots at most this many groups (those with the most MACs).
inline constexpr int kMaxRooflinePoints = 2000;

struct RooflinePoint {
    double ctc = 0;          // MACs per DRAM byte
    double macsPerCycle = 0; // achieved: MACs / latency cycles
    QString label;
    int category = -1; // the group
    friend bool operator==(const RooflinePoint&, const RooflinePoint&) = default;
};

struct RooflineData {
    QString title;
    double computeRoof = 0;            // PEs × MACs per PE per cycle
    double bandwidth = 0;              // DRAM bytes per cycle (the slope)
    std::vector<RooflinePoint> points; // only groups with CTC > 0 and latency > 0 (log axes)
    int groups = 0;                    // categories in all, plotted or not
    int skipped = 0;                   // plottable groups left out (kMaxRooflinePoints)
    friend bool operator==(const RooflineData&, const RooflineData&) = default;
};

// Per-group DRAM traffic stacked by array (input / weight / output / psum), in bytes at the
// hardware's precisions, scaled to one unit (B, KB, MB, GB).
BarChartData trafficChartData(const Metrics& m, const Hardware& hw);
// Per-group energy stacked by component (MAC / RF / SRAM / DRAM), scaled to pJ … J.
BarChartData energyChartData(const Metrics& m);
// Per-group compute vs memory cycles side by side, scaled to cycles / K / M / G cycles.
BarChartData latencyChartData(const Metrics& m);
// Groups at (CTC, achieved MACs per cycle) under the hardware's roofs.
RooflineData rooflineChartData(const Metrics& m, const Hardware& hw);

} // namespace lf
