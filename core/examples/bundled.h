// The example files bundled into every binary (networks, hardware presets, schedules,
// lessons), addressed by short lowercase names such as `l2net` or `hwff-config-1`.
#pragma once

#include "hardware/hardware.h"
#include "io/onnx_import.h"
#include "network/network.h"
#include "util/result.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

enum class BundledKind { network, hardware, schedule, lesson };

struct BundledFile {
    BundledKind kind;
    const char* name; // short name, e.g. "resnet50"
    const char* path; // relative to examples/, e.g. "networks/resnet50.net.yaml"
    const char* text;
};

std::span<const BundledFile> bundledFiles();
const BundledFile* findBundled(BundledKind kind, std::string_view name);

// The example the studio opens at start and the CLI's default hardware.
inline constexpr std::string_view kDefaultNetwork = "resnet18";
inline constexpr std::string_view kDefaultHardware = "hwff-config-1";

// "bundled:<path>" — how bundled files are named in messages.
std::string bundledFileLabel(const BundledFile& f);

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
