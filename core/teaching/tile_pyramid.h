// The tile pyramid of a fused group: every feature map of the group drawn to scale with the
// bottom output tile propagated backwards (R(l, t) = (t−1)·S + K, clipped to the map, with
// padding — HWFF Eq. 4, Optimus §5.2, ConvFusion Fig. 3), and, step by step over
// the output tiles, what each map loads, computes, recomputes, keeps in reuse buffers and
// evicts, with the live on-chip occupancy. Plain data for the teaching view.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

struct Rect {
    int64_t x = 0, y = 0, w = 0, h = 0;
    bool empty() const { return w <= 0 || h <= 0; }
    int64_t area() const { return empty() ? 0 : w * h; }
    Rect intersected(const Rect& o) const;
    Rect united(const Rect& o) const; // bounding box
    friend bool operator==(const Rect&, const Rect&) = default;
};

struct PyramidLevel {
    LayerId id = kNoLayer; // the layer whose output this map is (its producer for inputs)
    std::string name;
    bool group_input = false; // a map read from DRAM (produced outside the group)
    int64_t width = 0, height = 0, channels = 0;
    int64_t tile_w = 0, tile_h = 0; // R(l, t): the largest region of one step
};

// What happens on one map during one step (one bottom output tile).
struct LevelStep {
    Rect region;        // the region this step needs of the map
    Rect overlap_left;  // shared with the previous tile in the row
    Rect overlap_above; // shared with the tile above
    // Under `recompute` the overlaps are computed again; under `reuse` they come from the
    // reuse buffers (kept); group inputs are loaded (their overlaps reloaded).
    int64_t computed = 0;   // elements computed this step (all channels)
    int64_t recomputed = 0; // of which recompute overlap
    int64_t reused = 0;     // elements read from reuse buffers instead
    int64_t loaded = 0;     // elements loaded from DRAM (group inputs)
    int64_t evicted = 0;    // elements of the previous step's region no longer needed
};

struct PyramidStep {
    int index = 0;
    int64_t tx = 0, ty = 0;        // tile column and row of the bottom output
    std::vector<LevelStep> levels; // same order as TilePyramid::levels
    int64_t live_elements = 0;     // on-chip occupancy during the step
};

struct TilePyramid {
    Strategy strategy = Strategy::recompute;
    std::vector<PyramidLevel> levels; // top (group inputs) first, bottom (outputs) last
    int64_t tile_h = 1, tile_w = 1;   // the bottom output tile
    int64_t tiles_x = 1, tiles_y = 1;
    int64_t capacity_elements = 0; // the buffer, in activation elements
    int steps() const { return int(tiles_x * tiles_y); }
    PyramidStep step(int k) const;

    // Inputs to compute steps (kept by the builder).
    const Network* net = nullptr;
    std::vector<std::vector<int>> consumers; // per level: indices of levels that read it
};

// The pyramid of group `groupIndex`. The bottom tile is the group's output tile, else the
// last layer's T_y × T_x (Optimus: its Optimus Eq. 4 tile).
TilePyramid tilePyramid(const Network& net, const Hardware& hw, const Schedule& sched,
                        int groupIndex);

} // namespace lf
