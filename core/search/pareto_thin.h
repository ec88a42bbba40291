// ε-thinning of an explored front: at most N points that cover the whole front best, for
// fronts too large to use point by point (`layerfuse-cli explore --max-points N`).
//
// A kept point q covers a front point p within ε when q is at most (1 + ε) times p in each
// objective — DRAM accesses, buffer bytes and MACs (multiplicative ε-dominance; counts below
// one count as one). The choice is greedy, farthest first: the point with the fewest
// accesses, the smallest buffer and the fewest MACs, then again and again the point the kept
// ones cover worst. The result states the ε it achieves — the guarantee: every point of the
// full front is covered within that ε — and is a prefix of the same sequence for every N,
// so ε never grows with N; with N at least the front's size nothing is dropped (ε = 0).
#pragma once

#include "search/pareto.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lf {

class WorkPool;

struct ThinnedFront {
    std::vector<size_t> kept; // indices into the front, ascending
    double epsilon = 0;       // every front point is covered within it
};

ThinnedFront thinFront(const std::vector<ExplorePoint>& front, size_t maxPoints,
                       WorkPool* pool = nullptr);
// The same for any three costs (the exploration's partial fronts: accesses, buffer bits, MACs).
ThinnedFront thinCosts(const std::vector<std::array<int64_t, 3>>& costs, size_t maxPoints,
                       WorkPool* pool = nullptr);

// Keeps only the thinned points in `result.front` (their order unchanged); returns ε.
double thinFront(ExploreResult& result, size_t maxPoints, WorkPool* pool = nullptr);

} // namespace lf
