// Metrics: every figure the studio shows, per layer, per group and for the network.
// Plain values produced by core::evaluate (models/evaluate.h); JSON/CSV writers in
// metrics/metrics_io.h follow docs/cli.md.
#pragma once

#include "hardware/hardware.h"
#include "network/layer.h"
#include "schedule/schedule.h"
#include "util/checked.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

// DRAM traffic split by array, in elements. Sums saturate (util/checked.h): over a whole
// network with recompute and a batch they can exceed 64 bits.
struct Traffic {
    int64_t input = 0, weight = 0, output = 0, psum = 0;
    int64_t total() const { return satAdd(satAdd(input, weight), satAdd(output, psum)); }
    Traffic& operator+=(const Traffic& o) {
        input = satAdd(input, o.input);
        weight = satAdd(weight, o.weight);
        output = satAdd(output, o.output);
        psum = satAdd(psum, o.psum);
        return *this;
    }
    friend bool operator==(const Traffic&, const Traffic&) = default;
};

// Bytes of a DRAM split at the hardware's precisions: inputs and outputs at act_bits, weights
// at weight_bits, partial sums at psum_bits (as Stoutchinin Eq. 4), not rounded.
inline double trafficBytes(const Traffic& t, const Precision& p) {
    return elementBytes(double(t.input + t.output), p.act_bits) +
           elementBytes(double(t.weight), p.weight_bits) +
           elementBytes(double(t.psum), p.psum_bits);
}

// Energy split by component, in pJ.
struct Energy {
    double mac = 0, rf = 0, sram = 0, dram = 0;
    double total() const { return mac + rf + sram + dram; }
    Energy& operator+=(const Energy& o) {
        mac += o.mac;
        rf += o.rf;
        sram += o.sram;
        dram += o.dram;
        return *this;
    }
    friend bool operator==(const Energy&, const Energy&) = default;
};

enum class Bound : uint8_t { compute, memory };
const char* toString(Bound b);

struct LayerMetrics {
    LayerId id = kNoLayer;
    std::string name;
    LayerType type = LayerType::conv;
    int group = -1; // index into Metrics::groups
    // ConvFusion loop dims of the layer (docs/models/README.md).
    int64_t out_width = 0, out_height = 0, out_channels = 0, in_channels = 0;
    int64_t kernel_width = 0, kernel_height = 0, stride_x = 1, stride_y = 1, groups = 1;
    int64_t macs = 0;                        // including recompute
    int64_t recompute_macs = 0;              // the part of `macs` that recomputes overlap
    int64_t ops = 0;                         // pool compares/adds, element-wise ops
    int64_t weights = 0;                     // weight elements
    int64_t buf_x = 0, buf_y = 0, buf_w = 0; // on-chip buffer, elements
    Traffic dram;                            // elements
    int64_t sram_rf_traffic = 0;             // SRAM<->RF elements (docs/models/convfusion.md)
    int64_t compute_cycles = 0;
    int64_t memory_cycles = 0;
    double utilization = 0; // MACs / (cycles · PEs of its partition)
    int64_t pes = 0;        // PEs the layer runs on
    Energy energy;
};

struct GroupMetrics {
    std::string name;
    std::vector<LayerId> layers;
    Strategy strategy = Strategy::recompute;
    PartitionKind partition = PartitionKind::temporal;
    int64_t macs = 0, recompute_macs = 0, ops = 0;
    Traffic dram; // elements
    int64_t dram_bytes = 0;
    int64_t buffer_bytes = 0; // on-chip footprint of the group
    bool fits = true;         // buffer_bytes <= capacity
    int64_t compute_cycles = 0, memory_cycles = 0, latency_cycles = 0;
    Bound bound = Bound::compute;
    Energy energy;
    double ctc = 0; // MACs per DRAM byte (computation-to-communication)
    double utilization = 0;
    int64_t out_tile_h = 0, out_tile_w = 0; // reuse/optimus: the tile used
    std::vector<std::string> warnings;      // e.g. validity problems (group still evaluated)
};

struct Totals {
    int64_t macs = 0, recompute_macs = 0, ops = 0;
    Traffic dram;
    int64_t dram_accesses = 0;
    int64_t dram_bytes = 0;
    int64_t buffer_peak_bytes = 0, buffer_capacity_bytes = 0;
    bool fits = true;
    int64_t latency_cycles = 0, compute_cycles = 0, memory_cycles = 0;
    double latency_s = 0;
    Bound bound = Bound::compute;
    Energy energy;
    double ctc = 0;
    double utilization = 0;
    // A figure exceeded 2^63 − 1 (deep recompute chains, a large batch) and is shown as that
    // value, not exactly; the groups concerned say so in their warnings.
    bool saturated = false;
};

struct Metrics {
    std::string network;
    std::string hardware;
    Totals totals;
    std::vector<GroupMetrics> groups;
    std::vector<LayerMetrics> layers; // compute layers in topological order
    // Index into `layers` by LayerId (-1 for non-compute layers).
    std::vector<int32_t> layer_index;

    const LayerMetrics* layer(LayerId id) const {
        if (id < 0 || size_t(id) >= layer_index.size() || layer_index[size_t(id)] < 0)
            return nullptr;
        return &layers[size_t(layer_index[size_t(id)])];
    }
};

} // namespace lf
