// TSO slicing search — Sousa et al., "Efficient Tensor Slicing for Multicore NPUs using
// Memory Burst Modeling" TSO Alg. 1-3 with the tile fit of TSO Eq. 2, the transfer
// counts of TSO Eq. 3-5, MAC time (TSO Eq. 7-8) and burst-aware DRAM time (TSO Alg. 4, TSO Eq. 9);
// docs/models/tso.md. For every conv of a network on a multicore preset (hardware with
// `cores`), the best of KS | KS&OFM | OFM (TSO Alg. 2) × IS | OS | WS (TSO §IV-D) and its tile.
//
// TSO Alg. 3's triple loop over T_R, T_C, T_N is exact on a reduced set: among tile sizes that
// give the same tile counts (⌈TLE_R/T_R⌉ and ⌈R/T_R⌉, ⌈C/T_C⌉, ⌈N/T_N⌉) the smallest has
// the same transfer counts and MAC tiles with smaller boxes, so no larger one is faster —
// except where a box starts to span full rows (fewer bursts): the T_C whose input columns
// reach the whole row width is kept too. T_M is TSO Alg. 3's GETFILTERS: the most filters of
// the TLT's share that fit MB1 and MB2 (IS needs all of them: its W tile holds every
// filter of the TLT), spread evenly. T_CONV = T_MAC + T_DRAM (TSO Eq. 6; T_SW is not modelled).
#pragma once

#include "hardware/hardware.h"
#include "models/tso_latency.h"
#include "network/network.h"
#include "search/search_types.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace lf {

struct TsoSearchOptions {
    bool burst_aware = true; // TSO-burst (else TSO-noburst)
    bool exhaustive = false; // TSO Alg. 3's full loops (every T_R, T_C, T_N) — for checking
    // A fixed TLE partitioning or TLT schedule for every conv (TSO §VI "Fixed TLE/TLT
    // partitioning"); unset: TSO Alg. 1 tries all three.
    std::optional<TlePartition> partition;
    std::optional<TltSchedule> schedule;
};

struct TsoLayerChoice {
    LayerId id = kNoLayer;
    TlePartition partition = TlePartition::ks;
    TltSchedule schedule = TltSchedule::is;
    TleSlice slice;
    TsoTile tile;
    double mac_cycles = 0, dram_cycles = 0;
    double time_cycles = 0; // TSO Eq. 6: T_MAC + T_DRAM
    bool fits = false;      // some tile meets TSO Eq. 2
    int64_t evaluated = 0;  // tiles costed
};

struct TsoSearchResult {
    std::vector<TsoLayerChoice> layers; // the convs (and fc) in topological order
    double total_cycles = 0;
    int64_t evaluated = 0;
    double seconds = 0;
    bool cancelled = false;
};

// #MACs of one TLT core (TSO Eq. 7): the PE array's MACs shared by the TLE × TLT cores (the NMP
// preset describes its 32 cores as a 8 × 4 array of 6-MAC units), as models/evaluate.cpp.
int64_t tsoMacsPerCore(const Hardware& hw);

// The time of one slicing (TSO Eq. 6: T_MAC of TSO Eq. 7-8 + T_DRAM of TSO Eq. 9 with TSO Alg. 4
// under the burst or the no-burst model), as the search costs it. `fits` is false when the tile
// breaks TSO Eq. 2. A slicing chosen under one DRAM model can be timed under the other.
TsoLayerChoice tsoSlicingTime(const TsoConv& conv, const Hardware& hw, TlePartition p,
                              TltSchedule q, const TsoTile& tile, bool burst_aware);

// TSO Alg. 1 for one conv.
TsoLayerChoice tsoBestSlicing(const TsoConv& conv, const Hardware& hw, const TsoSearchOptions& opt);

// TSO Alg. 1 for every conv and fc layer of a network. Empty when the hardware has no `cores`.
TsoSearchResult tsoSearch(const Network& net, const Hardware& hw, const TsoSearchOptions& opt = {},
                          const SearchControl& control = {});

} // namespace lf
