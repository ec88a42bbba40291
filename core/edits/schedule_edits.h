// Fusion-group edits as pure functions: schedule in, edited schedule (or the reason it is
// refused) out. The Document wraps each result in an undo command. A result is refused when
// a group it creates or changes breaks a rule of checkGroup (disconnected, a cycle through
// another group per Optimus ISValid, a layer that cannot be fused); groups that need more
// buffer than the hardware has are allowed (the evaluator flags them).
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <string>
#include <vector>

namespace lf {

struct ScheduleEdit {
    bool ok = false;
    Schedule schedule;       // normalized; valid when ok
    std::string reason;      // why it was refused
    std::string focus_group; // name of the group the edit created or grew (for selection)
};

ScheduleEdit fuseLayers(const Network& net, const Hardware& hw, const Schedule& s,
                        std::vector<LayerId> layers);
// Splits the group holding `at` into the layers before `at` and `at` with the layers after
// it (topological order); each part that falls apart becomes one group per connected piece.
ScheduleEdit splitGroupAt(const Network& net, const Hardware& hw, const Schedule& s, LayerId at);
ScheduleEdit ungroup(const Network& net, const Hardware& hw, const Schedule& s, int groupIndex);
ScheduleEdit mergeGroups(const Network& net, const Hardware& hw, const Schedule& s,
                         std::vector<int> groupIndices);
ScheduleEdit moveLayerToGroup(const Network& net, const Hardware& hw, const Schedule& s,
                              LayerId layer, int groupIndex);

// Makes the layer schedules of fused consumers legal: a layer fed by another layer of its
// group cannot tile its input channels (ConvFusion §IV-E: the producer computes D_i(consumer)
// channels at once), so Ti = Di there. Returns the layers it changed.
std::vector<LayerId> fitFusedConsumers(const Network& net, const Hardware& hw, Schedule& s,
                                       const FusionGroup& g);

// The weakly connected pieces of a set of layers (edges inside the set only), each sorted.
std::vector<std::vector<LayerId>> connectedPieces(const Network& net, std::vector<LayerId> layers);

// A group name not used by any group of `s` nor by any layer of `net`: "g0", "g1", ...
std::string freshGroupName(const Network& net, const Schedule& s);

} // namespace lf
