// What every chart of the studio shares: the palette (frame, text and grid follow the light
// or dark theme; series keep their colours) and writing a chart to SVG or PNG.
#pragma once

#include <QColor>
#include <QSize>
#include <QString>

#include <functional>

class QChart;
class QPainter;
class QPalette;

namespace lf {

// The size charts are written at when the caller gives none.
inline constexpr QSize kDefaultChartExportSize{960, 600};

void applyChartPalette(QChart* chart, const QPalette& palette);

// Lays `chart` out at `size` in a scene of its own and writes it to `path` (.svg, else an
// image format by suffix); nothing needs to be on screen. Takes ownership of the chart.
// Returns the error, empty on success.
QString renderChart(QChart* chart, const QString& path, QSize size);

// Writes what `paint` draws at `size` to `path` (.svg, else an image format by suffix) on a
// `background` fill. Returns the error, empty on success.
QString writeChartImage(const QString& path, QSize size, const QString& title,
                        const QColor& background, const std::function<void(QPainter&)>& paint);

} // namespace lf
