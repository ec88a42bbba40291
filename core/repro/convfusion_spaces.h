// ConvFusion's view of a network and its four scheduling spaces (ConvFusion §V-B, ConvFusion §VI)
// for the reproduction of ConvFusion Figs. 6, 7, 9-14 and the ConvFusion §VI-B reductions.
//
// ConvFuser costs regular convolutions only: "any non-convolutional layers are evaluated
// directly by Keras/TensorFlow" (ConvFusion §V-B), and dense and depthwise layers are named as
// future extensions of the models (ConvFusion §VIII-C). So the view keeps every regular convolution
// and fuses only along chains of them ("consecutive layers without forks or joins",
// ConvFusion §V-A1); pooling, element-wise, depthwise and dense layers end a sequence and cost
// nothing.
//
// The spaces (ConvFusion §VI): 1) Baseline — ConvFusion Code 1's loop order (z, y, x, i), no
// tiling, any store and compute levels; 2) Tiling & Reorder — divisor tiles, every order and level,
// no fusion; 3) Goetschalckx — fusion without recompute (weights may also stream here, which only
// adds points); 4) Fusion & Recomputation — fusion with recompute and weight tiling. The
// exploration calls live here, in one place.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/pareto.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace lf::repro {

// The regular convolutions of `net` as independent chains, each from its own input (layer
// names kept). `chains` receives the sequences by layer name.
Network convolutionView(const Network& net, std::vector<std::vector<std::string>>* chains);

enum class CfSpace : uint8_t { baseline, tiling, goetschalckx, fusion };
const char* toString(CfSpace s);

struct CfFrontPoint {
    double buffer_elements = 0; // on-chip footprint, features (bytes / bytes per element)
    double dram = 0;            // external accesses, elements
    double macs = 0;
    int64_t index = -1; // point of the exploration (-1 for the baseline)
};

struct CfFront {
    CfSpace space = CfSpace::fusion;
    std::vector<CfFrontPoint> points; // sorted by buffer
    ExploreResult explored;           // empty for the baseline
};

// The front of one space. `max_depth` bounds fusion, `tiles` the tile set (ConvFusion §VI uses
// divisors).
CfFront exploreSpace(const Network& net, const Hardware& hw, CfSpace space, int max_depth,
                     TileSet tiles, const std::atomic<bool>* cancel);

// The extreme points of ConvFusion §VI-B on the convolution view: every layer alone with all its
// data loaded once (the least accesses without fusion) and every chain fused with full tiles and
// resident weights (the least with fusion). Schedules are for `net` itself (groups named
// after their layers), so they open in the studio.
struct CfExtremes {
    int64_t tiling_min = 0, fusion_min = 0;
    Schedule fused; // on the original network
};
CfExtremes extremePoints(const Network& net, const Hardware& hw);

} // namespace lf::repro
