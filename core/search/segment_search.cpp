#include "search/segment_search.h"

#include "search/pareto_filter.h"
#include "search/segment_stages.h"
#include "search/work_pool.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace lf {

namespace {

using segment::Cost;
using segment::Partial;
using segment::SegmentSpace;
using segment::Stage;

} // namespace

SegmentFront searchSegment(const Network& net, const Hardware& hw,
                           const std::vector<LayerId>& chain, const SegmentSearchOptions& opt,
                           const std::atomic<bool>* cancel) {
    SegmentFront front;
    front.layers = chain;
    if (chain.empty()) return front;
    bool anyWeights = false;
    for (LayerId id : chain)
        anyWeights = anyWeights || layerDims(net, id).weights;
    // Weights streamed, then resident (unless nothing has weights: the same schedules again).
    const size_t variants = opt.try_resident_weights && anyWeights ? 2 : 1;
    const size_t n = chain.size();
    std::vector<std::unique_ptr<SegmentSpace>> spaces(variants);
    std::vector<std::vector<Stage>> stages(variants, std::vector<Stage>(n));
    std::atomic<bool> ok{true};
    parallelFor(opt.pool, variants, [&](size_t v) {
        spaces[v] =
            std::make_unique<SegmentSpace>(net, hw, chain, opt, v == 1, cancel, opt.options);
        if (!spaces[v]->lastStage(stages[v][n - 1])) ok = false;
        if (!spaces[v]->buildOptions(stages[v][n - 1])) ok = false;
    });
    if (ok && n > 1) {
        // Branch and bound (segment_stages.h): the front's costs first, top down through the
        // option graphs, then the stages bottom up along the completions that reach them.
        // Without recompute a layer's schedules depend on the productions below it, which the
        // top-down walk does not know: no pruning then.
        const bool prune = opt.branch_and_bound && opt.allow_recompute;
        std::vector<std::vector<segment::JoinPoint>> joins(variants);
        if (prune)
            parallelFor(opt.pool, variants,
                        [&](size_t v) { joins[v] = spaces[v]->completeFront(stages[v][n - 1]); });
        // Every variant needs its pairs (none: an overflow, or nothing fits).
        bool pruned = prune;
        for (size_t v = 0; v < variants; ++v)
            pruned = pruned && (!joins[v].empty() || stages[v][n - 1].points.empty());
        if (pruned) {
            // The segment's front over both variants: a variant's pairs above it are of no use.
            std::vector<Cost> all;
            for (const auto& j : joins)
                for (const auto& x : j)
                    all.push_back(x.cost);
            std::vector<Cost> best;
            for (uint32_t k : paretoIndices<3>(all.size(), [&](size_t j) { return all[j]; }))
                best.push_back(all[k]);
            std::sort(best.begin(), best.end());
            for (auto& j : joins)
                std::erase_if(j, [&](const segment::JoinPoint& x) {
                    return !std::binary_search(best.begin(), best.end(), x.cost);
                });
        }
        parallelFor(opt.pool, variants, [&](size_t v) {
            if (!pruned) {
                for (size_t k = n - 1; k-- > 0 && ok;)
                    if (!spaces[v]->producerStage(k, stages[v][k + 1], stages[v][k])) ok = false;
                return;
            }
            segment::UsefulSets sets, next;
            spaces[v]->restrictLast(stages[v][n - 1], joins[v], sets);
            for (size_t k = n - 1; k-- > 0 && ok;) {
                if (!spaces[v]->usefulStage(k, stages[v][k + 1], sets, stages[v][k], next))
                    ok = false;
                sets.swap(next);
            }
        });
    }
    for (const auto& s : spaces)
        if (s) front.evaluations += s->evaluations();
    if (!ok) {
        front.cancelled = true;
        return front;
    }
    for (size_t v = 0; v < variants; ++v) {
        const SegmentSpace& space = *spaces[v];
        for (const Partial& top : stages[v][0].points) {
            SegmentPoint sp;
            sp.dram = top.acc;
            sp.buffer_bits = top.buf;
            sp.macs = top.macs;
            sp.weights_resident = space.resident();
            const Partial* cur = &top;
            for (size_t k = 0; k < n; ++k) {
                const segment::Choice& ch = cur->choice;
                const bool fused = k + 1 < n;
                const auto& list =
                    levelStructures(fused, opt.levels, space.resident() || !space.dims(k).weights);
                sp.layers.push_back(list[ch.structure].schedule(ch.tiles));
                if (fused) cur = &stages[v][k + 1].points[cur->parent];
            }
            front.points.push_back(std::move(sp));
        }
    }
    const auto keep = paretoIndices<3>(front.points.size(), [&](size_t k) {
        const SegmentPoint& q = front.points[k];
        return std::array{q.dram, q.buffer_bits, q.macs};
    });
    std::vector<SegmentPoint> out;
    out.reserve(keep.size());
    for (uint32_t k : keep)
        out.push_back(std::move(front.points[k]));
    front.points.swap(out);
    return front;
}

void applySegmentPoint(const std::vector<LayerId>& chain, const SegmentPoint& p,
                       const std::string& group_name, Schedule& sched) {
    for (size_t k = 0; k < chain.size() && k < p.layers.size(); ++k) {
        LayerSchedule s = p.layers[k];
        s.unroll = sched.layers[size_t(chain[k])].unroll;
        sched.layers[size_t(chain[k])] = s;
        sched.explicit_layer[size_t(chain[k])] = 1;
    }
    // The layers leave whatever group they were in.
    for (FusionGroup& g : sched.groups)
        std::erase_if(g.layers, [&](LayerId id) {
            return std::find(chain.begin(), chain.end(), id) != chain.end();
        });
    std::erase_if(sched.groups, [](const FusionGroup& g) { return g.layers.empty(); });
    if (chain.size() > 1 || p.weights_resident || p.strategy != Strategy::recompute || p.out_tile) {
        FusionGroup g;
        g.name = group_name;
        g.layers = chain;
        std::sort(g.layers.begin(), g.layers.end());
        g.strategy = p.strategy;
        g.weights_resident = p.weights_resident;
        g.out_tile = p.out_tile;
        sched.groups.push_back(std::move(g));
    }
}

} // namespace lf
