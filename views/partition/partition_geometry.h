// Geometry of hardware partitions edited by hand (docs/models/hw-flow-fusion.md "Partitions"):
// spatial — rectangular sub-arrays of the PE array whose sizes snap to divisors of PEx / PEy,
// inside the array and never overlapping; temporal — register-file shares in whole percent that
// always sum to 100 % per section.
#pragma once

#include "schedule/schedule.h"

#include <vector>

namespace lf {

bool overlaps(const SubArray& a, const SubArray& b);
bool insideArray(const SubArray& s, int cols, int rows);
// Inside the array, non-empty and free of every rectangle in `others`.
bool placeable(const SubArray& s, int cols, int rows, const std::vector<SubArray>& others);

// Which edges of a sub-array a drag moves; all four (or `move`) translate it.
enum DragEdge : unsigned {
    kEdgeNone = 0,
    kEdgeLeft = 1,
    kEdgeRight = 2,
    kEdgeTop = 4,
    kEdgeBottom = 8,
    kEdgeMove = 16
};

// The sub-array a drag leads to: `start` is the rectangle when the mouse was pressed,
// (dCols, dRows) the mouse displacement in PE cells. Resized sides snap to divisors of the
// array's extent (or keep the start size); the result is the placeable candidate closest to
// where the mouse asks, or `start` when none is.
SubArray dragSubArray(const SubArray& start, unsigned edges, double dCols, double dRows,
                      int arrayCols, int arrayRows, const std::vector<SubArray>& others);

// Integer percentages summing to 100 after setting entry `moved` to `value` (clamped to
// 0..100): the rest is shared among the other entries in proportion to their old values
// (equally when they were all 0), rounded by largest remainder.
std::vector<int> rebalancePercent(const std::vector<int>& percent, size_t moved, int value);

// Fractions as whole percentages; when they sum to 1 the percentages sum to exactly 100.
std::vector<int> fractionsToPercent(const std::vector<double>& fractions);

} // namespace lf
