#include "search/dse_optimize.h"

#include "models/evaluate.h"
#include "models/evaluate_detail.h"
#include "network/dag.h"
#include "network/dims.h"
#include "search/pareto.h"
#include "search/segment_search.h"
#include "search/tile_optimizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace lf {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What a segment's front depends on: each layer's loop dims and kind and how it connects
// (sequences are fork/join-free, so the counts say it all). Equal keys, equal fronts.
std::string shapeKey(const Network& net, const std::vector<LayerId>& chain) {
    std::string key;
    auto put = [&](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
    for (LayerId id : chain) {
        const LayerDims d = layerDims(net, id);
        for (int64_t v : {d.Dx, d.Dy, d.Dz, d.Di, d.Dm, d.Dn, d.Sx, d.Sy, d.Em, d.En, d.G, d.in_w,
                          d.in_h, d.up_x, d.up_y})
            put(v);
        put(int64_t(d.n_inputs) << 8 | int64_t(d.weights) << 2 | int64_t(d.bilinear) << 1);
        put(int64_t(d.window) << 16 | int64_t(net.layer(id).type));
        put(int64_t(net.layer(id).inputs.size()) << 32 | int64_t(net.successors(id).size()));
    }
    return key;
}

struct Unit {
    size_t sequence = 0, begin = 0, length = 0;
    size_t shape = 0; // index into the searched fronts
};

// The objective of one front point, lower is better; +inf when it does not fit.
struct PointValue {
    double value = kInf;
    double macs = kInf; // tie-break
};

} // namespace

DseOptimizeResult optimizeByExploration(const Network& net, const Hardware& hw,
                                        const DseOptimizeOptions& opt,
                                        const SearchControl& control) {
    const auto t0 = std::chrono::steady_clock::now();
    DseOptimizeResult res;
    const int64_t capBytes = opt.capacity_bytes >= 0 ? opt.capacity_bytes : hw.buffer.bytes;
    const int64_t capBits = capBytes * 8;
    Hardware capHw = hw;
    capHw.buffer.bytes = capBytes;
    const auto seqs = sequences(net);
    const size_t maxDepth = size_t(std::max(1, opt.max_depth));

    SegmentSearchOptions so;
    so.tiles = opt.tiles;
    so.levels = opt.levels;
    so.max_buffer_bits = capBits;
    ExploreOptions xo;
    xo.tiles = opt.tiles;
    xo.levels = opt.levels;
    xo.strategy = opt.strategy;
    xo.max_buffer_bytes = capBytes;

    std::vector<std::vector<std::vector<Unit>>> units(seqs.size()); // [seq][begin][len - 1]
    std::vector<SegmentFront> fronts;                               // by shape
    std::unordered_map<std::string, size_t> shapeOf;
    const int nThreads =
        std::max(1, opt.threads > 0 ? opt.threads : int(std::thread::hardware_concurrency()));

    // Segments by length, shortest first, each shape searched once.
    for (size_t len = 1; len <= maxDepth; ++len) {
        std::vector<Unit> level;
        std::vector<std::vector<LayerId>> newChains;
        const size_t firstNew = fronts.size();
        for (size_t s = 0; s < seqs.size(); ++s)
            for (size_t b = 0; b + len <= seqs[s].size(); ++b) {
                const std::vector<LayerId> chain(seqs[s].begin() + std::ptrdiff_t(b),
                                                 seqs[s].begin() + std::ptrdiff_t(b + len));
                const auto [it, added] =
                    shapeOf.emplace(shapeKey(net, chain), firstNew + newChains.size());
                if (added) newChains.push_back(chain);
                level.push_back({s, b, len, it->second});
            }
        if (level.empty()) break;
        // Search the new shapes on worker threads; past the budget the whole length is
        // dropped (lengths are searched whole or not at all, so the result does not depend on
        // the threads).
        std::vector<SegmentFront> found(newChains.size());
        std::atomic<size_t> next{0}, done{0};
        std::atomic<int64_t> spent{0};
        std::atomic<bool> stop{false};
        const int64_t left = opt.evaluation_budget > 0 ? opt.evaluation_budget - res.evaluations
                                                       : std::numeric_limits<int64_t>::max();
        std::mutex m;
        std::condition_variable cv;
        auto worker = [&] {
            for (;;) {
                const size_t k = next.fetch_add(1);
                if (k >= newChains.size() || stop.load()) break;
                SegmentFront f =
                    opt.strategy == Strategy::recompute
                        ? searchSegment(net, hw, newChains[k], so, &stop)
                        : searchSegmentByModel(net, hw, newChains[k], opt.strategy, xo, &stop);
                if (spent.fetch_add(f.evaluations) + f.evaluations > left && len > 1)
                    stop.store(true);
                found[k] = std::move(f);
                done.fetch_add(1);
                cv.notify_all();
            }
            cv.notify_all();
        };
        {
            std::vector<std::thread> pool;
            for (int t = 0; t < std::min<int>(nThreads, int(newChains.size())); ++t)
                pool.emplace_back(worker);
            std::unique_lock lock(m);
            while (done.load() < newChains.size() && !stop.load()) {
                cv.wait_for(lock, std::chrono::milliseconds(20));
                if (control.cancelled()) stop.store(true);
                control.report(0.9 *
                                   double(len - 1 +
                                          double(done.load()) /
                                              double(std::max<size_t>(1, newChains.size()))) /
                                   double(maxDepth),
                               "segments of " + std::to_string(len) + " layers");
            }
            lock.unlock();
            for (auto& t : pool)
                t.join();
        }
        if (control.cancelled()) {
            res.cancelled = true;
            return res;
        }
        if (stop.load()) { // over the budget: this length and longer ones are not searched
            for (size_t l = len; l <= maxDepth; ++l)
                for (const auto& seq : seqs)
                    res.segments_not_searched += int64_t(seq.size() >= l ? seq.size() - l + 1 : 0);
            for (size_t k = firstNew; k < firstNew + newChains.size(); ++k)
                shapeOf.erase(shapeKey(net, newChains[k - firstNew]));
            break;
        }
        for (SegmentFront& f : found) {
            res.evaluations += f.evaluations;
            fronts.push_back(std::move(f));
        }
        res.distinct_segments += int64_t(newChains.size());
        res.segments += int64_t(level.size());
        res.depth_searched = int(len);
        for (const Unit& u : level) {
            auto& byBegin = units[u.sequence];
            if (byBegin.empty()) byBegin.resize(seqs[u.sequence].size());
            byBegin[u.begin].push_back(u);
        }
    }

    // Every front point's objective, once per shape.
    Schedule scratch = defaultSchedule(net, hw);
    std::vector<std::vector<PointValue>> values(fronts.size());
    auto valueOf = [&](const Unit& u, Objective o) -> const std::vector<PointValue>& {
        std::vector<PointValue>& v = values[u.shape];
        if (!v.empty() || fronts[u.shape].points.empty()) return v;
        const std::vector<LayerId> chain(seqs[u.sequence].begin() + std::ptrdiff_t(u.begin),
                                         seqs[u.sequence].begin() +
                                             std::ptrdiff_t(u.begin + u.length));
        for (const SegmentPoint& p : fronts[u.shape].points) {
            PointValue pv;
            if (p.buffer_bits <= capBits) {
                pv.macs = double(p.macs);
                if (o == Objective::dram) {
                    pv.value = double(p.dram);
                } else {
                    FusionGroup g;
                    g.name = "segment";
                    g.layers = chain;
                    g.strategy = p.strategy;
                    g.weights_resident = p.weights_resident;
                    g.out_tile = p.out_tile;
                    for (size_t k = 0; k < chain.size(); ++k)
                        scratch.layers[size_t(chain[k])] = p.layers[k];
                    pv.value = groupObjectiveValue(
                        detail::evaluateGroup(net, capHw, scratch, g, EvaluateOptions{}), capHw, o);
                }
            }
            v.push_back(pv);
        }
        return v;
    };

    // The DP over each sequence: best[j] = the best partition of its first j layers.
    auto solve = [&](Objective o, Schedule& out) -> bool {
        for (auto& v : values)
            v.clear();
        out = defaultSchedule(net, hw);
        bool fits = true;
        for (size_t s = 0; s < seqs.size(); ++s) {
            const size_t n = seqs[s].size();
            std::vector<PointValue> best(n + 1);
            std::vector<std::pair<const Unit*, size_t>> from(n + 1, {nullptr, 0});
            best[0] = {0, 0};
            for (size_t i = 0; i < n; ++i) {
                if (best[i].value == kInf) continue;
                for (const Unit& u : units[s][i]) {
                    const auto& pv = valueOf(u, o);
                    for (size_t p = 0; p < pv.size(); ++p) {
                        const PointValue c{best[i].value + pv[p].value, best[i].macs + pv[p].macs};
                        PointValue& b = best[i + u.length];
                        if (c.value < b.value || (c.value == b.value && c.macs < b.macs)) {
                            b = c;
                            from[i + u.length] = {&u, p};
                        }
                    }
                }
            }
            if (best[n].value == kInf) {
                fits = false; // some layer has no schedule that fits: keep the default
                continue;
            }
            for (size_t j = n; j > 0;) {
                const auto [u, p] = from[j];
                const std::vector<LayerId> chain(seqs[s].begin() + std::ptrdiff_t(u->begin),
                                                 seqs[s].begin() +
                                                     std::ptrdiff_t(u->begin + u->length));
                std::string name = net.layer(chain.front()).name;
                if (chain.size() > 1) name += ".." + net.layer(chain.back()).name;
                applySegmentPoint(chain, fronts[u->shape].points[p], name, out);
                j = u->begin;
            }
        }
        normalize(out, net);
        return fits;
    };
    if (opt.objective == Objective::edp) { // not additive: the better of energy and latency
        Schedule a, b;
        const bool fa = solve(Objective::energy, a), fb = solve(Objective::latency, b);
        const Metrics ma = evaluate(net, hw, a), mb = evaluate(net, hw, b);
        const bool takeA = ma.totals.energy.total() * double(ma.totals.latency_cycles) <=
                           mb.totals.energy.total() * double(mb.totals.latency_cycles);
        res.schedule = takeA ? std::move(a) : std::move(b);
        res.fits = takeA ? fa : fb;
    } else {
        res.fits = solve(opt.objective, res.schedule);
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

} // namespace lf
