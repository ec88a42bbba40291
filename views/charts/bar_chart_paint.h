// Draws a BarChartData with QPainter: title, value axis with round ticks, stacked or
// side-by-side bars, group names under the bars when they can be read, and the legend. The
// same code paints the widget and writes images, and finds the bar under a point. An edit
// changes a few values: repainting some hundred rectangles costs far less than the scene
// graph of a chart library laying out an item per bar.
#pragma once

#include "charts/chart_data.h"

#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QSize>
#include <QStringList>

#include <vector>

class QPainter;

namespace lf {

// Category labels: long names elided in the middle (their start and more of their end,
// where "layer1.0.conv1" and "layer1.1.conv1" differ), longer where needed to stay unique.
// None for more categories than can ever be labelled (the bars' tooltips name them).
QStringList barCategoryLabels(const QStringList& categories);

// Where everything goes at one size.
struct BarChartGeometry {
    QRectF bounds; // the whole chart
    QRectF title;
    QRectF plot;               // the bars' area; value 0 at its bottom, top = ticks.back()
    std::vector<double> ticks; // value-axis ticks, from 0 up
    enum class Labels { none, level, upright } labels = Labels::none;
    QRectF legend;
    double slot = 0;       // width of one category
    double labelDepth = 0; // room under the plot for the group names

    // The bar of `set` in `category` (empty when its value is 0).
    QRectF bar(const BarChartData& d, int category, int set) const;
    // The category whose column holds `p` inside the plot, else -1; `set` gets the bar
    // under `p` in that column, or -1.
    int categoryAt(const BarChartData& d, QPointF p, int* set) const;
};

struct BarChartLook {
    QPalette palette;
    QFont font;
};

BarChartGeometry layOutBarChart(const BarChartData& d, const QStringList& labels,
                                const BarChartLook& look, QSize size);

// Paints at (0, 0); `highlight` is a category index or -1.
void paintBarChart(QPainter& p, const BarChartData& d, const QStringList& labels,
                   const BarChartGeometry& g, const BarChartLook& look, int highlight);

// The tooltip of a category: the group's name, each set's value (`set` in bold), the total.
QString barToolTip(const BarChartData& d, int category, int set);

} // namespace lf
