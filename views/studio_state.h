// The values every studio view shows: one snapshot of the open document plus its metrics.
// Views receive it by value (cheap: shared pointers and small structs) and never compute
// a cost themselves; edits leave a view as intents (signals carrying new values) that the
// Document turns into undo commands.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <memory>
#include <vector>

namespace lf {

struct StudioState {
    Network network; // cheap to copy (shared data)
    Hardware hardware;
    Schedule schedule;                       // normalized
    std::shared_ptr<const Metrics> metrics;  // null while the first evaluation runs
    std::shared_ptr<const Metrics> previous; // metrics before the last edit (for deltas)
};

// What the user has selected on the canvas (or in a chart/list).
struct StudioSelection {
    std::vector<LayerId> layers; // sorted
    int group = -1;              // index into schedule.groups, -1 = none
    bool operator==(const StudioSelection&) const = default;
};

} // namespace lf
