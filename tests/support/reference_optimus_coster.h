// The Optimus group coster as it was before it costed a group in two fused passes
// (core/search/optimus_coster.h): one pass per quantity, a binary search of whole passes for
// the tile. Kept verbatim as the oracle that tst_optimus_coster compares every field of every
// classification with, on the bundled networks and presets and on random DAGs.
//
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
#include "search/optimus_coster.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace lf::test {

class ReferenceOptimusCoster {
  public:
    ReferenceOptimusCoster(const Network& net, const Hardware& hw, int64_t capacity_bits);

    using Cost = OptimusCoster::Cost;
    // `members` sorted ascending.
    Cost cost(const std::vector<LayerId>& members);
    // The layers that may join a group (the DP's vertices); the others stay outside, so
    // their tensors keep all their channels in the bounds. Default: every layer but inputs.
    void setJoinable(const std::vector<char>& vertex);
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
    int64_t fmapHere() const;
    void isoa();
    int64_t lowerBound(int64_t limit);
    int64_t operatorBound();
    int64_t outsideBound(bool withStates);
    int64_t concatBound(size_t concat, int depth);
    int64_t inputsBound(size_t p, int64_t eh, int64_t ew);
    int64_t vertexWindow(size_t v, int axis, int64_t r) const;
    bool mayBeForced(size_t k) const;

    int64_t cap_, abits_, wbits_, Tc_, Th_;
    // The network, flat.
    std::vector<LayerDims> dims_;
    std::vector<int64_t> weights_, outC_, outH_, outW_, elems_;
    std::vector<char> concat_, joinable_;
    std::vector<int32_t> inStart_, inList_, succStart_, succList_;
    // The group being costed.
    const std::vector<LayerId>* m_ = nullptr;
    std::vector<int32_t> slot_;     // by LayerId, -1 outside the group
    std::vector<int32_t> outIndex_; // by LayerId: index into outside_, -1 otherwise
    std::vector<int32_t> prodStart_, prodSlot_, childStart_, childSlot_; // in-group edges
    std::vector<char> inside_, output_, phi_, forced_;
    std::vector<char> mayForce_; // a producer outside the group may join it
    bool symmetric_ = false;     // every layer: equal heights and widths, equal windows
    std::vector<int64_t> rh_, rw_, ah_, aw_, dp1_, dp0_, tc_, eh_, ew_;
    std::vector<LayerId> outside_;                     // tensors read from outside, once each
    std::vector<std::pair<int32_t, int32_t>> readers_; // (outside index, member slot)
    std::vector<size_t> tops_;
    enum : char { kNotIsoa, kIsoa, kMaybe };
    std::vector<char> state_, matched_;
    std::vector<int64_t> share_, extra_;
    std::vector<int32_t> degree_;
    std::vector<uint32_t> charged_; // by layer: == stamp_ when charged in this bound
    uint32_t stamp_ = 0;
    struct Window {
        enum Kind : uint8_t { identity, conv, other } kind = conv;
        int64_t stride = 1, extent = 1, input = 1;
    };
    std::vector<Window> vwin_; // per layer and axis
};

} // namespace lf::test
