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
//
// A group costs two passes over its members, after one that gives each its slot: one from
// the outputs up (which members are outputs, the extents at the smallest tile and at 1 × 1,
// the producer edges, the outside tensors and their windows, Optimus Alg. 2's dp; each member
// adds what its producers need of it to theirs, so no consumer edges are looked up) and one
// down (the ISOA decision, each member reading its producers' flags).
// A group that does not fit takes a second pass down for the bound over the decisions larger
// groups can impose, and the outside bounds; each probe of the t_h search is one more pass
// up, which stops as soon as the fmaps exceed the buffer.
#pragma once

#include "hardware/hardware.h"
#include "network/dims.h"
#include "network/network.h"
#include "search/optimus_groups.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace lf {

namespace detail {

// What an OptimusCoster holds (its base, so that a copy copies every member as it is and then
// only re-points the arrays at its own copy of the arena).
struct OptimusCosterData {
    // A fixed-size array in the coster's arena: every per-layer and per-edge array lives in
    // one allocation, made once (see eachArray()), so that a coster costs a few allocations
    // to build rather than one per array — the DP builds one per search, and for the small
    // networks of Optimus Table 5 the allocations were a sizeable part of the search.
    template <class T> struct Flat {
        T* data() { return p_; }
        const T* data() const { return p_; }
        T* begin() { return p_; }
        T* end() { return p_ + n_; }
        const T* begin() const { return p_; }
        const T* end() const { return p_ + n_; }
        size_t size() const { return n_; }
        T& operator[](size_t i) { return p_[i]; }
        const T& operator[](size_t i) const { return p_[i]; }

        T* p_ = nullptr;
        size_t n_ = 0;
    };
    // The arena's bytes; a copy copies them.
    struct Arena {
        std::unique_ptr<std::byte[]> bytes;
        size_t size = 0;
        Arena() = default;
        Arena(const Arena& o);
        Arena& operator=(const Arena&) = delete;
    };
    Arena arena_;

    int64_t cap_, abits_, wbits_, Tc_, Th_;
    int64_t capElems_; // cap_ / abits_: the buffer in activation elements
    // The network, flat.
    Flat<LayerDims> dims_;
    Flat<int64_t> weights_, outC_, outH_, outW_, elems_;
    Flat<char> concat_, compute_, joinable_;
    Flat<int32_t> inStart_, inList_, succStart_, succList_;
    // The group being costed. Every array is sized for the whole network once, so a group
    // costs no allocation and no clearing: each pass writes what the next one reads.
    const std::vector<LayerId>* m_ = nullptr;
    size_t n_ = 0;           // members
    Flat<int32_t> slot_;     // by LayerId, -1 outside the group
    Flat<int32_t> outIndex_; // by LayerId: index into outside_, -1 otherwise
    // By member: in-group producers and the outside tensors it reads (as indices into
    // outside_), as ranges into the edge arrays; its consumer edges inside the group, and
    // Optimus Alg. 2's sums over them (of dp0, and of min(dp1, dp0)), which the consumers add
    // as they are met.
    Flat<int32_t> prodBeg_, prodEnd_, prodSlot_, childCount_, readBeg_, readEnd_, readOut_;
    Flat<int64_t> acc1_, acc0_;
    Flat<int32_t> firstK_, firstPos_; // by outside tensor: its first reader and edge
    std::vector<int32_t> order_;      // outside tensors in their first readers' order
    Flat<char> inside_, output_;
    Flat<char> isoa_;        // by member: ISOA in the decision (decide(), lowerBound())
    Flat<char> mayForce_;    // a producer outside the group may join it
    bool symmetric_ = false; // every layer: equal heights and widths, equal windows
    // By member: extents at the smallest tile (rh_, rw_) and at 1 × 1 (ah_, aw_), Optimus Alg. 2's
    // dp1/dp0, the channel tile t_c; scratch for the t_h search.
    Flat<int64_t> rh_, rw_, ah_, aw_, dp1_, dp0_, tc_, th_;
    // By outside tensor: windows read at the smallest tile (eh_, ew_) and in the search
    // (teh_); the least it holds when its producer joins (joined_, -1: not yet) and the
    // operators' share of forcing its readers off (extra_).
    Flat<LayerId> outside_; // [0, nOutside_)
    size_t nOutside_ = 0;
    Flat<int64_t> eh_, ew_, teh_, joined_, extra_;
    Flat<int64_t> owed_;      // Σ over its readers of (dp0 − min(dp1, dp0)) at 1 × 1
    Flat<int64_t> eah_, eaw_; // by outside tensor: the windows read at 1 × 1
    std::vector<size_t> tops_;
    enum : char { kNotIsoa, kIsoa, kMaybe };
    Flat<char> state_, matched_;
    Flat<char> topForced_;    // by member: forced off from outside (lowerBound())
    Flat<char> neverIsoa_;    // by outside tensor: its producer is never ISOA (producersIsoa())
    int64_t weights_sum_ = 0; // found by begin()
    int64_t ifmap_ = 0, ofmap_ = 0, oh_ = 1; // found by smallestTile()
    bool joinedDone_ = false, isoaDone_ = false;
    int64_t ops_ = 0;        // operatorBound at the smallest tile, found by decideBound()
    int64_t opsMembers_ = 0; // Σ t_c · extents of the operators at the smallest tile
    int64_t upper_ = 0;      // the operators' upper bound, found by decide(true)
    int64_t mostRead_ = 1;   // the most rows read of an outside tensor at the smallest tile
    int64_t weakest_ = 0;    // the same at min(T_c, C_out) for every operator
    // By layer: the stamp of the walk that charged it (joinedBound()); at least groupBase_ when
    // charged in this group's bound, stamp_ when in the walk under way.
    Flat<uint32_t> charged_;
    uint32_t stamp_ = 0, groupBase_ = 0;
    // heldBound() from the outside tensors' producers (depth 0) by tensor and extents: the
    // value and the layers its walk charged, for a walk that met none of the group's members,
    // outside tensors or earlier charges (then it depends on nothing else). Open addressing;
    // keys + 1 (0: empty).
    struct HeldEntry {
        uint64_t key = 0;
        int64_t value = 0;
        uint32_t from = 0, count = 0;
    };
    std::vector<HeldEntry> held_;
    std::vector<int32_t> heldIds_, walk_; // the entries' layers; the recorded walk's
    size_t heldUsed_ = 0;
    bool recording_ = false, clean_ = true;
    using Window = OptimusDeferral::WindowRead;
    Flat<Window> vwin_; // per layer and axis
};

} // namespace detail

class OptimusCoster : private detail::OptimusCosterData {
  public:
    OptimusCoster(const Network& net, const Hardware& hw, int64_t capacity_bits);

    struct Cost {
        int64_t memory_cost = 0; // Optimus Eq. 3, elements
        bool feasible = true;    // Optimus Eq. 4 has a solution
        bool weights_resident = false;
        // Optimus Eq. 4's operator fmaps at the smallest tile under the least favourable ISOA
        // flags, in bits — no group that holds this one needs less for these operators (they keep
        // their extents and the tile range starts no lower), so the bounds of disjoint groups
        // add up.
        int64_t lower_bound_bits = 0;
        // That bound with the outside inputs at their fewest channels exceeds the buffer: no
        // group holding this one has an Optimus Eq. 4 solution.
        bool hopeless = false;
        // For a group that fits: what any group holding it with as many smallest-tile rows
        // needs at most for its operators (decide(true)), in bits, and the most rows it reads
        // of an outside tensor. INT64_MAX for one that does not fit.
        int64_t upper_bound_bits = INT64_MAX;
        int64_t upper_rows = 0;
        // At least this many sub-groups ⌈O_h / t_h⌉ (Optimus Eq. 3's factor of Σ|param|): the
        // number found, or for a cost above the ceiling the fewest it may have; 1 when the
        // weights are resident or Optimus Eq. 4 has no solution.
        int64_t subgroups = 1;
        // Optimus Eq. 4's operator terms at the smallest tile under the group's own ISOA
        // decision (Optimus Alg. 2), elements; 0 when the cost was found without that decision
        // (a group hopeless before it).
        int64_t operator_fmap = 0;
        // The same terms at min(T_c, C_out) for every operator (what no decision goes below),
        // elements; and, when `upper` was asked for, the operators' bound over every decision a
        // larger group can impose (upper_bound_bits before the outside tensors and the bits,
        // found whether the group fits or not), else INT64_MAX.
        int64_t operator_least = 0;
        int64_t operator_upper = INT64_MAX;
        // Optimus Eq. 4's operator terms under the group's own decision at the full tile (t_h =
        // O_h: every output whole), elements, whether that tile fits or not, for a group that
        // has an Optimus Eq. 4 solution; -1 otherwise, or when not asked for (`full`) and not
        // found on the way (weights streamed and that tile tried).
        int64_t operator_full = -1;
    };
    // What a group space needs of a cost besides the cost itself (OptimusGroupClass: the
    // bounds, feasibility, sub-groups); the class's cost is left infinite.
    static OptimusGroupClass classOf(const Cost& c);
    // `members` sorted ascending. A group whose cost exceeds `ceiling` may get, instead of
    // its exact cost, any cost above the ceiling (the t_h search stops once the number of
    // sub-groups shows it): the DP needs the exact cost only of groups that may be cheapest.
    // `upper`: find upper_bound_bits (else left at INT64_MAX); `full`: find operator_full.
    Cost cost(const std::vector<LayerId>& members, int64_t ceiling = INT64_MAX, bool upper = false,
              bool full = false);
    // A layer's weights (Optimus Eq. 3's Σ|param| over it; 0 for an input).
    int64_t weightsOf(LayerId v) const { return weights_[size_t(v)]; }
    // The layers that may join a group (the DP's vertices); the others stay outside, so
    // their tensors keep all their channels in the bounds. Default: every layer but inputs.
    void setJoinable(const std::vector<char>& vertex);
    // The figures the group space needs to defer Optimus Eq. 3 costs (OptimusDeferral) with
    // this coster's bounds (Cost::upper_bound_bits).
    OptimusDeferral deferral() const;
    // Optimus Eq. 4 left-hand side (elements) at a fixed output tile, as Optimus Alg. 3 line 4 uses
    // it.
    int64_t fmapAt(const std::vector<LayerId>& members, int64_t t_h, int64_t t_w);

    OptimusCoster(const OptimusCoster& o);
    OptimusCoster& operator=(const OptimusCoster&) = delete;

  private:
    // Calls f(array, count) for every Flat array, with its count for a network of n layers
    // with inEdges inputs and succEdges successors in all.
    template <class F> void eachArray(size_t n, size_t inEdges, size_t succEdges, F&& f);
    void layOut(size_t n, size_t inEdges, size_t succEdges, bool construct);

    void begin(const std::vector<LayerId>& members);
    void end();
    void smallestTile(int64_t lo, int64_t ow);
    void decide(bool upper);
    void decideBound();
    char certainState(size_t k) const;
    void extents(int axis, int64_t t, int64_t* r, int64_t* e) const;
    bool fmapFits(int64_t th, int64_t limit, int64_t* operators = nullptr);
    // The fmaps at tile height `th` (Optimus Eq. 4's left side, elements), or a value above
    // `limit` once they exceed it; the operators' terms into `operators` (all of them only when
    // the total is within the limit).
    int64_t fmapAt(int64_t th, int64_t limit, int64_t* operators);
    int64_t joinedBound(size_t o);
    void producersIsoa();
    int64_t outsideBound(bool withStates);
    int64_t lowerBound(int64_t limit);
    int64_t concatBound(size_t concat, int64_t eh, int64_t ew, int depth);
    int64_t inputsBound(size_t p, int64_t eh, int64_t ew, int depth);
    int64_t heldBound(size_t q, int64_t eh, int64_t ew, int depth);
    int64_t heldFromTop(size_t q, int64_t eh, int64_t ew);
    // Whether heldBound() follows q's inputs (q may join and hold fewer than all its channels,
    // or is a concat); else q holds all its channels.
    bool walksUp(size_t q) const { return joinable_[q] && (concat_[q] || outC_[q] > Tc_); }
    bool chargeable(size_t q);
    int64_t vertexWindow(size_t v, int axis, int64_t r) const;
};

} // namespace lf
