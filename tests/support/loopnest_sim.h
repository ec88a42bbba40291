// Brute-force reference for the ConvFusion single-layer model (docs/models/convfusion.md, "Required
// validation"): literally walks the tiled loop nest of ConvFusion Code 2 for a small layer —
// outer tile loops zo, yo, xo, io in the schedule's order, inner loops zi, yi, xi, ii in the
// same relative order, kernel loops n, m innermost — and, for every iteration of each
// candidate store-level loop (tile, l1..l4), records which elements of X[i][y·Sy+n][x·Sx+m],
// W[z][i][n][m] and Y[z][y][x] are touched inside it.
//
// Slow on purpose (one counter update per MAC, array and level); for layers of a few
// thousand MACs. One group only (G = 1), no padding (the input is (D−1)·S + E wide), and the
// last tile of a dimension is partial when T does not divide D (the closed form rounds up).
#pragma once

#include "network/dims.h"
#include "schedule/schedule.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace lf::test {

// What happened inside the iterations of one loop.
struct SimLevel {
    int64_t iterations = 0;   // iterations of the loop over the whole walk (Trans)
    int64_t max_distinct = 0; // most distinct elements touched inside one iteration (Vol)
    int64_t sum_distinct = 0; // distinct elements summed over all iterations (Acc)
    // The same for the bounding box channels × rows × columns of the touched X elements
    // (what a row-contiguous DMA moves; equals the distinct count when stride <= kernel).
    int64_t max_box = 0;
    int64_t sum_box = 0;
};

struct LoopNestSim {
    std::array<std::array<SimLevel, 5>, 3> at{}; // [Arr][Level]: X, Y, W at tile, l1..l4
    Level ii_level = Level::l4;                  // the inner-loop level of ii
    int64_t macs = 0;
    int64_t outputs = 0; // distinct outputs
    // Σ over outputs of the number of i-tiles (io values) that update it: with the partial
    // sums of an i-tile kept on chip (ConvFusion §IV-C3), each such visit ends with a write and all
    // but the first start with a read.
    int64_t y_itile_visits = 0;

    const SimLevel& of(Arr a, Level l) const { return at[size_t(a)][size_t(l)]; }
    // Acc_Y under the ConvFusion §IV-C3 rule: final writes + 2 per partial-sum round trip.
    int64_t accYItile() const { return 2 * y_itile_visits - outputs; }
    // Acc_Y when Y leaves the buffer after every iteration of the store-level loop `sl`.
    int64_t accYStoreLevel(Level sl) const { return 2 * of(Arr::Y, sl).sum_distinct - outputs; }
    // Buf_Y of ConvFusion §IV-B3: outputs still accumulating inside one iteration of the deeper of
    // the compute level and the ii loop (outputs complete after ii fold to one).
    int64_t bufY(Level cl) const { return of(Arr::Y, std::max(cl, ii_level)).max_distinct; }
};

LoopNestSim simulateLoopNest(const LayerDims& d, const std::array<Dim, 4>& order,
                             const std::array<int64_t, 4>& tile);

// The counts of the closed form, measured for one schedule (store levels SL, compute levels CL;
// a buffer folded at CL holds what one iteration of the CL loop touches).
struct SimCounts {
    int64_t vol_x = 0, trans_x = 0, acc_x = 0, buf_x = 0; // X as bounding boxes
    int64_t vol_x_distinct = 0, acc_x_distinct = 0;
    int64_t vol_w = 0, trans_w = 0, acc_w = 0, buf_w = 0;
    int64_t acc_y = 0, buf_y = 0;
    int64_t macs = 0;
};

SimCounts simCounts(const LoopNestSim& sim, const LayerSchedule& s);

} // namespace lf::test
