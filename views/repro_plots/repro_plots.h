// The plots of the reproduction report (core/repro) drawn with Qt Charts without a display:
// each Plot becomes an SVG document, or a PNG when it has too many points for a light SVG.
// Kept apart from the studio's widgets so that layerfuse-cli can link it alone.
#pragma once

#include "repro/repro.h"

#include <map>
#include <string>
#include <vector>

class QChart;

namespace lf::repro {

// A new chart of one plot (the caller owns it): the studio shows it in a chart view, the
// report renders it offscreen. Needs a QApplication.
QChart* makePlotChart(const Plot& plot);

// An image of one plot: an SVG document, or a "data:image/png;base64,…" URL.
std::string renderPlot(const Plot& plot);

// Every plot of the reports by plot id. Creates an offscreen QApplication when the process
// has none (QT_QPA_PLATFORM=offscreen unless set), so it works in the command-line tool.
std::map<std::string, std::string> renderPlots(const std::vector<PaperReport>& reports);

} // namespace lf::repro
