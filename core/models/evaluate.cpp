#include "models/evaluate.h"

#include "network/dims.h"

namespace lf {

LayerSchedule defaultLayerSchedule(const Network& net, const Hardware&, LayerId id) {
    const LayerDims d = layerDims(net, id);
    LayerSchedule s;
    s.tile = {d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    return s;
}

Schedule defaultSchedule(const Network& net, const Hardware& hw) {
    Schedule s;
    s.layers.resize(size_t(net.size()));
    s.explicit_layer.assign(size_t(net.size()), 0);
    for (LayerId id : net.computeIds()) s.layers[size_t(id)] = defaultLayerSchedule(net, hw, id);
    normalize(s, net);
    return s;
}

Metrics evaluate(const Network& net, const Hardware& hw, const Schedule& sched, const EvaluateOptions&) {
    Metrics m;
    m.network = net.name();
    m.hardware = hw.name;
    m.layer_index.assign(size_t(net.size()), -1);
    for (LayerId id : net.computeIds()) {
        const Layer& l = net.layer(id);
        const LayerDims d = layerDims(net, id);
        LayerMetrics lm;
        lm.id = id;
        lm.name = l.name;
        lm.type = l.type;
        lm.out_width = d.Dx;
        lm.out_height = d.Dy;
        lm.out_channels = d.Dz;
        lm.in_channels = d.Di;
        lm.kernel_width = d.Dm;
        lm.kernel_height = d.Dn;
        lm.stride_x = d.Sx;
        lm.stride_y = d.Sy;
        lm.groups = d.G;
        lm.macs = layerMacs(d);
        lm.ops = layerOps(net, id);
        lm.weights = layerWeights(d);
        lm.group = sched.groupOf(id);
        m.layer_index[size_t(id)] = int32_t(m.layers.size());
        m.layers.push_back(std::move(lm));
        m.totals.macs += layerMacs(d);
    }
    for (const FusionGroup& g : sched.groups) {
        GroupMetrics gm;
        gm.name = g.name;
        gm.layers = g.layers;
        gm.strategy = g.strategy;
        for (LayerId id : g.layers)
            if (const LayerMetrics* lm = m.layer(id)) gm.macs += lm->macs;
        m.groups.push_back(std::move(gm));
    }
    m.totals.buffer_capacity_bytes = hw.buffer.bytes;
    return m;
}

struct IncrementalEvaluator::Cache {};
IncrementalEvaluator::IncrementalEvaluator() : cache_(std::make_unique<Cache>()) {}
IncrementalEvaluator::~IncrementalEvaluator() = default;
Metrics IncrementalEvaluator::evaluate(const Network& net, const Hardware& hw, const Schedule& s,
                                       const EvaluateOptions& o) {
    return lf::evaluate(net, hw, s, o);
}
int IncrementalEvaluator::lastRecomputedGroups() const { return 0; }
void IncrementalEvaluator::clear() {}

}  // namespace lf
