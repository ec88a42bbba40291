// Human-readable figures for the studio (B/KB/MB, cycles and µs/ms, pJ/µJ/mJ, %), built on
// the units of metrics/units.h so that the studio and the CLI print the same text.
// Formatting is locale-independent.
#pragma once

#include <QColor>
#include <QString>

#include <optional>

namespace lf {

QString formatBytes(double bytes);
QString formatCount(double n);
QString formatEnergy(double pj);
// "12.3 K cycles (61.5 µs)"; the time part is left out when the frequency is unknown (<= 0).
QString formatCycles(double cycles, double frequency_mhz);
QString formatPercent(double fraction); // 0.632 -> "63.2 %"
QString formatRatio(double v);          // 3 significant figures

// Which direction of change is an improvement for a figure.
enum class Better { lower, higher, neither };

// The change of a figure against its value before the last edit.
struct MetricDelta {
    int direction = 0; // +1 grew, -1 shrank, 0 unchanged or nothing to compare with
    bool improved = false;
    bool worsened = false;
    QString text; // "▲ 12.5 %", "▼ 3.0 %", "▲" (from zero) or empty

    QColor color() const; // green when improved, red when worsened, invalid otherwise
};

MetricDelta metricDelta(double current, std::optional<double> previous, Better better);

// The change from `was` (> 0) to `now` in percent, signed, one decimal: "+87.5 %", "-56.2 %";
// "=" when equal, "+<0.1 %" / "-<0.1 %" when too small for one decimal (it is still a change).
QString percentChange(double was, double now);

// Colours of good and bad changes, readable on light and dark palettes.
QColor improvedColor();
QColor worsenedColor();

} // namespace lf
