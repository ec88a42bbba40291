// ONNX operators that fold into their producer (batch-norm, biases, scales, activations,
// also spelled out as element-wise chains), layout-only reshapes, Pad (merged into the
// next conv / pool) and Shape (evaluated at import time).
#include "io/onnx/onnx_const_eval.h"
#include "io/onnx/onnx_shape_ops.h"
#include "io/onnx/onnx_translator.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace lf::onnx_import {

namespace {

std::string lower(std::string s) {
    for (char& ch : s)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

// Name of an activation written as a chain of element-wise operators on one tensor.
std::string chainName(const std::vector<std::string>& ops) {
    const std::set<std::string> s(ops.begin(), ops.end());
    auto has = [&](const char* k) { return s.count(k) > 0; };
    auto only = [&](std::initializer_list<const char*> allowed) {
        return std::all_of(s.begin(), s.end(), [&](const std::string& o) {
            return std::any_of(allowed.begin(), allowed.end(),
                               [&](const char* a) { return o == a; });
        });
    };
    if (has("sigmoid") && has("mul") && only({"sigmoid", "mul"})) return "silu"; // x * sigmoid(x)
    if (has("hardsigmoid") && has("mul") && only({"hardsigmoid", "mul", "div"})) return "hardswish";
    // x * relu6(x + 3) / 6, with relu6 as Clip(0, 6) or Min(Max(., 0), 6).
    if (has("mul") && has("add") && (has("clip") || has("relu") || has("min") || has("max")) &&
        only({"add", "clip", "relu", "min", "max", "mul", "div"}))
        return "hardswish";
    if (has("erf") || (has("tanh") && has("pow"))) return "gelu";
    if (has("tanh") && has("softplus")) return "mish";
    std::string name;
    std::set<std::string> seen;
    for (const auto& o : ops)
        if (seen.insert(o).second) name += (name.empty() ? "" : "_") + o;
    return name;
}

} // namespace

void Translator::setFolded(const NodeCtx& c, Value o) {
    if (o.steps.size() > kMaxPendingSteps && !o.pad.any()) {
        o.carrier = materialize(o, false);
        o.steps.clear();
    }
    out(c, 0) = std::move(o);
}

FoldStep Translator::stepFor(const NodeCtx& c) const {
    const std::string& op = c.n.op_type();
    FoldStep s;
    s.id = c.index;
    s.node = c.name;
    s.ops = {lower(op)};
    s.kind = FoldKind::activation;
    if (op == "BatchNormalization" || op == "InstanceNormalization") {
        s.kind = FoldKind::batchnorm;
        s.op = op == "BatchNormalization" ? "batchnorm" : "instancenorm";
    } else if (op == "Dropout") {
        s.kind = FoldKind::dropout;
        s.op = "dropout";
    } else if (op == "Identity" || op == "Cast" || op == "CastLike" || op == "LRN" ||
               op == "QuantizeLinear" || op == "DequantizeLinear") {
        s.kind = FoldKind::identity;
        s.op = op == "Identity"           ? "identity"
               : op == "LRN"              ? "lrn"
               : op == "QuantizeLinear"   ? "quantize"
               : op == "DequantizeLinear" ? "dequantize"
                                          : "cast";
    } else if (op == "Softmax" || op == "LogSoftmax") {
        s.kind = FoldKind::softmax;
        s.op = op == "Softmax" ? "softmax" : "log_softmax";
    } else if (op == "LeakyRelu") {
        s.op = "leaky_relu";
    } else if (op == "Clip") {
        // ReLU6 is Clip(0, 6); bounds are attributes before opset 11, inputs after.
        double lo = -INFINITY, hi = INFINITY;
        if (opset_ < 11) {
            lo = attrFloat(c.n, "min", -3.4028234e38f);
            hi = attrFloat(c.n, "max", 3.4028234e38f);
        } else {
            if (const ConstTensor* t = optionalConstant(c, 1, "the minimum");
                t && t->has_values && t->size() == 1)
                lo = t->asDouble(0);
            if (const ConstTensor* t = optionalConstant(c, 2, "the maximum");
                t && t->has_values && t->size() == 1)
                hi = t->asDouble(0);
        }
        s.op = lo == 0 && hi == 6 ? "relu6" : lo == 0 && hi > 3e38 ? "relu" : "clip";
    } else {
        s.op = lower(op);
    }
    return s;
}

void Translator::opUnaryFold(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    for (size_t k = 1; k < c.in.size(); ++k)
        optionalConstant(c, int(k), "a parameter input");
    for (int k = 1; k < c.n.output_size(); ++k)
        if (outputUsed(c, k))
            unsupported("output " + std::to_string(k) +
                        " (training statistics or mask) is not supported");
    Value o = x;
    o.steps.push_back(stepFor(c));
    setFolded(c, std::move(o));
}

void Translator::opElementwise(const NodeCtx& c) {
    const std::string& op = c.n.op_type();
    if (c.in.empty()) invalid("no inputs");
    if ((op == "Sub" || op == "Div" || op == "Pow" || op == "Add" || op == "Mul") &&
        c.in.size() != 2)
        invalid(op + " takes two inputs");
    std::vector<Value*> features;
    std::vector<const ConstTensor*> consts;
    for (size_t k = 0; k < c.in.size(); ++k) {
        Value* v = c.in[k];
        if (!v) invalid("input " + std::to_string(k) + " is missing");
        if (v->kind == ValueKind::feature)
            features.push_back(v);
        else
            consts.push_back(optionalConstant(c, int(k), "an operand"));
    }
    std::set<std::string> roots;
    for (const Value* f : features)
        roots.insert(root_.at(f->carrier));
    if (roots.size() > 1) {
        opBinaryLayer(c, features);
        return;
    }
    // One origin: the result is an element-wise function of that activation.
    const Value& base = *features[0];
    for (const Value* f : features) {
        requireNoPad(*f);
        if (f->dims != base.dims || rolesOf(*f) != rolesOf(base))
            unsupported("broadcasting between two views of one activation " + dimsText(base.dims) +
                        " and " + dimsText(f->dims) + " is not supported");
    }
    for (const ConstTensor* k : consts)
        if (broadcastDims(base.dims, k->dims) != base.dims)
            unsupported("the constant operand " + dimsText(k->dims) + " enlarges the activation " +
                        dimsText(base.dims));
    Value o = base;
    if (features.size() == 1) {
        const bool scalar = consts.size() == 1 && elementCount(consts[0]->dims) == int64_t(1);
        FoldStep* last = o.steps.empty() ? nullptr : &o.steps.back();
        if (last && last->merged && !last->absorbed_scale && scalar &&
            (op == "Div" || op == "Mul")) {
            if (last->ops.size() < kMaxChainOps) last->ops.push_back(lower(op)); // the "/ 6"
            last->absorbed_scale = true;
            last->op = chainName(last->ops);
        } else {
            FoldStep s;
            s.id = c.index;
            s.node = c.name;
            s.ops = {lower(op)};
            if (consts.empty()) {
                s.kind = FoldKind::identity; // Sum / Mean / Max of one input
                s.op = "identity";
            } else if (op == "Add" || op == "Sub" || op == "Sum") {
                s.kind = FoldKind::bias;
                s.op = "bias";
            } else if (op == "Mul" || op == "Div") {
                s.kind = FoldKind::scale;
                s.op = "scale";
            } else {
                s.kind = FoldKind::activation;
                s.op = lower(op);
            }
            o.steps.push_back(std::move(s));
        }
        setFolded(c, std::move(o));
        return;
    }
    // Several views of one activation (x * sigmoid(x)): keep the steps they share and merge
    // the rest with this node into one named activation.
    const bool sameCarrier = std::all_of(features.begin(), features.end(), [&](const Value* f) {
        return f->carrier == base.carrier;
    });
    size_t prefix = 0;
    if (sameCarrier) {
        for (;; ++prefix) {
            const bool shared = std::all_of(features.begin(), features.end(), [&](const Value* f) {
                return prefix < f->steps.size() && prefix < base.steps.size() &&
                       f->steps[prefix].id == base.steps[prefix].id &&
                       f->steps[prefix].kind == base.steps[prefix].kind;
            });
            if (!shared) break;
        }
    } else {
        o.carrier = *roots.begin();
    }
    std::map<int, const FoldStep*> rest;
    for (const Value* f : features)
        for (size_t k = sameCarrier ? prefix : 0; k < f->steps.size(); ++k)
            rest[f->steps[k].id] = &f->steps[k];
    FoldStep m;
    m.id = c.index;
    m.node = c.name;
    m.merged = true;
    m.kind = FoldKind::activation;
    for (const auto& [id, st] : rest)
        m.ops.insert(m.ops.end(), st->ops.begin(), st->ops.end());
    m.ops.push_back(lower(op));
    if (m.ops.size() > kMaxChainOps) m.ops.resize(kMaxChainOps);
    m.op = chainName(m.ops);
    o.steps.resize(sameCarrier ? prefix : 0);
    o.steps.push_back(std::move(m));
    setFolded(c, std::move(o));
}

void Translator::opLayout(const NodeCtx& c) {
    Value& x = feature(c, 0);
    const std::string& op = c.n.op_type();
    if (op != "Transpose") requireNoPad(x); // a Transpose keeps a pending Pad's H and W
    std::vector<int64_t> dims, perm;
    if (op == "Flatten") {
        dims = flattenDims(x.dims, attrInt(c.n, "axis", 1));
    } else if (op == "Reshape") {
        const auto shape = opset_ < 5
                               ? attrInts(c.n, "shape")
                               : constant(c, 1, "the target shape").intValues("the target shape");
        dims = reshapeDims(x.dims, shape, attrInt(c.n, "allowzero", 0) != 0);
    } else if (op == "Squeeze" || op == "Unsqueeze") {
        const auto axes = axesOperand(c.n, opset_, 13, optionalConstant(c, 1, "the axes"));
        dims = op == "Squeeze" ? squeezeDims(x.dims, axes) : unsqueezeDims(x.dims, axes);
    } else {
        perm = transposePerm(x.dims.size(), attrInts(c.n, "perm"));
        dims = permuteDims(x.dims, perm);
        // NHWC -> NCHW of a graph input that no layer has read yet (also after element-wise
        // pre-processing): the input is an NHWC image, read in the transposed layout.
        if (x.nchw && x.dims.size() == 4 && perm == std::vector<int64_t>{0, 3, 1, 2})
            redeclareInput(x, perm, c.name);
    }
    const int64_t batch = extentOf(x, kN);
    if (batch > 1 && (dims.empty() || dims[0] != batch))
        unsupported("the reshape mixes the batch dimension with others");
    Value o = x;
    if (op == "Transpose") {
        transposeView(c, o, x, perm);
    } else {
        o.dims = dims;
        o.layoutNode = c.name;
        reshapeView(o, x);
    }
    FoldStep s;
    s.id = c.index;
    s.node = c.name;
    s.op = lower(op);
    if (o.nchw && o.shuffled) s.op = "channel_shuffle";
    s.ops = {s.op};
    if (o.nchw) {
        // Back to the plain N,C,H,W (or N,F) view: nothing the IR needs to know.
        for (FoldStep& st : o.steps)
            if (st.kind == FoldKind::flatten) st.kind = FoldKind::identity;
        o.shuffled = 0;
        s.kind = FoldKind::identity;
    } else {
        s.kind = FoldKind::flatten; // a reshaped view: fine in front of an fc layer
    }
    o.steps.push_back(std::move(s));
    setFolded(c, std::move(o));
}

void Translator::opPad(const NodeCtx& c) {
    Value& x = feature(c, 0);
    const auto roles = std::optional<Roles>(imageRoles(x));
    const auto pads =
        opset_ < 11 ? attrInts(c.n, "pads") : constant(c, 1, "the pads").intValues("the pads");
    std::vector<int64_t> axes = {0, 1, 2, 3};
    if (opset_ >= 18)
        if (const ConstTensor* a = optionalConstant(c, 3, "the axes")) {
            axes.clear();
            for (int64_t v : a->intValues("the axes"))
                axes.push_back(normalizeAxis(v, 4, "Pad axis"));
        }
    if (pads.size() != 2 * axes.size())
        invalid("pads has " + std::to_string(pads.size()) + " values for " +
                std::to_string(axes.size()) + " axes");
    const std::string mode = attrString(c.n, "mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
        invalid("Pad mode '" + mode + "' is unknown");
    // Per role (N, C, H, W) of the axes the pads name.
    int64_t begin[4] = {0, 0, 0, 0}, end[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < axes.size(); ++k) {
        const int8_t r = (*roles)[size_t(axes[k])];
        begin[r] = pads[k];
        end[r] = pads[k + axes.size()];
    }
    if (begin[kN] || end[kN]) unsupported("padding the batch axis is not supported");
    for (int r = 0; r < 4; ++r)
        if (begin[r] < 0 || end[r] < 0) unsupported("negative padding (cropping) is not supported");
    if ((begin[kC] || end[kC]) && mode != "constant")
        unsupported("padding the channels in '" + mode + "' mode is not supported");
    Value o = x;
    if (begin[kC] || end[kC]) {
        // Constant channels: a concat of the activation and constant data (model-notes).
        requireNoPad(x);
        o = emitConstChannels(c, x, begin[kC] + end[kC]);
    }
    const int64_t lim = NetworkLimits::kMaxKernel;
    o.pad.t = toIntIn(x.pad.t + begin[kH], 0, lim, "padding");
    o.pad.b = toIntIn(x.pad.b + end[kH], 0, lim, "padding");
    o.pad.l = toIntIn(x.pad.l + begin[kW], 0, lim, "padding");
    o.pad.r = toIntIn(x.pad.r + end[kW], 0, lim, "padding");
    o.pad.node = c.name;
    o.pad.id = c.index;
    for (size_t a = 0; a < 4; ++a) {
        const int8_t r = (*roles)[a];
        o.dims[a] = x.dims[a] + begin[r] + end[r];
    }
    setFolded(c, std::move(o));
}

// Quantizes an activation with a scale and zero point computed from it at run time: the
// quantization folds into the producer; the scale and zero point are scalars, so their uses
// (rescaling the integer result of ConvInteger) fold as scales.
void Translator::opDynamicQuantize(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    Value o = x;
    o.steps.push_back(foldStep(c, FoldKind::identity, "dynamic_quantize"));
    for (int k = 1; k < c.n.output_size(); ++k) {
        if (!outputUsed(c, k)) continue;
        Value& q = out(c, k);
        q = Value{};
        q.kind = ValueKind::constant;
        q.c = ConstTensor::shapeOnly({});
        q.c.is_float = k == 1;
    }
    setFolded(c, std::move(o));
}

void Translator::opShapeOf(const NodeCtx& c) {
    const Value& x = feature(c, 0);
    const ConstTensor shape = ConstTensor::shapeOnly(x.dims);
    std::vector<ConstTensor> outs;
    if (!evalConstNode(c.n, opset_, {&shape}, outs) || outs.empty()) invalid("cannot evaluate");
    Value& o = out(c, 0);
    o = Value{};
    o.kind = ValueKind::constant;
    o.c = std::move(outs[0]);
}

} // namespace lf::onnx_import
