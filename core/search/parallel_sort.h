// A sort on the work pool (search/work_pool.h): contiguous parts sorted in parallel, then
// merged pairwise, each round's merges in parallel. For the large sorts of the network
// exploration (fronts of hundreds of thousands of points), which would otherwise run on one
// thread while the others wait.
#pragma once

#include "search/work_pool.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace lf {

// Sorts `v` by `less`, which must order the elements totally (no two equal): the result is
// then what std::sort gives, whatever the number of threads.
template <class T, class Less> void parallelSort(WorkPool* pool, std::vector<T>& v, Less less) {
    constexpr size_t kMinPart = size_t(1) << 14; // below this a part is not worth a thread
    const size_t parts = std::min(partsFor(pool, 1), std::max<size_t>(1, v.size() / kMinPart));
    if (parts <= 1) {
        std::sort(v.begin(), v.end(), less);
        return;
    }
    auto ranges = splitRange(v.size(), parts);
    auto at = [](std::vector<T>& x, size_t k) { return x.begin() + std::ptrdiff_t(k); };
    parallelFor(pool, ranges.size(), [&](size_t k) {
        std::sort(at(v, ranges[k].first), at(v, ranges[k].second), less);
    });
    std::vector<T> merged(v.size());
    while (ranges.size() > 1) {
        std::vector<std::pair<size_t, size_t>> next;
        for (size_t k = 0; k < ranges.size(); k += 2)
            next.emplace_back(ranges[k].first, ranges[std::min(k + 1, ranges.size() - 1)].second);
        parallelFor(pool, next.size(), [&](size_t m) {
            const auto& a = ranges[2 * m];
            if (2 * m + 1 == ranges.size()) {
                std::copy(at(v, a.first), at(v, a.second), at(merged, a.first));
                return;
            }
            const auto& b = ranges[2 * m + 1];
            std::merge(at(v, a.first), at(v, a.second), at(v, b.first), at(v, b.second),
                       at(merged, a.first), less);
        });
        v.swap(merged);
        ranges = std::move(next);
    }
}

} // namespace lf
