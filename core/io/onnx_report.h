// The ONNX import report as text and JSON: what became of every node (layers, folded
// batch-norm / activations / pre-processing, layout-only reshapes, merged padding, constant
// sub-graphs, opaque nodes and why) and how inputs were read. `layerfuse-cli convert
// --report` prints it; the studio's import dialog shows the same report.
#pragma once

#include "io/onnx_import.h"
#include "network/network.h"

#include <string>

namespace lf {

// Counts of nodes per fate, e.g. {layer: 60, folded: 150, ...}.
struct OnnxReportSummary {
    int nodes = 0;
    int per_fate[6] = {0, 0, 0, 0, 0, 0}; // indexed by OnnxNodeFate
};
OnnxReportSummary summarize(const OnnxImportReport& report);

// A readable summary: counts, inputs read as NHWC, folded operators grouped by type, layout
// and padding nodes, evaluated constants, opaque nodes with their reasons, warnings.
// `net` (may be null) adds the layer kinds and MACs of the imported network.
std::string onnxReportText(const OnnxImportReport& report, const std::string& file,
                           const Network* net);

// The same as JSON (nlohmann), one entry per node.
std::string onnxReportJson(const OnnxImportReport& report, const std::string& file,
                           const Network* net);

} // namespace lf
