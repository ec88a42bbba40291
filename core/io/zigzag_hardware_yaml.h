// A ZigZag 3.8 accelerator YAML as LayerFuse hardware (docs/exports.md "ZigZag
// accelerators as hardware"): a ZigZag user brings their machine in one step, wherever a
// hardware file is accepted (`--hardware some.zigzag.yaml`, the studio's hardware import).
//
// ZigZag's keys are checked against its accelerator schema (zigzag/parser/
// accelerator_validator.py); what LayerFuse's hardware model has no place for — in-memory
// computing, costs left to CACTI, a memory that does not hold every operand at the top — is
// refused with FILE:LINE:COLUMN. The hierarchy maps onto LayerFuse's three levels:
// - DRAM: the top memory (it must hold I1, I2 and O); its port width gives the bandwidth,
//   r_cost / w_cost per port-wide access the energy per act_bits word;
// - buffer: the memories directly below DRAM (summed when operands have separate ones);
// - register file: the per-PE memories (served_dimensions []), each operand's its section,
//   a memory for several operands a shared pool; memories between these levels are left out
//   with a note;
// - PE array: the operational array (a third and fourth dimension multiply the rows),
//   unit_energy the MAC energy, `dataflows` (when given) the dataflow.
// ZigZag accelerators carry no operand widths: a per-PE memory of one operand whose ports
// move one element per access (bandwidth_min = bandwidth_max) gives that operand's width;
// the others are 8 bits (partial sums 16), as ZigZag's example workloads. Frequency, DRAM
// burst size and latency are LayerFuse's defaults. Every such choice is in the notes.
#pragma once

#include "hardware/hardware.h"
#include "util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace lf {

struct HardwareImport {
    Hardware hw;
    std::vector<std::string> notes; // what was left out or assumed, one sentence each
};

// True for a YAML text whose top level has ZigZag's `memories` and `operational_array` and
// no LayerFuse `format` (a cheap look at the document, for choosing the reader).
bool looksLikeZigZagAccelerator(std::string_view text);

Result<HardwareImport> readZigZagAcceleratorYaml(std::string_view text, const std::string& file);

// File ▸ Import Hardware and `--hardware FILE`: a hardware file of either kind, LayerFuse
// hardware YAML (no notes) or a ZigZag accelerator (with the notes of what was assumed).
Result<HardwareImport> importHardwareFile(const std::string& path);

} // namespace lf
