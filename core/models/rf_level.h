// The register-file level of the energy model on a PE array (docs/models/convfusion.md "Energy",
// docs/model-notes.md "Register files of a PE array").
//
// ConvFusion §VII-C models a register file by "the best schedule available for that size"
// on a single processing element. On an array every PE has its own register file and can
// reuse only what it holds, so the level is costed per PE:
// - the layer's loops are unrolled over the array as the dataflow says (the factors of
//   arrayUnroll, which give the compute cycles of docs/models/README.md), and each PE runs the
//   remaining loop extents Q_d = ⌈D_d / U_d⌉;
// - a PE's register file holds, for each array (its section, or a share of one shared pool),
//   the longest innermost run of its loop nest whose footprint fits — the kernel loops FX, FY
//   innermost, then one RF tile loop per dim in the searched order, then the rest of each dim
//   in the schedule's loop order; loops that an array does not depend on add nothing to its
//   footprint (it stays while they turn);
// - each time the loops above that run turn, every PE that holds distinct data of the array
//   (PEs that differ in a dim the array depends on) receives its footprint; data several PEs
//   share is read once (inputs across output channels, weights across output pixels), and
//   partial sums of PEs that split a reduction are added before they are written (the unique
//   unit count of ZigZag's spatial mapping, which counts the rows of unrolled OY and FY as
//   distinct, without the halo the rows share); outputs not complete after the run are
//   written and read back;
// - the RF tiles (divisors of the extents up to 64, and the whole extent) and the order of
//   the tile loops are searched for the least traffic in words (an element of b bits is
//   b / act_bits words, as an act_bits-wide memory moves it).
#pragma once

#include "hardware/hardware.h"
#include "network/dims.h"
#include "schedule/schedule.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lf {

// Spatial unrolling of a layer's loop dims over a px x py array: the unroll factor of each
// LoopDim (ox, oy, oc, ic, kx, ky, b), and which dims sit on the columns and rows. Each axis
// takes the dims its dataflow lists (a dim listed on both counts on the columns), with
// factors whose product fits the axis and that minimise Π ⌈E / u⌉ (ties: fewer PEs).
struct ArrayUnroll {
    std::array<int64_t, 7> u{1, 1, 1, 1, 1, 1, 1}; // by LoopDim
    std::vector<LoopDim> cols, rows;               // dims unrolled (factor > 1) per axis
    int64_t pes() const;
};

// Extent of a loop dim as the array model counts it (docs/models/README.md): per group for convs;
// channels on oc for layers without weights.
int64_t loopDimExtent(LoopDim l, const LayerDims& d, int64_t batch);

ArrayUnroll arrayUnroll(const LayerDims& d, const Dataflow& df, int px, int py, int64_t batch);

// Unroll factors for one axis of `pes` PEs: for the extents given, factors u with
// Π u <= pes minimising Π ⌈E / u⌉ (ties: fewer PEs used, then larger earlier factors).
std::vector<int64_t> axisUnrolling(const std::vector<int64_t>& extents, int64_t pes);

// Register-file capacity of one PE in bits: per section (weight / input / psum), or one pool
// shared by every array when `shared`.
struct RfCapacity {
    int64_t weight_bits = 0, input_bits = 0, psum_bits = 0;
    bool shared = false;
    int64_t shared_bits = 0;
    friend bool operator==(const RfCapacity&, const RfCapacity&) = default;
};

// One PE's capacity from the hardware's register file: its weight / input / psum sections,
// or the whole file as one pool when it has no sections; each scaled by the layer's share
// of that section under temporal fusion (1 when the layer has the array alone).
RfCapacity rfCapacityPerPe(const RegisterFileConfig& rf, double weightShare = 1,
                           double inputShare = 1, double psumShare = 1);

// A per-PE loop of the register-file level: "K", "C", "OY", "OX" or "G" and its size.
struct RfLoop {
    std::string dim;
    int64_t size = 1;
};

struct RfLevel {
    int64_t traffic = 0; // buffer <-> register files, elements, one image
    // The same in words of act_bits (docs/models/convfusion.md): weights at weight_bits, outputs
    // at psum_bits while partial, at act_bits once complete.
    double words = 0;
    std::array<int64_t, 3> by{}; // the same by array, indexed by Arr (X, Y, W)
    std::vector<RfLoop> loops;   // the RF tile loops of the best order, innermost first
};

// The traffic of a layer with weights on an array unrolled as `u` whose PEs have `cap`, when
// its loops outside the register-file tile follow `order` (the schedule's loop order of
// z, y, x, i, outermost first: the rest of each dim turns in that order, groups outermost).
// Cached process-wide by value.
RfLevel rfLevel(const LayerDims& d, const ArrayUnroll& u, const RfCapacity& cap, const Precision& p,
                const std::array<Dim, 4>& order);

} // namespace lf
