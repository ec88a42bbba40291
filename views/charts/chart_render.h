// What every chart of the studio shares: the palette (frame, text and grid follow the light
// or dark theme; series keep their colours) and writing a chart to SVG or PNG.
#pragma once

#include <QSize>
#include <QString>

class QChart;
class QPalette;

namespace lf {

// The size charts are written at when the caller gives none.
inline constexpr QSize kDefaultChartExportSize{960, 600};

void applyChartPalette(QChart* chart, const QPalette& palette);

// Lays `chart` out at `size` in a scene of its own and writes it to `path` (.svg, else an
// image format by suffix); nothing needs to be on screen. Takes ownership of the chart.
// Returns the error, empty on success.
QString renderChart(QChart* chart, const QString& path, QSize size);

} // namespace lf
