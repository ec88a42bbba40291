// Internals of models/evaluate.cpp shared with the incremental evaluator and the searches:
// a group's evaluation before energy (energy needs the network's peak buffer for the
// sqrt/banked SRAM models) and the assembly of group results into Metrics.
#pragma once

#include "metrics/metrics.h"
#include "models/energy.h"
#include "models/evaluate.h"
#include "models/group_cost.h"

#include <vector>

namespace lf::detail {

struct GroupEval {
    GroupMetrics gm;                  // energy filled by assemble()
    std::vector<LayerMetrics> layers; // compute layers of the group, energy by assemble()
    std::vector<EnergyCounts> counts; // per entry of `layers`
    int64_t buffer_bits = 0;
};

// The group as its strategy's model costs it (per image: work, footprint, DRAM traffic),
// before latency and energy.
GroupCost strategyCost(const Network& net, const Hardware& hw, const Schedule& sched,
                       const FusionGroup& g);
GroupEval evaluateGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                        const FusionGroup& g, const EvaluateOptions& opt);
Metrics assemble(const Network& net, const Hardware& hw,
                 const std::vector<const GroupEval*>& groups);

} // namespace lf::detail
