#include "search/pareto.h"

#include "models/evaluate.h"
#include "models/evaluate_detail.h"
#include "network/dag.h"
#include "network/dims.h"
#include "search/pareto_filter.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace lf {

namespace {

struct Unit {
    size_t sequence = 0, begin = 0, length = 0;
};

// A point of a partial front: costs plus the node that rebuilds it.
struct Partial {
    int64_t acc = 0, bits = 0, macs = 0;
    int32_t node = -1;
};

bool addOk(int64_t a, int64_t b, int64_t& r) {
    return !__builtin_add_overflow(a, b, &r);
}

// Pareto filter of `cand` (costs of pairs) into `out`, allocating a node per kept point.
template <class MakeNode>
std::vector<Partial> keepFront(std::vector<Partial>& cand, MakeNode makeNode) {
    const auto keep = paretoIndices<3>(cand.size(), [&](size_t k) {
        return std::array{cand[k].acc, cand[k].bits, cand[k].macs};
    });
    std::vector<Partial> out;
    out.reserve(keep.size());
    for (uint32_t k : keep) {
        Partial p = cand[k];
        p.node = makeNode(k);
        out.push_back(p);
    }
    return out;
}

std::vector<FrontCost> costsOf(const std::vector<Partial>& v) {
    std::vector<FrontCost> out;
    out.reserve(v.size());
    for (const Partial& p : v)
        out.push_back({p.acc, p.bits, p.macs});
    return out;
}

} // namespace

std::vector<std::pair<const std::vector<LayerId>*, const SegmentPoint*>>
ExploreResult::parts(size_t k) const {
    std::vector<std::pair<const std::vector<LayerId>*, const SegmentPoint*>> out;
    if (k >= front.size()) return out;
    std::vector<int32_t> stack{front[k].node};
    while (!stack.empty()) {
        const int32_t n = stack.back();
        stack.pop_back();
        if (n < 0) continue;
        const Node& node = nodes[size_t(n)];
        stack.push_back(node.prev);
        const SegmentFront& sf = segment_fronts[node.segment];
        out.emplace_back(&sf.layers, &sf.points[node.point]);
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

SegmentFront searchSegmentByModel(const Network& net, const Hardware& hw,
                                  const std::vector<LayerId>& chain, Strategy strategy,
                                  const ExploreOptions& opt, const std::atomic<bool>* cancel) {
    SegmentFront front;
    front.layers = chain;
    if (chain.empty()) return front;
    Schedule sched = defaultSchedule(net, hw);
    const LayerId last = chain.back();
    const Layer& lastLayer = net.layer(last);
    const LayerDims ld = layerDims(net, last);
    std::vector<SegmentPoint> cand;
    FusionGroup g;
    g.name = "segment";
    g.layers = chain;
    g.strategy = strategy;
    const int64_t cap = opt.max_buffer_bytes > 0 ? opt.max_buffer_bytes : INT64_MAX;
    auto stop = [&] {
        front.cancelled = cancel && cancel->load(std::memory_order_relaxed);
        return front.cancelled;
    };
    auto evaluateOne = [&](std::optional<OutputTile> tile, bool resident) {
        g.out_tile = tile;
        g.weights_resident = resident;
        const detail::GroupEval ev = detail::evaluateGroup(net, hw, sched, g, EvaluateOptions{});
        ++front.evaluations;
        if (ev.gm.buffer_bytes > cap) return;
        if (!opt.allow_recompute && ev.gm.recompute_macs > 0) return;
        SegmentPoint p;
        p.dram = ev.gm.dram.total();
        p.buffer_bits = ev.buffer_bits;
        p.macs = ev.gm.macs;
        p.weights_resident = resident;
        p.strategy = strategy;
        p.out_tile = tile;
        for (LayerId id : chain)
            p.layers.push_back(sched.layers[size_t(id)]);
        cand.push_back(std::move(p));
    };
    const auto hs = tileCandidates(lastLayer.out.h, opt.tiles);
    const auto ws = tileCandidates(lastLayer.out.w, opt.tiles);
    if (strategy == Strategy::optimus) {
        // Optimus Eq. 4 line buffer: t_w = O_w; the search varies t_h and the weight residency.
        for (int64_t h : hs)
            for (bool resident : {false, true}) {
                if (stop()) return front;
                evaluateOne(OutputTile{h, lastLayer.out.w}, resident);
            }
        evaluateOne(std::nullopt, false); // the scheduler's own choice
    } else if (chain.size() == 1 && ld.weights) {
        // A single layer under HWFF Eq. 1-3: output tile and channel tiles.
        LayerSchedule& ls = sched.layers[size_t(last)];
        for (int64_t tz : tileCandidates(ld.DzPerGroup(), opt.tiles))
            for (int64_t ti : tileCandidates(ld.DiPerGroup(), opt.tiles)) {
                if (stop()) return front;
                ls.tile[size_t(Dim::z)] = tz;
                ls.tile[size_t(Dim::i)] = ti;
                for (int64_t h : hs)
                    for (int64_t w : ws)
                        evaluateOne(OutputTile{h, w}, false);
            }
    } else {
        for (int64_t h : hs) {
            if (stop()) return front;
            for (int64_t w : ws)
                evaluateOne(OutputTile{h, w}, false);
        }
    }
    const auto keep = paretoIndices<3>(cand.size(), [&](size_t k) {
        return std::array{cand[k].dram, cand[k].buffer_bits, cand[k].macs};
    });
    for (uint32_t k : keep)
        front.points.push_back(std::move(cand[k]));
    return front;
}

ExploreResult explore(const Network& net, const Hardware& hw, const ExploreOptions& opt,
                      const SearchControl& control) {
    const auto t0 = std::chrono::steady_clock::now();
    ExploreResult res;
    res.strategy = opt.strategy;
    const auto seqs = sequences(net);
    const size_t depth = size_t(std::max(1, opt.max_depth));

    // Step 2: the segments, searched on worker threads.
    std::vector<Unit> units;
    std::vector<std::vector<std::vector<size_t>>> unitOf(seqs.size()); // [seq][begin][len-1]
    for (size_t s = 0; s < seqs.size(); ++s) {
        unitOf[s].resize(seqs[s].size());
        for (size_t b = 0; b < seqs[s].size(); ++b)
            for (size_t len = 1; len <= depth && b + len <= seqs[s].size(); ++len) {
                unitOf[s][b].push_back(units.size());
                units.push_back({s, b, len});
            }
    }
    res.segments = int64_t(units.size());
    res.segment_fronts.resize(units.size());
    SegmentSearchOptions so;
    so.tiles = opt.tiles;
    so.levels = opt.levels;
    so.allow_recompute = opt.allow_recompute;
    so.try_resident_weights = opt.try_resident_weights;
    so.max_buffer_bits = opt.max_buffer_bytes > 0 ? opt.max_buffer_bytes * 8 : 0;

    std::atomic<bool> stop{false};
    auto cancelled = [&] { return stop.load() || control.cancelled(); };
    // The workers poll one flag: the caller's, forwarded by the waiting thread below.
    std::atomic<size_t> next{0}, done{0};
    std::mutex m;
    std::condition_variable cv;
    // Longest segments first: they take longest, so the pool ends evenly.
    std::vector<size_t> order(units.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return units[a].length > units[b].length; });
    auto worker = [&] {
        for (;;) {
            const size_t k = next.fetch_add(1);
            if (k >= order.size() || stop.load()) break;
            const Unit& u = units[order[k]];
            const std::vector<LayerId> chain(seqs[u.sequence].begin() + std::ptrdiff_t(u.begin),
                                             seqs[u.sequence].begin() +
                                                 std::ptrdiff_t(u.begin + u.length));
            SegmentFront f = opt.strategy == Strategy::recompute
                                 ? searchSegment(net, hw, chain, so, &stop)
                                 : searchSegmentByModel(net, hw, chain, opt.strategy, opt, &stop);
            res.segment_fronts[order[k]] = std::move(f);
            done.fetch_add(1);
            cv.notify_all();
        }
        cv.notify_all();
    };
    const int nThreads =
        std::max(1, opt.threads > 0 ? opt.threads : int(std::thread::hardware_concurrency()));
    {
        std::vector<std::thread> pool;
        for (int t = 0; t < nThreads; ++t)
            pool.emplace_back(worker);
        std::unique_lock lock(m);
        while (done.load() < units.size()) {
            cv.wait_for(lock, std::chrono::milliseconds(20));
            if (control.cancelled()) stop.store(true);
            if (stop.load()) break;
            control.report(0.9 * double(done.load()) / double(std::max<size_t>(1, units.size())),
                           "segments");
        }
        lock.unlock();
        for (auto& t : pool)
            t.join();
    }
    for (const SegmentFront& f : res.segment_fronts) {
        res.evaluations += f.evaluations;
        if (f.cancelled) stop.store(true);
    }
    auto finish = [&] {
        res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return res;
    };
    if (cancelled()) {
        res.cancelled = true;
        return finish();
    }

    // Steps 3 and 4: partitions of each sequence, then the network.
    auto newNode = [&](int32_t prev, size_t segment, size_t point) {
        res.nodes.push_back({prev, uint32_t(segment), uint32_t(point)});
        return int32_t(res.nodes.size() - 1);
    };
    std::vector<Partial> network{Partial{}};
    for (size_t s = 0; s < seqs.size(); ++s) {
        const size_t n = seqs[s].size();
        std::vector<std::vector<Partial>> F(n + 1);
        F[0] = {Partial{}};
        for (size_t j = 1; j <= n; ++j) {
            std::vector<Partial> cand;
            std::vector<std::array<size_t, 3>> from; // (i, index in F[i], segment point)
            for (size_t i = j > depth ? j - depth : 0; i < j; ++i) {
                if (cancelled()) {
                    res.cancelled = true;
                    return finish();
                }
                const size_t u = unitOf[s][i][j - i - 1];
                const SegmentFront& sf = res.segment_fronts[u];
                std::vector<FrontCost> segCosts;
                segCosts.reserve(sf.points.size());
                for (const SegmentPoint& q : sf.points)
                    segCosts.push_back({q.dram, q.buffer_bits, q.macs});
                sumMaxFrontPairs(costsOf(F[i]), segCosts, [&](uint32_t a, uint32_t b) {
                    const SegmentPoint& q = sf.points[b];
                    Partial c;
                    if (!addOk(F[i][a].acc, q.dram, c.acc) || !addOk(F[i][a].macs, q.macs, c.macs))
                        return;
                    c.bits = std::max(F[i][a].bits, q.buffer_bits);
                    cand.push_back(c);
                    from.push_back({i, a, b});
                });
            }
            res.combinations += int64_t(cand.size());
            F[j] = keepFront(cand, [&](size_t k) {
                const auto [i, a, b] = from[k];
                return newNode(F[i][a].node, unitOf[s][i][j - i - 1], b);
            });
        }
        // Combine with the network so far: the sequence's chain of nodes is re-linked onto
        // the network point it joins (copying the chain keeps nodes immutable).
        std::vector<Partial> cand;
        std::vector<std::pair<size_t, size_t>> from;
        if (cancelled()) {
            res.cancelled = true;
            return finish();
        }
        sumMaxFrontPairs(costsOf(network), costsOf(F[n]), [&](uint32_t a, uint32_t b) {
            Partial c;
            if (!addOk(network[a].acc, F[n][b].acc, c.acc) ||
                !addOk(network[a].macs, F[n][b].macs, c.macs))
                return;
            c.bits = std::max(network[a].bits, F[n][b].bits);
            cand.push_back(c);
            from.emplace_back(a, b);
        });
        res.combinations += int64_t(cand.size());
        network = keepFront(cand, [&](size_t k) {
            const auto [a, b] = from[k];
            int32_t prev = network[a].node;
            for (int32_t q = F[n][b].node; q >= 0; q = res.nodes[size_t(q)].prev) {
                const ExploreResult::Node copy = res.nodes[size_t(q)];
                prev = newNode(prev, copy.segment, copy.point);
            }
            return prev;
        });
        control.report(0.9 + 0.1 * double(s + 1) / double(seqs.size()), "combining");
    }
    // Buffers were compared in bits; the front is in bytes, where two may now tie.
    std::vector<ExplorePoint> pts;
    for (const Partial& p : network)
        pts.push_back({p.acc, (p.bits + 7) / 8, p.macs, p.node});
    for (uint32_t k : paretoIndices<3>(pts.size(), [&](size_t j) {
             return std::array{pts[j].buffer_bytes, pts[j].dram_accesses, pts[j].macs};
         }))
        res.front.push_back(pts[k]);
    return finish();
}

} // namespace lf
