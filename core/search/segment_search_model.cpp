// The front of one segment under the `reuse` or `optimus` strategy (search/pareto.h): each
// of its few schedules is costed by evaluate's group pipeline.
#include "models/evaluate.h"
#include "models/evaluate_detail.h"
#include "network/dims.h"
#include "search/pareto.h"
#include "search/pareto_filter.h"

namespace lf {

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

} // namespace lf
