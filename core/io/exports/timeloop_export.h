// Per-layer Timeloop export (docs/exports.md "Timeloop"): the CNN-layer problem
// of one unfused conv or fc layer and a two-level mapping (DRAM, Buffer) built from its tile
// schedule, as Timeloop's C++ core reads it (checked against its parser: problem-shape.cpp,
// workload.cpp, mapping/parser.cpp, buffer.cpp, topology.cpp): keys with underscores,
// factors and permutations as plain strings, permutation letters innermost first, partial
// last tiles as residual factors.
//
// Dims: P = out_width (D_x), Q = out_height (D_y), K = out_channels (D_z), C = in_channels
// (D_i), R = kernel_width (D_m), S = kernel_height (D_n), N = batch; Wstride = S_x,
// Hstride = S_y, Wdilation / Hdilation = the layer's dilations. A grouped convolution is
// exported as one of its G identical groups (C = D_i/G, K = D_z/G), as the models cost it
// (docs/models/README.md, ConvFusion §VIII-C).
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lf {

// Timeloop's CNN-layer dims in the order factor strings list them.
inline constexpr std::array<char, 7> kTimeloopDims{'R', 'S', 'P', 'Q', 'C', 'K', 'N'};

// One storage level of the mapping: a temporal factor per dim (indexed like kTimeloopDims),
// the factor of the last iteration (Timeloop's residual, "P=5,1": a partial last tile; equal
// to the factor when the tile divides its dim) and the permutation, innermost loop first.
struct TimeloopLevel {
    std::array<int64_t, 7> factors{1, 1, 1, 1, 1, 1, 1};
    std::array<int64_t, 7> residuals{1, 1, 1, 1, 1, 1, 1};
    std::string permutation;
};

struct TimeloopLayerMapping {
    std::array<int64_t, 7> instance{1, 1, 1, 1, 1, 1, 1}; // indexed like kTimeloopDims
    int64_t w_stride = 1, h_stride = 1, w_dilation = 1, h_dilation = 1;
    int64_t groups = 1;   // G of the layer; the problem is one group
    TimeloopLevel dram;   // outer tile loops: ceil(D/T) per tiled dim, the batch
    TimeloopLevel buffer; // inner tile loops (T, the last one D - (ceil(D/T)-1)·T), the kernel
    // Departures from the schedule (a tile outside 1..D is clamped), one sentence each.
    std::vector<std::string> notes;
};

// Why a layer cannot be exported (empty when it can): Timeloop's CNN-layer problem covers
// conv and fc layers, and a layer fused with others has no single-layer mapping.
std::string timeloopUnsupportedReason(const Network& net, const Schedule& s, LayerId id);

// The problem instance and mapping of a conv / fc layer under `ls`.
TimeloopLayerMapping timeloopMapping(const Network& net, const Hardware& hw, LayerId id,
                                     const LayerSchedule& ls);

// "R=3 S=3 P=4 Q=4 C=4 K=4 N=1"; a residual that differs from its factor follows it after a
// comma ("P=5,1"), as Timeloop's mapping parser reads imperfect factors (v2.0 and later).
std::string timeloopFactorString(const TimeloopLevel& level);

// The YAML document (problem, architecture, mapping) of one layer; an error names the layer
// and the reason when it cannot be exported.
Result<std::string> exportTimeloopLayer(const Network& net, const Hardware& hw, const Schedule& s,
                                        LayerId id);

struct TimeloopFile {
    LayerId layer = kNoLayer;
    std::string file_name; // "<layer>.timeloop.yaml", made safe and unique
    std::string text;
};

struct TimeloopSkip {
    LayerId layer = kNoLayer;
    std::string reason;
};

struct TimeloopExport {
    std::vector<TimeloopFile> files;   // every exportable layer, in topological order
    std::vector<TimeloopSkip> skipped; // the compute layers left out and why
};

// Every unfused conv / fc layer of the network.
TimeloopExport exportTimeloop(const Network& net, const Hardware& hw, const Schedule& s);

} // namespace lf
