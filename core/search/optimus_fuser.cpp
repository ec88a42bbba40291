#include "search/optimus_fuser.h"

#include "models/evaluate.h"
#include "models/evaluate_detail.h"
#include "network/dims.h"
#include "search/optimus_coster.h"
#include "search/optimus_groups.h"
#include "search/tile_optimizer.h"
#include "util/checked.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace lf {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Cancelled {};

std::vector<char> dpVertices(const Network& net, const std::vector<LayerType>& fusible) {
    std::vector<char> v(size_t(net.size()), 0);
    for (LayerId id = 0; id < net.size(); ++id) {
        const LayerType t = net.layer(id).type;
        if (t == LayerType::concat)
            v[size_t(id)] = 1;
        else if (isCompute(t) && t != LayerType::opaque)
            v[size_t(id)] =
                fusible.empty() || std::find(fusible.begin(), fusible.end(), t) != fusible.end();
    }
    return v;
}

bool hasCompute(const Network& net, const std::vector<LayerId>& members) {
    for (LayerId v : members)
        if (isCompute(net.layer(v).type)) return true;
    return false;
}

// Memo of sub-problems keyed by their vertex bitset (open addressing over an arena).
class Memo {
  public:
    explicit Memo(size_t words) : w_(words), slots_(1024, -1) {
        keys_.reserve(256 * w_); // room for the few hundred sub-problems most searches meet
        entries_.reserve(256);
    }
    struct Entry {
        double cost;
        int32_t group;
    };
    const Entry* find(const uint64_t* key) const {
        for (size_t h = hash(key) & (slots_.size() - 1);; h = (h + 1) & (slots_.size() - 1)) {
            const int32_t s = slots_[h];
            if (s < 0) return nullptr;
            const uint64_t* k = &keys_[size_t(s) * w_];
            size_t i = 0;
            while (i < w_ && k[i] == key[i])
                ++i;
            if (i == w_) return &entries_[size_t(s)];
        }
    }
    void insert(const uint64_t* key, Entry e) {
        if (2 * (entries_.size() + 1) > slots_.size()) grow();
        const auto id = int32_t(entries_.size());
        keys_.insert(keys_.end(), key, key + w_);
        entries_.push_back(e);
        place(id);
    }
    size_t size() const { return entries_.size(); }

  private:
    size_t hash(const uint64_t* k) const {
        uint64_t h = 0;
        for (size_t i = 0; i < w_; ++i) // one multiply per word, chained
            h = (h ^ k[i]) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 31; // the slot is read from the low bits: fold the high ones in
        h *= 0xbf58476d1ce4e5b9ull;
        return size_t(h ^ (h >> 29));
    }
    void place(int32_t id) {
        size_t h = hash(&keys_[size_t(id) * w_]) & (slots_.size() - 1);
        while (slots_[h] >= 0)
            h = (h + 1) & (slots_.size() - 1);
        slots_[h] = id;
    }
    void grow() {
        slots_.assign(slots_.size() * 2, -1);
        for (int32_t id = 0; id < int32_t(entries_.size()); ++id)
            place(id);
    }
    size_t w_;
    std::vector<uint64_t> keys_;
    std::vector<Entry> entries_;
    std::vector<int32_t> slots_;
};

// Optimus Eq. 2 over the group space with memoized sub-problems.
//
// Two things keep the number of sub-problems down. A vertex of a sub-problem none of whose
// neighbours is in it can only be a group of its own: such vertices are taken out of the key
// (exactly: they add their own cost), so that removing different groups that leave the same
// connected part meets the same sub-problem (a fan-out whose branches end in the network's
// outputs is then linear, not 2^fan-out). And the memo has a bound: once it holds
// `maxEntries` sub-problems, a sub-problem not met before is not searched but costed as all
// its vertices alone (an upper bound, and the scheme read back matches it), and counted.
//
// A candidate group is not followed when its cost, the vertices it leaves alone and a lower
// bound of the rest (`floor`: Σ of a per-vertex amount every partition pays, for Optimus Eq. 3
// each operator's weights, read at least once) already reach the best found: it cannot be
// strictly cheaper, so the optimum and the group chosen on ties stay the same.
class Solver {
  public:
    // `vertices`: the most sub-problems one path of the recursion can nest.
    // `integral`: group costs are integers (exact sums), see index().
    // `floor`: by layer, what every partition pays for it at least (zeros: no bound).
    Solver(OptimusGroupSpace& space, const SearchControl& control, size_t vertices, size_t layers,
           size_t maxEntries, int64_t maxSteps, bool integral, std::vector<double> floor)
        : space_(space), control_(control), memo_(space.words()),
          scratch_((vertices + 2) * space.words(), 0), candAt_(vertices + 2), index_(layers),
          single_(layers, 0), floor_(std::move(floor)), singleGroup_(layers, -1),
          adjacent_(layers * space.words(), 0), maxEntries_(maxEntries), maxSteps_(maxSteps),
          dominance_(integral) {
        const size_t W = space.words();
        for (LayerId v = 0; v < LayerId(layers); ++v) {
            const auto& valid = space.validStartingAt(v);
            if (valid.empty() || space.size(valid.front()) != 1) continue; // {v} comes first
            singleGroup_[size_t(v)] = int32_t(valid.front());
            single_[size_t(v)] = space.cost(valid.front());
            const uint64_t* nb = space.bits(valid.front()) + 3 * W;
            std::copy(nb, nb + W, &adjacent_[size_t(v) * W]);
        }
    }

    // The cost of every vertex of `S` alone, or (of) the floor of every vertex.
    double singles(const uint64_t* S) const { return sum(S, single_); }
    double floor(const uint64_t* S) const { return sum(S, floor_); }

    // `S`: a sub-problem without isolated vertices; `singlesOfS`: singles(S); `floorOfS`:
    // floor(S).
    double solve(const uint64_t* S, double singlesOfS, double floorOfS, size_t depth = 0) {
        const size_t W = space_.words();
        size_t first = W;
        for (size_t k = 0; k < W; ++k)
            if (S[k]) {
                first = k;
                break;
            }
        if (first == W) return 0;
        if (const Memo::Entry* e = memo_.find(S)) return e->cost;
        if (memo_.size() >= maxEntries_ || steps_ >= maxSteps_) {
            ++fallbacks_; // the bounds: every vertex alone
            return singlesOfS;
        }
        if ((++calls_ & 0x3ff) == 0 && control_.cancelled()) throw Cancelled{};
        const LayerId u = LayerId(first * 64 + size_t(std::countr_zero(S[first])));
        Index& ix = index(u);
        // The valid groups starting at u inside S, cheapest first over their floor (index()),
        // so that a good total is found early and bounds the rest; of equal totals the group
        // formed first (the smallest id) is chosen, as in formation order.
        double best = kInf;
        int32_t bestGroup = -1;
        auto cannotWin = [&](double atLeast, uint32_t g) {
            return atLeast > best || (atLeast == best && int32_t(g) > bestGroup);
        };
        // Most sub-problems read the first few candidates only. An index read much further
        // gets a bitset per vertex of the groups that hold it, which finds those inside S in
        // a few word operations per vertex S lacks; so does a plain index (all read) of more
        // groups than a word holds — one of fewer is read faster group by group (chains and
        // residual nets: a few groups per vertex).
        ++steps_;
        const bool filtered = (ix.plain && ix.size > 64) || ix.reads > 4 * ix.size + 256;
        if (filtered) {
            filter(ix, S, candAt_[depth]);
            steps_ += int64_t(ix.span.size() * ix.words / 16);
        }
        // By depth: the recursion below fills deeper ones.
        const std::vector<uint64_t>& mine = candAt_[depth];
        size_t i = 0;
        for (;; ++i) {
            if (filtered) { // the next candidate inside S
                size_t k = i / 64;
                uint64_t x = k < mine.size() ? mine[k] & (~uint64_t(0) << (i % 64)) : 0;
                while (x == 0 && ++k < mine.size())
                    x = mine[k];
                if (x == 0) break;
                i = k * 64 + size_t(std::countr_zero(x));
            } else if (i >= ix.size) {
                break;
            }
            const Keyed c = ix.at(i);
            if (!ix.plain && c.key + floorOfS > best) break; // nor any later: larger keys
            ++steps_;
            const uint32_t g = c.g;
            // The layers it leaves alone cost at least their floor: without them first. A
            // plain index holds no deferred group, so its costs are those it was built with
            // (read from the index, not from the group's figures elsewhere in memory).
            const double groupFloor = c.floor;
            double cost = ix.plain ? c.cost : space_.cost(g);
            if (cannotWin(cost + floorOfS - groupFloor, g)) continue;
            if (!filtered && !space_.within(g, S)) continue;
            if (!ix.plain && space_.deferred(g)) { // its cost so far is a lower bound: cost it now
                resolveFrom(ix, i, S, floorOfS, best);
                cost = space_.cost(g);
                if (dominance_ && cost > space_.split(g)) continue; // see index()
                if (cannotWin(cost + floorOfS - groupFloor, g)) continue;
            }
            uint64_t* next = &scratch_[depth * W];
            double takenFloor = 0;
            const double taken = remove(S, g, next, &takenFloor);
            const double floorOfNext = floorOfS - takenFloor - groupFloor;
            if (cannotWin(cost + taken + floorOfNext, g)) continue;
            const double total =
                cost + taken + solve(next, singlesOfS - taken - c.singles, floorOfNext, depth + 1);
            if (total < best || (total == best && int32_t(g) < bestGroup)) {
                best = total;
                bestGroup = int32_t(g);
            }
        }
        ix.reads += i + 1;
        memo_.insert(S, {best, bestGroup});
        return best;
    }

    // S minus group g, then minus the vertices that left isolated (each a group of its
    // own); returns the cost of those vertices (and adds their floor to `takenFloor`).
    double remove(const uint64_t* S, uint32_t g, uint64_t* next,
                  double* takenFloor = nullptr) const {
        const size_t W = space_.words();
        const uint64_t* m = space_.bits(g);
        const uint64_t* nb = m + 3 * W;
        for (size_t w = 0; w < W; ++w)
            next[w] = S[w] & ~m[w];
        double taken = 0;
        for (size_t k = 0; k < W; ++k)
            for (uint64_t x = nb[k] & next[k]; x; x &= x - 1) {
                const size_t v = k * 64 + size_t(std::countr_zero(x));
                const uint64_t* adj = &adjacent_[v * W];
                bool alone = true;
                for (size_t w = 0; w < W && alone; ++w)
                    alone = (adj[w] & next[w]) == 0;
                if (!alone) continue;
                next[k] &= ~(uint64_t(1) << (v % 64));
                taken += single_[v];
                if (takenFloor) *takenFloor += floor_[v];
            }
        return taken;
    }

    // The group chosen for sub-problem S, or -1 when S was not searched (every vertex alone).
    int32_t bestGroup(const uint64_t* S) const {
        const Memo::Entry* e = memo_.find(S);
        return e ? e->group : -1;
    }
    int32_t singleGroup(LayerId v) const { return singleGroup_[size_t(v)]; }
    size_t subproblems() const { return memo_.size(); }
    int64_t steps() const { return steps_; }
    int64_t fallbacks() const { return fallbacks_; }

  private:
    double sum(const uint64_t* S, const std::vector<double>& byVertex) const {
        double t = 0;
        for (size_t k = 0; k < space_.words(); ++k)
            for (uint64_t x = S[k]; x; x &= x - 1)
                t += byVertex[k * 64 + size_t(std::countr_zero(x))];
        return t;
    }

    // Per first vertex u: its valid groups by (key, id), key = cost − floor (for a deferred
    // group its lower bound − floor). Sub-problems mostly stop after the first few (see
    // solve()), so the order is found as far as it is read: a heap yields the rest.
    struct Keyed {
        double key, floor, cost; // cost: the group's when the index was built
        double singles;          // Σ single_ over the group
        uint32_t g;
        bool operator>(const Keyed& o) const { return key != o.key ? key > o.key : g > o.g; }
    };
    struct Index {
        std::vector<Keyed> sorted; // the first ones in order
        std::vector<Keyed> heap;   // the others, a min-heap
        size_t size = 0;
        // Without deferred groups the exact costs bound each candidate as well, and the
        // groups stay in formation order, all in `sorted`: ordering them costs more than
        // it saves.
        bool plain = false;
        size_t reads = 0; // candidates read so far, over all sub-problems
        bool built = false;
        // Once read far (see solve()): every vertex the groups use but u, and by vertex
        // which groups (by position in the order) hold it.
        std::vector<LayerId> span;
        std::vector<uint64_t> contains; // span.size() × words
        size_t words = 0;
        Keyed at(size_t i) {
            while (sorted.size() <= i) {
                std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
                sorted.push_back(heap.back());
                heap.pop_back();
            }
            return sorted[i];
        }
    };
    Index& index(LayerId u) {
        Index& ix = index_[size_t(u)];
        if (ix.built) return ix;
        ix.built = true;
        // A group that costs more than another partition of its vertices (OptimusGroupSpace::
        // split) is never the strict minimum of a sub-problem, so it is left out: the optimum,
        // the groups chosen on ties and the sub-problems they lead to stay the same. Only with
        // integral costs (Optimus Eq. 3), where the sums compare exactly. A deferred group's
        // cost is a lower bound of it here: if even that is above the split, it is left out.
        ix.plain = true;
        ix.heap.reserve(space_.validStartingAt(u).size());
        for (uint32_t g : space_.validStartingAt(u))
            if (!dominance_ || !(space_.cost(g) > space_.split(g))) {
                double f = 0, singles = 0;
                groupSums(g, &f, &singles);
                ix.heap.push_back({space_.cost(g) - f, f, space_.cost(g), singles, g});
                ix.plain = ix.plain && !space_.deferred(g);
            }
        ix.size = ix.heap.size();
        if (ix.plain)
            ix.sorted.swap(ix.heap);
        else
            std::make_heap(ix.heap.begin(), ix.heap.end(), std::greater<>{});
        return ix;
    }
    // Costs the deferred group at position i of ix, and with it (on the classifier's threads)
    // the next deferred ones inside S that may still be cheapest: the next candidates read
    // are likely to need them.
    void resolveFrom(Index& ix, size_t i, const uint64_t* S, double floorOfS, double best) {
        std::vector<uint32_t>& batch = batchScratch_;
        batch.assign(1, ix.at(i).g);
        for (size_t j = i + 1; j < ix.size && j < i + kLookAhead && batch.size() < kBatch; ++j) {
            const Keyed c = ix.at(j);
            if (c.key + floorOfS > best) break;
            if (space_.deferred(c.g) && space_.within(c.g, S)) batch.push_back(c.g);
        }
        space_.resolve(batch);
    }
    static constexpr size_t kLookAhead = 256, kBatch = 32;

    // The groups of ix inside S, by position, into `cand` (the whole order, and the
    // bitsets by vertex, are found the first time).
    void filter(Index& ix, const uint64_t* S, std::vector<uint64_t>& cand) {
        const size_t W = space_.words();
        if (ix.words == 0) {
            if (ix.size) ix.at(ix.size - 1); // sorts the rest
            ix.words = std::max<size_t>(1, (ix.size + 63) / 64);
            std::vector<uint64_t>& span = spanScratch_;
            span.assign(W, 0);
            for (const Keyed& c : ix.sorted)
                for (size_t k = 0; k < W; ++k)
                    span[k] |= space_.bits(c.g)[k];
            std::vector<int32_t>& pos = pos_; // by layer, -1 but for the span (reset below)
            if (pos.empty()) pos.assign(index_.size(), -1);
            size_t vertices = 0;
            for (size_t k = 0; k < W; ++k)
                vertices += size_t(std::popcount(span[k]));
            ix.span.reserve(vertices);
            for (size_t k = 0; k < W; ++k)
                for (uint64_t x = span[k]; x; x &= x - 1) {
                    const auto v = LayerId(k * 64 + size_t(std::countr_zero(x)));
                    pos[size_t(v)] = int32_t(ix.span.size());
                    ix.span.push_back(v);
                }
            ix.contains.assign(ix.span.size() * ix.words, 0);
            for (size_t i = 0; i < ix.size; ++i) {
                const uint64_t* m = space_.bits(ix.sorted[i].g);
                for (size_t k = 0; k < W; ++k)
                    for (uint64_t x = m[k]; x; x &= x - 1) {
                        const int32_t p = pos[k * 64 + size_t(std::countr_zero(x))];
                        ix.contains[size_t(p) * ix.words + i / 64] |= uint64_t(1) << (i % 64);
                    }
            }
            for (const LayerId v : ix.span)
                pos[size_t(v)] = -1;
        }
        const size_t G = ix.words;
        cand.assign(G, ~uint64_t(0));
        if (ix.size % 64) cand[G - 1] = (uint64_t(1) << (ix.size % 64)) - 1;
        for (size_t j = 0; j < ix.span.size(); ++j) {
            const LayerId v = ix.span[j];
            if ((S[size_t(v) / 64] >> (v % 64)) & 1) continue;
            const uint64_t* has = &ix.contains[j * G];
            for (size_t k = 0; k < G; ++k)
                cand[k] &= ~has[k];
        }
    }
    // Σ floor_ over group g (with Optimus Eq. 3 costs at least the weights read once, see
    // fuseOnce; else nothing: the floor is zero) and Σ single_, in one walk (each summed in
    // the order sum() sums it).
    void groupSums(uint32_t g, double* floor, double* singles) const {
        const uint64_t* m = space_.bits(g);
        double f = 0, s = 0;
        for (size_t k = 0; k < space_.words(); ++k)
            for (uint64_t x = m[k]; x; x &= x - 1) {
                const size_t v = k * 64 + size_t(std::countr_zero(x));
                f += floor_[v];
                s += single_[v];
            }
        *floor = dominance_ ? f : 0.0;
        *singles = s;
    }

    OptimusGroupSpace& space_;
    const SearchControl& control_;
    Memo memo_;
    std::vector<uint64_t> scratch_;             // one bitset per recursion depth, never reallocated
    std::vector<std::vector<uint64_t>> candAt_; // filter()'s candidates, by recursion depth
    std::vector<uint32_t> batchScratch_;
    std::vector<int32_t> pos_;          // filter()'s scratch, by layer
    std::vector<uint64_t> spanScratch_; // and a bitset
    std::vector<Index> index_;
    std::vector<double> single_;       // by vertex: the cost of the vertex alone
    std::vector<double> floor_;        // by vertex: what every partition pays for it at least
    std::vector<int32_t> singleGroup_; // by vertex: the group {v}
    std::vector<uint64_t> adjacent_;   // by vertex: its neighbours ({v}'s bitset), together
    size_t maxEntries_;
    int64_t maxSteps_, steps_ = 0; // candidate groups tried (and index words read / 16)
    int64_t fallbacks_ = 0;
    uint64_t calls_ = 0;
    bool dominance_;
};

// Fused recompute / reuse groups need tiles chosen for the group, not for its layers alone.
// The DP costed them with another model, so a group that still does not fit the buffer, or
// costs more than its layers on their own (each with its best tiles), is split into them.
Schedule tileGroups(const Network& net, const Hardware& hw, Schedule s,
                    const OptimusFuserOptions& opt, int64_t capBits, const SearchControl& control) {
    TileSearchOptions to;
    to.objective = opt.cost == FuserCost::evaluate ? opt.objective : Objective::dram;
    if (to.objective == Objective::edp) to.objective = Objective::energy; // additive over groups
    to.capacity_bytes = capBits / 8;
    Hardware capHw = hw;
    capHw.buffer.bytes = capBits / 8;
    s = optimizeScheduleTiles(net, hw, s, to, control).schedule;
    std::vector<FusionGroup> kept;
    std::vector<FusionGroup> singles;
    for (const FusionGroup& g : s.groups) {
        if (g.layers.size() == 1) {
            kept.push_back(g);
            continue;
        }
        const detail::GroupEval ev = detail::evaluateGroup(net, capHw, s, g, EvaluateOptions{});
        const bool broken = !ev.gm.fits || ev.gm.dram.total() < 0 || ev.gm.macs < 0;
        const double fused = broken ? kInf : groupObjectiveValue(ev, capHw, to.objective);
        std::vector<FusionGroup> alone;
        std::vector<std::pair<LayerId, LayerSchedule>> layers;
        double apart = 0;
        for (LayerId v : g.layers) {
            if (!isCompute(net.layer(v).type)) continue;
            FusionGroup one;
            one.name = net.layer(v).name;
            one.layers = {v};
            one.strategy = opt.strategy;
            const GroupTileResult r = optimizeGroupTiles(net, hw, s, one, to, control);
            apart += r.objective;
            layers.insert(layers.end(), r.layers.begin(), r.layers.end());
            one.out_tile = r.group.out_tile;
            alone.push_back(std::move(one));
        }
        if (fused <= apart) {
            kept.push_back(g);
            continue;
        }
        for (const auto& [id, ls] : layers) {
            s.layers[size_t(id)] = ls;
            s.explicit_layer[size_t(id)] = 1;
        }
        singles.insert(singles.end(), alone.begin(), alone.end());
    }
    s.groups = std::move(kept);
    s.groups.insert(s.groups.end(), singles.begin(), singles.end());
    normalize(s, net);
    return s;
}

OptimusFuserResult fuseOnce(const Network& net, const Hardware& hw, const OptimusFuserOptions& opt,
                            const SearchControl& control) {
    OptimusFuserResult res;
    // Layer schedules for evaluate costs (not part of the DP's time).
    const Schedule base = opt.cost == FuserCost::evaluate ? defaultSchedule(net, hw) : Schedule{};
    const auto t0 = std::chrono::steady_clock::now();
    const int64_t capBits = (opt.capacity_bytes >= 0 ? opt.capacity_bytes : hw.buffer.bytes) * 8;
    OptimusGroupRules rules;
    rules.vertex = dpVertices(net, opt.fusible);
    rules.max_size = opt.max_group_size;
    OptimusLookupTable built;
    if (opt.online) {
        rules.fan_out_all_or_none = true;
        if (rules.max_size <= 0) {
            const auto t1 = std::chrono::steady_clock::now();
            if (!opt.table) built = buildOptimusLookupTable(net, hw, opt.fusible);
            rules.max_size = (opt.table ? *opt.table : built).maxGroupSize(capBits);
            res.seconds -=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        }
    }
    res.max_group_size = rules.max_size;
    for (char c : rules.vertex)
        res.operators += c;

    OptimusCoster coster(net, hw, capBits);
    coster.setJoinable(rules.vertex);
    std::optional<OptimusCoster> coster2; // the helper thread's, a copy (see below)
    Hardware evalHw = hw;
    evalHw.buffer.bytes = capBits / 8;
    // A layer alone whose Optimus Eq. 4 has no solution — its outside input at all its
    // channels does not fit even at the smallest tile, as for a global pool over a large map —
    // cannot run as an Optimus group of its own. Left alone, it runs layer by layer with the
    // default tiles for the buffer, the schedule the network starts from, and costs what
    // that schedule costs (docs/model-notes.md, "Optimus lone layers without a tile"). Found on the
    // thread that costs single vertices (the first), once per layer.
    const bool layerWiseAlone = opt.strategy == Strategy::optimus;
    Schedule layerWise; // its layers' schedules, by LayerId
    layerWise.layers.resize(size_t(net.size()));
    layerWise.explicit_layer.assign(size_t(net.size()), 0); // 1: runs layer by layer alone
    auto layerWiseCost = [&](LayerId v) {
        // Choosing its tiles is the default schedule's work, not the DP's (as `base` above).
        const auto t1 = std::chrono::steady_clock::now();
        layerWise.layers[size_t(v)] = defaultLayerSchedule(net, evalHw, v);
        res.seconds -= std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        layerWise.explicit_layer[size_t(v)] = 1;
        FusionGroup fg; // the default group: one layer, layer by layer
        fg.name = net.layer(v).name;
        fg.layers = {v};
        if (opt.cost == FuserCost::optimus) { // its DRAM accesses for one image, as Optimus Eq. 3
            Traffic t;
            for (const LayerCost& lc : detail::strategyCost(net, evalHw, layerWise, fg).layers)
                t += lc.dram;
            return double(t.total());
        }
        return groupObjectiveValue(
            detail::evaluateGroup(net, evalHw, layerWise, fg, EvaluateOptions{}), evalHw,
            opt.objective);
    };
    auto classify = [&](const std::vector<LayerId>& members, int thread, double split,
                        bool upper) -> OptimusGroupClass {
        OptimusGroupClass c;
        if (!hasCompute(net, members)) {
            if (members.size() == 1) c.cost = 0; // a lone concat: nothing to do
            return c;
        }
        if (opt.cost == FuserCost::optimus || opt.strategy == Strategy::optimus) {
            // Optimus Eq. 4 decides feasibility (an Optimus group that has no Optimus Eq. 4
            // solution does not fit: its fmaps at the smallest tile exceed the buffer) and the
            // bound.
            const int64_t ceiling =
                opt.cost == FuserCost::optimus ? optimusCeiling(split) : INT64_MAX;
            const OptimusCoster::Cost oc =
                (thread == 0 ? coster : *coster2)
                    .cost(members, ceiling, upper, rules.deferral != nullptr); // full: for records
            c = OptimusCoster::classOf(oc);
            if (!oc.feasible && members.size() > 1) return c;
            if (!oc.feasible && layerWiseAlone) {
                c.cost = layerWiseCost(members.front()); // single vertices: on thread 0
                return c;
            }
            if (opt.cost == FuserCost::optimus) {
                c.cost = double(oc.memory_cost);
                return c;
            }
        }
        FusionGroup fg;
        fg.name = net.layer(members.front()).name;
        fg.layers = members;
        fg.strategy = opt.strategy;
        const detail::GroupEval ev =
            detail::evaluateGroup(net, evalHw, base, fg, EvaluateOptions{});
        if (ev.gm.fits || members.size() == 1)
            c.cost = groupObjectiveValue(ev, evalHw, opt.objective);
        return c;
    };
    rules.prune_hopeless = opt.prune_hopeless;
    rules.capacity_bits = capBits;
    // The bounds: half the memory budget for the groups (OptimusGroupSpace::kFields bitsets
    // and about 96 bytes of figures each), half for the memo of sub-problems (one bitset each).
    const int64_t words = (net.size() + 63) / 64;
    if (opt.memory_budget_bytes > 0) {
        rules.max_groups =
            std::max<int64_t>(1, opt.memory_budget_bytes / 2 /
                                     (int64_t(8 * OptimusGroupSpace::kFields) * words + 96));
        res.max_subproblems = std::max<int64_t>(1, opt.memory_budget_bytes / 2 / (8 * words + 24));
    }
    rules.max_groups_per_vertex = opt.max_groups_per_vertex;
    res.max_groups = rules.max_groups;
    // A second thread pays off only when the group space is large, i.e. with wide fan-outs
    // (2^max|succ| groups per vertex, Optimus §4.4); for chains and residual nets its start-up
    // costs more than it saves.
    size_t fanout = 0;
    for (LayerId v = 0; v < net.size(); ++v)
        fanout = std::max(fanout, net.successors(v).size());
    rules.threads = opt.threads > 0 ? opt.threads : fanout >= 3 ? 2 : 1;
    if (rules.threads > 1) coster2.emplace(coster);
    // Optimus Eq. 3 costs: groups whose fmaps fit whatever their ISOA decision are costed
    // only when the DP needs them (OptimusDeferral) — in large group spaces (wide fan-outs, as
    // for the second thread), where it saves more than its bookkeeping costs.
    OptimusDeferral deferral;
    if (opt.cost == FuserCost::optimus && opt.defer && fanout >= 3) {
        deferral = coster.deferral();
        if (opt.defer_unproven_sample >= 0) {
            deferral.unproven_sample = opt.defer_unproven_sample;
            if (opt.defer_unproven_sample == 0) deferral.max_unproven = 1;
        } else {
            deferral.max_unproven = -1; // never
        }
        rules.deferral = &deferral;
    }
    // Forming the space, less what layerWiseCost leaves out of res.seconds meanwhile.
    const auto tForm = std::chrono::steady_clock::now();
    const double secondsBefore = res.seconds;
    OptimusGroupSpace space(net, rules, classify, [&] { return control.cancelled(); });
    res.form_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - tForm).count() +
        (res.seconds - secondsBefore);
    if (space.cancelled()) {
        res.cancelled = true;
        return res;
    }
    res.candidate_groups = int64_t(space.size());
    res.groups_evaluated = int64_t(space.size());
    res.classified_by_bound = space.classifiedByBound();
    res.limited_vertices = space.limits();
    for (const OptimusVertexLimit& l : res.limited_vertices)
        res.groups_not_formed = satAdd(res.groups_not_formed, l.not_formed);
    res.largest_vertex_share = space.largestVertexShare();
    // Optimus Eq. 3 reads every operator's weights at least once, whatever the groups.
    std::vector<double> floor(size_t(net.size()), 0);
    if (opt.cost == FuserCost::optimus)
        for (LayerId v = 0; v < net.size(); ++v)
            if (rules.vertex[size_t(v)] && isCompute(net.layer(v).type))
                floor[size_t(v)] = double(coster.weightsOf(v)); // layerWeights()
    // And more where the DP is long (docs/model-notes.md, "Optimus DP floor"): each group's
    // cost shared among its operators by weight (optimusDpFloor). Its pass over the groups
    // pays in spaces formed with a deferral (wide fan-outs) of 2^15 groups or more, or where
    // most groups are deferred (the DP then costs fewer of them); smaller spaces keep the
    // floor of the weights.
    if (opt.cost == FuserCost::optimus && space.deferring() &&
        (space.size() >= (size_t(1) << 15) || space.deferredCount() * 4 > int64_t(space.size())))
        floor = optimusDpFloor(net, space, std::move(floor));
    Solver solver(space, control, size_t(res.operators), size_t(net.size()),
                  res.max_subproblems > 0 ? size_t(res.max_subproblems) : SIZE_MAX,
                  opt.max_dp_steps > 0 ? opt.max_dp_steps : INT64_MAX,
                  opt.cost == FuserCost::optimus, std::move(floor));
    std::vector<uint64_t> all(space.words(), 0);
    for (LayerId v = 0; v < net.size(); ++v)
        if (rules.vertex[size_t(v)]) all[size_t(v) / 64] |= uint64_t(1) << (v % 64);
    try {
        res.cost = solver.solve(all.data(), solver.singles(all.data()), solver.floor(all.data()));
    } catch (const Cancelled&) {
        res.cancelled = true;
        return res;
    }
    res.groups_deferred = space.deferredCount();
    res.groups_inherited = space.inheritedCount();
    res.costed_from_records = space.costedFromRecords();
    res.deferred_costed = space.resolvedCount();
    res.subproblems = int64_t(solver.subproblems());
    res.dp_steps = solver.steps();
    res.subproblems_unsearched = solver.fallbacks();
    res.complete = res.limited_vertices.empty() && res.subproblems_unsearched == 0;
    // L17-22: read the scheme back from the table; past a sub-problem the memo bound left
    // unsearched, every vertex is a group of its own (as it was costed).
    std::vector<uint64_t> S = all, next(all.size());
    bool unsearched = false;
    res.groups.reserve(size_t(res.operators));
    auto take = [&](std::vector<LayerId> members) {
        if (hasCompute(net, members)) res.groups.push_back(std::move(members));
    };
    while (std::any_of(S.begin(), S.end(), [](uint64_t w) { return w != 0; })) {
        int32_t g = unsearched ? -1 : solver.bestGroup(S.data());
        if (g < 0) {
            unsearched = true;
            size_t k = 0;
            while (S[k] == 0)
                ++k;
            g = solver.singleGroup(LayerId(k * 64 + size_t(std::countr_zero(S[k]))));
        }
        take(space.members(size_t(g)));
        solver.remove(S.data(), uint32_t(g), next.data());
        const uint64_t* m = space.bits(size_t(g));
        for (size_t k = 0; k < S.size(); ++k)
            for (uint64_t x = S[k] & ~m[k] & ~next[k]; x; x &= x - 1)
                take({LayerId(k * 64 + size_t(std::countr_zero(x)))}); // left isolated
        S.swap(next);
    }
    // Compute layers outside the DP stay on their own, costed as the DP costs a vertex alone.
    for (LayerId v : net.computeIds())
        if (!rules.vertex[size_t(v)]) {
            res.groups.push_back({v});
            res.cost += classify({v}, 0, kInf, false).cost;
        }
    // Disjoint and each sorted: in order of their first layers, which is their order.
    std::sort(res.groups.begin(), res.groups.end(),
              [](const std::vector<LayerId>& a, const std::vector<LayerId>& b) {
                  return a.front() < b.front();
              });
    res.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    Schedule s = opt.cost == FuserCost::evaluate ? base : defaultSchedule(net, hw);
    s.groups.clear();
    for (const auto& members : res.groups) {
        if (members.size() == 1 && layerWise.explicit_layer[size_t(members[0])]) {
            // Layer by layer (normalize() gives it the default group), with the tiles costed.
            const LayerId v = members[0];
            s.explicit_layer[size_t(v)] =
                s.explicit_layer[size_t(v)] || layerWise.layers[size_t(v)] != s.layers[size_t(v)];
            s.layers[size_t(v)] = layerWise.layers[size_t(v)];
            continue;
        }
        FusionGroup fg;
        const LayerId first = *std::find_if(members.begin(), members.end(), [&](LayerId v) {
            return isCompute(net.layer(v).type);
        });
        fg.name = net.layer(first).name;
        if (members.size() > 1) fg.name += ".." + net.layer(members.back()).name;
        fg.layers = members;
        fg.strategy = opt.strategy;
        s.groups.push_back(std::move(fg));
    }
    normalize(s, net);
    if (opt.strategy != Strategy::optimus)
        s = tileGroups(net, hw, std::move(s), opt, capBits, control);
    res.schedule = std::move(s);
    return res;
}

} // namespace

std::vector<double> optimusDpFloor(const Network& net, const OptimusGroupSpace& space,
                                   std::vector<double> floor) {
    // A partition into groups the DP may choose (valid, not above their split) pays each
    // operator at least its weights times the least cost-to-weights ratio of those groups
    // that hold it. A deferred group's cost is a lower bound of it, which only lowers the
    // ratio. Rounded down, with a margin for the rounding of the ratio, so that the floors of
    // a group's operators never add up to more than its cost.
    std::vector<double> ratio(floor.size(), kInf);
    if (space.componentsKept()) {
        // The groups holding an operator v, without walking their members: such a group is
        // v's own or holds v in one of the components it was formed from, so following
        // components from the last group formed to the first carries to each group the least
        // ratio of the groups formed from it; v takes the least over the groups starting at v.
        const size_t G = space.size();
        std::vector<double> least(G, kInf); // by group: over it and the groups formed from it
        for (size_t g = G; g-- > 0;) {
            const double c = space.cost(g), weights = double(space.weights(g));
            if (c < kInf && weights > 0 && (space.deferred(g) || !(c > space.split(g))))
                least[g] = std::min(least[g], c / weights);
            for (const uint32_t k : space.components(g))
                least[k] = std::min(least[k], least[g]);
        }
        for (LayerId v = 0; v < net.size(); ++v)
            for (const uint32_t g : space.startingAt(v))
                ratio[size_t(v)] = std::min(ratio[size_t(v)], least[g]);
    } else {
        // Nearly every group deferred (components not kept): the costed ones are walked member
        // by member; a group's members come at or after its first vertex, so the least ratio
        // of the deferred groups starting at or before an operator bounds theirs.
        std::vector<double> deferredFrom(floor.size(), kInf);
        const size_t W = space.words();
        for (LayerId u = 0; u < net.size(); ++u)
            for (uint32_t g : space.validStartingAt(u)) {
                const double c = space.cost(g), weights = double(space.weights(g));
                if ((c > space.split(g) && !space.deferred(g)) || !(weights > 0)) continue;
                const double r = c / weights;
                if (space.deferred(g)) {
                    deferredFrom[size_t(u)] = std::min(deferredFrom[size_t(u)], r);
                    continue;
                }
                const uint64_t* m = space.bits(g);
                for (size_t k = 0; k < W; ++k)
                    for (uint64_t x = m[k]; x; x &= x - 1) {
                        double& least = ratio[k * 64 + size_t(std::countr_zero(x))];
                        least = std::min(least, r);
                    }
            }
        double deferredLeast = kInf;
        for (size_t v = 0; v < floor.size(); ++v) {
            deferredLeast = std::min(deferredLeast, deferredFrom[v]);
            ratio[v] = std::min(ratio[v], deferredLeast);
        }
    }
    for (size_t v = 0; v < floor.size(); ++v)
        if (floor[v] > 0 && ratio[v] < kInf)
            floor[v] = std::floor(floor[v] * ratio[v] * (1 - 0x1p-40));
    return floor;
}

int OptimusLookupTable::maxGroupSize(int64_t capacity_bits) const {
    int n = 1;
    while (size_t(n) < memo_bits.size() && memo_bits[size_t(n)] != INT64_MAX &&
           memo_bits[size_t(n)] <= capacity_bits)
        ++n;
    return n;
}

OptimusLookupTable buildOptimusLookupTable(const Network& net, const Hardware& hw,
                                           const std::vector<LayerType>& fusible) {
    OptimusGroupRules rules;
    rules.vertex = dpVertices(net, fusible);
    rules.prune_hopeless = false;
    OptimusCoster coster(net, hw, INT64_MAX);
    OptimusLookupTable t;
    std::vector<char> in(size_t(net.size()), 0);
    auto classify = [&](const std::vector<LayerId>& members, int, double,
                        bool) { // Optimus Alg. 3 lines 2-6
        OptimusGroupClass c;
        if (!hasCompute(net, members)) return c;
        for (LayerId v : members)
            in[size_t(v)] = 1;
        int64_t oh = 1, ow = 1;
        for (LayerId v : members) {
            bool output = net.successors(v).empty();
            for (LayerId s : net.successors(v))
                output = output || !in[size_t(s)];
            if (output) {
                oh = std::max(oh, net.layer(v).out.h);
                ow = std::max(ow, net.layer(v).out.w);
            }
        }
        for (LayerId v : members)
            in[size_t(v)] = 0;
        const int64_t M =
            coster.fmapAt(members, ceilDiv(oh, 4), ceilDiv(ow, 4)) * hw.precision.act_bits;
        if (t.memo_bits.size() < members.size()) t.memo_bits.resize(members.size(), INT64_MAX);
        int64_t& slot = t.memo_bits[members.size() - 1];
        slot = std::min(slot, M);
        return c;
    };
    const OptimusGroupSpace space(net, rules, classify);
    return t;
}

OptimusFuserResult optimusFuse(const Network& net, const Hardware& hw,
                               const OptimusFuserOptions& opt, const SearchControl& control) {
    if (opt.cost == FuserCost::evaluate && opt.objective == Objective::edp) {
        OptimusFuserOptions o = opt;
        OptimusFuserResult best;
        double bestEdp = kInf;
        for (Objective part : {Objective::energy, Objective::latency}) {
            o.objective = part;
            OptimusFuserResult r = fuseOnce(net, hw, o, control);
            if (r.cancelled) return r;
            const Metrics m = evaluate(net, hw, r.schedule);
            const double edp = m.totals.energy.total() * double(m.totals.latency_cycles);
            if (edp < bestEdp) {
                bestEdp = edp;
                const double seconds = best.seconds + r.seconds;
                const double form = best.form_seconds + r.form_seconds;
                best = std::move(r);
                best.seconds = seconds;
                best.form_seconds = form;
                best.cost = edp;
            } else {
                best.seconds += r.seconds;
                best.form_seconds += r.form_seconds;
            }
        }
        return best;
    }
    return fuseOnce(net, hw, opt, control);
}

} // namespace lf
