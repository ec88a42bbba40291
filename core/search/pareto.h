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
// Parallel all the way (search/work_pool.h): segments are searched on `threads` threads,
// each segment's stages split over the threads that are free (the filters that gain from
// seeing many points — a segment's last stage and its front join — one per thread, so two
// threads do no more work than one), every combination step is cut into runs costed in
// parallel and its front filtered in buffer chunks in parallel (search/front_combine.h), and
// the large sorts run on the pool (search/parallel_sort.h). Every parallel part keeps what
// one thread would keep — results are stored by index and merged in a fixed order — so the
// front and every point's schedule do not depend on the number of threads.
//
// Segments whose layers have equal dims (DMCNN-VD's eighteen 64→64 convolutions) have the
// same front under the recompute strategy — the segment search reads nothing else of the
// network — so each such class is searched once and its front shared.
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

class Distribution;

struct ExploreOptions {
    int max_depth = 3; // longest fused segment, in layers (1 = no fusion)
    TileSet tiles = TileSet::divisors;
    LevelSpace levels = LevelSpace::sound;
    bool allow_recompute = true;
    Strategy strategy = Strategy::recompute;
    bool try_resident_weights = true;
    int64_t max_buffer_bytes = 0;     // > 0: only schedules whose buffer fits (branch and bound)
    int threads = 0;                  // 0: all hardware threads
    bool share_equal_segments = true; // search segments with equal layer dims once
    // Bounds (docs/cli.md, "Bounded exploration"): the partial fronts of the
    // combination steps keep at most this many points in all (0: no bound) — 12 bytes each
    // stay for rebuilding schedules, and a step's time grows with its front. A step whose
    // front would take more than its share of what is left is ε-thinned (search/pareto_thin.h)
    // and ExploreResult::limits says by how much.
    int64_t max_kept_points = 20'000'000;
    // > 0: after this many seconds, segments of more than one layer are no longer searched and
    // every later step is thinned to 64 points.
    double time_limit_s = 0;
    // Several processes (layerfuse-mpi): the segment searches are spread over them by
    // estimated cost, the root gathers the fronts and combines; the others return no front.
    Distribution* distribution = nullptr;
};

// What the bounds left out of an exploration; all zero: the front is exact.
struct ExploreLimits {
    int64_t thinned_steps = 0;    // combination steps whose front was thinned
    int64_t dropped_points = 0;   // partial points those steps dropped
    double factor = 1;            // every point of the exact front (over the searched segments)
                                  // has a reported point at most this factor above it in DRAM
                                  // accesses, buffer and MACs: the product of the steps' 1 + ε
    int64_t skipped_segments = 0; // segments of more than one layer not searched (time limit)
    bool exact() const { return thinned_steps == 0 && skipped_segments == 0; }
};

// One point of the network front. Counts as evaluate() reports them.
struct ExplorePoint {
    int64_t dram_accesses = 0;
    int64_t buffer_bytes = 0;
    int64_t macs = 0;
    int32_t node = -1; // rebuild information (ExploreResult::schedule): a link
};

struct ExploreResult {
    std::vector<ExplorePoint> front; // sorted by buffer, then DRAM accesses, then MACs
    int64_t evaluations = 0;         // closed-form layer evaluations (and model calls)
    int64_t combinations = 0;        // pairs of partial schedules costed while combining
                                     // (those a cheaper pair cannot beat are skipped)
    int64_t segments = 0;            // segments of the network
    int64_t segments_searched = 0;   // of them, searched (the others share an equal one's front)
    double seconds = 0;
    bool cancelled = false;
    bool worker = false; // a process of a distributed exploration other than the root: no front
    ExploreLimits limits;

    // The schedule of front point `k`: the default schedule with every layer's schedule
    // and every fused group of the point (strategy as explored).
    Schedule schedule(const Network& net, const Hardware& hw, size_t k) const;
    // The (segment layers, segment point) pairs that make up point `k`.
    std::vector<std::pair<const std::vector<LayerId>*, const SegmentPoint*>> parts(size_t k) const;

    // Rebuild information: a front point is a chain of links (one per sequence), each link
    // the head of a chain of nodes (one per segment of that sequence).
    struct Node {
        int32_t prev = -1;
        uint32_t segment = 0, point = 0;
    };
    struct Link {
        int32_t prev = -1, chain = -1;
    };
    std::vector<std::vector<LayerId>> segment_layers;                // per segment
    std::vector<std::shared_ptr<const SegmentFront>> segment_fronts; // per segment (shared)
    std::vector<Node> nodes;
    std::vector<Link> links;
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
