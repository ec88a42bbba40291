// ZigZag export (docs/exports.md "ZigZag"): the three input files of ZigZag 3.8's
// `get_hardware_performance_zigzag(workload, accelerator, mapping)` for a network, its
// schedule and the hardware:
// - workload.yaml: every layer ZigZag has an operator for (zigzag_workload.h);
// - accelerator.yaml: DRAM -> global buffer -> per-PE register files -> PE array
//   (zigzag_accelerator.h);
// - mapping.yaml: per layer the dataflow's spatial mapping and the schedule's complete
//   temporal ordering (zigzag_mapping.h), the memory operand links, and a `default` entry.
// What ZigZag cannot express is written in each file's header: store levels (ZigZag
// allocates loops to memories itself, innermost first, as far as each memory holds them)
// and fusion groups (ZigZag costs every layer alone, from DRAM to DRAM).
#pragma once

#include "hardware/hardware.h"
#include "io/exports/export_files.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace lf {

struct ZigZagExport {
    std::string workload, accelerator, mapping; // the three YAML documents
    std::vector<int> workload_id;               // by LayerId; -1 for layers not written
    // What the files leave out or approximate, one sentence each (also in their headers).
    std::vector<std::string> notes;
};

ZigZagExport exportZigZag(const Network& net, const Hardware& hw, const Schedule& s);

// File names inside the export directory.
inline constexpr const char* kZigZagWorkloadFile = "workload.yaml";
inline constexpr const char* kZigZagAcceleratorFile = "accelerator.yaml";
inline constexpr const char* kZigZagMappingFile = "mapping.yaml";

// File ▸ Export ▸ ZigZag and `export --format zigzag -o DIR`: writes the three files into
// `dir` (created when missing) and returns their paths and the notes; an error names the file
// that could not be written.
Result<WrittenExport> writeZigZagExport(const std::string& dir, const Network& net,
                                        const Hardware& hw, const Schedule& s);

} // namespace lf
