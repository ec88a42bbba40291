// Stream-style export (docs/file-formats.md "Stream export"): the network as a ZigZag/Stream
// workload (one entry per layer with dims B, K, C, OY, OX, FY, FX, G), a Stream mapping per
// layer (core_allocation, intra_core_tiling from the tile schedule, inter_core_tiling) and the
// fusion groups as Stream's `layer_stacks` (lists of workload ids), so that a fusion scheme
// chosen here can be re-checked in Stream.
//
// Dims: OX = out_width (D_x), OY = out_height (D_y), K = out_channels (D_z), C = in_channels
// (D_i), FX = kernel_width (D_m), FY = kernel_height (D_n), B = batch; grouped convs, pools and
// element-wise layers carry G (groups / channels) with K and C per group.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <string>
#include <vector>

namespace lf {

struct StreamExport {
    std::string text; // one YAML document: workload, mapping, layer_stacks, notes
    // Workload id of each layer (indexed by LayerId; -1 for layers that are not written).
    std::vector<int> workload_id;
    // Layers left out of the workload and how their consumers were wired, one sentence each
    // (also in the document's `notes`).
    std::vector<std::string> notes;
};

// Whether a layer becomes a Stream workload entry: conv (incl. grouped / depthwise), fc,
// pool, global_pool and add do; input, concat, mul, resize, deconv and opaque layers have no
// ZigZag operator and are left out (their consumers read from their first input).
bool isStreamLayer(const Layer& l);

StreamExport exportStream(const Network& net, const Hardware& hw, const Schedule& s);

} // namespace lf
