// Pareto front of one fused segment under ConvFusion's recompute chaining —
// ConvFusion §V-A step 2 ("each of these segments is evaluated individually, yielding a vector of
// schedules") with the segment model of ConvFusion §IV-E (models/convfusion_segment.h).
//
// A segment L1 → … → Ln is costed from Ln up: Ln with its real dims, each producer Lk with
// its output replaced by the X tile Lk+1 demands and run P_k times. What a consumer
// passes up is its demand — the tile extents (and, for a grouped producer, the groups it
// spans) — and P. Producers' costs are linear in P, so the search keeps, for every
// distinct demand, only the suffixes that are Pareto-optimal in (DRAM accesses, buffer,
// MACs, P), and for every producer only the options Pareto-optimal in (accesses per
// production, buffer, MACs per production, Trans_X); both filters are exact because the
// combination is monotone in every one of these values. The front is therefore exactly
// the front of every per-layer schedule combination of the space (tile set × loop orders
// × store/compute levels of the level space × weights streamed or resident).
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/search_types.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lf {

class WorkPool;
namespace segment {
class OptionCache;
}

struct SegmentSearchOptions {
    TileSet tiles = TileSet::divisors;
    LevelSpace levels = LevelSpace::sound;
    bool allow_recompute = true;      // false: drop schedules that recompute any MAC
    bool try_resident_weights = true; // also search the variant with all weights on chip
    // > 0: branch and bound on the buffer (docs/models/convfusion.md).
    int64_t max_buffer_bits = 0;
    bool branch_and_bound = true; // drop partial schedules a known one beats (same front)
    WorkPool* pool = nullptr;     // splits the search's stages over these threads
    segment::OptionCache* options = nullptr; // producer options shared between searches
};

// One Pareto point of a segment, with the schedules that rebuild it. Counts are those
// evaluate() reports for the group (batch applied).
struct SegmentPoint {
    int64_t dram = 0;        // DRAM accesses, elements
    int64_t buffer_bits = 0; // on-chip footprint of the group
    int64_t macs = 0;        // including recompute
    bool weights_resident = false;
    std::vector<LayerSchedule> layers; // per layer of the segment, first to last
    Strategy strategy = Strategy::recompute;
    std::optional<OutputTile> out_tile; // reuse / optimus: the group's output tile
};

struct SegmentFront {
    std::vector<LayerId> layers;
    std::vector<SegmentPoint> points; // Pareto-optimal, sorted by (dram, buffer, macs)
    int64_t evaluations = 0;          // closed-form layer evaluations performed
    bool cancelled = false;
    bool skipped = false; // not searched (the exploration's time limit)
};

// The front of a chain of compute layers (each the only consumer of the previous one).
// Polls `cancel` every few thousand evaluations.
SegmentFront searchSegment(const Network& net, const Hardware& hw,
                           const std::vector<LayerId>& chain, const SegmentSearchOptions& opt,
                           const std::atomic<bool>* cancel = nullptr);

// Writes a point into a schedule: the layers' schedules (marked explicit) and, unless the
// point is a plain single layer, a group named `group_name` with the point's strategy.
void applySegmentPoint(const std::vector<LayerId>& chain, const SegmentPoint& p,
                       const std::string& group_name, Schedule& sched);

} // namespace lf
