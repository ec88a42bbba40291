// Shared look of the teaching views: exact numbers (the teaching views show every element,
// not "36.9 K"), the colours of the three arrays and of the tile-pyramid roles, chosen for
// the light or the dark palette of the widget that draws them.
#pragma once

#include "schedule/schedule.h"

#include <QColor>
#include <QString>

#include <cstdint>

class QWidget;

namespace lf::teaching {

// 18432 -> "18,432" (locale-independent: the lessons and formulas use this notation).
QString exactCount(int64_t n);
// A ratio with two decimals: 14.2222 -> "14.22".
QString twoDecimals(double v);

// Whether the widget's palette is dark (its window colour is dark).
bool isDark(const QWidget* w);

// The colour of an array's statements and buffers: X (inputs), Y (outputs), W (weights).
QColor arrayColor(Arr a, bool dark);

// Syntax colours of the loop-nest code.
struct CodeColors {
    QColor keyword, loopVariable, number, comment, hoverBackground;
};
CodeColors codeColors(bool dark);

// The roles a region of a feature map plays in one step of the pyramid.
struct PyramidColors {
    QColor map, mapBorder, computed, loaded, recomputed, reused, evicted, highlight, text;
};
PyramidColors pyramidColors(bool dark);

} // namespace lf::teaching
