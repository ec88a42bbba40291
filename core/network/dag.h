// DAG utilities over a Network: reachability, sequences (maximal fork/join-free chains),
// connectivity and the cycle test of Optimus' ISValid (Optimus Alg. 1).
#pragma once

#include "network/network.h"

#include <cstdint>
#include <vector>

namespace lf {

// Transitive reachability between layers, answered from per-layer bitsets built once in
// O(V·E/64). For very large networks (above `kMaxBitsetLayers`) queries fall back to a
// bounded search in topological order.
class Reachability {
  public:
    static constexpr int32_t kMaxBitsetLayers = 20000;
    explicit Reachability(const Network& net);
    // True when there is a path from `from` to `to` (a layer reaches itself).
    bool reaches(LayerId from, LayerId to) const;

  private:
    const Network* net_;
    int32_t words_ = 0;
    std::vector<uint64_t> bits_; // row `from`, bit `to`
};

// Maximal chains of compute layers in which every inner edge is the only edge out of its
// producer and the only edge into its consumer (ConvFusion §V-A "sequences"). Every compute
// layer lies in exactly one sequence; sequences are listed in topological order of their
// first layer.
std::vector<std::vector<LayerId>> sequences(const Network& net);

// True when the layers form one weakly connected set (edges inside the set only).
bool isWeaklyConnected(const Network& net, const std::vector<LayerId>& layers);

// True when fusing `layers` into one node would create a cycle: some path leaves the set and
// re-enters it (Optimus ISValid). On true, `via` (if given) receives an outside layer on
// such a path.
bool fusingCreatesCycle(const Network& net, const std::vector<LayerId>& layers,
                        LayerId* via = nullptr);

} // namespace lf
