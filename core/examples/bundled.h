// The bundled examples (bundled/bundled_files.h) read as networks and hardware, and the
// NETWORK / HW arguments of the CLI and the studio: a file path or a bundled short name.
#pragma once

#include "bundled/bundled_files.h"
#include "hardware/hardware.h"
#include "io/onnx_import.h"
#include "network/network.h"
#include "util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace lf {

Result<Network> loadBundledNetwork(std::string_view name);
Result<Hardware> loadBundledHardware(std::string_view name);

// A NETWORK / HW argument: an existing file path, else a bundled short name. Network files
// ending in `.onnx` are imported (with `onnx` options); others are read as network YAML.
// Hardware files are LayerFuse hardware YAML or ZigZag accelerators (io/zigzag_hardware_yaml.h);
// `notes` (optional) receives what the import of a ZigZag accelerator assumed.
Result<Network> resolveNetwork(const std::string& arg);
Result<Network> resolveNetwork(const std::string& arg, const OnnxImportOptions& onnx,
                               OnnxImportReport* report = nullptr);
Result<Hardware> resolveHardware(const std::string& arg, std::vector<std::string>* notes = nullptr);

} // namespace lf
