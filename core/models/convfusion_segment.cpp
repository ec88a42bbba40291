#include "models/convfusion_segment.h"

#include "models/convfusion.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>

namespace lf {

int bitsOf(TrafficKind k, const Precision& p) {
    switch (k) {
    case TrafficKind::input:
    case TrafficKind::output:
        return p.act_bits;
    case TrafficKind::weight:
        return p.weight_bits;
    case TrafficKind::psum:
        return p.psum_bits;
    }
    return p.act_bits;
}

namespace {

// What the consumers inside the group need from a producer, accumulated (ConvFusion §IV-E).
struct Demand {
    int64_t ext_x = 0, ext_y = 0, ext_c = 0; // extents of the tile (union: the maxima)
    int64_t productions = 0;                 // how many times the tile is needed
    void add(int64_t x, int64_t y, int64_t c, int64_t n) {
        ext_x = std::max(ext_x, x);
        ext_y = std::max(ext_y, y);
        ext_c = std::max(ext_c, c);
        productions = satAdd(productions, n);
    }
};

// The producer's dims with its output replaced by the demanded tile (ConvFusion §IV-E
// substitution). A grouped producer keeps whole groups: the tile's channels round up to groups.
LayerDims substitute(const LayerDims& d, const Demand& dem) {
    LayerDims s = d;
    s.Dx = std::clamp<int64_t>(dem.ext_x, 1, d.Dx);
    s.Dy = std::clamp<int64_t>(dem.ext_y, 1, d.Dy);
    const int64_t zPerGroup = std::max<int64_t>(1, d.Dz / d.G);
    const int64_t groups =
        std::clamp<int64_t>(ceilDiv(std::max<int64_t>(1, dem.ext_c), zPerGroup), 1, d.G);
    s.Dz = groups * zPerGroup;
    s.Di = groups * (d.Di / d.G);
    s.G = groups;
    return s;
}

void addOutputTransfers(LayerCost& lc, const LayerDims& d, const std::array<int64_t, 4>& T,
                        int64_t outputs, int64_t psums, const Precision& p) {
    const int64_t tz = T[size_t(Dim::z)], ty = T[size_t(Dim::y)], tx = T[size_t(Dim::x)];
    const int64_t tiles = d.G * ceilDiv(d.DzPerGroup(), tz) * ceilDiv(d.Dy, ty) * ceilDiv(d.Dx, tx);
    if (outputs > 0)
        lc.transfers.push_back({TrafficKind::output, tiles, tz, ty, tx, d.Dx, p.act_bits});
    if (psums > 0) {
        const int64_t iTiles = ceilDiv(d.DiPerGroup(), T[size_t(Dim::i)]);
        lc.transfers.push_back(
            {TrafficKind::psum, tiles * 2 * (iTiles - 1), tz, ty, tx, d.Dx, p.psum_bits});
    }
}

} // namespace

GroupCost convFusionGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                          const FusionGroup& group) {
    const Precision& prec = hw.precision;
    const std::vector<LayerId>& members = group.layers; // sorted, topological
    auto inGroup = [&](LayerId v) { return std::binary_search(members.begin(), members.end(), v); };

    GroupCost gc;
    gc.layers.resize(members.size());
    std::vector<Demand> demand(members.size());
    auto slot = [&](LayerId v) {
        return size_t(std::lower_bound(members.begin(), members.end(), v) - members.begin());
    };

    int64_t bufferBits = 0;
    // Evaluate from the group's outputs up (reverse topological order).
    for (size_t k = members.size(); k-- > 0;) {
        const LayerId v = members[k];
        const Layer& layer = net.layer(v);
        LayerCost& lc = gc.layers[k];
        lc.id = v;
        bool consumedInside = false, consumedOutside = net.successors(v).empty();
        for (LayerId s : net.successors(v))
            (inGroup(s) ? consumedInside : consumedOutside) = true;
        const Demand& dem = demand[k];

        if (layer.type == LayerType::concat) {
            // Transparent: its producers make their part of the tile its consumers demand.
            lc.productions = dem.productions;
            for (LayerId p : layer.inputs)
                if (inGroup(p))
                    demand[slot(p)].add(dem.ext_x, dem.ext_y, net.layer(p).out.c, dem.productions);
            if (consumedOutside) {
                // Constant channels are in DRAM from the start (model-notes, "Constant
                // channels"): only the produced channels are written.
                const int64_t ch = layer.out.c - layer.const_channels;
                lc.dram.output += ch * layer.out.h * layer.out.w;
                lc.transfers.push_back({TrafficKind::output, 1, ch, layer.out.h, layer.out.w,
                                        layer.out.w, prec.act_bits});
            }
            continue;
        }

        const LayerDims real = layerDims(net, v);
        const bool fused = consumedInside;
        const LayerDims d = fused ? substitute(real, dem) : real;
        const int64_t P = fused ? std::max<int64_t>(1, dem.productions) : 1;
        const LayerSchedule& s = sched.layers[size_t(v)];
        const CfLayerCost c = convFusionLayer(d, s, fused);
        const auto T = effectiveTiles(d, s, fused);
        lc.productions = P;
        lc.dims = d;
        lc.fused = fused;

        // MACs: P productions of the substituted layer (ConvFusion §IV-D/E). Computed per output so
        // that every layer kind (incl. deconv) scales the same way.
        const int64_t realMacs = layerMacs(real);
        const int64_t realOuts = real.Dx * real.Dy * real.Dz;
        const int64_t subOuts = d.Dx * d.Dy * d.Dz;
        const int64_t macsPerProduction =
            realOuts > 0
                ? int64_t(std::llround(double(realMacs) * double(subOuts) / double(realOuts)))
                : 0;
        lc.macs = satMul(P, macsPerProduction); // P_k chains grow with depth: saturating
        lc.recompute_macs = std::max<int64_t>(0, lc.macs - realMacs);

        // Inputs from outside the group come from DRAM, once per production (ConvFusion §IV-E).
        const int64_t perArray = c.vol_x / std::max(1, d.n_inputs);
        for (LayerId p : layer.inputs) {
            if (inGroup(p)) continue;
            const int64_t count = satMul(satMul(P, c.trans_x), d.G);
            lc.dram.input = satAdd(lc.dram.input, satMul(perArray, count));
            lc.transfers.push_back(
                {TrafficKind::input, count, c.ext_c, c.ext_y, c.ext_x, real.in_w, prec.act_bits});
        }
        // Weights: fetched P times, or once when resident for the whole segment.
        if (real.weights) {
            if (group.weights_resident) {
                const int64_t all = layerWeights(real);
                lc.dram.weight += all;
                lc.buf_w = all;
                lc.transfers.push_back({TrafficKind::weight, 1, 1, 1, all, all, prec.weight_bits});
            } else {
                lc.dram.weight = satAdd(lc.dram.weight, satMul(P, c.acc_w));
                lc.buf_w = c.buf_w;
                lc.transfers.push_back({TrafficKind::weight, satMul(satMul(P, c.trans_w), d.G), 1,
                                        1, c.vol_w, c.vol_w, prec.weight_bits});
            }
        }
        lc.buf_x = c.buf_x;
        // Outputs: the segment's last layer writes Y (with partial sums); a fused layer
        // whose result is also needed outside the group writes it once.
        if (!fused) {
            lc.buf_y = c.buf_y;
            lc.dram.output += c.acc_y_out;
            lc.dram.psum += c.acc_y_psum;
            addOutputTransfers(lc, d, T, c.acc_y_out, c.acc_y_psum, prec);
        } else if (consumedOutside) {
            lc.dram.output += realOuts;
            addOutputTransfers(lc, real, effectiveTiles(real, s, false), realOuts, 0, prec);
        }
        bufferBits = satAdd(bufferBits, lc.buf_x * prec.act_bits + lc.buf_w * prec.weight_bits +
                                            lc.buf_y * prec.psum_bits);

        // This layer's demand on its producers inside the group: its X tile, Trans_X · P times
        // per group slice.
        for (LayerId p : layer.inputs)
            if (inGroup(p))
                demand[slot(p)].add(c.ext_x, c.ext_y, c.ext_c, satMul(satMul(P, c.trans_x), d.G));

        if (!consumedInside) {
            const int64_t tiles =
                ceilDiv(real.Dy, T[size_t(Dim::y)]) * ceilDiv(real.Dx, T[size_t(Dim::x)]);
            gc.tiles = std::max(gc.tiles, tiles);
            gc.out_tile_h = T[size_t(Dim::y)];
            gc.out_tile_w = T[size_t(Dim::x)];
        }
    }
    gc.buffer_bits = bufferBits;
    return gc;
}

} // namespace lf
