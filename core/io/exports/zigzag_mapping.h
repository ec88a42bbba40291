// A layer's LayerFuse schedule as a ZigZag 3.8 mapping entry (docs/exports.md "ZigZag"):
// - spatial_mapping: the dataflow's column dims on D1, row dims on D2, with the unrolling
//   factors that give LayerFuse's compute cycles (docs/models): per axis, the factors whose
//   product fits the axis and that minimise Π ⌈D/U⌉;
// - temporal_ordering, innermost first: the kernel loops FX, FY, the register-file tile
//   loops of LayerFuse's register-file level (models/rf_level.h), the rest of the inner tile
//   loops (from the innermost of the schedule's order outwards), the outer tile loops in the
//   same order, then G and B. Every loop has its size, and the sizes multiply to each dim's
//   temporal extent ⌈D/U⌉, so ZigZag evaluates exactly this ordering instead of searching.
#pragma once

#include "hardware/hardware.h"
#include "io/exports/zigzag_workload.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

struct ZigZagLayerMapping {
    std::vector<ZigZagLoop> d1, d2;   // spatial unrolling over columns (D1) and rows (D2)
    std::vector<ZigZagLoop> temporal; // innermost first; loops of size 1 left out
    int64_t spatial_cycles = 1;       // Π ⌈D/U⌉ of ZigZag's unrolling (incl. temporal dims)
    int64_t layerfuse_cycles = 1;     // the same product as LayerFuse's array model packs it
    std::vector<std::string> notes;   // where the mapping departs from the schedule
};

// The mapping of ZigZag layer `id` (isZigZagLayer) under its schedule `ls` (its unroll, or
// the hardware's dataflow).
ZigZagLayerMapping zigzagLayerMapping(const Network& net, const Hardware& hw, LayerId id,
                                      const LayerSchedule& ls);

} // namespace lf
