#include "network/dims.h"

namespace lf {

LayerDims layerDims(const Network& net, LayerId id) {
    const Layer& l = net.layer(id);
    LayerDims d;
    const Shape in = l.inputs.empty() ? l.out : net.inputShape(id, 0);
    d.Dx = l.out.w;
    d.Dy = l.out.h;
    d.Dz = l.out.c;
    d.Di = in.c;
    d.in_w = in.w;
    d.in_h = in.h;
    d.Dm = l.kernel_w;
    d.Dn = l.kernel_h;
    d.Sx = l.stride_w;
    d.Sy = l.stride_h;
    d.Em = int64_t(l.kernel_w - 1) * l.dilation_w + 1;
    d.En = int64_t(l.kernel_h - 1) * l.dilation_h + 1;
    d.G = std::max<int64_t>(1, l.groups);
    d.n_inputs = int32_t(std::max<size_t>(1, l.inputs.size()));
    d.weights = hasWeights(l.type);
    switch (l.type) {
    case LayerType::fc:
        // The kernel spans the input (docs/models/README.md): D_m = in_width, D_n = in_height;
        // output 1x1.
        d.Dm = d.Em = in.w;
        d.Dn = d.En = in.h;
        d.Sx = d.Sy = 1;
        d.G = 1;
        break;
    case LayerType::global_pool:
        d.Dm = d.Em = in.w;
        d.Dn = d.En = in.h;
        d.Sx = d.Sy = 1;
        d.G = d.Di;
        break;
    case LayerType::pool:
        d.G = d.Di;
        break;
    case LayerType::deconv:
        d.window = WindowKind::deconv;
        break;
    case LayerType::add:
    case LayerType::mul:
        // Element-wise: one X array per input; broadcast inputs are smaller but counted
        // at the output extent (conservative).
        d.Dm = d.Dn = d.Em = d.En = 1;
        d.Sx = d.Sy = 1;
        d.Di = d.Dz;
        d.G = d.Dz;
        d.in_w = d.Dx;
        d.in_h = d.Dy;
        break;
    case LayerType::resize:
        d.Dm = d.Dn = d.Em = d.En = 1;
        d.window = WindowKind::upsample;
        d.up_x = l.scale_w;
        d.up_y = l.scale_h;
        d.bilinear = l.resize_mode == ResizeMode::bilinear;
        d.G = d.Di;
        break;
    case LayerType::input:
    case LayerType::concat:
    case LayerType::opaque:
    case LayerType::reorg:
        d.Dm = d.Dn = d.Em = d.En = 1;
        d.Di = d.Dz;
        d.G = std::max<int64_t>(1, d.Dz);
        d.in_w = d.Dx;
        d.in_h = d.Dy;
        break;
    case LayerType::conv:
        break;
    }
    return d;
}

int64_t layerMacs(const LayerDims& d) {
    if (!d.weights) return 0;
    if (d.window == WindowKind::deconv) {
        // Every input pixel scatters a kernel into Dz/G outputs.
        return d.in_w * d.in_h * d.Di * d.DzPerGroup() * d.Dm * d.Dn;
    }
    return d.Dx * d.Dy * d.Dz * d.DiPerGroup() * d.Dm * d.Dn;
}

int64_t layerOps(const Network& net, LayerId id) {
    const Layer& l = net.layer(id);
    const LayerDims d = layerDims(net, id);
    switch (l.type) {
    case LayerType::pool:
    case LayerType::global_pool:
        return d.Dx * d.Dy * d.Dz * d.Dm * d.Dn;
    case LayerType::add:
    case LayerType::mul: // one op per output element and extra operand (x + x counts too)
        return d.Dx * d.Dy * d.Dz * int64_t(std::max<size_t>(1, l.operandIds().size()) - 1);
    case LayerType::resize:
        return d.bilinear ? d.Dx * d.Dy * d.Dz * 4 : 0;
    default:
        return 0;
    }
}

int64_t layerWeights(const LayerDims& d) {
    if (!d.weights) return 0;
    return d.Dz * d.DiPerGroup() * d.Dm * d.Dn;
}

} // namespace lf
