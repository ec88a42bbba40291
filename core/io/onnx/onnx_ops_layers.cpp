// ONNX operators that become layers: Conv, ConvTranspose, Gemm/MatMul, pooling, global
// pooling, Concat, Resize/Upsample and element-wise operators on two activations.
#include "io/onnx/onnx_shape_ops.h"
#include "io/onnx/onnx_translator.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>

namespace lf::onnx_import {

namespace {

struct Window {
    int kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
    int64_t pt = 0, pl = 0, pb = 0, pr = 0;
};

std::vector<int64_t> pairAttr(const onnx::NodeProto& n, const char* name, int64_t def) {
    auto v = attrInts(n, name);
    if (v.empty()) return {def, def};
    if (v.size() != 2)
        invalid(std::string(name) + " must have 2 values for a 2-D operator, got " + dimsText(v));
    return v;
}

// SAME_UPPER / SAME_LOWER padding: the output covers ceil(in / stride) positions.
void samePadding(int64_t in, int k, int s, int d, bool upper, int64_t& before, int64_t& after) {
    const int64_t out = ceilDiv(in, s);
    const int64_t total = std::max<int64_t>(0, (out - 1) * s + int64_t(k - 1) * d + 1 - in);
    before = upper ? total / 2 : total - total / 2;
    after = total - before;
}

// Kernel, strides and (unless ignored) dilations of a 2-D conv or pool.
Window readKernel(const onnx::NodeProto& n, int64_t kh, int64_t kw, bool dilations) {
    Window w;
    w.kh = toIntIn(kh, 1, NetworkLimits::kMaxKernel, "kernel height");
    w.kw = toIntIn(kw, 1, NetworkLimits::kMaxKernel, "kernel width");
    const auto s = pairAttr(n, "strides", 1);
    w.sh = toIntIn(s[0], 1, NetworkLimits::kMaxStride, "stride");
    w.sw = toIntIn(s[1], 1, NetworkLimits::kMaxStride, "stride");
    if (dilations) {
        const auto d = pairAttr(n, "dilations", 1);
        w.dh = toIntIn(d[0], 1, NetworkLimits::kMaxKernel, "dilation");
        w.dw = toIntIn(d[1], 1, NetworkLimits::kMaxKernel, "dilation");
    }
    return w;
}

void readExplicitPads(const onnx::NodeProto& n, Window& w) {
    const auto p = attrInts(n, "pads");
    if (p.empty()) return;
    if (p.size() != 4) invalid("pads must have 4 values for a 2-D operator, got " + dimsText(p));
    w.pt = toIntIn(p[0], 0, NetworkLimits::kMaxKernel, "padding");
    w.pl = toIntIn(p[1], 0, NetworkLimits::kMaxKernel, "padding");
    w.pb = toIntIn(p[2], 0, NetworkLimits::kMaxKernel, "padding");
    w.pr = toIntIn(p[3], 0, NetworkLimits::kMaxKernel, "padding");
}

// Padding of a conv or pool over an input of inH x inW (pads or auto_pad).
void readPads(const onnx::NodeProto& n, Window& w, int64_t inH, int64_t inW) {
    const std::string autoPad = attrString(n, "auto_pad", "NOTSET");
    if (autoPad == "NOTSET" || autoPad.empty()) {
        readExplicitPads(n, w);
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        const bool upper = autoPad == "SAME_UPPER";
        samePadding(inH, w.kh, w.sh, w.dh, upper, w.pt, w.pb);
        samePadding(inW, w.kw, w.sw, w.dw, upper, w.pl, w.pr);
    } else if (autoPad != "VALID") {
        invalid("auto_pad '" + autoPad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    }
}

void applyWindow(Layer& l, const Window& w, const PendingPad& extra) {
    l.kernel_h = w.kh;
    l.kernel_w = w.kw;
    l.stride_h = w.sh;
    l.stride_w = w.sw;
    l.dilation_h = w.dh;
    l.dilation_w = w.dw;
    const int64_t lim = NetworkLimits::kMaxKernel;
    l.pad_t = toIntIn(w.pt + extra.t, 0, lim, "padding");
    l.pad_l = toIntIn(w.pl + extra.l, 0, lim, "padding");
    l.pad_b = toIntIn(w.pb + extra.b, 0, lim, "padding");
    l.pad_r = toIntIn(w.pr + extra.r, 0, lim, "padding");
}

// Checks a rank-4 activation for a 2-D spatial operator, with a hint for 1-D / 3-D ones.
void requireSpatial2d(const Value& x, const std::string& hint) {
    if (x.dims.size() == 3) unsupported("1-D operators (rank-3 input) are not supported");
    if (x.dims.size() == 5) unsupported("3-D operators (rank-5 input) are not supported");
    if (x.dims.size() != 4 || !x.nchw)
        unsupported("needs an N x C x H x W activation, got dims " + dimsText(x.dims) + hint);
}

const ConstTensor& weightsOf(const NodeCtx& c) {
    const Value* w = c.in.size() > 1 ? c.in[1] : nullptr;
    if (!w) invalid("missing weight input");
    if (w->kind == ValueKind::feature)
        unsupported("weights computed at run time are not supported");
    if (w->kind != ValueKind::constant) unsupported("weights come from an unsupported node");
    if (w->c.dims.size() != 4)
        invalid("weights must have rank 4 (M x C/group x kH x kW), got " + dimsText(w->c.dims));
    return w->c;
}

void checkKernelAttr(const onnx::NodeProto& n, const std::vector<int64_t>& wdims) {
    const auto ks = attrInts(n, "kernel_shape");
    if (!ks.empty() && (ks.size() != 2 || ks[0] != wdims[2] || ks[1] != wdims[3]))
        invalid("kernel_shape " + dimsText(ks) + " disagrees with the weights " + dimsText(wdims));
}

} // namespace

void Translator::opConv(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireSpatial2d(x, layoutHint(x));
    const ConstTensor& w = weightsOf(c);
    checkKernelAttr(c.n, w.dims);
    const int64_t group = attrInt(c.n, "group", 1);
    if (group < 1 || group > NetworkLimits::kMaxChannels)
        invalid("group " + std::to_string(group) + " is out of range");
    if (w.dims[1] * group != x.ours.c)
        invalid("weights " + dimsText(w.dims) + " with group " + std::to_string(group) +
                " expect " + std::to_string(w.dims[1] * group) + " input channels, the input has " +
                std::to_string(x.ours.c));
    Window win = readKernel(c.n, w.dims[2], w.dims[3], true);
    readPads(c.n, win, x.ours.h + x.pad.t + x.pad.b, x.ours.w + x.pad.l + x.pad.r);
    Layer l;
    l.type = LayerType::conv;
    l.out_channels = w.dims[0];
    l.groups = group;
    applyWindow(l, win, x.pad);
    Value plain = x;
    plain.pad = {};
    notePad(x.pad, emitLayer(c, std::move(l), {&plain}));
}

void Translator::opConvTranspose(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    requireSpatial2d(x, layoutHint(x));
    const ConstTensor& w = weightsOf(c);
    checkKernelAttr(c.n, w.dims);
    const int64_t group = attrInt(c.n, "group", 1);
    if (group < 1 || group > NetworkLimits::kMaxChannels)
        invalid("group " + std::to_string(group) + " is out of range");
    if (w.dims[0] != x.ours.c)
        invalid("weights " + dimsText(w.dims) + " expect " + std::to_string(w.dims[0]) +
                " input channels, the input has " + std::to_string(x.ours.c));
    const auto outC = checkedMul(w.dims[1], group);
    if (!outC || *outC > NetworkLimits::kMaxChannels) invalid("too many output channels");

    // Padding: explicit pads, or derived from output_shape / SAME_* (ONNX ConvTranspose).
    Window win = readKernel(c.n, w.dims[2], w.dims[3], true);
    const std::string autoPad = attrString(c.n, "auto_pad", "NOTSET");
    auto outputShape = attrInts(c.n, "output_shape");
    if (outputShape.size() == 4) outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
    if (!outputShape.empty() && outputShape.size() != 2) invalid("output_shape must have 2 values");
    const bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
    const auto op = pairAttr(c.n, "output_padding", 0);
    int64_t opH = toIntIn(op[0], 0, NetworkLimits::kMaxKernel, "output_padding");
    int64_t opW = toIntIn(op[1], 0, NetworkLimits::kMaxKernel, "output_padding");
    if (!outputShape.empty() || same) {
        const int64_t targetH = outputShape.empty() ? x.ours.h * win.sh : outputShape[0];
        const int64_t targetW = outputShape.empty() ? x.ours.w * win.sw : outputShape[1];
        if (targetH < 1 || targetW < 1 || targetH > NetworkLimits::kMaxExtent ||
            targetW > NetworkLimits::kMaxExtent)
            invalid("output_shape " + dimsText(outputShape) + " is out of range");
        auto fit = [&](int64_t in, int s, int k, int d, int64_t target, int64_t& before,
                       int64_t& after, int64_t& outPad) {
            const int64_t total = s * (in - 1) + outPad + int64_t(k - 1) * d + 1 - target;
            if (total < 0) { // the requested output is larger: extra output padding
                outPad -= total;
                before = after = 0;
                return;
            }
            const bool upper = autoPad == "SAME_UPPER";
            before = upper ? total / 2 : total - total / 2;
            after = total - before;
        };
        fit(x.ours.h, win.sh, win.kh, win.dh, targetH, win.pt, win.pb, opH);
        fit(x.ours.w, win.sw, win.kw, win.dw, targetW, win.pl, win.pr, opW);
    } else if (autoPad == "NOTSET" || autoPad.empty()) {
        readExplicitPads(c.n, win);
    } else if (autoPad != "VALID") {
        invalid("auto_pad '" + autoPad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
    }
    Layer l;
    l.type = LayerType::deconv;
    l.out_channels = *outC;
    l.groups = group;
    applyWindow(l, win, {});
    l.output_pad_h = toIntIn(opH, 0, NetworkLimits::kMaxKernel, "output padding");
    l.output_pad_w = toIntIn(opW, 0, NetworkLimits::kMaxKernel, "output padding");
    emitLayer(c, std::move(l), {&x});
}

void Translator::opFullyConnected(const NodeCtx& c) {
    const bool gemm = c.n.op_type() == "Gemm";
    if (c.in.size() < 2) invalid("needs two inputs");
    Value& a = feature(c, 0);
    requireNoPad(a);
    if (gemm && attrInt(c.n, "transA", 0) != 0)
        unsupported("Gemm with transA = 1 is not supported");
    const ConstTensor& b = constant(c, 1, "the weight matrix");
    if (b.dims.size() != 2)
        unsupported("the weight matrix must have rank 2, got " + dimsText(b.dims));
    if (!gemm && a.dims.size() == 4)
        if (const auto roles = rolesOf(a); roles && (*roles)[3] == kC) {
            // A product over the channels of an NHWC view at every pixel: a 1x1 convolution.
            if (b.dims[0] != a.dims[3])
                invalid("the input has " + std::to_string(a.dims[3]) +
                        " channels but the weights " + dimsText(b.dims) + " expect " +
                        std::to_string(b.dims[0]));
            Layer l;
            l.type = LayerType::conv;
            l.out_channels = b.dims[1];
            setRoles(emitLayer(c, std::move(l), {&a}), *roles);
            return;
        }
    if (a.dims.size() != 2)
        unsupported("an fc layer needs a 2-D input (N x features), got " + dimsText(a.dims) +
                    "; matrix products over other ranks are not supported");
    const bool transB = gemm && attrInt(c.n, "transB", 0) != 0;
    const int64_t k = transB ? b.dims[1] : b.dims[0];
    const int64_t m = transB ? b.dims[0] : b.dims[1];
    if (k != a.dims[1])
        invalid("the input has " + std::to_string(a.dims[1]) + " features but the weights " +
                dimsText(b.dims) + (transB ? " (transposed)" : "") + " expect " +
                std::to_string(k));
    if (a.dims[1] != a.ours.elements())
        unsupported("the input " + dimsText(a.dims) +
                    " does not flatten the activation it comes from");
    Layer l;
    l.type = LayerType::fc;
    l.out_channels = m;
    emitLayer(c, std::move(l), {&a}, true);
}

void Translator::opPool(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireSpatial2d(x, layoutHint(x));
    if (outputUsed(c, 1)) unsupported("the Indices output of MaxPool is not supported");
    const auto ks = attrInts(c.n, "kernel_shape");
    if (ks.size() != 2) invalid("kernel_shape must have 2 values, got " + dimsText(ks));
    const bool isMax = c.n.op_type() == "MaxPool";
    // AveragePool gained dilations only in opset 19, after the opsets we read.
    Window win = readKernel(c.n, ks[0], ks[1], isMax);
    readPads(c.n, win, x.ours.h + x.pad.t + x.pad.b, x.ours.w + x.pad.l + x.pad.r);
    Layer l;
    l.type = LayerType::pool;
    l.pool_mode = isMax ? PoolMode::max : PoolMode::avg;
    l.ceil_mode = attrInt(c.n, "ceil_mode", 0) != 0;
    applyWindow(l, win, x.pad);
    Value plain = x;
    plain.pad = {};
    notePad(x.pad, emitLayer(c, std::move(l), {&plain}));
}

void Translator::opGlobalPool(const NodeCtx& c) {
    Value& x = image(c, 0);
    Layer l;
    l.type = LayerType::global_pool;
    l.pool_mode = c.n.op_type() == "GlobalMaxPool" ? PoolMode::max : PoolMode::avg;
    emitLayer(c, std::move(l), {&x});
}

void Translator::opReduce(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    const auto roles = std::optional<Roles>(imageRoles(x));
    const auto axesIn = axesOperand(c.n, opset_, 18, optionalConstant(c, 1, "the axes"));
    std::set<int64_t> over;
    for (int64_t a : axesIn)
        over.insert((*roles)[size_t(normalizeAxis(a, 4, "axis"))]);
    if (over != std::set<int64_t>{kH, kW})
        unsupported("only a reduction over height and width is a global pooling; got axes " +
                    dimsText(axesIn));
    Layer l;
    l.type = LayerType::global_pool;
    l.pool_mode = c.n.op_type() == "ReduceMax" ? PoolMode::max : PoolMode::avg;
    Value& o = emitLayer(c, std::move(l), {&x});
    Roles kept;
    for (int8_t r : *roles)
        if (attrInt(c.n, "keepdims", 1) != 0 || (r != kH && r != kW)) kept.push_back(r);
    if (kept.size() == 2 && kept != Roles{kN, kC})
        unsupported("the reduction leaves the channels before the batch");
    setRoles(o, kept);
}

void Translator::opConcat(const NodeCtx& c) {
    if (c.in.empty()) invalid("Concat has no inputs");
    std::vector<const Value*> ins;
    std::vector<const ConstTensor*> consts;
    const Value* first = nullptr;
    for (size_t k = 0; k < c.in.size(); ++k) {
        const Value* v = c.in[k];
        if (!v) invalid("input " + std::to_string(k) + " is missing");
        if (v->kind == ValueKind::feature) {
            requireNoPad(*v);
            ins.push_back(v);
            if (!first) first = v;
        } else {
            consts.push_back(optionalConstant(c, int(k), "a constant input"));
        }
    }
    const size_t rank = first->dims.size();
    const int64_t axis = normalizeAxis(attrInt(c.n, "axis", 1), int64_t(rank), "Concat axis");
    const auto roles = rolesOf(*first);
    for (const Value* v : ins)
        if (v->dims.size() != rank) invalid("inputs differ in rank");
    if (!roles)
        unsupported("an input is a reshaped view the layer IR cannot express: " +
                    dimsText(first->dims) + layoutHint(*first));
    for (const Value* v : ins)
        if (rolesOf(*v) != roles)
            unsupported("the inputs are in different layouts (" + dimsText(first->dims) + " and " +
                        dimsText(v->dims) + ")");
    if ((*roles)[size_t(axis)] != kC)
        unsupported("only concatenation over channels is a concat layer; got axis " +
                    std::to_string(axis) + ", which holds the " +
                    ((*roles)[size_t(axis)] == kN ? "batch" : "height or width"));
    // Constant inputs (zeros that pad the channels, ...) are channels no layer produces.
    int64_t constChannels = 0;
    for (const ConstTensor* k : consts) {
        if (k->dims.size() != rank) invalid("a constant input differs in rank");
        for (size_t a = 0; a < rank; ++a)
            if (int64_t(a) != axis && k->dims[a] != first->dims[a])
                invalid("constant input " + dimsText(k->dims) + " does not match " +
                        dimsText(first->dims) + " outside the concatenation axis");
        constChannels += k->dims[size_t(axis)];
    }
    Layer l;
    l.type = LayerType::concat;
    l.const_channels = constChannels;
    Value& o = emitLayer(c, std::move(l), ins);
    setRoles(o, *roles);
}

void Translator::opResize(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    const auto roles = std::optional<Roles>(imageRoles(x));
    const bool upsample = c.n.op_type() == "Upsample";
    std::vector<double> scales;
    std::vector<int64_t> sizes;
    if (upsample && opset_ < 9) {
        for (float f : attrFloats(c.n, "scales"))
            scales.push_back(f);
    } else if (upsample || opset_ < 11) {
        scales = constant(c, 1, "the scales").doubleValues("the scales");
    } else {
        if (const ConstTensor* s = optionalConstant(c, 2, "the scales");
            s && s->has_values && s->size() > 0)
            scales = s->doubleValues("the scales");
        else if (const ConstTensor* z = optionalConstant(c, 3, "the sizes"))
            sizes = z->intValues("the sizes");
        if (scales.empty() && sizes.empty()) invalid("Resize needs scales or sizes");
    }
    // opset 18: scales / sizes may name their axes.
    const auto axesAttr = attrInts(c.n, "axes");
    std::vector<int64_t> axes;
    for (int64_t a : axesAttr)
        axes.push_back(normalizeAxis(a, 4, "Resize axis"));
    if (axes.empty()) axes = {0, 1, 2, 3};
    const size_t given = scales.empty() ? sizes.size() : scales.size();
    if (given != axes.size())
        invalid("Resize scales/sizes have " + std::to_string(given) + " values for rank 4");
    double factor[4] = {1, 1, 1, 1}; // per role
    for (size_t k = 0; k < axes.size(); ++k) {
        const int64_t extent = x.dims[size_t(axes[k])];
        factor[(*roles)[size_t(axes[k])]] =
            scales.empty() ? double(sizes[k]) / double(extent) : scales[k];
    }
    auto integral = [](double f) {
        return std::isfinite(f) && std::fabs(f - std::round(f)) < 1e-6;
    };
    if (factor[0] != 1 || factor[1] != 1)
        unsupported("resizing the batch or channel axis is not supported");
    for (int a : {2, 3})
        if (!integral(factor[a]) || std::round(factor[a]) < 1 || std::round(factor[a]) > 1024)
            unsupported("only integer upsampling factors (1 to 1024) are supported; got " +
                        std::to_string(factor[a]));
    std::string mode = attrString(c.n, "mode", "nearest");
    std::transform(mode.begin(), mode.end(), mode.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    Layer l;
    l.type = LayerType::resize;
    if (mode == "nearest")
        l.resize_mode = ResizeMode::nearest;
    else if (mode == "linear" || mode == "bilinear")
        l.resize_mode = ResizeMode::bilinear;
    else
        unsupported("resize mode '" + mode + "' is not supported (nearest or linear)");
    l.scale_h = int(std::round(factor[2]));
    l.scale_w = int(std::round(factor[3]));
    setRoles(emitLayer(c, std::move(l), {&x}), *roles);
}

void Translator::opBinaryLayer(const NodeCtx& c, const std::vector<Value*>& features) {
    const std::string& op = c.n.op_type();
    Layer l;
    // The cost models see an element-wise layer: one op per output element and operand.
    l.type =
        op == "Mul" || op == "Div" || op == "Pow" || op == "And" ? LayerType::mul : LayerType::add;
    std::vector<int64_t> dims = features[0]->dims;
    const Value* full = features[0];
    std::vector<const Value*> ins;
    for (Value* v : features) {
        requireNoPad(*v);
        if (v->dims.size() != dims.size())
            unsupported("broadcasting between ranks " + std::to_string(dims.size()) + " and " +
                        std::to_string(v->dims.size()) + " is not supported");
        dims = broadcastDims(dims, v->dims);
        ins.push_back(v);
    }
    for (const Value* v : features)
        if (v->dims == dims) full = v;
    const auto roles = rolesOf(*full);
    if (!roles)
        unsupported("an input is a reshaped view the layer IR cannot express: " +
                    dimsText(full->dims) + layoutHint(*full));
    for (const Value* v : features) {
        const auto r = rolesOf(*v);
        bool same = r.has_value();
        for (size_t a = 0; same && a < dims.size(); ++a)
            same = v->dims[a] == 1 || (*r)[a] == (*roles)[a];
        if (!same)
            unsupported("the inputs are in different layouts (" + dimsText(full->dims) + " and " +
                        dimsText(v->dims) + layoutHint(*v) + ")");
    }
    for (Value* v : c.in)
        if (v && v->kind == ValueKind::constant && broadcastDims(dims, v->c.dims) != dims)
            unsupported("a constant operand " + dimsText(v->c.dims) + " enlarges the result");
    Value& o = emitLayer(c, std::move(l), ins);
    setRoles(o, *roles);
    if (o.dims != dims) invalid("inconsistent element-wise shapes " + dimsText(dims));
}

} // namespace lf::onnx_import
