// Merge ids of edit intents. Views pass a mergeId with every edit: consecutive edits with the
// same non-zero id merge into one undo step (spin-box scrubbing, slider and rectangle drags).
// Stable ids name one field of one object, so stepping the same spin box merges; fresh ids
// name one mouse gesture, so two separate drags stay two undo steps.
#pragma once

#include <atomic>
#include <cstdint>

namespace lf::merge {

// The editable fields, one id space each.
enum class Field : int {
    tile = 1,
    loopOrder,
    level,
    unroll,
    groupName,
    strategy,
    outputTile,
    weightsResident,
    partitionKind,
    subarray,
    rfShare,
    hardware,
};

// A positive id for one field of one object (key: layer id, group index, hardware field...).
inline int stableId(Field field, int key) {
    return int((uint32_t(field) << 24) | (uint32_t(key) & 0x00FF'FFFFu)) & 0x7FFF'FFFF;
}

// A negative id never handed out before: one per drag gesture.
inline int freshId() {
    static std::atomic<int> next{-1};
    return next.fetch_sub(1);
}

} // namespace lf::merge
