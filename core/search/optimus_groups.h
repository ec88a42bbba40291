// Candidate operator groups of the Optimus DP fuser — Cai et al., "Optimus"
// Optimus §4.2-4.3 (Optimus Alg. 1: groups grown in reverse topological order, ISValid) and the
// on-line rules of Optimus §6; docs/models/optimus.md.
//
// Every vertex u, visited in reverse topological order, forms the group {u} and the
// groups u + C1 + … + Ck where the Ci are already formed groups that each hold a
// successor of u and touch no other Cj (so they are exactly the components of the group
// without u) — the "combination choices for each multi-output vertex" of Optimus §4.2. A group is
// kept when it is cycle-free (ISValid: no path leaves it and re-enters), which bitsets of
// descendants and ancestors answer in a few word operations. This forms every weakly
// connected, cycle-free group exactly once: removing the first vertex u of such a group
// leaves components that are themselves such groups, and a group that is not cycle-free
// cannot become so by adding components.
//
// Each group is classified when it is formed (its cost, or invalid). A classifier may
// also call a group hopeless: then every group that holds it is invalid too (for Optimus Eq. 4:
// the fmaps its operators need at their smallest tile already exceed the buffer, and
// adding upstream operators never shrinks those). It may also give a lower bound of the
// buffer every group holding it needs; the components of a group are disjoint, so their
// bounds add up, and components whose bounds add up beyond the buffer are never combined
// (that group and all its supersets are invalid). With pruning on, such groups are not
// formed; otherwise they are formed and classified invalid at once.
//
// Bounds (docs/model-notes.md, "Optimus DP bounds"): the group space grows as 2^fan-out at
// a vertex with many successors. A vertex may form at most `max_groups_per_vertex` groups,
// and at most a share of what is left of `max_groups` (four times the remaining budget over
// the remaining vertices, at least kMinShare): when its groups would exceed that, only those
// of up to the largest size (in vertices) whose groups fit are formed, and the vertex is
// listed in limits() with that size.
#pragma once

#include "network/network.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace lf {

struct OptimusGroupRules {
    std::vector<char> vertex;         // by LayerId: may be in a group (fusible compute or concat)
    bool fan_out_all_or_none = false; // §6 on-line rule
    int max_size = 0;           // > 0: groups of at most this many vertices (§6, Optimus Alg. 3)
    bool prune_hopeless = true; // do not grow hopeless groups
    int threads = 1;            // classify the groups of each vertex on this many threads
    int64_t capacity_bits = std::numeric_limits<int64_t>::max(); // for the lower bounds
    int64_t max_groups = 0;            // > 0: the budget of groups formed in all
    int64_t max_groups_per_vertex = 0; // > 0: groups one vertex may form
};

struct OptimusGroupClass {
    double cost = std::numeric_limits<double>::infinity(); // infinite: not a valid group
    bool hopeless = false;
    // A lower bound of the buffer (bits) that every group holding this one needs for this
    // one's own operators: bounds of disjoint groups add up.
    int64_t lower_bound_bits = 0;
};

// A vertex whose groups were limited by the bounds.
struct OptimusVertexLimit {
    LayerId vertex = kNoLayer;
    int max_size = 0;       // its groups hold at most this many vertices
    int64_t not_formed = 0; // groups of more vertices left out: at least this many
};

class OptimusGroupSpace {
  public:
    // Called with the members, the index of the calling thread (< rules.threads) and the
    // group's split() (infinite for a single vertex); calls on different threads run at the
    // same time. A group that costs more than its split is never the cheapest way to cover
    // its vertices, so for such a group the class may give any cost above the split instead
    // of the exact one.
    using Classify = std::function<OptimusGroupClass(const std::vector<LayerId>& members,
                                                     int thread, double split)>;
    // `cancelled` is polled between vertices; a cancelled space is incomplete.
    OptimusGroupSpace(const Network& net, const OptimusGroupRules& rules, const Classify& classify,
                      const std::function<bool()>& cancelled = {});

    static constexpr int64_t kMinShare = 32; // groups a vertex may always form
    // Vertices that may form more groups than this are classified after forming them all.
    static constexpr uint64_t kMaxStreamed = uint64_t(1) << 16;

    size_t size() const { return size_.size(); } // groups formed and classified
    int64_t classifiedByBound() const { return byBound_; }
    // Vertices whose groups the bounds limited (empty: the space is complete).
    const std::vector<OptimusVertexLimit>& limits() const { return limits_; }
    // The most groups one vertex formed.
    int64_t largestVertexShare() const { return largestShare_; }
    std::vector<LayerId> members(size_t g) const;
    int size(size_t g) const { return size_[g]; }
    // The cost of g; for a group that costs more than split(g), perhaps only some cost above
    // its split (see Classify).
    double cost(size_t g) const { return cost_[g]; }
    // The cost of one partition of g that is not g itself: its first vertex alone and each of
    // the components it was formed from split as cheaply as found (infinite for a single
    // vertex). A group that costs more is never the cheapest way to cover its vertices.
    double split(size_t g) const { return split_[g]; }
    // Valid groups (finite cost) whose first (smallest) vertex is `v`, {v} first.
    const std::vector<uint32_t>& validStartingAt(LayerId v) const { return valid_[size_t(v)]; }
    const uint64_t* bits(size_t g) const { return &bits_[g * 4 * words_]; }
    // Whether group g lies inside the vertex set `set` (a bitset over layer ids).
    bool within(size_t g, const uint64_t* set) const;
    size_t words() const { return words_; }
    bool cancelled() const { return cancelled_; }

  private:
    size_t words_ = 0;
    std::vector<uint64_t> bits_; // per group: members, descendants, ancestors, neighbours
    std::vector<int32_t> size_;
    std::vector<double> cost_;
    std::vector<char> hopeless_;
    std::vector<int64_t> lowerBound_;
    std::vector<double> best_, split_; // cheapest partition found; split() (by group)
    std::vector<std::vector<uint32_t>> byMin_, valid_;
    std::vector<OptimusVertexLimit> limits_;
    int64_t byBound_ = 0, largestShare_ = 0;
    bool cancelled_ = false;
};

} // namespace lf
