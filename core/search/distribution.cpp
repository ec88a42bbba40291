#include "search/distribution.h"

#include <algorithm>
#include <numeric>

namespace lf {

std::vector<size_t> assignedPieces(const std::vector<double>& cost, int rank, int size) {
    std::vector<size_t> byCost(cost.size());
    std::iota(byCost.begin(), byCost.end(), size_t(0));
    std::stable_sort(byCost.begin(), byCost.end(),
                     [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    // (cost so far, pieces so far): pieces of no estimated cost are dealt in turn.
    std::vector<std::pair<double, size_t>> load(size_t(std::max(1, size)), {0.0, 0});
    std::vector<size_t> mine;
    for (size_t k : byCost) {
        const size_t r = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        load[r].first += std::max(0.0, cost[k]);
        ++load[r].second;
        if (int(r) == rank) mine.push_back(k);
    }
    std::sort(mine.begin(), mine.end());
    return mine;
}

} // namespace lf
