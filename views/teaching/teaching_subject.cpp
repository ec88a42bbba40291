#include "teaching/teaching_subject.h"

namespace lf::teaching {

LayerId selectedLayer(const StudioState& state, const StudioSelection& sel) {
    if (sel.layers.size() != 1) return kNoLayer;
    const LayerId id = sel.layers.front();
    if (id < 0 || id >= state.network.size() || !isCompute(state.network.layer(id).type))
        return kNoLayer;
    if (size_t(id) >= state.schedule.layers.size()) return kNoLayer;
    return id;
}

int selectedGroup(const StudioState& state, const StudioSelection& sel) {
    const int groups = int(state.schedule.groups.size());
    if (sel.group >= 0) return sel.group < groups ? sel.group : -1;
    int found = -1;
    for (LayerId id : sel.layers) {
        if (id < 0 || id >= state.network.size()) return -1;
        const int g = state.schedule.groupOf(id);
        if (g < 0 || (found >= 0 && g != found)) return -1;
        found = g;
    }
    return found;
}

} // namespace lf::teaching
