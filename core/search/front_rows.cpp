#include "search/front_rows.h"

#include "models/energy.h"
#include "models/evaluate_detail.h"
#include "search/work_pool.h"

#include <algorithm>

namespace lf {

// evaluate()'s figures for one segment point as a group of the schedule.
struct FrontRows::Group {
    LayerId first = kNoLayer; // groups are added in the order of their first layer
    int64_t buffer_bits = 0, latency_cycles = 0, recompute_macs = 0;
    size_t layers = 0;
    std::vector<EnergyCounts> counts; // per compute layer, for the energy at the peak buffer
};

namespace {

// Calls f(segment, point) for every segment point of front point k.
template <class F> void eachPart(const ExploreResult& r, size_t k, F f) {
    for (int32_t l = r.front[k].node; l >= 0; l = r.links[size_t(l)].prev)
        for (int32_t n = r.links[size_t(l)].chain; n >= 0; n = r.nodes[size_t(n)].prev)
            f(r.nodes[size_t(n)].segment, r.nodes[size_t(n)].point);
}

} // namespace

FrontRows::FrontRows(const Network& net, const Hardware& hw, const ExploreResult& result,
                     const EvaluateOptions& opt)
    : net_(net), hw_(hw), result_(result), opt_(opt), base_(defaultSchedule(net, hw)),
      groups_(result.segment_fronts.size()), claimed_(result.segment_fronts.size()) {
    for (size_t s = 0; s < groups_.size(); ++s) {
        const size_t n = result.segment_fronts[s] ? result.segment_fronts[s]->points.size() : 0;
        groups_[s].resize(n);
        claimed_[s] = std::make_unique<std::atomic<bool>[]>(n);
    }
}

FrontRows::~FrontRows() = default;

void FrontRows::prepare(const std::vector<size_t>& points, WorkPool* pool) {
    const auto parts = splitRange(points.size(), partsFor(pool));
    parallelFor(pool, parts.size(), [&](size_t part) {
        Schedule work = base_;
        for (size_t t = parts[part].first; t < parts[part].second; ++t)
            eachPart(result_, points[t], [&](uint32_t segment, uint32_t point) {
                std::atomic<bool>& claim = claimed_[segment][point];
                if (claim.load(std::memory_order_relaxed) ||
                    claim.exchange(true, std::memory_order_relaxed))
                    return; // costed before, or being costed by another thread
                const std::vector<LayerId>& chain = result_.segment_layers[segment];
                const SegmentPoint& p = result_.segment_fronts[segment]->points[point];
                // The point's group as applySegmentPoint() writes it into the schedule.
                for (size_t k = 0; k < chain.size(); ++k) {
                    LayerSchedule s = p.layers[k];
                    s.unroll = base_.layers[size_t(chain[k])].unroll;
                    work.layers[size_t(chain[k])] = s;
                }
                FusionGroup g;
                g.name = net_.layer(chain.front()).name;
                g.layers = chain;
                std::sort(g.layers.begin(), g.layers.end());
                g.strategy = p.strategy;
                g.weights_resident = p.weights_resident;
                g.out_tile = p.out_tile;
                const detail::GroupEval ev = detail::evaluateGroup(net_, hw_, work, g, opt_);
                auto group = std::make_unique<Group>();
                group->first = g.layers.front();
                group->buffer_bits = ev.buffer_bits;
                group->latency_cycles = ev.gm.latency_cycles;
                group->recompute_macs = ev.gm.recompute_macs;
                group->layers = g.layers.size();
                group->counts = ev.counts;
                groups_[segment][point] = std::move(group);
                for (LayerId id : chain)
                    work.layers[size_t(id)] = base_.layers[size_t(id)];
            });
    });
}

FrontRow FrontRows::row(size_t k) const {
    FrontRow r;
    r.point = result_.front[k];
    std::vector<const Group*> gs;
    eachPart(result_, k, [&](uint32_t segment, uint32_t point) {
        gs.push_back(groups_[segment][point].get());
    });
    std::sort(gs.begin(), gs.end(),
              [](const Group* a, const Group* b) { return a->first < b->first; });
    // The sums of detail::assemble(), in its order.
    int64_t peakBits = 0;
    for (const Group* g : gs)
        peakBits = std::max(peakBits, g->buffer_bits);
    Energy total;
    for (const Group* g : gs) {
        Energy e;
        for (const EnergyCounts& c : g->counts)
            e += energyOf(c, hw_, double(peakBits));
        total += e;
        r.recompute_macs += g->recompute_macs;
        r.latency_cycles += g->latency_cycles;
        r.fused_groups += g->layers > 1;
    }
    r.groups = int(gs.size());
    r.energy_pj = total.total();
    r.latency_s = double(r.latency_cycles) / (hw_.frequency_mhz * 1e6);
    r.fits = r.point.buffer_bytes <= hw_.buffer.bytes;
    return r;
}

} // namespace lf
