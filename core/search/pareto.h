// Network-level design-space exploration — ConvFusion §V-A; docs/models/convfusion.md.
//
//  1. Sequences: maximal fork/join-free chains of compute layers (lf::sequences); a layer
//     at a fork or join is a sequence of its own.
//  2. Segmentation: every contiguous run of at most `max_depth` layers of a sequence is a
//     segment, costed by its strategy's model and reduced to its Pareto front on (DRAM
//     accesses, buffer, MACs) (search/segment_search.h for the recompute strategy).
//  3. Partitioning: the segments that cover a sequence are combined — accesses and MACs
//     add, the buffer is the largest segment's (ConvFusion §IV-F) — and Pareto-filtered after each
//     step; filtering first loses nothing because sum and max are monotone.
//  4. Network: the sequences' fronts are combined by the same rules into the network front.
//
// What "exhaustive" covers: with the recompute strategy, every partition of every sequence
// into segments of at most `max_depth` layers, and for every segment every combination of
// per-layer schedules — tile sizes of the tile set, all 24 loop orders, the store/compute
// levels of the level space (search_types.h) — with weights streamed or, optionally,
// resident. The searches skip only what provably cannot reach the front (structures and
// tile sizes dominated for every input, suffixes dominated for every producer), so the
// front equals the brute-force front of that space. Layer kinds the models treat alike
// (pool, element-wise, fc) are searched the same way.
//
// Segments are searched on worker threads (std::thread, `threads` of them); results are
// stored by segment index and combined in a fixed order, so the front does not depend on
// the number of threads.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/search_types.h"
#include "search/segment_search.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace lf {

struct ExploreOptions {
    int max_depth = 3; // longest fused segment, in layers (1 = no fusion)
    TileSet tiles = TileSet::divisors;
    LevelSpace levels = LevelSpace::sound;
    bool allow_recompute = true;
    Strategy strategy = Strategy::recompute;
    bool try_resident_weights = true;
    int64_t max_buffer_bytes = 0; // > 0: only schedules whose buffer fits (branch and bound)
    int threads = 0;              // 0: all hardware threads
};

// One point of the network front. Counts as evaluate() reports them.
struct ExplorePoint {
    int64_t dram_accesses = 0;
    int64_t buffer_bytes = 0;
    int64_t macs = 0;
    int32_t node = -1; // rebuild information (ExploreResult::schedule)
};

struct ExploreResult {
    std::vector<ExplorePoint> front; // sorted by buffer, then DRAM accesses, then MACs
    int64_t evaluations = 0;         // closed-form layer evaluations (and model calls)
    int64_t combinations = 0;        // pairs of partial schedules costed while combining
                                     // (those a cheaper pair cannot beat are skipped)
    int64_t segments = 0;            // segments searched
    double seconds = 0;
    bool cancelled = false;

    // The schedule of front point `k`: the default schedule with every layer's schedule
    // and every fused group of the point (strategy as explored).
    Schedule schedule(const Network& net, const Hardware& hw, size_t k) const;
    // The (segment layers, segment point) pairs that make up point `k`.
    std::vector<std::pair<const std::vector<LayerId>*, const SegmentPoint*>> parts(size_t k) const;

    struct Node {
        int32_t prev = -1;
        uint32_t segment = 0, point = 0;
    };
    std::vector<SegmentFront> segment_fronts;
    std::vector<Node> nodes;
    Strategy strategy = Strategy::recompute;
};

ExploreResult explore(const Network& net, const Hardware& hw, const ExploreOptions& opt,
                      const SearchControl& control = {});

// The front of one segment under the `reuse` or `optimus` strategy, whose schedules are
// few (the group's output tile, weights resident or streamed, and a single layer's channel
// tiles): each is costed by evaluate's group pipeline.
SegmentFront searchSegmentByModel(const Network& net, const Hardware& hw,
                                  const std::vector<LayerId>& chain, Strategy strategy,
                                  const ExploreOptions& opt,
                                  const std::atomic<bool>* cancel = nullptr);

} // namespace lf
