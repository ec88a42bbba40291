#include "search/pareto_thin.h"

#include "search/work_pool.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace lf {

ThinnedFront thinFront(const std::vector<ExplorePoint>& front, size_t maxPoints, WorkPool* pool) {
    std::vector<std::array<int64_t, 3>> costs;
    costs.reserve(front.size());
    for (const ExplorePoint& p : front)
        costs.push_back({p.dram_accesses, p.buffer_bytes, p.macs});
    return thinCosts(costs, maxPoints, pool);
}

ThinnedFront thinCosts(const std::vector<std::array<int64_t, 3>>& front, size_t maxPoints,
                       WorkPool* pool) {
    ThinnedFront out;
    const size_t n = front.size();
    if (n <= maxPoints) {
        for (size_t k = 0; k < n; ++k)
            out.kept.push_back(k);
        return out;
    }
    if (maxPoints == 0) return out;
    // Objectives in log space: q covers p within ε iff max_k (ln q_k − ln p_k) ≤ ln(1 + ε).
    std::vector<std::array<double, 3>> lg(n);
    for (size_t k = 0; k < n; ++k)
        for (size_t j = 0; j < 3; ++j)
            lg[k][j] = std::log(double(std::max<int64_t>(1, front[k][j])));
    std::vector<double> cover(n, std::numeric_limits<double>::infinity());
    std::vector<char> chosen(n, 0);
    // Each added point is one pass over the front; below some ten thousand points a pass takes
    // less than handing it to the threads and waiting for them (the exploration's combination
    // steps thin fronts of a few thousand points, thousands of times).
    constexpr size_t kParallelFrom = 16384;
    if (n < kParallelFrom) pool = nullptr;
    const auto parts = splitRange(n, std::max<size_t>(1, partsFor(pool)));
    std::vector<std::pair<double, size_t>> worst(parts.size());
    // Adds point s: updates every point's cover and finds the worst covered (lowest index
    // of equals), per part in parallel, then over the parts in order.
    auto add = [&](size_t s) {
        chosen[s] = 1;
        out.kept.push_back(s);
        parallelFor(pool, parts.size(), [&](size_t part) {
            std::pair<double, size_t> w{-1.0, n};
            for (size_t k = parts[part].first; k < parts[part].second; ++k) {
                double d = 0;
                for (size_t j = 0; j < 3; ++j)
                    d = std::max(d, lg[s][j] - lg[k][j]);
                cover[k] = std::min(cover[k], d);
                if (!chosen[k] && cover[k] > w.first) w = {cover[k], k};
            }
            worst[part] = w;
        });
        std::pair<double, size_t> w{-1.0, n};
        for (const auto& x : worst)
            if (x.first > w.first) w = x;
        return w;
    };
    // The extremes first: the fewest accesses, the smallest buffer, the fewest MACs.
    std::pair<double, size_t> w{-1.0, n};
    for (size_t j = 0; j < 3 && out.kept.size() < maxPoints; ++j) {
        size_t best = 0;
        for (size_t k = 1; k < n; ++k)
            if (lg[k][j] < lg[best][j]) best = k;
        if (!chosen[best]) w = add(best);
    }
    while (out.kept.size() < maxPoints && w.second < n && w.first > 0)
        w = add(w.second);
    double eps = 0;
    for (size_t k = 0; k < n; ++k)
        eps = std::max(eps, cover[k]);
    out.epsilon = std::expm1(eps);
    std::sort(out.kept.begin(), out.kept.end());
    return out;
}

double thinFront(ExploreResult& result, size_t maxPoints, WorkPool* pool) {
    const ThinnedFront t = thinFront(result.front, maxPoints, pool);
    std::vector<ExplorePoint> kept;
    kept.reserve(t.kept.size());
    for (size_t k : t.kept)
        kept.push_back(result.front[k]);
    result.front.swap(kept);
    return t.epsilon;
}

} // namespace lf
