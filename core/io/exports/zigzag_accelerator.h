// LayerFuse hardware as a ZigZag 3.8 accelerator (docs/exports.md "ZigZag"):
// DRAM -> global buffer -> per-PE register files -> the PE array as ZigZag's operational
// array, with LayerFuse's per-access energies converted to ZigZag's per-access costs.
//
// ZigZag counts a memory's accesses in units of its port width (bandwidth_max bits, with
// bandwidth_min as the granularity) and charges r_cost / w_cost per access. LayerFuse charges
// per element (docs/models/convfusion.md "Energy"). The export keeps the two equal:
// - register files (one per operand, one element per access): cost = pj_per_access;
// - global buffer and DRAM (shared by operands of different widths): bandwidth_min = the gcd
//   of the precisions, and r_cost = w_cost = (energy per word) x bandwidth_max / act_bits, so an
//   act_bits-wide element costs exactly the per-word energy. Wider elements (psum_bits) cost
//   proportionally more in ZigZag, one word in LayerFuse.
#pragma once

#include "hardware/hardware.h"

#include <cstdint>
#include <string>
#include <vector>

namespace YAML {
class Emitter;
}

namespace lf {

// One memory of the exported hierarchy (innermost first), as written.
struct ZigZagMemory {
    std::string name;                  // "rf_W", "rf_I", "rf_O", "rf", "global_buffer", "dram"
    std::vector<std::string> operands; // memory operands: "I1" (inputs), "I2" (weights), "O"
    int64_t size_bits = 0;
    int64_t bandwidth_min = 0, bandwidth_max = 0; // bits per cycle
    double cost = 0;                              // r_cost = w_cost, pJ per access
    bool per_pe = false;                          // served_dimensions: [] (one per PE)
};

struct ZigZagAcceleratorSpec {
    std::vector<ZigZagMemory> memories; // innermost first
    int cols = 1, rows = 1;             // operational array D1 (columns), D2 (rows)
    double mac_pj = 0;
    std::vector<std::string> notes; // what the hierarchy leaves out, one sentence each
};

// The hierarchy of `hw`. `sram_bits` sizes the buffer for the sqrt / banked energy models
// (LayerFuse's energy uses the schedule's peak footprint, docs/models); `with_dram` false
// leaves DRAM out (Stream describes it as a separate off-chip core).
ZigZagAcceleratorSpec zigzagAccelerator(const Hardware& hw, double sram_bits, bool with_dram);

// The body of an accelerator / core document: name, memories, operational_array (a map
// already begun by the caller is continued; keys are appended).
void emitZigZagAcceleratorBody(YAML::Emitter& out, const ZigZagAcceleratorSpec& spec,
                               const std::string& name);

// A whole accelerator YAML document (with DRAM).
std::string zigzagAcceleratorYaml(const Hardware& hw, double sram_bits);

} // namespace lf
