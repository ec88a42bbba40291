// Command-line options for reading ONNX models, shared by the commands that take a NETWORK.
#pragma once

#include "io/onnx_import.h"
#include "network/network.h"
#include "util/result.h"

#include <CLI/CLI.hpp>

#include <string>

namespace lf::cli {

struct OnnxCliOptions {
    std::string input_shape;        // "C,H,W" or "N,C,H,W"
    bool allow_unsupported = false; // load unmappable operators as opaque layers
};

// Adds --input-shape and --allow-unsupported to `sub`.
void addOnnxOptions(CLI::App* sub, OnnxCliOptions& o);

// resolveNetwork() with those options; errors carry a hint naming the option that helps.
// `report` (optional) receives the ONNX import report.
Result<Network> resolveNetworkArg(const std::string& arg, const OnnxCliOptions& o,
                                  OnnxImportReport* report = nullptr);

} // namespace lf::cli
