// Stoutchinin buffering-level model — Stoutchinin, Conti, Benini, "Optimally Scheduling CNN
// Convolutions for Efficient Memory Access", Stoutchinin §II-B and Stoutchinin §IV-A/B;
// docs/models/stoutchinin.md.
//
// A second, independent single-layer engine. It takes the layer as an explicit loop nest
// L_0 … L_{N−1} (innermost first, Stoutchinin Fig. 3: tile loops LTOF/LTIF/LTSY/LTSX, point loops
// LOF/LIF/LSY/LSX, kernel loops LFY/LFX, in any order) with one *buffering level* per array
// (Stoutchinin §II-B: the loop across whose iterations the array's data are reused from the
// buffer):
//   Stoutchinin Eq. 1, footprint: F_X(L_i) = F_X(L_{i−1}) · n(L_i) / d_X(L_i), F_X(L_{−1}) = 1
//   Stoutchinin Eq. 2, buffer:    B_X(L_i) = F_X(L_{i−1}) if L_i carries X, else B_X(L_{i−1})
//   Stoutchinin Eq. 3, traffic:   T_X = P_X · F_X(L_b) · Π_{j>b} n(L_j), buffering level L_b
//   Stoutchinin Eq. 4, total:     T = T_I + T_W + T_O,acc + T_O,final
//
// Readings (where the paper is ambiguous or garbled):
// - Reuse distance d (Stoutchinin Table III). For loops whose index the array does not use, d = n
//   (full reuse); for loops whose index it uses alone, d = 1. For the sliding-window pairs
//   (LFX, LSX) and (LFY, LSY) of I, Stoutchinin Table III gives 1 for the inner loop of the pair
//   and R for the outer one; taken literally that makes F_I over a row E instead of the H =
//   (E−1)·S+R the paper states for the same footprint in Stoutchinin §II-B. We use the exact
//   distance d = n·e_before/e_after, e = the bounding-box extent of the array index along that axis
//   (e = 1 + Σ (n_k − 1)·step_k over the loops inside), which gives H and tends to
//   Stoutchinin Table III's R for S = 1. For stride > kernel this is the bounding box (T−1)·S+K, as
//   docs/models/convfusion.md. Extents are clipped to the array's real size (padding is never
//   moved, docs/models/README.md).
// - "Carries" (Stoutchinin Table II): L carries X iff n(L) > 1 and two iterations of L touch a
//   common element of X (F_X(L) < n(L)·F_X(L_{i−1})). A one-trip loop carries nothing, which gives
//   the HWCE line buffer of Stoutchinin §V-C (Stoutchinin Fig. 11). B_X(L_{−1}) = 1 (the operand
//   itself).
// - Stoutchinin Eq. 3's product is read over the loops enclosing L_b (j > b): the printed lower
//   bound j = i would count the buffering loop twice and contradict Stoutchinin §II-A (R input
//   lines buffered → every input pixel reloaded M times).
// - O (Stoutchinin Eq. 4): each output element is brought to the buffer V = F_O(L_b)·Π_{j>b} n(L_j)
//   times in total. Final outputs are written once (T_O,final = the outputs of the layer); every
//   other visit is one partial-sum accumulation = 1 write + 1 read: T_O,acc = 2·(V − T_O,final),
//   counted separately so the caller weighs it at the partial-sum precision.
//
// Correspondence with ConvFusion (ConvFusion §III-C): ConvFusion's store level SL is the loop of
// which ONE iteration is served from the buffer (no reuse across its iterations, Trans counts
// them); Stoutchinin's buffering level is the loop ACROSS whose iterations data are reused.
// The same transfers therefore happen when the buffering level is the loop just inside SL;
// Stoutchinin Eq. 2's buffer is then ConvFusion's buffer folded at CL = the first loop at or below
// that level that carries the array. See stoutchininNest() for what converts and what does not.
#pragma once

#include "network/dims.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lf {

// Loop axes of the convolution loop nest (Stoutchinin Fig. 3): output maps m (LOF/LTOF), input maps
// c (LIF/LTIF), output rows y (LSY/LTSY), output columns x (LSX/LTSX), kernel rows k (LFY),
// kernel columns l (LFX).
enum class StAxis : uint8_t { of, in, sy, sx, fy, fx };
// The three arrays: I[c][y·S+k][x·S+l], W[m][c][k][l], O[m][y][x].
enum class StArray : uint8_t { I = 0, W = 1, O = 2 };

const char* stAxisName(StAxis a); // "LOF", "LIF", "LSY", "LSX", "LFY", "LFX"

struct StLoop {
    StAxis axis = StAxis::of;
    int64_t trips = 1; // n(L)
    int64_t step = 1;  // index advance per iteration along its axis (a tile loop: the tile)
    bool tile = false; // a controlling (tile) loop, for display ("LT…")
};

struct StNest {
    std::vector<StLoop> loops; // L_0 (innermost) … L_{N−1} (outermost)
    int64_t Sx = 1, Sy = 1;    // stride: input column = Sx·x + dil_x·l
    int64_t dil_x = 1, dil_y = 1;
    // Real sizes of the array axes (footprints are clipped to them); 0 = unbounded.
    int64_t M = 0, C = 0, E_y = 0, E_x = 0, H_y = 0, H_x = 0, R_y = 0, R_x = 0;
    // Buffering level of I, W, O: an index into `loops` (past the end = the outermost loop),
    // or −1 = no buffering (every access goes to memory).
    std::array<int, 3> level{-1, -1, -1};
    // Identical independent copies of the nest (groups of a grouped conv, docs/models/README.md)
    // and of I (element-wise layers with several inputs); has_weights = false drops W.
    int64_t groups = 1;
    int64_t inputs = 1;
    bool has_weights = true;
};

// One row of the per-level table of Stoutchinin §IV-C's first step: what buffering X at L_i costs.
struct StLevelRow {
    int64_t footprint = 1;     // F_X(L_i), Stoutchinin Eq. 1
    int64_t buffer = 1;        // B_X(L_i), Stoutchinin Eq. 2
    bool carries = false;      // L_i carries X (Stoutchinin Table II)
    double reuse_distance = 1; // d_X(L_i) = n·F_X(L_{i−1})/F_X(L_i) (Stoutchinin Table III)
    int64_t traffic = 0;       // T_X / P_X if buffered at L_i, Stoutchinin Eq. 3
};

struct StCost {
    // Per group (what one group slice needs on chip; I counts every input copy), elements.
    std::array<int64_t, 3> buffer{};    // B_X(L_b), Stoutchinin Eq. 2, indexed by StArray
    std::array<int64_t, 3> footprint{}; // F_X(L_b), Stoutchinin Eq. 1
    // Whole layer, elements (Stoutchinin Eq. 3 / Stoutchinin Eq. 4 without the precision factor).
    int64_t t_in = 0, t_w = 0;
    int64_t t_o_acc = 0;   // partial sums: 1 write + 1 read per accumulation
    int64_t t_o_final = 0; // final outputs written once
    int64_t o_visits = 0;  // V: times an output element is brought to the buffer
    int64_t elements() const { return t_in + t_w + t_o_acc + t_o_final; }
    // Stoutchinin Eq. 4 in bytes: P_I = P_O = act_bits, P_W = weight_bits, partial sums at
    // psum_bits.
    double bytes(int act_bits, int weight_bits, int psum_bits) const;
};

// Footprint of array `a` over loops L_0..L_last (last = −1: one element), Stoutchinin Eq. 1.
int64_t stFootprint(const StNest& nest, StArray a, int last);
// The table of Stoutchinin Eq. 1-3 for array `a` at every level L_0..L_{N−1}.
std::vector<StLevelRow> stoutchininLevels(const StNest& nest, StArray a);
// Buffers and traffic at the nest's buffering levels (Stoutchinin Eq. 1-4).
StCost stoutchininCost(const StNest& nest);

// Converts a ConvFusion layer schedule (ConvFusion Code 2: outer tile loops in `order`, inner loops
// in the same order, kernel loops n, m innermost) into a Stoutchinin nest: inner loops trip T_d,
// outer loops ⌈D_d/T_d⌉ with step T_d, the buffering level of each array = the loop just
// inside its store level (SL = tile → l1, SL = l4 → LFY); groups, input copies, dilation and
// the real input extent (padding clip) carry over.
// What converts and how the results compare with convFusionLayer():
// - Every non-fused conv / fc / pool / element-wise schedule converts; traffic of I, W and the
//   final outputs is identical, and so are the partial sums unless the ii loop is at or above
//   SL_Y with T_i > 1 (ConvFusion keeps an i-tile's partial sums on chip whatever SL_Y is;
//   here O leaves the buffer after every iteration of its store loop).
// - Compute levels are not part of the nest: Stoutchinin Eq. 2 decides the buffer, which equals
//   ConvFusion's buffer folded at CL = the first loop at or below the buffering level that
//   carries the array; when no tiled loop does, Stoutchinin Eq. 2 folds into the kernel loops,
//   which ConvFusion cannot (its buffer is then larger).
// - A tile that does not divide its dimension counts as full here (docs/models/README.md) also for
//   loops at or above the store level, where ConvFusion counts the exact D_d iterations.
// - Refused (with the reason): a fused producer (FuseSel of ConvFusion §IV-A: i untiled and Y
//   kept on chip — not a single-layer nest) and transposed-conv / resize windows (not the
//   affine index y·S + k of Stoutchinin Fig. 3).
// - The other way round, nests this engine takes that no LayerSchedule gives: buffering levels
//   on the outer tile loops (reusing the halo between tiles) and kernel loops placed between
//   the tiled loops (the HWC schedule of Stoutchinin Fig. 8).
Result<StNest> stoutchininNest(const LayerDims& d, const LayerSchedule& s, bool fused);

} // namespace lf
