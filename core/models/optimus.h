// Optimus — Cai et al., "Optimus: An Operator Fusion Framework for Deep Neural Networks",
// ACM TECS 2022, Optimus §4.3 (ISValid), Optimus §5.1 (memory cost, Optimus Eq. 3), Optimus §5.2
// (ISOA decision, Optimus Alg. 2; maximum fmap tile, Optimus Eq. 4); docs/models/optimus.md.
#pragma once

#include "hardware/hardware.h"
#include "models/group_cost.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

// Optimus §4.3 ISValid + connectivity: a group is valid iff it is weakly connected and fusing it
// creates no cycle. Empty string when valid, else the reason.
std::string optimusValidity(const Network& net, const std::vector<LayerId>& layers);

// Accelerator throughput of a dataflow (footnote 4): T_c output channels and T_h output rows
// processed in parallel by the PE array; 1 when the dim is not unrolled.
struct OptimusThroughput {
    int64_t tc = 1, th = 1, tw = 1;
};
OptimusThroughput optimusThroughput(const Hardware& hw);

// R(l, t) of Optimus §5.2 is computed per member: the extent of layer l's output needed for an
// output tile t at the group's output layers; R(n, t) = t and R(l−1, t) = R(l, t)·S(l) +
// K(l) − S(l), clipped to the real map (padding is never moved, docs/models/README.md).
struct OptimusPlan {
    std::vector<char> isoa;        // Optimus Alg. 2 decision φ per member
    std::vector<int64_t> tc;       // t_c(l) per member (Optimus Eq. 4)
    int64_t t_h = 0, t_w = 0;      // chosen output tile
    int64_t fmap_buffer = 0;       // Optimus Eq. 4 left-hand side at (t_h, t_w), elements
    int64_t weights = 0;           // Σ|param| of the group
    bool weights_resident = false; // all weights + fmaps fit: parameters loaded once
    bool feasible = true;          // Optimus Eq. 4 has a solution
    int64_t subgroups = 1;         // ⌈O_h/t_h⌉·⌈O_w/t_w⌉
    int64_t memory_cost = 0;       // Optimus Eq. 3, elements
    int64_t ifmap = 0, ofmap = 0;  // |ifmap(first)|, |ofmap(last)| (summed, footnote 3)
};

// Optimus Alg. 2 and Optimus Eq. 4 for a group with a buffer of `capacity_bits` (fmaps at act_bits,
// parameters at weight_bits). `fixed_h`/`fixed_w`
// > 0 impose the output tile instead of maximizing t_h (the user's output tile).
OptimusPlan optimusPlan(const Network& net, const Hardware& hw, const std::vector<LayerId>& group,
                        int64_t capacity_bits, int64_t fixed_h = 0, int64_t fixed_w = 0);

// Optimus Eq. 3 alone for a group at a given tile (the DP fuser's group cost).
int64_t optimusMemoryCost(const Network& net, const std::vector<LayerId>& group, int64_t t_h,
                          int64_t t_w, bool weights_once);

// The group evaluated under the `optimus` strategy: traffic of Optimus Eq. 3, buffer of
// Optimus Eq. 4 (+ the resident weights), ISOA operators recompute their overlapping rows.
GroupCost optimusGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                       const FusionGroup& group);

} // namespace lf
