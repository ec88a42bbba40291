// Which fusion groups of schedule B differ from schedule A (the compare view's snapshot):
// each B group is matched with the A group of the same layers, else of the same name; it
// differs when there is no match or when its settings (strategy, output tile, weight
// residency, reuse model, partition) or any of its layers' schedules changed.
#pragma once

#include "studio_state.h"

#include <vector>

namespace lf::teaching {

struct GroupMatch {
    int a = -1; // index of the counterpart in A, -1 if none
    bool differs = true;
};

// Whether A and B are schedules of the same network (so their groups can be compared).
bool sameNetwork(const StudioState& a, const StudioState& b);

// One entry per group of B.
std::vector<GroupMatch> matchGroups(const StudioState& a, const StudioState& b);

// Indices of A's groups that no B group matched.
std::vector<int> groupsOnlyInA(const StudioState& a, const std::vector<GroupMatch>& matches);

} // namespace lf::teaching
