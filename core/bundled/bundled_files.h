// The example files compiled into every binary (networks, hardware presets, schedules,
// lessons) as plain text, addressed by kind and short lowercase name such as `l2net` or
// `hwff-config-1`. Only the catalogue: reading them is examples/bundled.h (networks and
// hardware) or the reader of the format (core/io), which may refer to a bundled file by name.
#pragma once

#include <span>
#include <string>
#include <string_view>

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
// "no bundled network named 'x' (bundled: a, b, ...)".
std::string unknownBundledMessage(BundledKind kind, std::string_view name);

} // namespace lf
