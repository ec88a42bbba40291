// HW-Flow-Fusion — Valpreda et al., "HW-Flow-Fusion: Inter-Layer Scheduling for CNN
// Accelerators with Dataflow Architectures", Electronics 2022, HWFF §3.3-4.3;
// docs/models/hw-flow-fusion.md.
//
// Single layers use the output-reuse loop order (HWFF Eq. 1-3). Fused groups keep all channels
// of intermediate layers (Tif = Nif, Tof = Nof), propagate the output tile bottom-up with
// HWFF Eq. 4, allocate HWFF Eq. 5's fusion buffer plus one zero-recompute reuse buffer per
// intermediate input (HWFF Eq. 8) and move only the top input, every weight once and the bottom
// output (HWFF Eq. 6). MACs equal the unfused count (multi-tiling, HWFF Eq. 10-13).
#pragma once

#include "hardware/hardware.h"
#include "models/group_cost.h"
#include "network/dims.h"

#include <cstdint>
#include <vector>

namespace lf {

// HWFF Eq. 1-3 for one layer with tiling factors (Tox, Toy, Tof, Tif, Tb).
struct HwffTiling {
    int64_t tox = 1, toy = 1, tof = 1, tif = 1, tb = 1;
};
struct HwffLayerCost {
    int64_t input_buffer = 0, output_buffer = 0, weight_buffer = 0; // HWFF Eq. 1 (elements)
    int64_t input_fetch = 0, weight_fetch = 0, output_write = 0;    // HWFF Eq. 2
    int64_t volume = 0;                                             // HWFF Eq. 3
    int64_t tix = 0, tiy = 0;
};
HwffLayerCost hwffLayer(const LayerDims& d, const HwffTiling& t, int64_t batch);

// HWFF Eq. 8: reuse buffer for horizontal (x) processing, read as (Nix − Tix)·(Nky − Sy)·Nif
// (docs/models/hw-flow-fusion.md), and its vertical twin (Niy − Tiy)·(Nkx − Sx)·Nif. Never
// negative.
int64_t reuseBufferX(int64_t nix, int64_t tix, int64_t nky, int64_t sy, int64_t nif);
int64_t reuseBufferY(int64_t niy, int64_t tiy, int64_t nkx, int64_t sx, int64_t nif);
// HWFF Eq. 9: the extra sequential overlap kept by Alwani et al.'s reuse model. Horizontal
// processing adds reuse overhead y = (Tiy − (Nky − Sy))·(Nkx − Sx)·Nif to reuse buffer x (the
// Nkx − Sx columns shared with the next tile of the row, minus the rows reuse buffer x
// already holds); vertical processing adds reuse overhead x = (Tix − (Nkx − Sx))·(Nky − Sy)·Nif
// to reuse buffer y. Never negative.
int64_t alwaniOverheadY(int64_t tiy, int64_t nky, int64_t sy, int64_t nkx, int64_t sx, int64_t nif);
int64_t alwaniOverheadX(int64_t tix, int64_t nkx, int64_t sx, int64_t nky, int64_t sy, int64_t nif);

// HWFF Eq. 10-13: MACs of a layer computed with the multi-tiling tile set (which equals the
// standard count whenever the tiles cover the map exactly once).
int64_t multiTilingMacs(const LayerDims& d, int64_t tox, int64_t toy);

enum class ReuseModel : uint8_t { hwff, alwani };

// A fused group under the `reuse` strategy (zero recompute). A single-layer group uses
// HWFF Eq. 1-3 with the layer's tiles. `model` selects the reuse-buffer model.
GroupCost flowFusionGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                          const FusionGroup& group, ReuseModel model = ReuseModel::hwff);

// HWFF §4.3.1: the spatial partitions the paper enumerates for `n` layers — one rectangular
// sub-array per layer, widths and heights divisors of PEx and PEy, no overlap: side-by-side
// column strips, stacked row strips, and every guillotine packing of the whole array into
// divisor-sized pieces (e.g. a half and two quarters) in every assignment to layers; with
// `min_rows` > 1 sub-arrays lower than that are dropped (row-stationary needs rows ≥ the
// kernel height). Listed in a deterministic order; at most `limit` partitions.
std::vector<std::vector<SubArray>>
enumerateSpatialPartitions(int n, int pex, int pey, int min_rows = 1, size_t limit = 100000);

} // namespace lf
