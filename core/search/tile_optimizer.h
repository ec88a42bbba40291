// Tile optimizer — for a layer or a fusion group, the tiles, loop order and store/compute
// levels (ConvFusion Table 2, ConvFusion §III) that minimize an objective under the buffer
// capacity, with branch and bound on the capacity (docs/models/convfusion.md).
//
// A single layer (a group of one, recompute strategy, weights streamed) is searched
// exhaustively over its tile set × 24 orders × the level space: every structure and tile
// vector is costed with the closed form and the DRAM time, compute time and energy that
// evaluate() derives from it (SingleLayerCoster equals evaluate's figures for the group).
// A fused recompute chain takes the minimum over its Pareto front under the capacity
// (search/segment_search.h): exact for DRAM accesses and energy, which grow with accesses,
// buffer and MACs; for latency and EDP the front's points are compared (a schedule off the
// front could move its transfers in fewer bursts). Reuse and Optimus groups search their
// output tile (and a single layer's channel tiles). Any other recompute group (not a
// chain) is improved by one round of coordinate descent over its layers (orders with i
// innermost, levels with CL = SL, powers of two in y and x) — a local search.
//
// Energy sizes the SRAM to the group's own buffer (ConvFusion §VII sizes it to the
// schedule's footprint; evaluate uses the network's peak).
#pragma once

#include "hardware/hardware.h"
#include "models/convfusion.h"
#include "models/evaluate.h"
#include "models/rf_level.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/search_types.h"

#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace lf {

namespace detail {
struct GroupEval;
}

struct TileSearchOptions {
    Objective objective = Objective::dram;
    TileSet tiles = TileSet::divisors;
    LevelSpace levels = LevelSpace::sound;
    int64_t capacity_bytes = -1; // < 0: the hardware's buffer
    bool burst_aware = true;     // latency with TSO's burst-aware DRAM time
};

// Objective value of an evaluated group: accesses, pJ, cycles or pJ·cycles.
double groupObjectiveValue(const detail::GroupEval& ev, const Hardware& hw, Objective o);

// evaluate()'s figures for a layer alone in a recompute group (temporal, whole array,
// weights streamed), computed from the closed form without building a group. Not shared
// between threads (it caches the register-file level per loop order).
class SingleLayerCoster {
  public:
    SingleLayerCoster(const Network& net, const Hardware& hw, LayerId id,
                      const std::optional<Dataflow>& unroll, bool burst_aware);
    struct Figures {
        int64_t dram = 0; // elements, batch applied
        int64_t buffer_bits = 0;
        int64_t latency_cycles = 0;
        double energy_pj = 0;
    };
    // `T` the effective tiles (per group for z and i), `order` the loop order (the register-file
    // level depends on it). `full` = false fills dram and buffer_bits only.
    Figures figures(const CfLayerCost& c, const std::array<int64_t, 4>& T,
                    const std::array<Dim, 4>& order, bool full = true) const;
    double objective(const Figures& f, Objective o) const;
    const LayerDims& dims() const { return d_; }

  private:
    double rfWords(const std::array<Dim, 4>& order) const;

    const Hardware& hw_;
    LayerDims d_;
    LayerType type_;
    int64_t B_ = 1, nInputs_ = 1, compute_ = 0, plainMacs_ = 0;
    bool tsoCompute_ = false;
    bool burst_ = true;
    bool rf_ = false;
    ArrayUnroll unroll_;
    mutable std::map<std::array<Dim, 4>, double> rfByOrder_; // SRAM↔RF words, batch applied
};

struct LayerTileResult {
    LayerSchedule schedule;
    double objective = 0;
    int64_t dram_accesses = 0;
    int64_t buffer_bytes = 0;
    bool fits = false; // false: nothing fits; the schedule is the smallest-buffer one found
    int64_t evaluations = 0;
    bool cancelled = false;
};

LayerTileResult optimizeLayerTiles(const Network& net, const Hardware& hw, LayerId id,
                                   const TileSearchOptions& opt, const SearchControl& control = {});

struct GroupTileResult {
    FusionGroup group; // weights residency / output tile as chosen
    std::vector<std::pair<LayerId, LayerSchedule>> layers;
    double objective = 0;
    bool fits = false;
    int64_t evaluations = 0;
    bool cancelled = false;
};

GroupTileResult optimizeGroupTiles(const Network& net, const Hardware& hw, const Schedule& sched,
                                   const FusionGroup& group, const TileSearchOptions& opt,
                                   const SearchControl& control = {});

struct ScheduleTileResult {
    Schedule schedule;
    int64_t evaluations = 0;
    bool cancelled = false; // the groups done so far are optimized, the rest unchanged
};

// Every group of a schedule optimized in turn (progress per group).
ScheduleTileResult optimizeScheduleTiles(const Network& net, const Hardware& hw,
                                         const Schedule& sched, const TileSearchOptions& opt,
                                         const SearchControl& control = {});

} // namespace lf
