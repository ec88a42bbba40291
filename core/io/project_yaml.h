// Project file (`*.lfproj`, format layerfuse/project@1) — docs/file-formats.md: the studio's
// save format. One YAML document holding the network (inline as a whole network document,
// or a reference to a bundled example or a file, checked by its canonical sha256), the
// hardware (inline), the schedule (every layer) and the view state.
//
//   format: layerfuse/project@1
//   network: {format: layerfuse/network@1, name: ..., inputs: [...], layers: [...]}
//            # or {bundled: resnet18, sha256: ...} or {file: nets/x.net.yaml, sha256: ...}
//   hardware: {name: ..., frequency_mhz: ..., ...}
//   schedule: {groups: [...], layers: {...}, explicit_layers: [...]}
//   view: {zoom: 1.25, center: [x, y], color_by: group, selected_group: g0,
//          selected_layers: [conv1], dock_state: "..."}
//
// Reading is all or nothing; errors are FILE:LINE:COLUMN. Writing is deterministic:
// write(read(write(p))) == write(p) byte for byte.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

struct ProjectViewState {
    double zoom = 1.0;
    std::optional<std::pair<double, double>> center; // scene point at the viewport centre
    std::string color_by = "group";
    std::string selected_group;               // group name, empty = none
    std::vector<std::string> selected_layers; // layer names
    std::string dock_state;                   // opaque to the core (the studio's window layout)
    friend bool operator==(const ProjectViewState&, const ProjectViewState&) = default;
};

enum class NetworkRef { inline_network, bundled, file };

struct Project {
    Network network;
    Hardware hardware;
    Schedule schedule; // normalized
    ProjectViewState view;
    NetworkRef network_ref = NetworkRef::inline_network;
    // Bundled short name, or the file path as written (relative to the project's folder).
    std::string network_source;
};

Result<Project> readProjectYaml(std::string_view text, const std::string& file);
Result<Project> loadProjectFile(const std::string& path);
std::string writeProjectYaml(const Project& p);

} // namespace lf
