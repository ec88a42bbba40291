// How large a layer's figures may be, checked once when a network is built, so that the
// per-layer closed forms (ConvFusion §IV-A..D, HWFF Eqs. 1-3, Optimus Eqs. 3-4,
// TSO Eqs. 1-9) run on plain 64-bit integers without a check in their inner loops.
//
// layerFigureBound() is an upper bound, in exact arithmetic, of every figure the models
// compute for one image of one layer under any schedule: tensor elements, weights, MACs,
// ops, buffers and the DRAM accesses of every array with every tile size (the worst tiles
// cost at most twice the unit tiles per tiled dimension, and an input window times its
// trip count stays within D·min(in, 2·max(S, E)) per axis; docs/model-notes.md derives it).
// A network whose bound exceeds kPerLayer for a layer, or kPerNetwork summed over its
// layers, is refused at the dimension that causes it. Figures that grow with the schedule
// (recompute chains, batch) use saturating arithmetic in the models instead (util/checked.h).
#pragma once

#include "network/dims.h"
#include "util/checked.h"
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <string>

namespace lf {

struct FigureLimits {
    // 2^52 per layer leaves 2^11 of headroom for precisions (≤ 64 bits) and the sum of a
    // layer's arrays before 2^63; 2^56 for the network keeps its sums exact at 64 bits.
    static constexpr int64_t kPerLayer = int64_t(1) << 52;
    static constexpr int64_t kPerNetwork = int64_t(1) << 56;
};

// The bound described above for a layer reading `operands` tensors (not ok() when the
// bound itself does not fit 64 bits).
CheckedInt layerFigureBound(const LayerDims& d, int64_t operands);

// Checks every layer of a built network against kPerLayer and their sum against
// kPerNetwork. `where(id)` says where layer id's dimensions were written (asked only for
// the layer refused; unknown positions fall back to the layer's own).
Status checkFigureLimits(const Network& net, const std::string& file,
                         const std::function<DimPos(LayerId)>& where);

} // namespace lf
