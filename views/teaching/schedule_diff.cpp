#include "teaching/schedule_diff.h"

#include <algorithm>

namespace lf::teaching {

namespace {

// The settings of a group, its name aside (renaming changes no figure).
bool sameSettings(const FusionGroup& a, const FusionGroup& b) {
    return a.layers == b.layers && a.strategy == b.strategy && a.reuse_model == b.reuse_model &&
           a.out_tile == b.out_tile && a.weights_resident == b.weights_resident &&
           a.partition == b.partition;
}

bool sameLayerSchedules(const Schedule& a, const Schedule& b, const std::vector<LayerId>& layers) {
    for (LayerId id : layers) {
        if (id < 0 || size_t(id) >= a.layers.size() || size_t(id) >= b.layers.size()) return false;
        if (!(a.layers[size_t(id)] == b.layers[size_t(id)])) return false;
    }
    return true;
}

} // namespace

bool sameNetwork(const StudioState& a, const StudioState& b) {
    if (a.network.size() != b.network.size() || a.network.name() != b.network.name()) return false;
    return a.network.canonicalHash() == b.network.canonicalHash();
}

std::vector<GroupMatch> matchGroups(const StudioState& a, const StudioState& b) {
    std::vector<GroupMatch> out(b.schedule.groups.size());
    if (!sameNetwork(a, b)) return out;
    const auto& ga = a.schedule.groups;
    for (size_t k = 0; k < b.schedule.groups.size(); ++k) {
        const FusionGroup& g = b.schedule.groups[k];
        auto it = std::find_if(ga.begin(), ga.end(),
                               [&](const FusionGroup& x) { return x.layers == g.layers; });
        if (it == ga.end())
            it = std::find_if(ga.begin(), ga.end(),
                              [&](const FusionGroup& x) { return x.name == g.name; });
        if (it == ga.end()) continue;
        out[k].a = int(it - ga.begin());
        out[k].differs =
            !sameSettings(*it, g) || !sameLayerSchedules(a.schedule, b.schedule, g.layers);
    }
    return out;
}

std::vector<int> groupsOnlyInA(const StudioState& a, const std::vector<GroupMatch>& matches) {
    std::vector<int> out;
    for (int k = 0; k < int(a.schedule.groups.size()); ++k)
        if (std::none_of(matches.begin(), matches.end(),
                         [k](const GroupMatch& m) { return m.a == k; }))
            out.push_back(k);
    return out;
}

} // namespace lf::teaching
