// Pareto filtering (minimization) of integer cost vectors, as the network exploration uses
// it after every combination step (ConvFusion §V-A: filtering before combining loses no
// Pareto point because sum and max are monotone).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <vector>

namespace lf {

// Indices of the non-dominated entries of `cost` (cost(i) returns a std::array<int64_t, N>),
// in lexicographic order of their costs. Of several entries with equal costs the one with
// the lowest index is kept, so the result does not depend on anything but the input order.
template <size_t N, class CostFn> std::vector<uint32_t> paretoIndices(size_t n, CostFn cost) {
    std::vector<uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    std::vector<std::array<int64_t, N>> c(n);
    for (size_t k = 0; k < n; ++k)
        c[k] = cost(k);
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return c[a] < c[b]; });
    std::vector<uint32_t> keep;
    if constexpr (N == 1) {
        if (n) keep.push_back(idx[0]);
    } else if constexpr (N == 2) {
        int64_t best = INT64_MAX;
        for (uint32_t i : idx)
            if (c[i][1] < best) {
                best = c[i][1];
                keep.push_back(i);
            }
    } else if constexpr (N == 3) {
        // Staircase over (c1, c2) of the kept points: keys ascending, values descending.
        std::map<int64_t, int64_t> stairs;
        for (uint32_t i : idx) {
            const int64_t a = c[i][1], b = c[i][2];
            auto it = stairs.upper_bound(a);
            if (it != stairs.begin() && std::prev(it)->second <= b) continue; // dominated
            keep.push_back(i);
            auto jt = stairs.lower_bound(a);
            while (jt != stairs.end() && jt->second >= b)
                jt = stairs.erase(jt);
            stairs[a] = b;
        }
    } else {
        for (uint32_t i : idx) {
            bool dominated = false;
            for (uint32_t j : keep) {
                bool le = true;
                for (size_t k = 1; k < N && le; ++k)
                    le = c[j][k] <= c[i][k];
                if (le) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) keep.push_back(i);
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

} // namespace lf
