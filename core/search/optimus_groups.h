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
// Deferral (docs/model-notes.md, "Optimus deferred costs"; OptimusDeferral): a group whose
// components' upper bounds show it fits the buffer whatever its ISOA decision is valid and
// not hopeless without costing it. Such a group is formed deferred, with a lower bound as its
// cost, and costed by resolve() only if the DP needs its exact cost.
//
// Bounds (docs/model-notes.md, "Optimus DP bounds"): the group space grows as 2^fan-out at
// a vertex with many successors. A vertex may form at most `max_groups_per_vertex` groups,
// and at most a share of what is left of `max_groups` (four times the remaining budget over
// the remaining vertices, at least kMinShare): when its groups would exceed that, only those
// of up to the largest size (in vertices) whose groups fit are formed, and the vertex is
// listed in limits() with that size.
#pragma once

#include "network/network.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace lf {

// Deferred costs (docs/model-notes.md, "Optimus deferred costs"): what a group formed from
// components needs of the network to bound, without its members, Optimus Eq. 4's fmaps and
// Optimus Eq. 3's cost. A group whose fmaps at its smallest tile are bounded within the
// buffer whatever its ISOA decision is valid and not hopeless, so it need not be costed
// while the space is formed: it is formed "deferred", and costed by resolve() when the DP
// first needs its exact cost. Where that bound shows nearly every group to fit, the groups it
// cannot show are deferred too (see `unproven_sample`): they may turn out invalid.
// The ceiling an Optimus Eq. 3 cost is compared with for a group's split: the costs are
// integers, so above ⌊split⌋ is above the split (INT64_MAX: no ceiling, past 2^62).
inline int64_t optimusCeiling(double split) {
    return split < 0x1p62 ? int64_t(std::floor(split)) : std::numeric_limits<int64_t>::max();
}

struct OptimusDeferral {
    std::vector<int64_t> elems;   // by layer: output elements
    std::vector<int64_t> weights; // by layer: weight elements (Optimus Eq. 3's Σ|param|)
    std::vector<int64_t> rows;    // by layer: output rows O_h
    std::vector<char> compute;    // by layer: an operator (a group needs one to be valid)
    int64_t act_bits = 16;
    int64_t weight_bits = 16; // Optimus Eq. 3's weights resident in the buffer at these bits
    int64_t tile_rows = 1;    // T_h: a group's smallest tile has min(T_h, O_h) rows
    // When to defer. Deferring pays when the DP needs few exact costs. Where many groups cost
    // more than their split (large streamed weights) it needs most of them, and their order
    // by the lower bound is a poor guide: a vertex defers only once `sample` groups were
    // costed and at most `max_dominated` of them cost more than their split.
    int64_t sample = 1000;
    double max_dominated = 0.1;
    // When to defer the groups the bound cannot show to fit (unproven). Their costs would
    // give the bounds that prune larger groups, and the DP would need many of them where many
    // are invalid. Where the bound showed all but `max_unproven` of the first
    // `unproven_sample` groups formed under the rule above to fit, the buffer is large for the
    // network: few groups are invalid and the bounds prune little, so from then on every group
    // under the rule is deferred unproven (the bound is no longer tried; formed with no bound
    // of its operators, with its parts' lower bounds, never hopeless).
    int64_t unproven_sample = 10000;
    double max_unproven = 0.01;
    // Rows of its inputs a layer reads to produce `n` rows (Optimus §5.2's R(l − 1, t)), and
    // columns for `n` columns: by layer and axis (2 · layer + axis) its window — the same
    // rows, (n − 1) · stride + extent clipped to the input, or another (`other_read`).
    struct WindowRead {
        enum Kind : uint8_t { identity, conv, other } kind = identity;
        int64_t stride = 1, extent = 1, input = 1;
        // What an identity or conv window reads for `n` (another is the layer's own).
        int64_t read(int64_t n) const {
            return kind == identity ? n : std::min((n - 1) * stride + extent, input); // (n−1)·S+E
        }
    };
    std::vector<WindowRead> windows;
    std::function<int64_t(LayerId, int axis, int64_t n)> other_read;
    int64_t read(LayerId v, int axis, int64_t n) const {
        const WindowRead& w = windows[2 * size_t(v) + size_t(axis)];
        return w.kind == WindowRead::other ? other_read(v, axis, n) : w.read(n);
    }
    int64_t rows_read(LayerId v, int64_t n) const { return read(v, 0, n); }
    int64_t cols_read(LayerId v, int64_t n) const { return read(v, 1, n); }
    // For groups classified without costing them (docs/model-notes.md, "Optimus inherited
    // sub-groups"): by layer, output channels C_out and columns O_w; T_c.
    std::vector<int64_t> channels, cols;
    int64_t channel_tile = 1;
    // Whether a layer consumed in a group may hold fewer rows or columns at the smallest tile
    // than it holds alone, as an output (min(T_h, O_h) rows, all its columns): some consumer
    // reads less of it than that at its own smallest tile — an upsampling layer, or a strided
    // window that leaves the last rows or columns unread. Then a layer's bound alone does not
    // bound what it needs in larger groups; by layer, the fewest rows and columns it holds at
    // the smallest tile of any group (alone or consumed) do.
    bool tiles_shrink = false;
    std::vector<int64_t> least_rows, least_cols;
    // By layer: whether a producer may join a group (the classifier's; empty: the group
    // space's vertices).
    std::vector<char> joinable;
};

struct OptimusGroupRules {
    std::vector<char> vertex;         // by LayerId: may be in a group (fusible compute or concat)
    bool fan_out_all_or_none = false; // §6 on-line rule
    int max_size = 0;           // > 0: groups of at most this many vertices (§6, Optimus Alg. 3)
    bool prune_hopeless = true; // do not grow hopeless groups
    int threads = 1;            // classify the groups of each vertex on this many threads
    int64_t capacity_bits = std::numeric_limits<int64_t>::max(); // for the lower bounds
    int64_t max_groups = 0;            // > 0: the budget of groups formed in all
    int64_t max_groups_per_vertex = 0; // > 0: groups one vertex may form
    // Set: groups the deferral bounds within the buffer are formed deferred (see above); the
    // classifier must then give upper_bound_bits for every group it classifies.
    const OptimusDeferral* deferral = nullptr;
};

struct OptimusGroupClass {
    double cost = std::numeric_limits<double>::infinity(); // infinite: not a valid group
    bool hopeless = false;
    // A lower bound of the buffer (bits) that every group holding this one needs for this
    // one's own operators: bounds of disjoint groups add up.
    int64_t lower_bound_bits = 0;
    // With a deferral, for a valid group: at most what any group holding it with as many
    // smallest-tile rows (min(T_h, O_h)) needs for its operators at that tile under any ISOA
    // decision, in bits; and the most rows it reads there of an outside tensor.
    int64_t upper_bound_bits = std::numeric_limits<int64_t>::max();
    int64_t upper_rows = 0;
    // Optimus Eq. 4 has no solution for it (a single layer may still have a finite cost, run
    // layer by layer); else at least this many sub-groups in Optimus Eq. 3 (the coster's
    // Cost::subgroups).
    bool infeasible = false;
    int64_t subgroups = 1;
    // For groups costed from their component's records (docs/model-notes.md, "Optimus costs
    // from records"; only with a deferral): Optimus Eq. 4's operator terms at the smallest tile
    // under the group's own ISOA decision (elements; < 0: not known), the same terms at
    // min(T_c, C_out) for every operator, and the operators' bound over every decision a
    // larger group can impose (elements; INT64_MAX: not known).
    int64_t operator_fmap = -1;
    int64_t operator_least = 0;
    int64_t operator_upper = std::numeric_limits<int64_t>::max();
    // And Optimus Eq. 4's operator terms under its own decision at the full tile, where every
    // output holds all its rows (elements; < 0: not known).
    int64_t operator_full = -1;
};

// A vertex whose groups were limited by the bounds.
struct OptimusVertexLimit {
    LayerId vertex = kNoLayer;
    int max_size = 0;       // its groups hold at most this many vertices
    int64_t not_formed = 0; // groups of more vertices left out: at least this many
};

class OptimusGroupSpace {
  public:
    // Called with the members, the index of the calling thread (< rules.threads), the
    // group's split() (infinite for a single vertex) and whether upper_bound_bits is wanted
    // (else it may be left out); calls on different threads run at the same time. A group
    // that costs more than its split is never the cheapest way to cover its vertices, so for
    // such a group the class may give any cost above the split instead of the exact one.
    using Classify = std::function<OptimusGroupClass(const std::vector<LayerId>& members,
                                                     int thread, double split, bool upper)>;
    // `cancelled` is polled between vertices; a cancelled space is incomplete.
    OptimusGroupSpace(const Network& net, const OptimusGroupRules& rules, const Classify& classify,
                      const std::function<bool()>& cancelled = {});
    ~OptimusGroupSpace();
    OptimusGroupSpace(const OptimusGroupSpace&) = delete;
    OptimusGroupSpace& operator=(const OptimusGroupSpace&) = delete;

    static constexpr int64_t kMinShare = 32; // groups a vertex may always form
    // Vertices that may form more groups than this are classified after forming them all.
    static constexpr uint64_t kMaxStreamed = uint64_t(1) << 16;

    size_t size() const { return info_.size(); } // groups formed and classified
    int64_t classifiedByBound() const { return byBound_; }
    // Vertices whose groups the bounds limited (empty: the space is complete).
    const std::vector<OptimusVertexLimit>& limits() const { return limits_; }
    // The most groups one vertex formed.
    int64_t largestVertexShare() const { return largestShare_; }
    std::vector<LayerId> members(size_t g) const;
    int size(size_t g) const { return info_[g].size; }
    // The cost of g; for a group that costs more than split(g), perhaps only some cost above
    // its split (see Classify). For a deferred group not yet resolved, a lower bound of it:
    // its outside inputs, outputs and weights once each (Optimus Eq. 3 with one sub-group).
    double cost(size_t g) const { return info_[g].cost; }
    // Whether the space was formed with a deferral; then Σ of g's members' weights
    // (OptimusDeferral::weights), else 0.
    bool deferring() const { return deferring_; }
    int64_t weights(size_t g) const { return info_[g].weights; }
    // Whether g's cost is still only that lower bound; and whether, deferred, it was shown to
    // fit (valid and not hopeless) or may turn out invalid when it is costed (OptimusDeferral::
    // unproven_sample).
    bool deferred(size_t g) const { return info_[g].deferred; }
    bool deferredProven(size_t g) const { return info_[g].deferred && !info_[g].unproven; }
    // Costs a deferred group (on the calling thread, as thread 0 of the classifier) and
    // returns its cost (infinite for an unproven one that does not fit); for any other group
    // returns cost(g).
    double resolve(size_t g);
    // Costs the deferred ones of `groups`, on the classifier's threads.
    void resolve(const std::vector<uint32_t>& groups);
    // Groups formed deferred, and of those resolved so far.
    int64_t deferredCount() const { return deferredCount_; }
    int64_t resolvedCount() const { return resolvedCount_; }
    // Groups classified by their components' records without costing them (inherited
    // sub-groups: shown invalid, or above their split).
    int64_t inheritedCount() const { return inheritedCount_; }
    // Groups formed deferring that were given records later, when a group holding them needed
    // them (docs/model-notes.md, "Optimus inherited sub-groups").
    int64_t recordsBuiltLater() const { return recordsBuiltLater_; }
    bool inherited(size_t g) const { return info_[g].inherited; }
    // Groups whose exact cost was found (or that were shown invalid) from their component's
    // records and figures instead of by the classifier (docs/model-notes.md, "Optimus costs
    // from records"): counted as costed.
    int64_t costedFromRecords() const { return fromRecordsCount_; }
    bool costedFromRecords(size_t g) const {
        return info_[g].rec != kNone && recorded_[info_[g].rec].fromRecords;
    }
    // What every group holding g needs at least for g's own operators at its smallest tile
    // (OptimusGroupClass::lower_bound_bits; for a group not costed, what its parts and first
    // layer show), bits.
    int64_t lowerBoundBits(size_t g) const { return info_[g].lowerBound; }
    // With a deferral, for a valid group whose class gave one: at most what any group holding
    // g with as many smallest-tile rows needs for g's operators (OptimusGroupClass::
    // upper_bound_bits; INT64_MAX: none), and the most rows g reads of an outside tensor.
    int64_t upperBoundBits(size_t g) const { return info_[g].upper; }
    int64_t upperRows(size_t g) const { return info_[g].upperRows; }
    // The cost of one partition of g that is not g itself: its first vertex alone and each of
    // the components it was formed from split as cheaply as found (infinite for a single
    // vertex). A group that costs more is never the cheapest way to cover its vertices.
    double split(size_t g) const { return split_[g]; }
    // Whether components() is kept for every group: in a space formed with a deferral, until
    // nearly every group is deferred (OptimusDeferral::unproven_sample), where the DP needs
    // few costs.
    bool componentsKept() const { return componentsKept_; }
    // With componentsKept(): the groups g was formed from, its components, each holding a
    // successor of its first vertex (none for a single vertex). They are formed before g
    // (smaller ids).
    std::span<const uint32_t> components(size_t g) const {
        const uint32_t from = g == 0 ? 0 : componentsEnd_[g - 1];
        return {components_.data() + from, size_t(componentsEnd_[g] - from)};
    }
    // Consecutive group ids [from, to): a vertex forms all its groups together. (Not
    // std::views::iota: the fuzz targets build with clang 14, which cannot compile libstdc++
    // 12's ranges.)
    struct IdRange {
        struct iterator {
            uint32_t g;
            uint32_t operator*() const { return g; }
            iterator& operator++() {
                ++g;
                return *this;
            }
            bool operator==(const iterator&) const = default;
        };
        uint32_t from = 0, to = 0;
        iterator begin() const { return {from}; }
        iterator end() const { return {to}; }
        size_t size() const { return to - from; }
        bool empty() const { return from == to; }
        uint32_t front() const { return from; }
    };
    // Groups whose first (smallest) vertex is `v`, valid or not, {v} first.
    IdRange startingAt(LayerId v) const { return byMin_[size_t(v)]; }
    // Valid groups (finite cost) whose first (smallest) vertex is `v`, {v} first.
    std::span<const uint32_t> validStartingAt(LayerId v) const {
        const IdRange r = validAt_[size_t(v)]; // positions in validIds_
        return {validIds_.data() + r.from, r.size()};
    }
    // Per group: members, descendants, ancestors, neighbours and outside producers, one
    // bitset each.
    const uint64_t* bits(size_t g) const { return &bits_[g * kFields * words_]; }
    // Whether group g lies inside the vertex set `set` (a bitset over layer ids).
    bool within(size_t g, const uint64_t* set) const;
    size_t words() const { return words_; }
    bool cancelled() const { return cancelled_; }

    static constexpr size_t kFields = 5; // bitsets per group (see bits())
    // Sets of per-group arrays kept from spaces that went for the next ones to take (a space
    // takes one when it is made, and gives its own back, emptied, when it goes).
    static constexpr size_t kKeptStorages = 2;

  private:
    size_t words_ = 0;
    // Words that a vector's resize leaves as they are (default-initialized, not zeroed): a
    // group's bitsets are written in full as it is formed.
    template <class T> struct WordAllocator : std::allocator<T> {
        template <class U> struct rebind { using other = WordAllocator<U>; };
        WordAllocator() = default;
        template <class U> WordAllocator(const WordAllocator<U>&) noexcept {}
        // Only the construction without arguments differs (std::allocator_traits constructs
        // the others as std::allocator does).
        template <class U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    };
    std::vector<uint64_t, WordAllocator<uint64_t>> bits_; // per group: kFields bitsets
    // By group, together (forming and the DP read several at once).
    static constexpr uint32_t kNone = UINT32_MAX;
    struct Info {
        double cost = 0, best = 0; // cost(); the cheapest partition found
        int64_t lowerBound = 0;    // OptimusGroupClass::lower_bound_bits
        // For deferral: output elements, weights, the bound of its operators (bits, see
        // OptimusGroupClass::upper_bound_bits) and the rows read; the largest O_h of its
        // outputs.
        int64_t ofmap = 0, weights = 0, upper = 0, upperRows = 0;
        int32_t size = 0, oh = 1;
        // Inherited sub-groups (docs/model-notes.md, "Optimus inherited sub-groups"): its
        // entry in recorded_ (kNone: no records), and whether it was classified by its
        // components' records without costing it.
        uint32_t rec = kNone;
        bool hopeless = false, deferred = false, unproven = false, inherited = false;
    };
    // Forming and the DP read a group's Info at every step: kept to 72 bytes on 64-bit
    // targets (the inherited sub-groups' figures live in recorded_).
    static_assert(sizeof(void*) != 8 || sizeof(Info) <= 72);
    std::vector<Info> info_;
    // By group, for each outside tensor its readers in the group read: Optimus Alg. 2 at 1 × 1
    // over them (Σ dp0, Σ min(dp1, dp0), once per edge) and the largest window they read of
    // it there, at the smallest tile and at the full tile (every output whole).
    struct Record {
        LayerId tensor = kNoLayer;
        int32_t rows = 1, cols = 1;         // at 1 × 1
        int32_t tileRows = 1, tileCols = 1; // at the smallest tile
        int32_t fullRows = 1;               // at the full tile (the columns are the same)
        int64_t acc1 = 0, acc0 = 0;
    };
    std::vector<Record> records_;
    // By group, where records are kept: its records [recBeg, recEnd) of records_ once built;
    // at least k sub-groups (Optimus Eq. 3), or no Optimus Eq. 4 solution.
    struct Recorded {
        int64_t k = 1;
        uint32_t recBeg = 0, recEnd = 0;
        bool infeasible = false;
        bool built = false;       // its records are [recBeg, recEnd) (else not built yet)
        bool fromRecords = false; // costed from its component's records (costedFromRecords())
        // Its operators' figures once costed (OptimusGroupClass::operator_fmap, _least,
        // _upper, _full).
        int64_t opsFmap = -1, opsLeast = 0, opsUpper = std::numeric_limits<int64_t>::max();
        int64_t opsFull = -1;
    };
    std::vector<Recorded> recorded_;
    // By group, together: its components (see components()), and where each group's end.
    std::vector<uint32_t> components_, componentsEnd_;
    bool componentsKept_ = false;
    int64_t deferredCount_ = 0, resolvedCount_ = 0, inheritedCount_ = 0, recordsBuiltLater_ = 0,
            fromRecordsCount_ = 0;
    bool deferring_ = false;
    Classify classify_; // kept for resolve()
    struct Work;
    std::unique_ptr<Work> work_; // the classifier's threads and scratch
    void classifyRange(size_t from, size_t to, int thread);
    // The constructor's work, for bitsets of FixedWords words (0: words_).
    template <size_t FixedWords>
    void form(const Network& net, const OptimusGroupRules& rules, const Classify& classify,
              const std::function<bool()>& cancelled);
    std::vector<double> split_;    // split() (by group)
    std::vector<IdRange> byMin_;   // by vertex: its groups
    std::vector<IdRange> validAt_; // by vertex: its valid groups' positions in validIds_
    std::vector<uint32_t> validIds_;
    std::vector<OptimusVertexLimit> limits_;
    int64_t byBound_ = 0, largestShare_ = 0;
    bool cancelled_ = false;
    // The per-group arrays' memory, handed from one space to the next (see Storage in the .cpp):
    // taken when a space is made, given back, emptied, when it goes.
    struct Storage;
    void swapStorage(Storage& s);
    void takeStorage();
    void giveStorage();
};

} // namespace lf
