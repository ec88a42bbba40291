// Why an edit left every figure as it was, said where the edit was made: the edit is found by
// comparing the schedule before and after, and the reason follows from the models (a loop
// that runs once cannot carry reuse, a group strategy whose model ignores the edited
// setting, …). Plain text for the inspectors.
#pragma once

#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <string>

namespace lf {

// Every figure of the network and of each group is equal (MACs, DRAM, buffer, latency,
// energy): the edit between the two evaluations moved nothing.
bool sameFigures(const Metrics& a, const Metrics& b);

// Why the edit from `before` to `after` (same network and hardware) cannot change a figure;
// empty when the edit is not one of the cases the models explain.
std::string whyUnchanged(const Network& net, const Schedule& before, const Schedule& after);

} // namespace lf
