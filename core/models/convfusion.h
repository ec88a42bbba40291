// ConvFusion single-layer model — Waeijen et al., "ConvFusion: A Model for Layer Fusion in
// CNNs", IEEE Access 2021, ConvFusion §IV-A..D; docs/models/convfusion.md.
//
// For a layer schedule (loop order, tiles, store/compute levels) the closed form gives the
// on-chip footprint Buf, the volume Vol moved per transfer, the number of transfers Trans
// and the external accesses Acc = Vol · Trans of the input X, weight W and output Y arrays.
//
// Readings (docs/models/convfusion.md): F (folded loops) is inclusive of the compute level and
// exclusive of the store level; OVol uses LT; input windows are clipped to the real input
// (padding is generated on chip); a layer with g groups is g independent convs of
// D_i/g -> D_z/g channels whose accesses and MACs add up while buffers are per group.
#pragma once

#include "network/dims.h"
#include "schedule/schedule.h"

#include <cstdint>

namespace lf {

struct CfLayerCost {
    // Per group (the footprint is what one group slice needs at a time), elements.
    int64_t buf_x = 0, buf_w = 0, buf_y = 0;
    int64_t vol_x = 0, vol_w = 0;
    int64_t trans_x = 0, trans_w = 0;
    // Whole layer (all groups, all X arrays), elements.
    int64_t acc_x = 0, acc_w = 0;
    int64_t acc_y_out = 0;  // final outputs written once
    int64_t acc_y_psum = 0; // partial sums written and re-read: D_x·D_y·D_z·2(⌈D_i/T_i⌉−1)
    int64_t macs = 0;       // MACs of one evaluation (no recompute)
    // Extent of one X transfer (Vol_X) in x and y and its channels: what a fused producer
    // must produce per transfer (ConvFusion §IV-E substitution).
    int64_t ext_x = 0, ext_y = 0, ext_c = 0;
    int64_t accY() const { return acc_y_out + acc_y_psum; }
};

// `fused`: the layer is a producer inside a fusion segment (its fuse target is a
// successor): i is not tiled, Y never leaves the chip (FuseSel of ConvFusion §IV-A).
CfLayerCost convFusionLayer(const LayerDims& d, const LayerSchedule& s, bool fused);

// The tile sizes actually used: clamped to [1, D] per group; a fused layer's T_i is D_i.
std::array<int64_t, 4> effectiveTiles(const LayerDims& d, const LayerSchedule& s, bool fused);

} // namespace lf
