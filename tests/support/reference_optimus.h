// A straightforward Optimus DP (Optimus Alg. 1, Optimus Eq. 2) that the fast fuser
// (search/optimus_fuser.h) must equal: every weakly connected, cycle-free group of the DP's
// vertices (search/optimus_groups.h forms them, unpruned), each costed by the model itself
// (lf::optimusPlan, Optimus Eq. 3 and Optimus Eq. 4) instead of the fuser's coster, and the minimum
// over every partition into valid groups found by plain recursion over the remaining vertices,
// memoised in a std::map, with no index, no bounds and no pruning.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"

#include <cstdint>
#include <vector>

namespace lf::test {

struct ReferenceOptimus {
    double cost = 0;    // Σ Optimus Eq. 3 over the optimal partition (all compute layers)
    int64_t groups = 0; // valid groups (finite cost)
    int64_t subproblems = 0;
};

// The optimum of the Optimus DP with the fuser's default options (off-line, every compute
// layer an operator unless `fusible` names the operator types) and the hardware's buffer.
ReferenceOptimus referenceOptimus(const Network& net, const Hardware& hw,
                                  const std::vector<LayerType>& fusible = {});

// Optimus Eq. 3 of a group as the model computes it; infinite when the group is not valid
// (not cycle-free, or no Optimus Eq. 4 solution for more than one layer). A single layer
// without an Optimus Eq. 4 solution runs layer by layer: referenceLoneLayerCost.
double referenceGroupCost(const Network& net, const Hardware& hw,
                          const std::vector<LayerId>& members);

// The DRAM accesses, for one image, of layer `v` alone in the default schedule for a buffer
// of `capacity_bits` (what the fuser counts for a lone layer without an Optimus Eq. 4
// solution; docs/model-notes.md), through the public evaluate().
double referenceLoneLayerCost(const Network& net, const Hardware& hw, LayerId v,
                              int64_t capacity_bits);

} // namespace lf::test
