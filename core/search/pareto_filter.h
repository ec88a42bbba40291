// Pareto filtering (minimization) of integer cost vectors, as the network exploration uses
// it after every combination step (ConvFusion §V-A: filtering before combining loses no
// Pareto point because sum and max are monotone).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace lf {

// A two-dimensional Pareto staircase (minimization of key and value): keys ascending, values
// strictly descending. Small ones live in a sorted vector (a binary search and one move of the
// tail beat a tree); past kLarge entries, where moving the tail costs more, in a std::map.
template <class Payload = char> class Staircase {
  public:
    // Whether an entry has key and value both no larger than (key, value).
    bool covers(int64_t key, int64_t value) const {
        if (large_) {
            auto it = map_.upper_bound(key);
            return it != map_.begin() && std::prev(it)->second.first <= value;
        }
        auto it = std::upper_bound(vec_.begin(), vec_.end(), key,
                                   [](int64_t k, const Entry& e) { return k < e.key; });
        return it != vec_.begin() && std::prev(it)->value <= value;
    }
    // Inserts unless covered; removes the entries the new one covers.
    bool insert(int64_t key, int64_t value, const Payload& p = {}) {
        if (covers(key, value)) return false;
        if (large_) {
            auto jt = map_.lower_bound(key);
            while (jt != map_.end() && jt->second.first >= value)
                jt = map_.erase(jt);
            map_.emplace_hint(jt, key, std::pair{value, p});
            return true;
        }
        auto lo = std::lower_bound(vec_.begin(), vec_.end(), key,
                                   [](const Entry& e, int64_t k) { return e.key < k; });
        auto hi = lo;
        while (hi != vec_.end() && hi->value >= value)
            ++hi;
        if (hi != lo) {
            *lo = {key, value, p};
            vec_.erase(lo + 1, hi);
        } else {
            vec_.insert(lo, {key, value, p});
        }
        if (vec_.size() > kLarge) {
            for (const Entry& e : vec_)
                map_.emplace_hint(map_.end(), e.key, std::pair{e.value, e.payload});
            vec_ = {};
            large_ = true;
        }
        return true;
    }
    // f(payload) for every entry, in key order.
    template <class F> void each(F f) const {
        if (large_) {
            for (const auto& [k, e] : map_)
                f(e.second);
        } else {
            for (const Entry& e : vec_)
                f(e.payload);
        }
    }
    // f(key, value) for every entry, in key order.
    template <class F> void eachEntry(F f) const {
        if (large_) {
            for (const auto& [k, e] : map_)
                f(k, e.first);
        } else {
            for (const Entry& e : vec_)
                f(e.key, e.value);
        }
    }
    void clear() {
        vec_.clear();
        map_.clear();
        large_ = false;
    }

  private:
    static constexpr size_t kLarge = 2048;
    struct Entry {
        int64_t key, value;
        Payload payload;
    };
    bool large_ = false;
    std::vector<Entry> vec_;
    std::map<int64_t, std::pair<int64_t, Payload>> map_;
};

// Indices of the non-dominated entries of `cost` (cost(i) returns a std::array<int64_t, N>),
// in lexicographic order of their costs. Of several entries with equal costs the one with
// the lowest index is kept, so the result does not depend on anything but the input order.
template <size_t N, class CostFn> std::vector<uint32_t> paretoIndices(size_t n, CostFn cost) {
    // Costs and index side by side, sorted by value: the index breaks ties, which makes the
    // order that of a stable sort without its indirection (this sort is the serial part of
    // the network exploration, millions of entries per step).
    struct Entry {
        std::array<int64_t, N> c;
        uint32_t index;
    };
    std::vector<Entry> e(n);
    for (size_t k = 0; k < n; ++k)
        e[k] = {cost(k), uint32_t(k)};
    std::sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
        for (size_t j = 0; j < N; ++j)
            if (a.c[j] != b.c[j]) return a.c[j] < b.c[j];
        return a.index < b.index;
    });
    std::vector<uint32_t> keep;
    if constexpr (N == 1) {
        if (n) keep.push_back(e[0].index);
    } else if constexpr (N == 2) {
        int64_t best = INT64_MAX;
        for (const Entry& x : e)
            if (x.c[1] < best) {
                best = x.c[1];
                keep.push_back(x.index);
            }
    } else if constexpr (N == 3) {
        // Staircase over (c1, c2) of the kept points: keys ascending, values descending.
        Staircase<> stairs;
        for (const Entry& x : e)
            if (stairs.insert(x.c[1], x.c[2])) keep.push_back(x.index);
    } else {
        std::vector<size_t> kept; // positions in e
        for (size_t p = 0; p < e.size(); ++p) {
            bool dominated = false;
            for (size_t q : kept) {
                bool le = true;
                for (size_t k = 1; k < N && le; ++k)
                    le = e[q].c[k] <= e[p].c[k];
                if (le) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                kept.push_back(p);
                keep.push_back(e[p].index);
            }
        }
    }
    return keep;
}

// True when a dominates b (no worse in every cost, better in one).
template <size_t N>
bool dominates(const std::array<int64_t, N>& a, const std::array<int64_t, N>& b) {
    bool strict = false;
    for (size_t k = 0; k < N; ++k) {
        if (a[k] > b[k]) return false;
        if (a[k] < b[k]) strict = true;
    }
    return strict;
}

// The combination of two fronts in the network exploration (ConvFusion §V-A steps 3-4): DRAM
// accesses and MACs add, the buffer is the larger of the two. Calls onPair(a, b) for a subset of A
// × B whose Pareto front has exactly the costs of the front of all pairs, without forming all
// |A|·|B| pairs: when b's buffer is at most a's, the pair's buffer is a's whatever b is, so only
// the b of the (accesses, MACs) front of {b : bits(b) ≤ bits(a)} can be on the front (any other b
// is matched or beaten by one of those in both sums, at the same buffer); symmetrically for a's
// buffer below b's. Each pair falls in exactly one of the two sweeps. Deterministic: the order
// depends only on the inputs.
struct FrontCost {
    int64_t acc, bits, macs;
};

// The (accesses, MACs) staircase of sumMaxFrontPairs, with the index of each entry's point.
class Stairs2D {
  public:
    // Inserts unless an entry with accesses and MACs both no larger is present.
    void insert(int64_t acc, int64_t macs, uint32_t index) { s_.insert(acc, macs, index); }
    template <class F> void each(F f) const { s_.each(f); }
    void clear() { s_.clear(); }

  private:
    Staircase<uint32_t> s_;
};

// The indices of a front ordered by buffer (then index): the order both sweeps walk.
inline std::vector<uint32_t> orderByBits(const std::vector<FrontCost>& v) {
    std::vector<uint32_t> o(v.size());
    for (size_t k = 0; k < o.size(); ++k)
        o[k] = uint32_t(k);
    std::sort(o.begin(), o.end(), [&](uint32_t x, uint32_t y) {
        return v[x].bits != v[y].bits ? v[x].bits < v[y].bits : x < y;
    });
    return o;
}

// The pairs of sumMaxFrontPairs from the sweep steps [first, last) of the |A| + |B| steps
// (first sweep over A in buffer order, then the second over B), in the same order as the
// whole walk emits them: consecutive ranges emit exactly the whole walk's pairs. `oa` and
// `ob` are orderByBits(A) and orderByBits(B).
template <class Emit>
void sumMaxFrontPairsRange(const std::vector<FrontCost>& A, const std::vector<FrontCost>& B,
                           const std::vector<uint32_t>& oa, const std::vector<uint32_t>& ob,
                           size_t first, size_t last, Emit onPair) {
    Stairs2D st;
    // First sweep: for a in buffer order, the b with bits(b) <= bits(a).
    if (first < oa.size()) {
        size_t q = 0;
        for (size_t t = first; t < std::min(last, oa.size()); ++t) {
            const uint32_t a = oa[t];
            for (; q < ob.size() && B[ob[q]].bits <= A[a].bits; ++q)
                st.insert(B[ob[q]].acc, B[ob[q]].macs, ob[q]);
            st.each([&](uint32_t b) { onPair(a, b); });
        }
        st.clear();
    }
    // Second sweep: for b in buffer order, the a with bits(a) < bits(b).
    if (last > oa.size()) {
        size_t q = 0;
        for (size_t t = std::max(first, oa.size()) - oa.size(); t < last - oa.size(); ++t) {
            const uint32_t b = ob[t];
            for (; q < oa.size() && A[oa[q]].bits < B[b].bits; ++q)
                st.insert(A[oa[q]].acc, A[oa[q]].macs, oa[q]);
            st.each([&](uint32_t a) { onPair(a, b); });
        }
    }
}

template <class Emit>
void sumMaxFrontPairs(const std::vector<FrontCost>& A, const std::vector<FrontCost>& B,
                      Emit onPair) {
    const auto oa = orderByBits(A), ob = orderByBits(B);
    sumMaxFrontPairsRange(A, B, oa, ob, 0, A.size() + B.size(), onPair);
}

} // namespace lf
