// The nearest output tile that fits: for a group over the buffer capacity, the bottom output
// tile (h × w) of largest area no larger than the one in use whose footprint — as the group's
// model counts it, the same figure the metrics show — fits the buffer. Reuse and optimus
// groups take it as the group's output tile; recompute groups and single layers as the last
// layer's T_y × T_x (ConvFusion §IV-E: the last layer's tiles drive the segment).
#pragma once

#include "hardware/hardware.h"
#include "models/evaluate.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <optional>
#include <string>

namespace lf {

struct FittingTile {
    int group = -1;
    int64_t h = 1, w = 1;     // the bottom output tile
    int64_t buffer_bytes = 0; // the group's footprint with it
    // The edit: the group with its output tile set (reuse, optimus) or the bottom layer's
    // schedule with T_y × T_x set (recompute).
    bool sets_group_tile = false;
    FusionGroup group_value;
    LayerId layer = kNoLayer;
    LayerSchedule layer_schedule;
    std::string text() const; // "output tile 14 × 56 (467 KB)"
};

// Nothing when the group fits already, or when no smaller output tile fits (the weights
// or the channels alone exceed the buffer).
std::optional<FittingTile> nearestFittingTile(const Network& net, const Hardware& hw,
                                              const Schedule& sched, int group,
                                              const EvaluateOptions& opt = {});

} // namespace lf
