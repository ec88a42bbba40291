// Colours of the DAG canvas: per-group hues and heatmaps for the colour-by modes, plus the
// canvas theme derived from the application palette (light and dark).
#pragma once

#include "studio_state.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <optional>
#include <vector>

namespace lf::graph {

enum class ColorBy { group, dramTraffic, energy, bufferFill };

QString colorByName(ColorBy c); // "group", "dram", "energy", "buffer" (settings)
std::optional<ColorBy> colorByFromName(const QString& s);
QString colorByTitle(ColorBy c); // "Group", "DRAM traffic", ... (menus, legend)

struct CanvasTheme {
    bool dark = false;
    QColor background, nodeFill, nodeBorder, text, mutedText, edge, edgeLabel, selection,
        clusterBorder, overCapacity, invalid, barTrack, barFill, dropTarget, highlight;
    static CanvasTheme fromPalette(const QPalette& p);
};

// A distinct, readable fill for the k-th fused group.
QColor groupColor(int k, bool dark);
// Sequential heat colour for t in [0, 1] (perceptually ordered, readable on both palettes).
QColor heatColor(double t);
// Black or white, whichever reads better on `fill`.
QColor textOn(const QColor& fill);

// Per-layer values of a colour-by mode and their range (a heatmap's legend).
struct HeatValues {
    std::vector<std::optional<double>> value; // by LayerId; empty = not coloured
    double min = 0, max = 0;
    QString unit;       // legend caption, e.g. "DRAM words"
    bool ratio = false; // buffer fill: values are fractions of capacity
    // t in [0, 1] for a value.
    double normalized(double v) const { return max > min ? (v - min) / (max - min) : 0.0; }
};
HeatValues heatValues(const StudioState& state, ColorBy mode);

} // namespace lf::graph
