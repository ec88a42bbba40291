// A network as ZigZag's workload (ZigZag 3.8 workload YAML, docs/exports.md
// "ZigZag"): one entry per layer with ZigZag's dims B, K, C, OY, OX, FY, FX, G.
//
// Dims: OX = out_width (D_x), OY = out_height (D_y), K = out_channels (D_z), C = in_channels
// (D_i), FX = kernel_width (D_m), FY = kernel_height (D_n), B = batch; grouped convs carry G
// with K and C per group; depthwise convs, pools and element-wise layers carry G = channels,
// as the models cost them (ConvFusion §VIII-C: g independent convs).
#pragma once

#include "hardware/hardware.h"
#include "network/dims.h"
#include "network/network.h"

#include <cstdint>
#include <string>
#include <vector>

namespace YAML {
class Emitter;
}

namespace lf {

// How a layer is written: the loop dims and equation of each form.
enum class ZigZagForm { conv, grouped_conv, depthwise_conv, pool, add };

// One loop dim of a ZigZag layer and its size.
struct ZigZagLoop {
    std::string dim; // "B", "G", "K", "C", "OY", "OX", "FY", "FX"
    int64_t size = 1;
};

// Whether a layer becomes a ZigZag workload entry: conv (incl. grouped / depthwise), fc,
// pool, global_pool and add do; input, concat, mul, resize, deconv and opaque layers have no
// ZigZag operator and are left out (their consumers read from their first input).
bool isZigZagLayer(const Layer& l);
// Why a layer that is not an input is left out of the workload (one clause).
std::string zigzagSkipReason(const Layer& l);

ZigZagForm zigzagForm(const Layer& l, const LayerDims& d);
// The layer's loop dims in ZigZag's order with their sizes (B = the hardware's batch).
std::vector<ZigZagLoop> zigzagLoops(const Network& net, const Hardware& hw, LayerId id);

// Workload ids: 0, 1, 2, ... for the ZigZag layers in topological order, -1 for the rest
// (indexed by LayerId).
std::vector<int> zigzagWorkloadIds(const Network& net);

// One workload entry (a YAML map) of layer `id`; `wid` from zigzagWorkloadIds.
void emitZigZagWorkloadLayer(YAML::Emitter& out, const Network& net, const Hardware& hw, LayerId id,
                             const std::vector<int>& wid);

// Layers left out of the workload and how their consumers were wired, one sentence each.
std::vector<std::string> zigzagWorkloadNotes(const Network& net);

} // namespace lf
