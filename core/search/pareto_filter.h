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
        std::map<int64_t, int64_t> stairs;
        for (const Entry& x : e) {
            const int64_t a = x.c[1], b = x.c[2];
            auto it = stairs.upper_bound(a);
            if (it != stairs.begin() && std::prev(it)->second <= b) continue; // dominated
            keep.push_back(x.index);
            auto jt = stairs.lower_bound(a);
            while (jt != stairs.end() && jt->second >= b)
                jt = stairs.erase(jt);
            stairs[a] = b;
        }
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
// accesses and MACs add, the buffer is the larger of the two. Calls emit(a, b) for a subset of A ×
// B whose Pareto front has exactly the costs of the front of all pairs, without forming all |A|·|B|
// pairs: when b's buffer is at most a's, the pair's buffer is a's whatever b is, so only the b of
// the (accesses, MACs) front of {b : bits(b) ≤ bits(a)} can be on the front (any other b is
// matched or beaten by one of those in both sums, at the same buffer); symmetrically for
// a's buffer below b's. Each pair falls in exactly one of the two sweeps. Deterministic: the
// order depends only on the inputs.
struct FrontCost {
    int64_t acc, bits, macs;
};

class Stairs2D {
  public:
    // Inserts unless an entry with accesses and MACs both no larger is present.
    void insert(int64_t acc, int64_t macs, uint32_t index) {
        auto it = map_.upper_bound(acc);
        if (it != map_.begin() && std::prev(it)->second.first <= macs) return;
        auto jt = map_.lower_bound(acc);
        while (jt != map_.end() && jt->second.first >= macs)
            jt = map_.erase(jt);
        map_.emplace_hint(jt, acc, std::pair{macs, index});
    }
    template <class F> void each(F f) const {
        for (const auto& [acc, e] : map_)
            f(e.second);
    }
    void clear() { map_.clear(); }

  private:
    std::map<int64_t, std::pair<int64_t, uint32_t>> map_;
};

template <class Emit>
void sumMaxFrontPairs(const std::vector<FrontCost>& A, const std::vector<FrontCost>& B, Emit emit) {
    auto byBits = [](const std::vector<FrontCost>& v) {
        std::vector<uint32_t> o(v.size());
        for (size_t k = 0; k < o.size(); ++k)
            o[k] = uint32_t(k);
        std::sort(o.begin(), o.end(), [&](uint32_t x, uint32_t y) {
            return v[x].bits != v[y].bits ? v[x].bits < v[y].bits : x < y;
        });
        return o;
    };
    const auto oa = byBits(A), ob = byBits(B);
    Stairs2D st;
    size_t q = 0;
    for (uint32_t a : oa) { // bits(b) <= bits(a)
        for (; q < ob.size() && B[ob[q]].bits <= A[a].bits; ++q)
            st.insert(B[ob[q]].acc, B[ob[q]].macs, ob[q]);
        st.each([&](uint32_t b) { emit(a, b); });
    }
    st.clear();
    q = 0;
    for (uint32_t b : ob) { // bits(a) < bits(b)
        for (; q < oa.size() && A[oa[q]].bits < B[b].bits; ++q)
            st.insert(A[oa[q]].acc, A[oa[q]].macs, oa[q]);
        st.each([&](uint32_t a) { emit(a, b); });
    }
}

} // namespace lf
