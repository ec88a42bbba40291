// The values every studio view shows: one snapshot of the open document plus its metrics.
// Views receive it by value (cheap: shared pointers and small structs) and never compute
// a cost themselves; edits leave a view as intents (signals carrying new values) that the
// Document turns into undo commands.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/fitting_tile.h"

#include <memory>
#include <vector>

namespace lf {

struct StudioState {
    Network network; // cheap to copy (shared data)
    Hardware hardware;
    Schedule schedule;                       // normalized
    std::shared_ptr<const Metrics> metrics;  // null while the first evaluation runs
    std::shared_ptr<const Metrics> previous; // metrics before the last edit (for deltas)
    // For every group over capacity that a smaller output tile makes fit, that tile
    // (search/fitting_tile.h), found with the metrics; null while they are evaluated.
    std::shared_ptr<const std::vector<FittingTile>> fitting_tiles;
};

// The nearest fitting tile of group `group` in `state`, or null.
inline const FittingTile* fittingTileOf(const StudioState& state, int group) {
    if (!state.fitting_tiles) return nullptr;
    for (const FittingTile& f : *state.fitting_tiles)
        if (f.group == group) return &f;
    return nullptr;
}

// What the user has selected on the canvas (or in a chart/list).
struct StudioSelection {
    std::vector<LayerId> layers; // sorted
    int group = -1;              // index into schedule.groups, -1 = none
    bool operator==(const StudioSelection&) const = default;
};

} // namespace lf
