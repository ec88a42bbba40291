// The spatial partitions HW-Flow-Fusion enumerates for a fused group (HWFF §4.3.1).
#pragma once

#include "schedule/schedule.h"

#include <vector>

namespace lf::repro::detail {

// HWFF §4.3.1's side-by-side column strips and stacked row strips of divisor-sized sub-arrays
// that together cover the array (the array model always prefers the larger sub-arrays), at
// least `min_rows` high: row-stationary needs the kernel's height.
std::vector<std::vector<SubArray>> coveringStrips(int n, int pex, int pey, int min_rows);

} // namespace lf::repro::detail
