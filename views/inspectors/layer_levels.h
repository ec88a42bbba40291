// Store / compute level choices of a layer's arrays (docs/models/README.md, ConvFusion §III-C):
// which levels a combo box may offer so that every choice leaves the layer schedule legal.
#pragma once

#include "network/network.h"
#include "schedule/schedule.h"

#include <vector>

namespace lf {

enum class LevelKind { store, compute };

// The schedule after setting one level. Choosing a store level below the array's compute
// level moves the compute level down with it (a compute level may never sit above its
// store level), so a deeper store level stays reachable in one step.
LayerSchedule withLevel(const LayerSchedule& s, Arr arr, LevelKind kind, Level level);

// Levels (tile, l1..l4) whose choice keeps the schedule legal according to lf::checkLayer,
// the other arrays' levels unchanged. The current level is always included.
std::vector<Level> legalLevels(const Network& net, LayerId id, const LayerSchedule& s, Arr arr,
                               LevelKind kind);

// "tile" or "yi (l2)": the level named after its inner loop in the layer's loop order.
std::string levelLabel(Level level, const std::array<Dim, 4>& order);

} // namespace lf
