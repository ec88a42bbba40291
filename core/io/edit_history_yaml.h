// Edit history file (format layerfuse/history@1) — docs/file-formats.md: the studio's undo
// history of one project, written next to its recovery project so that undo and redo
// survive a crash. It holds the hardware and schedule before the first edit and, for each
// edit, its text and the values it left: the hardware when it changed, the schedule's groups
// and the layers whose schedule changed. `index` says how many edits the current state has
// applied, `clean` how many the saved file had.
//
//   format: layerfuse/history@1
//   network: {name: ResNet-18, sha256: ...}
//   index: 2
//   clean: 0
//   base: {hardware: {...}, schedule: {groups: [...], layers: {...}, explicit_layers: [...]}}
//   steps:
//     - {text: Fuse 2 layers, schedule: {groups: [...], layers: {...}, explicit_layers: [...]}}
//     - {text: Edit hardware, hardware: {...}}
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lf {

struct EditStep {
    std::string text;
    // The values after the edit; null when the edit left them as they were. Shared, so that
    // a snapshot of a long history costs no copies.
    std::shared_ptr<const Hardware> hardware;
    std::shared_ptr<const Schedule> schedule;
};

struct EditHistory {
    Hardware base_hardware;
    Schedule base_schedule;
    std::vector<EditStep> steps;
    int index = 0;  // edits applied in the current state (0..steps.size())
    int clean = -1; // edits applied in the saved file; -1: no state of the history is saved
};

// The hardware and schedule after the first `count` edits.
std::pair<Hardware, Schedule> historyStateAt(const EditHistory& history, int count);

std::string writeEditHistoryYaml(const Network& net, const EditHistory& history);
// Refuses a history of another network (its sha256) and indices out of range.
Result<EditHistory> readEditHistoryYaml(std::string_view text, const std::string& file,
                                        const Network& net);

} // namespace lf
