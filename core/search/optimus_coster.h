// Optimus Eq. 3 memory cost of one operator group with the Optimus Eq. 4 scheduler and the
// Optimus Alg. 2 ISOA decision — Cai et al., "Optimus" Optimus §5; docs/models/optimus.md —
// computed the way lf::optimusPlan (models/optimus.h) computes it, for the thousands of candidate
// groups of the DP fuser: the network is copied into flat arrays once, and a group needs
// no allocation once the scratch has grown.
//
// Only the cost is needed, not the tile, which saves most of the t_h search: when the
// fmaps of the smallest tile fit together with all weights the weights are resident and
// Optimus Eq. 3 is |ifmap| + |ofmap| + Σ|param| whatever t_h is (optimusPlan chooses residency
// whenever it is possible); the search for the largest t_h runs only when they do not.
#pragma once

#include "hardware/hardware.h"
#include "network/dims.h"
#include "network/network.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace lf {

class OptimusCoster {
  public:
    OptimusCoster(const Network& net, const Hardware& hw, int64_t capacity_bits);

    struct Cost {
        int64_t memory_cost = 0; // Optimus Eq. 3, elements
        bool feasible = true;    // Optimus Eq. 4 has a solution
        bool weights_resident = false;
        // For an infeasible group: Optimus Eq. 4's operator fmaps at the smallest tile under the
        // least favourable ISOA flags, in bits — no group that holds this one needs less
        // (its operators keep their extents and their tile range starts no lower). 0 when
        // the group is feasible.
        int64_t lower_bound_bits = 0;
    };
    // `members` sorted ascending.
    Cost cost(const std::vector<LayerId>& members);
    // Optimus Eq. 4 left-hand side (elements) at a fixed output tile, as Optimus Alg. 3 line 4 uses
    // it.
    int64_t fmapAt(const std::vector<LayerId>& members, int64_t t_h, int64_t t_w);

  private:
    void begin(const std::vector<LayerId>& members);
    void end();
    int64_t window(size_t k, int axis, int64_t r) const;
    void extents(int axis, int64_t t, std::vector<int64_t>& r) const;
    void outsideExtents(int axis, const std::vector<int64_t>& r, std::vector<int64_t>& e) const;
    int64_t fmap(int64_t th);
    void isoa();
    int64_t lowerBound();

    int64_t cap_, abits_, wbits_, Tc_, Th_;
    // The network, flat.
    std::vector<LayerDims> dims_;
    std::vector<int64_t> weights_, outC_, outH_, outW_, elems_;
    std::vector<char> concat_;
    std::vector<int32_t> inStart_, inList_, succStart_, succList_;
    // The group being costed.
    const std::vector<LayerId>* m_ = nullptr;
    std::vector<int32_t> slot_;     // by LayerId, -1 outside the group
    std::vector<int32_t> outIndex_; // by LayerId: index into outside_, -1 otherwise
    std::vector<int32_t> prodStart_, prodSlot_, childStart_, childSlot_; // in-group edges
    std::vector<char> inside_, output_, phi_, forced_;
    std::vector<int64_t> rh_, rw_, dp1_, dp0_, tc_, eh_, ew_;
    std::vector<LayerId> outside_;                     // tensors read from outside, once each
    std::vector<std::pair<int32_t, int32_t>> readers_; // (outside index, member slot)
    std::vector<size_t> tops_;
    struct Window {
        enum Kind : uint8_t { identity, conv, other } kind = conv;
        int64_t stride = 1, extent = 1, input = 1;
    };
    std::vector<Window> win_; // per member and axis
};

} // namespace lf
