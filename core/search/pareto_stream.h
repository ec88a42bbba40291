// An exact Pareto filter (minimization) over three or four integer costs for points that
// arrive one by one, millions of them: points are buffered and the buffer is compacted to its
// front by sorting instead of comparing every new point with an archive. After the sort only
// "is this point dominated by one kept before it" remains: for three costs a staircase answers
// it in O(log n); for four, a scan of the kept points (none is ever removed again). Of several
// points with equal costs the first one added is kept, exactly as an archive that rejects a
// point some kept point dominates or equals, so results do not depend on the buffer size.
#pragma once

#include "search/pareto_filter.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace lf {

template <size_t N, class Payload> class ParetoStream {
    static_assert(N == 3 || N == 4);

  public:
    using Cost = std::array<int64_t, N>;

    explicit ParetoStream(size_t archiveMax = 256) : archiveMax_(archiveMax) {}

    void add(const Cost& c, const Payload& p) {
        if (!buffered_) {
            archiveAdd(c, p);
            if (costs_.size() > archiveMax_) {
                // The front has grown: from now on buffer and sort. The archive's first points
                // are the ones that rejected most: they become the strong points.
                buffered_ = true;
                nStrong_ = std::min(kStrong, costs_.size());
                std::copy_n(costs_.begin(), nStrong_, strong_.begin());
                limit_ = 2 * costs_.size();
            }
            return;
        }
        // Most points are dominated by one of a few strong points: try those first. Dropping a
        // point that an earlier one dominates or equals is what the filter would do anyway.
        for (size_t k = 0; k < nStrong_; ++k)
            if (dominatesOrEquals(strong_[k], c)) {
                if (k > 0) std::swap(strong_[k], strong_[k - 1]);
                return;
            }
        costs_.push_back(c);
        payloads_.push_back(p);
        if (costs_.size() >= limit_) {
            compact();
            limit_ = 2 * costs_.size() + archiveMax_;
        }
    }

    // The non-dominated points, in lexicographic order of their costs (and those costs).
    std::vector<Payload> finish(std::vector<Cost>* costs = nullptr) {
        if (buffered_) {
            compact();
        } else {
            // The archive is the front; put it in cost order.
            std::vector<uint32_t> idx(costs_.size());
            for (size_t k = 0; k < idx.size(); ++k)
                idx[k] = uint32_t(k);
            std::sort(idx.begin(), idx.end(),
                      [&](uint32_t a, uint32_t b) { return costs_[a] < costs_[b]; });
            std::vector<Payload> sorted;
            std::vector<Cost> sortedCosts;
            sorted.reserve(idx.size());
            for (uint32_t k : idx) {
                sorted.push_back(std::move(payloads_[k]));
                sortedCosts.push_back(costs_[k]);
            }
            payloads_.swap(sorted);
            costs_.swap(sortedCosts);
        }
        if (costs) *costs = costs_;
        std::vector<Payload> out;
        out.swap(payloads_);
        costs_.clear();
        buffered_ = false;
        nStrong_ = 0;
        return out;
    }

  private:
    static bool dominatesOrEquals(const Cost& q, const Cost& c) {
        bool le = true;
        for (size_t j = 0; j < N; ++j)
            le &= q[j] <= c[j];
        return le;
    }

    // The exact archive of a small front: a point that a kept one dominates or equals is
    // rejected (the kept one moves towards the front), else it evicts those it dominates.
    void archiveAdd(const Cost& c, const Payload& p) {
        const size_t n = costs_.size();
        for (size_t k = 0; k < n; ++k)
            if (dominatesOrEquals(costs_[k], c)) {
                if (k > 0) {
                    std::swap(costs_[k], costs_[k / 2]);
                    std::swap(payloads_[k], payloads_[k / 2]);
                }
                return;
            }
        size_t w = 0;
        for (size_t k = 0; k < n; ++k) {
            if (dominatesOrEquals(c, costs_[k])) continue;
            if (w != k) {
                costs_[w] = costs_[k];
                payloads_[w] = std::move(payloads_[k]);
            }
            ++w;
        }
        costs_.resize(w);
        payloads_.resize(w);
        costs_.push_back(c);
        payloads_.push_back(p);
    }

    struct Key {
        Cost cost;
        uint32_t pos; // kept points come first, then arrivals in order: breaks ties
    };

    // Sorts the buffer and keeps its front (in cost order).
    void compact() {
        std::vector<Key> keys(costs_.size());
        for (size_t k = 0; k < keys.size(); ++k)
            keys[k] = {costs_[k], uint32_t(k)};
        std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
            for (size_t j = 0; j < N; ++j)
                if (a.cost[j] != b.cost[j]) return a.cost[j] < b.cost[j];
            return a.pos < b.pos;
        });
        std::vector<Cost> keptCosts;
        std::vector<Payload> kept;
        auto keep = [&](const Key& k) {
            keptCosts.push_back(k.cost);
            kept.push_back(std::move(payloads_[k.pos]));
        };
        if constexpr (N == 3) {
            // Staircase over (c1, c2) of the kept points: keys ascending, values descending. A
            // point is dominated (or equalled) when a kept one has c1 and c2 no larger; kept
            // points come first in the sort, so their c0 is no larger either.
            Staircase<> stairs;
            for (const Key& k : keys)
                if (stairs.insert(k.cost[1], k.cost[2])) keep(k);
        } else {
            // The kept points' last three costs, packed; the one that last rejected a point
            // moves towards the front, so that the few strong points are tried first.
            std::vector<std::array<int64_t, 3>> front;
            for (const Key& k : keys) {
                const Cost& c = k.cost;
                bool dominated = false;
                for (size_t j = 0; j < front.size(); ++j) {
                    const auto& q = front[j];
                    if (q[0] <= c[1] && q[1] <= c[2] && q[2] <= c[3]) {
                        if (j > 0) std::swap(front[j], front[j / 2]);
                        dominated = true;
                        break;
                    }
                }
                if (dominated) continue;
                front.push_back({c[1], c[2], c[3]});
                keep(k);
            }
        }
        costs_.swap(keptCosts);
        payloads_.swap(kept);
    }

    static constexpr size_t kStrong = 16;
    std::vector<Cost> costs_;       // archive, or kept front followed by arrivals
    std::vector<Payload> payloads_; // the same order
    size_t archiveMax_;
    bool buffered_ = false;
    size_t limit_ = 0;
    std::array<Cost, kStrong> strong_{};
    size_t nStrong_ = 0;
};

// The points that no other strictly dominates — all points of a front cost are kept, ties
// included — over three costs, for a T with a `cost` (std::array<int64_t, 3>) and an order
// that sorts by cost first (the result is in that order). Buffered and compacted by sorting,
// as ParetoStream.
template <class T> class TiesFront {
  public:
    void add(const T& t) {
        for (size_t k = 0; k < nStrong_; ++k)
            if (strictlyDominates(strong_[k], t.cost)) {
                if (k > 0) std::swap(strong_[k], strong_[k - 1]);
                return;
            }
        items_.push_back(t);
        if (items_.size() >= limit_) {
            compact();
            limit_ = std::max(kMinBuffer, 2 * items_.size());
        }
    }
    std::vector<T> finish() {
        compact();
        nStrong_ = 0;
        limit_ = kMinBuffer;
        std::vector<T> out(items_.begin(), items_.end()); // not the buffer's capacity
        items_ = {};
        return out;
    }

  private:
    using Cost = std::array<int64_t, 3>;
    static bool strictlyDominates(const Cost& q, const Cost& c) {
        return q[0] <= c[0] && q[1] <= c[1] && q[2] <= c[2] && q != c;
    }
    void compact() {
        std::sort(items_.begin(), items_.end());
        Staircase<> stairs;
        size_t w = 0;
        for (size_t r = 0; r < items_.size(); ++r) {
            const Cost& c = items_[r].cost;
            // Equal costs are adjacent: a tie of the last kept point stays.
            const bool tie = w > 0 && items_[w - 1].cost == c;
            if (!tie && !stairs.insert(c[1], c[2])) continue;
            if (w != r) items_[w] = items_[r];
            ++w;
        }
        items_.resize(w);
        nStrong_ = std::min(kStrong, w);
        for (size_t k = 0; k < nStrong_; ++k)
            strong_[k] = items_[nStrong_ > 1 ? k * (w - 1) / (nStrong_ - 1) : 0].cost;
    }

    static constexpr size_t kStrong = 16, kMinBuffer = size_t(1) << 16;
    std::vector<T> items_;
    size_t limit_ = kMinBuffer;
    std::array<Cost, kStrong> strong_{};
    size_t nStrong_ = 0;
};

} // namespace lf
