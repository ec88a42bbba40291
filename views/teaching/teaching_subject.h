// What a teaching view is about, derived from the studio selection: one compute layer, and
// the fusion group the selection refers to.
#pragma once

#include "studio_state.h"

namespace lf::teaching {

// The selected layer when exactly one compute layer is selected, else kNoLayer.
LayerId selectedLayer(const StudioState& state, const StudioSelection& sel);

// The group the selection refers to: the selected group, else the one group holding every
// selected layer; -1 when none or when the selection spans several groups.
int selectedGroup(const StudioState& state, const StudioSelection& sel);

} // namespace lf::teaching
