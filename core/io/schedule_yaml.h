// Schedule YAML (`*.sched.yaml`, format layerfuse/schedule@1) — docs/file-formats.md.
//
// Reading starts from the default schedule of (network, hardware) and applies what the
// file says; layers and groups it names become explicit. Writing emits the groups that are
// not implicit singletons and the explicit layers (or all layers), in a stable key order,
// so that write(read(write(s))) == write(s) byte for byte.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace YAML {
class Node;
class Emitter;
} // namespace YAML

namespace lf {

struct ScheduleReadOptions {
    // Refuse a file whose network.sha256 differs from the network's canonical hash
    // (default). When false, the schedule is applied by layer names where they match and
    // the unmatched names are reported in ScheduleFile::skipped.
    bool check_hash = true;
    // Violations of the constraints of schedule.h refuse the file (default) or are kept
    // for the caller to show.
    bool refuse_violations = true;
};

struct ScheduleFile {
    Schedule schedule;                // normalized
    std::string network_name;         // as written in the file
    std::string network_sha256;       // empty when absent
    std::optional<Hardware> hardware; // when the file holds an inline hardware block
    std::string hardware_name;        // `hardware: {name: ...}`
    SourcePos hardware_name_pos;      // where that name is written
    std::vector<std::string> skipped; // names not found (check_hash = false)
};

Result<ScheduleFile> readScheduleYaml(std::string_view text, const std::string& file,
                                      const Network& net, const Hardware& hw,
                                      const ScheduleReadOptions& opt = {});
Result<ScheduleFile> loadScheduleYamlFile(const std::string& path, const Network& net,
                                          const Hardware& hw, const ScheduleReadOptions& opt = {});

struct ScheduleWriteOptions {
    bool all_layers = false;          // write every compute layer, not only explicit ones
    bool inline_hardware = false;     // write the whole hardware block, not only its name
    const Metrics* metrics = nullptr; // when set, a `metrics:` block (ignored on import)
};

std::string writeScheduleYaml(const Network& net, const Hardware& hw, const Schedule& s,
                              const ScheduleWriteOptions& opt = {});

namespace yamlio {
// For project files: the schedule body as a node / into an emitter (throws YamlInputError).
Schedule readScheduleNode(const YAML::Node& map, const Network& net, const Hardware& hw,
                          const ScheduleReadOptions& opt, std::vector<std::string>* skipped);
void emitScheduleBody(YAML::Emitter& out, const Network& net, const Hardware& hw, const Schedule& s,
                      const ScheduleWriteOptions& opt);
} // namespace yamlio

} // namespace lf
