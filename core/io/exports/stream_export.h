// Stream export (docs/exports.md "Stream"): the input files of Stream 1.13
// (KU Leuven MICAS, main 28fb9011, version 1.13.14) for a network, its schedule and the
// hardware, as Stream's parsers read them (stream/parser/onnx/*, mapping_validator.py,
// mapping_factory.py, accelerator_validator.py, core_validator.py):
// - workload.onnx: the network as ONNX (io/onnx_export.h), node names = the names the
//   mapping uses; element types from the hardware's precisions (Stream takes an operand's
//   width from its tensor type); only the activations Stream parses;
// - mapping.yaml: `layers` — one entry per computation node with `core_allocation: [[0]]` —
//   and `fused_groups` — the schedule's fusion groups in order, each with its nodes and
//   Stream's `intra_core_tiling` of the group's output tile (`NODE.D<k>`, tile size);
// - accelerator.yaml: core 0 the PE array with its register files and global buffer
//   (ZigZag core, io/exports/zigzag_accelerator.h), core 1 the off-chip DRAM, linked by the
//   DRAM bandwidth.
#pragma once

#include "hardware/hardware.h"
#include "io/exports/export_files.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace lf {

// The Stream version the export is written for.
inline constexpr const char* kStreamVersion = "1.13.14";
inline constexpr const char* kStreamCommit = "28fb9011";

struct StreamExport {
    std::string workload; // workload.onnx (binary protobuf)
    std::string mapping;  // mapping.yaml
    std::string accelerator;
    std::vector<std::string> notes; // what was left out, one sentence each (also in headers)
};

// Why Stream cannot take the network: one sentence per layer whose operator Stream has no
// parser for or would cost wrongly (empty when it can).
std::vector<std::string> streamUnsupported(const Network& net);

// The three files; an error lists streamUnsupported when the network has such layers.
Result<StreamExport> exportStream(const Network& net, const Hardware& hw, const Schedule& s);

inline constexpr const char* kStreamWorkloadFile = "workload.onnx";
inline constexpr const char* kStreamMappingFile = "mapping.yaml";
inline constexpr const char* kStreamAcceleratorFile = "accelerator.yaml";

// File ▸ Export ▸ Stream and `export --format stream -o DIR`: writes the three files into
// `dir` (created when missing) and returns their paths and the notes; an error lists why
// Stream cannot take the network, or names the file that could not be written.
Result<WrittenExport> writeStreamExport(const std::string& dir, const Network& net,
                                        const Hardware& hw, const Schedule& s);

} // namespace lf
