#include "partition/partition_geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lf {

namespace {

std::vector<int> divisorList(int n) {
    std::vector<int> d;
    for (int k = 1; k <= n; ++k)
        if (n % k == 0) d.push_back(k);
    return d;
}

// Largest-remainder rounding of non-negative weights to integers summing to `total`.
std::vector<int> apportion(const std::vector<double>& weights, int total) {
    const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
    std::vector<int> out(weights.size(), 0);
    if (weights.empty()) return out;
    std::vector<std::pair<double, size_t>> rem;
    int given = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        const double exact =
            sum > 0 ? weights[i] / sum * total : double(total) / double(weights.size());
        out[i] = int(std::floor(exact));
        given += out[i];
        rem.emplace_back(exact - out[i], i);
    }
    std::stable_sort(rem.begin(), rem.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t k = 0; given < total && k < rem.size(); ++k, ++given)
        ++out[rem[k].second];
    return out;
}

} // namespace

bool overlaps(const SubArray& a, const SubArray& b) {
    return a.col < b.col + b.cols && b.col < a.col + a.cols && a.row < b.row + b.rows &&
           b.row < a.row + a.rows;
}

bool insideArray(const SubArray& s, int cols, int rows) {
    return s.cols >= 1 && s.rows >= 1 && s.col >= 0 && s.row >= 0 && s.col + s.cols <= cols &&
           s.row + s.rows <= rows;
}

bool placeable(const SubArray& s, int cols, int rows, const std::vector<SubArray>& others) {
    if (!insideArray(s, cols, rows)) return false;
    return std::none_of(others.begin(), others.end(),
                        [&](const SubArray& o) { return overlaps(s, o); });
}

SubArray dragSubArray(const SubArray& start, unsigned edges, double dCols, double dRows,
                      int arrayCols, int arrayRows, const std::vector<SubArray>& others) {
    if (edges == kEdgeNone) return start;
    if (edges & kEdgeMove) {
        const int wantCol = int(std::lround(start.col + dCols));
        const int wantRow = int(std::lround(start.row + dRows));
        SubArray best = start;
        double bestDist = placeable(start, arrayCols, arrayRows, others)
                              ? std::hypot(start.col - wantCol, start.row - wantRow)
                              : std::numeric_limits<double>::max();
        // The free position nearest to where the mouse asks: the rectangle slides along its
        // neighbours instead of stopping dead.
        const long positions = long(arrayCols - start.cols + 1) * long(arrayRows - start.rows + 1);
        const int radius = positions > 200'000 ? 64 : std::max(arrayCols, arrayRows);
        for (int r = std::max(0, wantRow - radius);
             r <= std::min(arrayRows - start.rows, wantRow + radius); ++r)
            for (int c = std::max(0, wantCol - radius);
                 c <= std::min(arrayCols - start.cols, wantCol + radius); ++c) {
                const SubArray s{c, r, start.cols, start.rows};
                const double d = std::hypot(c - wantCol, r - wantRow);
                if (d < bestDist && placeable(s, arrayCols, arrayRows, others)) {
                    bestDist = d;
                    best = s;
                }
            }
        return best;
    }

    // Candidate extents per axis: divisors of the array extent, plus the start extent.
    auto axis = [](int startPos, int startLen, bool lowEdge, bool highEdge, double delta,
                   int extent, std::vector<std::pair<int, int>>& cands, double& want) {
        std::vector<int> lens = divisorList(extent);
        if (std::find(lens.begin(), lens.end(), startLen) == lens.end()) lens.push_back(startLen);
        const int end = startPos + startLen;
        if (highEdge) {
            want = startLen + delta;
            for (int len : lens)
                cands.emplace_back(startPos, len);
        } else if (lowEdge) {
            want = startLen - delta;
            for (int len : lens)
                cands.emplace_back(end - len, len);
        } else {
            want = startLen;
            cands.emplace_back(startPos, startLen);
        }
    };
    std::vector<std::pair<int, int>> hc, vc;
    double wantCols = 0, wantRows = 0;
    axis(start.col, start.cols, edges & kEdgeLeft, edges & kEdgeRight, dCols, arrayCols, hc,
         wantCols);
    axis(start.row, start.rows, edges & kEdgeTop, edges & kEdgeBottom, dRows, arrayRows, vc,
         wantRows);
    SubArray best = start;
    double bestCost = std::numeric_limits<double>::max();
    for (const auto& [c, w] : hc)
        for (const auto& [r, h] : vc) {
            const SubArray s{c, r, w, h};
            if (!placeable(s, arrayCols, arrayRows, others)) continue;
            // Closest extent to the mouse; among equals, the one nearer the start size.
            const double cost = std::abs(w - wantCols) + std::abs(h - wantRows) +
                                1e-6 * (std::abs(w - start.cols) + std::abs(h - start.rows));
            if (cost < bestCost) {
                bestCost = cost;
                best = s;
            }
        }
    return best;
}

std::vector<int> rebalancePercent(const std::vector<int>& percent, size_t moved, int value) {
    std::vector<int> out(percent.size(), 0);
    if (percent.empty() || moved >= percent.size()) return percent;
    if (percent.size() == 1) return {100};
    value = std::clamp(value, 0, 100);
    std::vector<double> weights;
    for (size_t i = 0; i < percent.size(); ++i)
        if (i != moved) weights.push_back(std::max(0, percent[i]));
    const std::vector<int> rest = apportion(weights, 100 - value);
    for (size_t i = 0, k = 0; i < percent.size(); ++i)
        out[i] = i == moved ? value : rest[k++];
    return out;
}

std::vector<int> fractionsToPercent(const std::vector<double>& fractions) {
    const double sum = std::accumulate(fractions.begin(), fractions.end(), 0.0);
    if (std::abs(sum - 1.0) < 1e-6) {
        std::vector<double> w;
        for (double f : fractions)
            w.push_back(std::max(0.0, f));
        return apportion(w, 100);
    }
    std::vector<int> out;
    for (double f : fractions)
        out.push_back(int(std::lround(std::clamp(f, 0.0, 1.0) * 100)));
    return out;
}

} // namespace lf
