// The operator fusers Optimus compares itself with — Cai et al., "Optimus" Optimus §2.2
// (Optimus Fig. 5), Optimus §2.3 and Optimus §7.3-7.5 — implemented as that paper describes them,
// so that its DRAM reductions (Optimus §7.4: 19-75 % against DNNVM, 17-58 % against Efficient-S)
// can be recomputed.
//
// Both use the memory model of the prior works (Optimus §2.3): a fused group is valid only when the
// feature pixels of all its operators at the output tile, Σ_l C_out(l)·R_h(l, t_h)·R_w(l, t_w)
// (l = 0 the group's input), and ALL its parameters fit the on-chip buffer at the same time;
// its off-chip traffic is then |ifmap(1)| + |ofmap(n)| + Σ_l |param(l)|. The cost does not
// depend on the tile, so the smallest tile decides validity: the smallest Optimus' own
// scheduler allows (Optimus Eq. 4: t_h = min(T_h, O_h) rows of the full width O_w), so that a group
// a prior fuser can run is one Optimus can run too.
//  - DNNVM (Xing et al. 2019): operators that depend on more than one operator or are
//    depended on by several are barriers, and groups never contain a barrier (Optimus §2.2): groups
//    are runs of the chains between barriers.
//  - Efficient-S (Zheng et al. 2020): the DAG is replaced by a linear proxy (a topological
//    order, Optimus Fig. 5(b)) and a dynamic program partitions that order into runs
//    (Optimus §2.2).
// A single operator is never refused: it runs alone as in "w/o Fusion" (Optimus §7.4), costed by
// Optimus Eq. 3 with the Optimus Eq. 4 scheduler like every operator Optimus leaves alone, so the
// schemes differ only in what they fuse. A concat alone costs nothing (its producers write their
// slices in place), as in the Optimus fuser.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"

#include <cstdint>
#include <vector>

namespace lf {

enum class PriorFuser : uint8_t { dnnvm, efficient_s };
const char* toString(PriorFuser f);

// The prior works' cost of one group (elements per image).
struct PriorGroupCost {
    bool valid = true;       // fmaps at the smallest tile + all parameters fit
    int64_t fmap_bits = 0;   // Σ C_out·R_h·R_w at that tile, at act_bits
    int64_t weight_bits = 0; // Σ |param|, at weight_bits
    int64_t ifmap = 0, ofmap = 0, params = 0;
    int64_t memoryCost() const { return ifmap + ofmap + params; }
};
// `members` sorted ascending, more than one operator.
PriorGroupCost priorGroupCost(const Network& net, const Hardware& hw,
                              const std::vector<LayerId>& members, int64_t capacity_bits);

struct PriorFuserResult {
    std::vector<std::vector<LayerId>> groups; // the scheme, in topological order
    // Off-chip accesses of the scheme, elements: per image, and for the hardware's batch
    // (activations once per image; weights of a fused group once per batch since they stay
    // on chip, a single operator's as Optimus Eq. 3 and the scheduler decide).
    int64_t cost = 0;
    int64_t cost_batch = 0;
    int64_t candidate_groups = 0; // groups costed by the dynamic program
};

// The best scheme a prior fuser finds on `net` (every compute layer an operator) for a
// buffer of `capacity_bytes` (< 0: the hardware's buffer).
PriorFuserResult priorFuse(const Network& net, const Hardware& hw, PriorFuser kind,
                           int64_t capacity_bytes = -1);

} // namespace lf
