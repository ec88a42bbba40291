// The stages of one segment's search (search/segment_search.h), ConvFusion §IV-E chaining
// walked from the segment's last layer up to its first.
//
// A stage holds, for one layer and every demand it makes on its producer (the tile extents
// of §IV-E), the Pareto-optimal partial schedules of that layer and all below it on
// (DRAM accesses, buffer, MACs, P = productions of the producer). A producer stage pairs
// every point of the deeper stage with every option of the producer for the point's demand.
//
// Branch and bound (docs/models/convfusion.md), exact: every producer option for every demand the
// segment can meet is enumerated first (SegmentSpace::buildOptions); walking these option
// graphs top down gives, per (layer, demand), the Pareto front of what a production of that
// layer and all above it costs — three costs, since a consumer's P scales accesses and MACs
// alike for all of them — and joining those with the last layer's points gives the costs of
// the segment's front (completeFront), with every way of reaching them. The stages then form
// only the partial schedules on those ways (restrictLast, usefulStage): every schedule at a
// front cost is still built, by the same steps and filters as in an unpruned search, so the
// same schedule represents each front point; the rest — most of the search — is never formed.
#pragma once

#include "search/layer_space.h"
#include "search/segment_search.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lf::segment {

// What a consumer demands of its producer (ConvFusion §IV-E): the tile extents and, for a grouped
// producer, the number of its groups the tile spans (0 otherwise).
struct Demand {
    int64_t x = 0, y = 0, groups = 0;
    auto operator<=>(const Demand&) const = default;
};

struct Choice {
    uint16_t structure = 0;
    std::array<int64_t, 4> tiles{};
};

struct Partial {
    int64_t acc = 0, buf = 0, macs = 0, P = 1;
    uint32_t parent = 0;        // index into the next-deeper stage's points
    uint32_t task = 0, tag = 0; // where a pruned stage keeps the point's completions
    Choice choice;              // this layer's schedule
};

struct Option {
    int64_t acc = 0, buf = 0, mult = 1; // per production; mult = Trans_X·G
    Choice choice;
};

struct Stage {
    std::vector<Partial> points; // grouped by demand, in demand order
    std::vector<std::pair<Demand, std::pair<uint32_t, uint32_t>>> buckets;
};

using Cost = std::array<int64_t, 3>; // accesses, buffer bits, MACs

// A producer's options for one demand on it.
struct Options {
    int64_t macsPer = 0; // MACs per production
    // Per demand the option makes on the producer above (the first layer: one, empty), the
    // options Pareto-optimal on (accesses, buffer, mult), in that order.
    std::vector<std::pair<Demand, std::vector<Option>>> byDemand;
    std::vector<uint32_t> groupStart; // flat index of each group's first option

    // The group and the option of a flat index.
    std::pair<size_t, const Option*> flat(uint32_t f) const {
        const size_t g =
            size_t(std::upper_bound(groupStart.begin(), groupStart.end(), f) - groupStart.begin()) -
            1;
        return {g, &byDemand[g].second[f - groupStart[g]]};
    }
};

// A point of a top-down front: its cost, and the option of the layer and the point of the
// front above it that make it (one of several, when costs tie).
struct UpPoint {
    Cost cost;
    uint32_t option = 0; // index into Options::flat()
    uint32_t up = 0;     // index into the front of the layer above for that option's demand
    auto operator<=>(const UpPoint&) const = default;
};

// A complete schedule of the segment at a front cost: a last-layer point and a front point
// of the layers above it.
struct JoinPoint {
    Cost cost;
    uint32_t point = 0, up = 0;
    auto operator<=>(const JoinPoint&) const = default;
};

// Per point of a stage, the points of the front above (for its demand) that complete it at a
// cost of the segment's front.
using UsefulSets = std::vector<std::vector<uint32_t>>;

// Producer options shared by every segment search of one exploration (the same hardware and
// options): a layer's options for a demand depend only on its dims, its producer's dims (which
// turn its tiles into demands) and whether weights are resident — DMCNN-VD's 64→64 layers
// meet the same demands in every segment they are in.
class OptionCache {
  public:
    struct Key {
        LayerDims real, producer; // producer: the layer itself for the first layer
        bool first = false, resident = false;
        Demand demand;
        bool operator==(const Key&) const = default;
    };
    std::shared_ptr<const Options> find(const Key& k) const;
    // Stores `o` unless the key is there already; returns what is stored.
    std::shared_ptr<const Options> insert(const Key& k, Options o);
    // Empties the cache, freeing the options on the pool's threads (millions of small blocks
    // whose freeing would otherwise hold up one thread at the end of the exploration).
    void release(WorkPool* pool);

  private:
    struct Hash {
        size_t operator()(const Key& k) const;
    };
    mutable std::mutex mutex_;
    std::unordered_map<Key, std::shared_ptr<const Options>, Hash> map_;
};

class SegmentSpace {
  public:
    SegmentSpace(const Network& net, const Hardware& hw, const std::vector<LayerId>& chain,
                 const SegmentSearchOptions& opt, bool resident, const std::atomic<bool>* cancel,
                 OptionCache* cache = nullptr);

    size_t layers() const { return dims_.size(); }
    bool resident() const { return resident_; }
    const LayerDims& dims(size_t k) const { return dims_[k]; }
    int64_t evaluations() const { return evals_.load(); }

    // The last layer's schedules, Pareto-filtered per demand (a lone layer: per nothing).
    bool lastStage(Stage& out);
    // Every producer's options for every demand reachable from `last`.
    bool buildOptions(const Stage& last);
    // After buildOptions: every producer's front of what a production of it and of all above
    // it costs, per demand — top down, ties kept with what makes them — joined with the last
    // layer's points. Returns the pairs at costs no other pair beats (ties kept); empty when a
    // sum overflowed (then nothing can be pruned).
    std::vector<JoinPoint> completeFront(const Stage& last);
    // Keeps the points of the last stage that some pair of `useful` completes (`sets`: how).
    void restrictLast(Stage& last, const std::vector<JoinPoint>& useful, UsefulSets& sets) const;
    // Stage k from stage k + 1, only along the completions of `deeperSets`: what an unpruned
    // producerStage() would keep of those points, in the same order.
    bool usefulStage(size_t k, const Stage& deeper, const UsefulSets& deeperSets, Stage& out,
                     UsefulSets& outSets);
    // Stage k from stage k + 1.
    bool producerStage(size_t k, const Stage& deeper, Stage& out);

  private:
    bool cancelled() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }
    std::shared_ptr<const Options> optionsFor(size_t k, const Demand& d);
    Options enumerateOptions(size_t k, const Demand& d);
    // A producer's candidate from a deeper point and an option (false: overflow or no fit).
    bool candidate(size_t k, const Options& options, const Partial& sp, uint32_t q, const Option& o,
                   Partial& p) const;

    const SegmentSearchOptions& opt_;
    const std::atomic<bool>* cancel_;
    bool resident_;
    int64_t B_, ab_, wb_, pb_, cap_;
    std::vector<LayerDims> dims_;
    std::vector<int64_t> weightsUpTo_; // Σ resident weights of layers 0..k
    OptionCache* cache_;
    std::vector<std::map<Demand, std::shared_ptr<const Options>>> options_; // [k]: per demand
    std::vector<std::map<Demand, std::vector<UpPoint>>> up_; // [k]: fronts of layers k..0
    std::atomic<int64_t> evals_{0};
};

} // namespace lf::segment
