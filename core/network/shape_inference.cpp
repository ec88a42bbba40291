#include "network/shape_inference.h"

#include "network/network.h"
#include "util/checked.h"

#include <algorithm>

namespace lf {

int64_t slidingOutExtent(int64_t in, int kernel, int stride, int pad_before, int pad_after,
                         int dilation, bool ceil_mode) {
    const int64_t eff = int64_t(kernel - 1) * dilation + 1;
    const int64_t span = in + pad_before + pad_after - eff;
    if (span < 0) return -1;
    int64_t out = ceil_mode ? ceilDiv(span, stride) + 1 : span / stride + 1;
    // ONNX / PyTorch: with ceil_mode the last window must start inside the input or the
    // left padding, never entirely in the right padding.
    if (ceil_mode && (out - 1) * stride >= in + pad_before) --out;
    return out;
}

namespace {

std::string shapeStr(const Shape& s) {
    return std::to_string(s.c) + "x" + std::to_string(s.h) + "x" + std::to_string(s.w);
}

std::string checkShape(const Shape& s) {
    if (s.c <= 0 || s.h <= 0 || s.w <= 0) return "output shape " + shapeStr(s) + " is empty";
    if (s.c > NetworkLimits::kMaxChannels || s.h > NetworkLimits::kMaxExtent ||
        s.w > NetworkLimits::kMaxExtent)
        return "output shape " + shapeStr(s) + " exceeds the supported size";
    auto hw = checkedMul(s.h, s.w);
    auto all = hw ? checkedMul(*hw, s.c) : std::nullopt;
    if (!all || *all > NetworkLimits::kMaxElements)
        return "output shape " + shapeStr(s) + " has too many elements";
    return {};
}

std::string inferWindowed(Layer& l, const Shape& in) {
    const int64_t oh =
        slidingOutExtent(in.h, l.kernel_h, l.stride_h, l.pad_t, l.pad_b, l.dilation_h, l.ceil_mode);
    const int64_t ow =
        slidingOutExtent(in.w, l.kernel_w, l.stride_w, l.pad_l, l.pad_r, l.dilation_w, l.ceil_mode);
    if (oh <= 0 || ow <= 0)
        return "kernel " + std::to_string(l.kernel_h) + "x" + std::to_string(l.kernel_w) +
               " does not fit the padded input " + shapeStr(in);
    l.out = Shape{l.out_channels, oh, ow};
    return {};
}

// Channel slice, depth-to-space, space-to-depth (ONNX Slice/Split on channels,
// DepthToSpace, SpaceToDepth): data moves, nothing is computed.
std::string inferReorg(Layer& l, const Shape& in) {
    if (l.op_type == kReorgSlice) {
        const int64_t n = l.out_channels, b = l.slice_begin, s = l.slice_step;
        if (n < 1) return "a slice needs at least one channel";
        if (s == 0 || s < -in.c || s > in.c)
            return "slice step must be non-zero and within the channels";
        const int64_t last = b + (n - 1) * s; // no overflow: |s| <= in.c, n <= kMaxChannels
        if (b < 0 || b >= in.c || last < 0 || last >= in.c)
            return "slice of " + std::to_string(n) + " channels from " + std::to_string(b) +
                   " step " + std::to_string(s) + " leaves the " + std::to_string(in.c) +
                   " input channels";
        l.out = Shape{n, in.h, in.w};
        return {};
    }
    const int64_t b = l.block;
    if (b < 1 || b > NetworkLimits::kMaxKernel) return "block size out of range";
    if (l.op_type == kReorgDepthToSpace) {
        if (in.c % (b * b) != 0)
            return "depth_to_space needs channels (" + std::to_string(in.c) +
                   ") divisible by the block size squared (" + std::to_string(b * b) + ")";
        l.out = Shape{in.c / (b * b), in.h * b, in.w * b};
    } else if (l.op_type == kReorgSpaceToDepth) {
        if (in.h % b != 0 || in.w % b != 0)
            return "space_to_depth needs height and width divisible by the block size";
        l.out = Shape{in.c * b * b, in.h / b, in.w / b};
    } else {
        return "unknown reorg operation '" + l.op_type +
               "' (slice, depth_to_space, space_to_depth)";
    }
    l.out_channels = l.out.c;
    return {};
}

} // namespace

std::string inferShape(Layer& l, const std::vector<Shape>& ins) {
    auto needInputs = [&](size_t lo, size_t hi) -> std::string {
        if (ins.size() < lo || ins.size() > hi) {
            std::string want = lo == hi         ? std::to_string(lo)
                               : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                                : std::to_string(lo) + " to " + std::to_string(hi);
            return std::string(toString(l.type)) + " layer takes " + want + " input(s), got " +
                   std::to_string(ins.size());
        }
        return {};
    };
    auto checkWindowParams = [&]() -> std::string {
        if (l.kernel_h < 1 || l.kernel_w < 1 || l.kernel_h > NetworkLimits::kMaxKernel ||
            l.kernel_w > NetworkLimits::kMaxKernel)
            return "kernel must be between 1 and " + std::to_string(NetworkLimits::kMaxKernel);
        if (l.stride_h < 1 || l.stride_w < 1 || l.stride_h > NetworkLimits::kMaxStride ||
            l.stride_w > NetworkLimits::kMaxStride)
            return "stride must be between 1 and " + std::to_string(NetworkLimits::kMaxStride);
        if (l.dilation_h < 1 || l.dilation_w < 1 || l.dilation_h > NetworkLimits::kMaxKernel ||
            l.dilation_w > NetworkLimits::kMaxKernel)
            return "dilation must be between 1 and " + std::to_string(NetworkLimits::kMaxKernel);
        for (int p : {l.pad_t, l.pad_l, l.pad_b, l.pad_r})
            if (p < 0 || p > NetworkLimits::kMaxKernel)
                return "padding must be between 0 and " + std::to_string(NetworkLimits::kMaxKernel);
        return {};
    };

    std::string err;
    switch (l.type) {
    case LayerType::input:
        break; // shape given
    case LayerType::conv:
    case LayerType::deconv: {
        if (!(err = needInputs(1, 1)).empty()) return err;
        if (!(err = checkWindowParams()).empty()) return err;
        const Shape& in = ins[0];
        if (l.out_channels <= 0) return "out_channels must be positive";
        if (l.groups < 1) return "groups must be at least 1";
        if (in.c % l.groups != 0)
            return "groups (" + std::to_string(l.groups) + ") must divide the input channels (" +
                   std::to_string(in.c) + ")";
        if (l.out_channels % l.groups != 0)
            return "groups (" + std::to_string(l.groups) + ") must divide out_channels (" +
                   std::to_string(l.out_channels) + ")";
        if (l.type == LayerType::conv) {
            if (!(err = inferWindowed(l, in)).empty()) return err;
        } else {
            // Transposed convolution: out = (in-1)*S - pads + (K-1)*d + 1 + output_padding.
            const int64_t oh = (in.h - 1) * l.stride_h - l.pad_t - l.pad_b +
                               int64_t(l.kernel_h - 1) * l.dilation_h + 1 + l.output_pad_h;
            const int64_t ow = (in.w - 1) * l.stride_w - l.pad_l - l.pad_r +
                               int64_t(l.kernel_w - 1) * l.dilation_w + 1 + l.output_pad_w;
            if (oh <= 0 || ow <= 0) return "transposed convolution gives an empty output";
            l.out = Shape{l.out_channels, oh, ow};
        }
        break;
    }
    case LayerType::fc: {
        if (!(err = needInputs(1, 1)).empty()) return err;
        if (l.out_channels <= 0) return "out_features must be positive";
        // An fc's kernel spans its whole input (docs/models/README.md): D_m = in_width, D_n =
        // in_height.
        l.kernel_h = int(std::min<int64_t>(ins[0].h, NetworkLimits::kMaxExtent));
        l.kernel_w = int(std::min<int64_t>(ins[0].w, NetworkLimits::kMaxExtent));
        l.stride_h = l.stride_w = 1;
        l.out = Shape{l.out_channels, 1, 1};
        break;
    }
    case LayerType::pool: {
        if (!(err = needInputs(1, 1)).empty()) return err;
        if (!(err = checkWindowParams()).empty()) return err;
        l.out_channels = ins[0].c;
        l.groups = ins[0].c;
        if (!(err = inferWindowed(l, ins[0])).empty()) return err;
        break;
    }
    case LayerType::global_pool:
        if (!(err = needInputs(1, 1)).empty()) return err;
        l.out_channels = ins[0].c;
        l.groups = ins[0].c;
        l.kernel_h = int(ins[0].h);
        l.kernel_w = int(ins[0].w);
        l.stride_h = l.stride_w = 1;
        l.out = Shape{ins[0].c, 1, 1};
        break;
    case LayerType::add:
    case LayerType::mul: {
        if (!(err = needInputs(2, NetworkLimits::kMaxInputsPerLayer)).empty()) return err;
        // Broadcasting over an axis of extent 1 (e.g. squeeze-and-excitation scaling).
        Shape out = ins[0];
        for (const Shape& s : ins) {
            auto merge = [&](int64_t& o, int64_t v, const char* axis) -> std::string {
                if (o == v || v == 1) return {};
                if (o == 1) {
                    o = v;
                    return {};
                }
                return std::string("inputs disagree in ") + axis + " (" + std::to_string(o) +
                       " vs " + std::to_string(v) + ")";
            };
            if (!(err = merge(out.c, s.c, "channels")).empty()) return err;
            if (!(err = merge(out.h, s.h, "height")).empty()) return err;
            if (!(err = merge(out.w, s.w, "width")).empty()) return err;
        }
        l.out_channels = out.c;
        l.groups = out.c;
        l.out = out;
        break;
    }
    case LayerType::concat: {
        if (!(err = needInputs(1, NetworkLimits::kMaxInputsPerLayer)).empty()) return err;
        if (l.const_channels < 0 || l.const_channels > NetworkLimits::kMaxChannels)
            return "constant channels out of range";
        Shape out{l.const_channels, ins[0].h, ins[0].w};
        for (const Shape& s : ins) {
            if (s.h != out.h || s.w != out.w)
                return "concat inputs must agree in height and width (" + shapeStr(ins[0]) +
                       " vs " + shapeStr(s) + ")";
            out.c += s.c;
            if (out.c > NetworkLimits::kMaxChannels) return "concat has too many channels";
        }
        l.out_channels = out.c;
        l.out = out;
        break;
    }
    case LayerType::resize: {
        if (!(err = needInputs(1, 1)).empty()) return err;
        if (l.scale_h < 1 || l.scale_w < 1 || l.scale_h > 1024 || l.scale_w > 1024)
            return "scale must be an integer between 1 and 1024";
        l.out_channels = ins[0].c;
        l.groups = ins[0].c;
        l.out = Shape{ins[0].c, ins[0].h * l.scale_h, ins[0].w * l.scale_w};
        break;
    }
    case LayerType::opaque:
        if (ins.empty()) return "opaque layer needs an input";
        if (l.out.c <= 0) l.out = ins[0]; // pass-through unless a shape was given
        break;
    case LayerType::reorg:
        if (!(err = needInputs(1, 1)).empty()) return err;
        if (!(err = inferReorg(l, ins[0])).empty()) return err;
        break;
    }
    return checkShape(l.out);
}

} // namespace lf
