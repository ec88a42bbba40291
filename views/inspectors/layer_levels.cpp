#include "inspectors/layer_levels.h"

#include <algorithm>

namespace lf {

LayerSchedule withLevel(const LayerSchedule& s, Arr arr, LevelKind kind, Level level) {
    LayerSchedule out = s;
    const size_t a = size_t(arr);
    if (kind == LevelKind::store) {
        out.store[a] = level;
        if (out.compute[a] < level) out.compute[a] = level;
    } else {
        out.compute[a] = level;
    }
    return out;
}

std::vector<Level> legalLevels(const Network& net, LayerId id, const LayerSchedule& s, Arr arr,
                               LevelKind kind) {
    // Unit tiles are legal for every layer, so any violation checkLayer reports for the
    // candidate is a level violation.
    LayerSchedule base = s;
    base.tile = {1, 1, 1, 1};
    std::vector<Level> out;
    const Level current = kind == LevelKind::store ? s.SL(arr) : s.CL(arr);
    for (int k = 0; k <= 4; ++k) {
        const Level l = Level(k);
        if (l == current || checkLayer(net, id, withLevel(base, arr, kind, l)).empty())
            out.push_back(l);
    }
    return out;
}

std::string levelLabel(Level level, const std::array<Dim, 4>& order) {
    if (level == Level::tile) return "tile";
    return levelName(level, order) + " (l" + std::to_string(int(level)) + ")";
}

} // namespace lf
