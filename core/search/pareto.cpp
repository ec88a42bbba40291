#include "search/pareto.h"

#include "models/evaluate.h"
#include "network/dag.h"
#include "network/dims.h"
#include "search/distribution.h"
#include "search/front_combine.h"
#include "search/parallel_sort.h"
#include "search/pareto_filter.h"
#include "search/pareto_thin.h"
#include "search/segment_front_io.h"
#include "search/segment_stages.h"
#include "search/work_pool.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace lf {

namespace {

struct Unit {
    size_t sequence = 0, begin = 0, length = 0;
};

// A partial front: costs and, per point, the node (or link) that rebuilds it; `order` is
// orderByBits(costs) when known (the combination walks fronts in that order).
struct PartialFront {
    std::vector<FrontCost> costs;
    std::vector<int32_t> refs;
    std::vector<uint32_t> order;
    const std::vector<uint32_t>* knownOrder() const {
        return order.size() == costs.size() ? &order : nullptr;
    }
};

std::vector<FrontCost> costsOf(const SegmentFront& f) {
    std::vector<FrontCost> out;
    out.reserve(f.points.size());
    for (const SegmentPoint& q : f.points)
        out.push_back({q.dram, q.buffer_bits, q.macs});
    return out;
}

int64_t divisorCount(int64_t n) {
    int64_t c = 0;
    for (int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) c += d * d == n ? 1 : 2;
    return c;
}

// A segment's search time, roughly: its length times its layers' tile vectors (divisors).
double segmentCostEstimate(const Network& net, const std::vector<LayerId>& layers) {
    double tiles = 0;
    for (LayerId id : layers) {
        const LayerDims d = layerDims(net, id);
        tiles += double(divisorCount(d.Dx) * divisorCount(d.Dy)) *
                 double(divisorCount(d.Dz) * divisorCount(d.Di));
    }
    return tiles * double(layers.size());
}

// For each unit, the unit whose search serves it: the first one with equal layer dims.
std::vector<size_t> sharedUnits(const Network& net, const std::vector<std::vector<LayerId>>& layers,
                                bool share) {
    std::vector<size_t> rep(layers.size());
    std::map<std::vector<std::array<int64_t, 4>>, std::vector<size_t>> byShape;
    std::vector<std::vector<LayerDims>> dims(layers.size());
    for (size_t u = 0; u < layers.size(); ++u) {
        rep[u] = u;
        if (!share) continue;
        std::vector<std::array<int64_t, 4>> shape;
        for (LayerId id : layers[u]) {
            dims[u].push_back(layerDims(net, id));
            const LayerDims& d = dims[u].back();
            shape.push_back({d.Dx, d.Dy, d.Dz, d.Di});
        }
        auto& same = byShape[shape];
        for (size_t v : same)
            if (dims[v] == dims[u]) {
                rep[u] = v;
                break;
            }
        if (rep[u] == u) same.push_back(u);
    }
    return rep;
}

// Runs `work` on a thread of its own while the calling thread reports progress and forwards
// a cancel request (SearchControl promises progress on the caller's thread).
template <class Work, class Fraction>
void runReporting(const SearchControl& control, std::atomic<bool>& stop, Work work,
                  Fraction fraction) {
    std::mutex m;
    std::condition_variable cv;
    bool finished = false;
    std::exception_ptr error;
    std::thread driver([&] {
        try {
            work();
        } catch (...) {
            error = std::current_exception();
            stop = true;
        }
        std::lock_guard lock(m);
        finished = true;
        cv.notify_all();
    });
    {
        std::unique_lock lock(m);
        while (!cv.wait_for(lock, std::chrono::milliseconds(20), [&] { return finished; })) {
            if (control.cancelled()) stop = true;
            const auto [f, what] = fraction();
            lock.unlock();
            control.report(f, what);
            lock.lock();
        }
    }
    driver.join();
    if (error) std::rethrow_exception(error);
}

} // namespace

std::vector<std::pair<const std::vector<LayerId>*, const SegmentPoint*>>
ExploreResult::parts(size_t k) const {
    std::vector<std::pair<const std::vector<LayerId>*, const SegmentPoint*>> out;
    if (k >= front.size()) return out;
    for (int32_t l = front[k].node; l >= 0; l = links[size_t(l)].prev)
        for (int32_t n = links[size_t(l)].chain; n >= 0; n = nodes[size_t(n)].prev) {
            const Node& node = nodes[size_t(n)];
            out.emplace_back(&segment_layers[node.segment],
                             &segment_fronts[node.segment]->points[node.point]);
        }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.first->front() < b.first->front(); });
    return out;
}

Schedule ExploreResult::schedule(const Network& net, const Hardware& hw, size_t k) const {
    Schedule s = defaultSchedule(net, hw);
    for (const auto& [layers, point] : parts(k)) {
        std::string name = net.layer(layers->front()).name;
        if (layers->size() > 1) name += ".." + net.layer(layers->back()).name;
        applySegmentPoint(*layers, *point, name, s);
    }
    normalize(s, net);
    return s;
}

ExploreResult explore(const Network& net, const Hardware& hw, const ExploreOptions& opt,
                      const SearchControl& control) {
    const auto t0 = std::chrono::steady_clock::now();
    ExploreResult res;
    res.strategy = opt.strategy;
    const auto seqs = sequences(net);
    const size_t depth = size_t(std::max(1, opt.max_depth));

    // Step 2: the segments.
    std::vector<Unit> units;
    std::vector<std::vector<std::vector<size_t>>> unitOf(seqs.size()); // [seq][begin][len-1]
    for (size_t s = 0; s < seqs.size(); ++s) {
        unitOf[s].resize(seqs[s].size());
        for (size_t b = 0; b < seqs[s].size(); ++b)
            for (size_t len = 1; len <= depth && b + len <= seqs[s].size(); ++len) {
                unitOf[s][b].push_back(units.size());
                units.push_back({s, b, len});
                res.segment_layers.emplace_back(seqs[s].begin() + std::ptrdiff_t(b),
                                                seqs[s].begin() + std::ptrdiff_t(b + len));
            }
    }
    res.segments = int64_t(units.size());
    res.segment_fronts.resize(units.size());
    const std::vector<size_t> rep = sharedUnits(
        net, res.segment_layers, opt.share_equal_segments && opt.strategy == Strategy::recompute);
    // Longest segments first: they take longest, so the threads end evenly.
    std::vector<size_t> order;
    for (size_t u = 0; u < units.size(); ++u)
        if (rep[u] == u) order.push_back(u);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return units[a].length > units[b].length; });
    res.segments_searched = int64_t(order.size());

    WorkPool pool(opt.threads);
    SegmentSearchOptions so;
    so.tiles = opt.tiles;
    so.levels = opt.levels;
    so.allow_recompute = opt.allow_recompute;
    so.try_resident_weights = opt.try_resident_weights;
    so.max_buffer_bits = opt.max_buffer_bytes > 0 ? opt.max_buffer_bytes * 8 : 0;
    so.pool = &pool;
    segment::OptionCache optionCache;
    so.options = &optionCache;

    std::atomic<bool> stop{false};
    std::atomic<size_t> searched{0}, combined{0};
    std::atomic<int64_t> combinations{0};
    std::vector<PartialFront> network(1);
    network[0].costs = {FrontCost{0, 0, 0}};
    network[0].refs = {-1};
    network[0].order = {0};
    // Bounds: the time limit, and each combination step's share of the points left to keep.
    auto pastDeadline = [&] {
        return opt.time_limit_s > 0 &&
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >
                   opt.time_limit_s;
    };
    int64_t steps = int64_t(seqs.size()), keptSoFar = 0; // combination steps to do; points kept
    for (const auto& seq : seqs)
        steps += int64_t(seq.size());
    constexpr int64_t kSmallestShare = 500;
    // Past the time limit each step keeps this many points: thinning is greedy (a pass over
    // the step's front per kept point), so the share sets what a step costs, and a 5,000-layer
    // chain has 5,000 steps.
    constexpr int64_t kDeadlineShare = 64;
    auto bound = [&](std::vector<CombinedPoint>& front, std::vector<uint32_t>& bitsOrder) {
        int64_t share = INT64_MAX;
        if (opt.max_kept_points > 0)
            share = std::max(kSmallestShare,
                             (opt.max_kept_points - keptSoFar) / std::max<int64_t>(1, steps));
        if (pastDeadline()) share = kDeadlineShare;
        --steps;
        if (int64_t(front.size()) > share) {
            std::vector<std::array<int64_t, 3>> costs;
            costs.reserve(front.size());
            for (const CombinedPoint& c : front)
                costs.push_back({c.cost.acc, c.cost.bits, c.cost.macs});
            const ThinnedFront t = thinCosts(costs, size_t(share), &pool);
            std::vector<CombinedPoint> thinned;
            thinned.reserve(t.kept.size());
            for (size_t k : t.kept)
                thinned.push_back(front[k]);
            res.limits.thinned_steps += 1;
            res.limits.dropped_points += int64_t(front.size() - thinned.size());
            res.limits.factor *= 1 + t.epsilon;
            front.swap(thinned);
            bitsOrder.clear(); // no longer the front's: the next combination makes it
        }
        keptSoFar += int64_t(front.size());
    };
    // Across processes: each searches its share of `order`, the root gathers the fronts.
    Distribution* dist =
        opt.distribution && opt.distribution->size() > 1 ? opt.distribution : nullptr;
    std::vector<size_t> mine(order.size());
    std::iota(mine.begin(), mine.end(), size_t(0));
    if (dist) {
        std::vector<double> cost;
        for (size_t u : order)
            cost.push_back(segmentCostEstimate(net, res.segment_layers[u]));
        mine = assignedPieces(cost, dist->rank(), dist->size());
    }
    auto gatherFronts = [&] {
        std::vector<std::pair<size_t, std::string>> made;
        for (size_t k : mine) {
            const auto& f = res.segment_fronts[order[k]];
            made.emplace_back(k, encodeSegmentFront(f ? *f : SegmentFront{{}, {}, 0, true}));
        }
        const std::vector<std::string> all = dist->gather(order.size(), made);
        if (dist->rank() != 0) return false;
        for (size_t k = 0; k < order.size(); ++k) {
            auto f = decodeSegmentFront(all[k]);
            if (!f) throw std::runtime_error("a process sent a segment front that does not decode");
            if (f->cancelled) stop = true;
            res.segment_fronts[order[k]] = std::make_shared<SegmentFront>(std::move(*f));
        }
        return true;
    };
    // f(k) for k in [0, n), in contiguous ranges on the pool: the steps' rebuild records.
    auto eachRange = [&](size_t n, const auto& f) {
        const auto ranges = splitRange(n, partsFor(&pool));
        parallelFor(&pool, ranges.size(), [&](size_t r) {
            for (size_t k = ranges[r].first; k < ranges[r].second; ++k)
                f(k);
        });
    };
    auto work = [&] {
        parallelFor(&pool, mine.size(), [&](size_t m) {
            if (stop) return;
            const size_t u = order[mine[m]];
            if (units[u].length > 1 && pastDeadline()) {
                auto f = std::make_shared<SegmentFront>();
                f->skipped = true;
                res.segment_fronts[u] = std::move(f);
                ++searched;
                return;
            }
            auto f = std::make_shared<SegmentFront>(
                opt.strategy == Strategy::recompute
                    ? searchSegment(net, hw, res.segment_layers[u], so, &stop)
                    : searchSegmentByModel(net, hw, res.segment_layers[u], opt.strategy, opt,
                                           &stop));
            if (f->cancelled) stop = true;
            res.segment_fronts[u] = std::move(f);
            ++searched;
        });
        if (dist && !gatherFronts()) {
            res.worker = true;
            return;
        }
        optionCache.release(&pool); // the searches are done
        if (stop) return;
        for (size_t u = 0; u < units.size(); ++u)
            res.segment_fronts[u] = res.segment_fronts[rep[u]];
        // Every searched front's costs and buffer order, made once (in parallel).
        std::vector<PartialFront> searchedCosts(order.size());
        parallelFor(&pool, order.size(), [&](size_t k) {
            searchedCosts[k].costs = costsOf(*res.segment_fronts[order[k]]);
            searchedCosts[k].order = orderByBits(searchedCosts[k].costs);
        });
        std::map<const SegmentFront*, const PartialFront*> segCosts;
        for (size_t k = 0; k < order.size(); ++k)
            segCosts[res.segment_fronts[order[k]].get()] = &searchedCosts[k];

        // Steps 3 and 4: partitions of each sequence, then the network.
        for (size_t s = 0; s < seqs.size() && !stop; ++s) {
            const size_t n = seqs[s].size();
            std::vector<PartialFront> F(n + 1);
            F[0].costs = {FrontCost{0, 0, 0}};
            F[0].refs = {-1};
            F[0].order = {0};
            for (size_t j = 1; j <= n && !stop; ++j) {
                std::vector<CombineInput> inputs;
                std::vector<size_t> from; // i of each input
                for (size_t i = j > depth ? j - depth : 0; i < j; ++i) {
                    const size_t u = unitOf[s][i][j - i - 1];
                    const PartialFront* seg = segCosts.at(res.segment_fronts[u].get());
                    inputs.push_back({&F[i].costs, &seg->costs, F[i].knownOrder(), &seg->order});
                    from.push_back(i);
                }
                int64_t pairs = 0;
                auto kept = combineFronts(inputs, &pool, &pairs, &stop, &F[j].order);
                combinations += pairs;
                bound(kept, F[j].order);
                const size_t base = res.nodes.size();
                res.nodes.resize(base + kept.size());
                F[j].costs.resize(kept.size());
                F[j].refs.resize(kept.size());
                eachRange(kept.size(), [&](size_t k) {
                    const CombinedPoint& c = kept[k];
                    const size_t i = from[c.input];
                    res.nodes[base + k] = {F[i].refs[c.a], uint32_t(unitOf[s][i][j - i - 1]), c.b};
                    F[j].costs[k] = c.cost;
                    F[j].refs[k] = int32_t(base + k);
                });
                if (j > depth) F[j - depth] = {}; // no longer reachable from a later j
            }
            int64_t pairs = 0;
            PartialFront next;
            auto kept = combineFronts(
                {{&network[0].costs, &F[n].costs, network[0].knownOrder(), F[n].knownOrder()}},
                &pool, &pairs, &stop, &next.order);
            combinations += pairs;
            bound(kept, next.order);
            const size_t base = res.links.size();
            res.links.resize(base + kept.size());
            next.costs.resize(kept.size());
            next.refs.resize(kept.size());
            eachRange(kept.size(), [&](size_t k) {
                const CombinedPoint& c = kept[k];
                res.links[base + k] = {network[0].refs[c.a], F[n].refs[c.b]};
                next.costs[k] = c.cost;
                next.refs[k] = int32_t(base + k);
            });
            network[0] = std::move(next);
            ++combined;
        }
    };
    runReporting(control, stop, work, [&]() -> std::pair<double, std::string> {
        if (searched.load() < order.size())
            return {0.9 * double(searched.load()) / double(std::max<size_t>(1, order.size())),
                    "segments"};
        return {0.9 + 0.1 * double(combined.load()) / double(std::max<size_t>(1, seqs.size())),
                "combining"};
    });
    res.combinations = combinations.load();
    for (size_t u : order) // the searches made; the segments sharing a front made none
        if (const auto& f = res.segment_fronts[u]) {
            res.evaluations += f->evaluations;
            res.limits.skipped_segments += f->skipped ? 1 : 0;
        }
    auto finish = [&] {
        res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return std::move(res);
    };
    if (res.worker) return finish();
    if (stop || control.cancelled()) {
        res.cancelled = true;
        return finish();
    }
    // Buffers were compared in bits; the front is in bytes, where two may now tie. Its front,
    // of equal points the first (as paretoIndices<3>), sorted on the pool: hundreds of
    // thousands of points.
    struct Entry {
        std::array<int64_t, 3> cost; // buffer bytes, accesses, MACs
        uint32_t index;
    };
    const PartialFront& all = network[0];
    std::vector<Entry> entries(all.costs.size());
    for (size_t k = 0; k < entries.size(); ++k) {
        const FrontCost& c = all.costs[k];
        entries[k] = {{(c.bits + 7) / 8, c.acc, c.macs}, uint32_t(k)};
    }
    parallelSort(&pool, entries, [](const Entry& a, const Entry& b) {
        return a.cost != b.cost ? a.cost < b.cost : a.index < b.index;
    });
    // A point of the front in bits can only be beaten by one of the same byte count (one of
    // fewer bytes has fewer bits and would have beaten it in bits): within each byte count, in
    // (accesses, MACs) order, a point stays when its MACs are below every earlier one's.
    int64_t bytes = -1, bestMacs = 0;
    for (const Entry& e : entries) {
        if (e.cost[0] != bytes) {
            bytes = e.cost[0];
            bestMacs = INT64_MAX;
        }
        if (e.cost[2] >= bestMacs) continue;
        bestMacs = e.cost[2];
        res.front.push_back({e.cost[1], e.cost[0], e.cost[2], all.refs[e.index]});
    }
    return finish();
}

} // namespace lf
