#include "network/figure_limits.h"
#include "util/format.h"

#include <algorithm>
#include <initializer_list>

namespace lf {

namespace {

// The largest of the terms; an overflowed term is larger than any other.
CheckedInt largest(std::initializer_list<CheckedInt> terms) {
    CheckedInt m = 0;
    for (const CheckedInt& t : terms) {
        if (!t.ok()) return t;
        m = std::max(m.value(), t.value());
    }
    return m;
}

} // namespace

CheckedInt layerFigureBound(const LayerDims& d, int64_t operands) {
    using C = CheckedInt;
    const int64_t g = std::max<int64_t>(1, d.G);
    const C outs = C(d.Dx) * d.Dy * d.Dz;
    const C ins = C(d.in_w) * d.in_h * d.Di;
    // MACs, weights, partial sums and weight accesses: 4·D_x·D_y·D_z·(D_i/g)·D_m·D_n
    // (ConvFusion §IV-C: T·⌈D/T⌉ < 2·D for each of the tiled z and i).
    const C macs = C(4) * outs * (d.Di / g) * d.Dm * d.Dn;
    // A transposed convolution scatters every input: D_in·(D_z/g)·D_m·D_n MACs.
    const C scatter = C(4) * ins * (d.Dz / g) * d.Dm * d.Dn;
    // Input accesses: 2·n_in·D_z·(D_i/g)·M_x·M_y, M = D·min(in, w) per axis bounding the
    // window of T outputs times its ⌈D/T⌉ trips: (T−1)·S + E ≤ T·max(S, E) for a conv,
    // ⌊(T + E + S − 2)/S⌋ for a transposed conv, ⌈T/u⌉ + 1 for a resize.
    auto perAxis = [&](int64_t D, int64_t in, int64_t S, int64_t E) {
        const int64_t w = d.window == WindowKind::conv     ? 2 * std::max(S, E)
                          : d.window == WindowKind::deconv ? 2 * (E + 2)
                                                           : 6;
        return C(D) * std::min(in, w);
    };
    const C mx = perAxis(d.Dx, d.in_w, d.Sx, d.Em);
    const C my = perAxis(d.Dy, d.in_h, d.Sy, d.En);
    const C accX = C(2) * d.n_inputs * d.Dz * (d.Di / g) * mx * my;
    // Pool compares, element-wise ops (one per extra operand), bilinear resize (4 per output).
    const C ops = outs * std::max<int64_t>({d.Dm * d.Dn, operands, 4});
    return largest({macs, scatter, accX, ops, ins, outs});
}

} // namespace lf

namespace lf {

namespace {

bool ownsChannels(LayerType t) {
    return t == LayerType::conv || t == LayerType::deconv || t == LayerType::fc;
}
bool ownsKernel(LayerType t) {
    return t == LayerType::conv || t == LayerType::deconv || t == LayerType::pool;
}
SourcePos either(SourcePos p, SourcePos fallback) {
    return p.line > 0 ? p : fallback;
}

} // namespace

Status checkFigureLimits(const Network& net, const std::string& file,
                         const std::function<DimPos(LayerId)>& where) {
    const std::string perLayer = "2^52";
    CheckedInt total = 0;
    for (LayerId id = 0; id < net.size(); ++id) {
        const Layer& l = net.layer(id);
        if (l.type == LayerType::input) continue;
        const int64_t operands = int64_t(l.operandIds().size());
        const LayerDims d = layerDims(net, id);
        const CheckedInt bound = layerFigureBound(d, operands);
        if (bound > FigureLimits::kPerLayer) {
            const DimPos at = where ? where(id) : DimPos{};
            auto fits = [&](LayerDims t) {
                return layerFigureBound(t, operands) <= FigureLimits::kPerLayer;
            };
            LayerDims fewer = d;
            fewer.Dz = fewer.G;
            LayerDims smaller = d;
            smaller.Dm = smaller.Dn = smaller.Em = smaller.En = 1;
            std::string cause;
            SourcePos pos;
            if (ownsChannels(l.type) && fits(fewer)) {
                cause = std::string(l.type == LayerType::fc ? "out_features " : "out_channels ") +
                        std::to_string(l.out_channels);
                pos = either(at.channels, l.pos);
            } else if (ownsKernel(l.type) && fits(smaller)) {
                cause = "kernel " + std::to_string(l.kernel_h) + "x" + std::to_string(l.kernel_w);
                pos = either(at.kernel, l.pos);
            } else {
                const Shape in = l.inputs.empty() ? l.out : net.inputShape(id, 0);
                cause = "its input of " + std::to_string(in.c) + "x" + std::to_string(in.h) + "x" +
                        std::to_string(in.w);
                pos = either(at.inputs, l.pos);
            }
            return Error(file, pos,
                         "layer " + quoteValue(l.name) + ": " + cause +
                             " makes the layer's MACs or DRAM accesses for one image exceed " +
                             perLayer + ", the most LayerFuse computes exactly");
        }
        total += bound;
        if (total > FigureLimits::kPerNetwork)
            return Error(file, l.pos,
                         "layer " + quoteValue(l.name) +
                             " brings the network's MACs and DRAM accesses for one image "
                             "beyond 2^56, the most LayerFuse adds up exactly");
    }
    return Ok{};
}

} // namespace lf
