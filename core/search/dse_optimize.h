// The best schedule under the buffer from ConvFusion's exploration space (ConvFusion §V-A,
// docs/models/convfusion.md) for one objective — what `optimize --method dse` asks — with bounded
// work and memory.
//
// The space is explore()'s: every partition of every sequence into segments of at most
// `max_depth` layers, each segment's Pareto front (search/segment_search.h for recompute,
// searchSegmentByModel for reuse and optimus). Two things bound it where explore() combines
// whole fronts:
//  - Only the chosen objective is optimized, so the fronts are not combined: a DP over each
//    sequence picks, per segment, the front point that fits the buffer with the best
//    objective (DRAM accesses add over segments, and a schedule fits when every segment
//    does, so for `dram` this is the optimum of the space; energy and latency are costed per
//    group with the group's own buffer sizing the SRAM energy, as the tile optimizer does).
//    Memory is O(layers × depth) plus the fronts of the distinct segments.
//  - Segments are searched once per distinct shape (the layers' dims and kinds), shortest
//    first, within `evaluation_budget` closed-form evaluations: the segments of one length
//    are searched whole or not at all, and when a length does not fit what is left of the
//    budget, longer segments are not searched. The result says how deep it got.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/search_types.h"

#include <cstdint>

namespace lf {

struct DseOptimizeOptions {
    int max_depth = 3; // longest fused segment, in layers
    TileSet tiles = TileSet::divisors;
    LevelSpace levels = LevelSpace::sound;
    Strategy strategy = Strategy::recompute;
    Objective objective = Objective::dram;
    int64_t capacity_bytes = -1; // < 0: the hardware's buffer
    int threads = 0;             // 0: all hardware threads
    // Closed-form evaluations (and model calls) the segment searches may spend; segments
    // longer than what fits are not searched. 0: unbounded.
    int64_t evaluation_budget = int64_t(400) * 1000 * 1000;
};

struct DseOptimizeResult {
    Schedule schedule;                 // normalized; the default schedule where nothing fits
    bool fits = false;                 // every segment of the schedule fits the buffer
    int depth_searched = 0;            // segments of up to this many layers were searched
    int64_t segments = 0;              // segments of those lengths in the network
    int64_t distinct_segments = 0;     // of those, searched (the others share their shape)
    int64_t segments_not_searched = 0; // longer segments the budget left out
    int64_t evaluations = 0;
    double seconds = 0;
    bool cancelled = false;
    bool complete() const { return segments_not_searched == 0; }
};

DseOptimizeResult optimizeByExploration(const Network& net, const Hardware& hw,
                                        const DseOptimizeOptions& opt,
                                        const SearchControl& control = {});

} // namespace lf
