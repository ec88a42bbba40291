// The default schedule (docs/models/README.md, docs/file-formats.md): every compute layer its own
// group; each layer keeps all arrays at the tile level and shrinks its tiles greedily until
// its footprint fits the buffer.
#include "models/convfusion.h"
#include "models/evaluate.h"
#include "network/dims.h"

#include <algorithm>

namespace lf {

LayerSchedule defaultLayerSchedule(const Network& net, const Hardware& hw, LayerId id) {
    const LayerDims d = layerDims(net, id);
    const Precision& p = hw.precision;
    LayerSchedule s;
    s.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    s.store = {Level::tile, Level::tile, Level::tile};
    s.compute = s.store;
    s.tile = {d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    auto bits = [&](const CfLayerCost& c) {
        return c.buf_x * p.act_bits + c.buf_w * p.weight_bits + c.buf_y * p.psum_bits;
    };
    auto traffic = [&](const CfLayerCost& c) {
        return c.acc_x * p.act_bits + c.acc_w * p.weight_bits + c.acc_y_out * p.act_bits +
               c.acc_y_psum * p.psum_bits;
    };
    const int64_t capacity = hw.buffer.bits();
    // The halving sequence does not depend on the capacity (each step halves the tile whose
    // halving costs the least traffic); the capacity only picks the cheapest point of the
    // sequence that fits. So a bigger buffer can only pick a better point.
    LayerSchedule best = s;
    CfLayerCost c = convFusionLayer(d, s, false);
    int64_t bestTraffic = bits(c) <= capacity ? traffic(c) : -1;
    int64_t smallestBits = bits(c);
    LayerSchedule smallest = s;
    for (;;) {
        int bestDim = -1;
        int64_t stepTraffic = 0;
        LayerSchedule stepSched;
        for (Dim dim : kAllDims) {
            if (s.T(dim) <= 1) continue;
            LayerSchedule t = s;
            t.tile[size_t(dim)] = (s.T(dim) + 1) / 2;
            const CfLayerCost ct = convFusionLayer(d, t, false);
            const int64_t tr = traffic(ct);
            if (bestDim < 0 || tr < stepTraffic) {
                bestDim = int(dim);
                stepTraffic = tr;
                stepSched = t;
            }
        }
        if (bestDim < 0) break;
        s = stepSched;
        c = convFusionLayer(d, s, false);
        const int64_t b = bits(c);
        if (b <= capacity && (bestTraffic < 0 || stepTraffic < bestTraffic)) {
            best = s;
            bestTraffic = stepTraffic;
        }
        if (b < smallestBits) {
            smallestBits = b;
            smallest = s;
        }
    }
    return bestTraffic >= 0 ? best : smallest;
}

Schedule defaultSchedule(const Network& net, const Hardware& hw) {
    Schedule s;
    s.layers.resize(size_t(net.size()));
    s.explicit_layer.assign(size_t(net.size()), 0);
    for (LayerId id : net.computeIds())
        s.layers[size_t(id)] = defaultLayerSchedule(net, hw, id);
    normalize(s, net);
    return s;
}

} // namespace lf
