// What every fusion-strategy model returns for one group: per-layer work, footprint and
// DRAM traffic, plus the DRAM transfers behind that traffic (their shapes matter to the
// burst-aware latency model, docs/models/README.md). Latency and energy are derived from this in
// models/evaluate.cpp, the same way for every strategy.
#pragma once

#include "metrics/metrics.h"
#include "network/dims.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

enum class TrafficKind : uint8_t { input, weight, output, psum };

// `count` transfers, each a box of `channels` × `rows` × `cols` elements out of a row-major
// C×H×W tensor whose rows are `row_width` elements long (weights: one contiguous block,
// rows = channels = 1, cols = row_width = the block size).
struct Transfer {
    TrafficKind kind = TrafficKind::input;
    int64_t count = 0;
    int64_t channels = 1, rows = 1, cols = 1;
    int64_t row_width = 1;
    int bits = 16;
    int64_t elements() const { return channels * rows * cols; }
};

struct LayerCost {
    LayerId id = kNoLayer;
    int64_t macs = 0;                        // including recompute
    int64_t recompute_macs = 0;              // work above the layer's plain MAC count
    int64_t buf_x = 0, buf_w = 0, buf_y = 0; // elements
    Traffic dram;                            // elements
    std::vector<Transfer> transfers;
    // Productions of this layer's (sub-)tile per group evaluation (1 for the last layer).
    int64_t productions = 1;
    // The dims the model used (a fused producer's output replaced by its consumers' tile,
    // ConvFusion §IV-E) and whether the layer was evaluated as fused into a successor.
    LayerDims dims;
    bool fused = false;
};

struct GroupCost {
    std::vector<LayerCost> layers; // in the group's (topological) layer order
    int64_t buffer_bits = 0;       // on-chip footprint of the whole group
    int64_t tiles = 1;             // output tiles of the group (pipeline steps)
    int64_t out_tile_h = 0, out_tile_w = 0;
    // Traffic and MACs are per image; with a batch of B the caller multiplies activations
    // by B and weights by B unless the strategy keeps weights across the batch (HW-Flow-
    // Fusion's Tb = B, weights resident).
    bool weights_batch_reused = false;
    std::vector<std::string> warnings;
};

// Bits of each traffic kind under a hardware's precisions.
int bitsOf(TrafficKind k, const Precision& p);

} // namespace lf
