// ONNX operators that pick or move channels of an activation without computing: Slice and
// Split on the channel axis (ShuffleNet / GhostNet channel splits, output heads),
// DepthToSpace / SpaceToDepth (pixel shuffle), and constant channels (Concat with a constant
// tensor, Pad of the channel axis).
#include "io/onnx/onnx_shape_ops.h"
#include "io/onnx/onnx_translator.h"

#include <algorithm>

namespace lf::onnx_import {

Value& Translator::emitSlice(const NodeCtx& c, int out, const Value& x, int64_t begin,
                             int64_t count, int64_t step) {
    const auto roles = *rolesOf(x);
    Layer l;
    l.type = LayerType::reorg;
    l.op_type = std::string(kReorgSlice);
    l.slice_begin = begin;
    l.slice_step = step;
    l.out_channels = count;
    Value& o = emitLayer(c, std::move(l), {&x}, false, out);
    setRoles(o, roles);
    return o;
}

Value& Translator::emitConstChannels(const NodeCtx& c, const Value& x, int64_t channels) {
    const auto roles = rolesOf(x);
    if (!roles) unsupported("constant channels need an activation with a channel axis");
    Layer l;
    l.type = LayerType::concat;
    l.const_channels = channels;
    Value& o = emitLayer(c, std::move(l), {&x});
    setRoles(o, *roles);
    return o;
}

void Translator::opSlice(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    std::vector<int64_t> starts, ends, axes, steps;
    if (opset_ < 10) {
        starts = attrInts(c.n, "starts");
        ends = attrInts(c.n, "ends");
        axes = attrInts(c.n, "axes");
    } else {
        starts = constant(c, 1, "the starts").intValues("the starts");
        ends = constant(c, 2, "the ends").intValues("the ends");
        if (const ConstTensor* a = optionalConstant(c, 3, "the axes"))
            axes = a->intValues("the axes");
        if (const ConstTensor* s = optionalConstant(c, 4, "the steps"))
            steps = s->intValues("the steps");
    }
    const auto roles = rolesOf(x);
    if (!roles)
        unsupported("slicing needs an activation with a channel axis, got dims " +
                    dimsText(x.dims) + layoutHint(x));
    SliceAxis ch{0, 0, extentOf(x, kC), 1};
    bool channel = false;
    for (const SliceAxis& r : sliceAxes(x.dims, starts, ends, axes, steps)) {
        const int64_t d = x.dims[size_t(r.axis)];
        if (r.count == d && (r.step == 1 || r.count == 1)) continue; // the whole axis
        if (r.count == 0) invalid("the slice of axis " + std::to_string(r.axis) + " is empty");
        if ((*roles)[size_t(r.axis)] != kC)
            unsupported(std::string("slicing the ") +
                        ((*roles)[size_t(r.axis)] == kN ? "batch" : "height or width") +
                        " axis (a crop) is not supported");
        ch = r;
        channel = true;
    }
    if (!channel) { // selects everything: nothing to do
        Value o = x;
        o.steps.push_back(foldStep(c, FoldKind::identity, "slice"));
        setFolded(c, std::move(o));
        return;
    }
    emitSlice(c, 0, x, ch.begin, ch.count, ch.step);
}

void Translator::opSplit(const NodeCtx& c) {
    Value& x = feature(c, 0);
    requireNoPad(x);
    const auto roles = rolesOf(x);
    if (!roles)
        unsupported("splitting needs an activation with a channel axis, got dims " +
                    dimsText(x.dims) + layoutHint(x));
    const int64_t axis =
        normalizeAxis(attrInt(c.n, "axis", 0), int64_t(x.dims.size()), "Split axis");
    if ((*roles)[size_t(axis)] != kC)
        unsupported("only a split of the channel axis is a set of layers; got axis " +
                    std::to_string(axis));
    const int64_t d = x.dims[size_t(axis)];
    std::vector<int64_t> sizes;
    if (opset_ < 13)
        sizes = attrInts(c.n, "split");
    else if (const ConstTensor* s = optionalConstant(c, 1, "the split sizes"))
        sizes = s->intValues("the split sizes");
    const int outs = c.n.output_size();
    if (sizes.empty()) { // equal parts (opset 18: the last may be smaller)
        const int64_t parts = opset_ >= 18 ? attrInt(c.n, "num_outputs", outs) : outs;
        if (parts < 1 || parts != outs) invalid("Split has " + std::to_string(outs) + " outputs");
        const int64_t each = opset_ >= 18 ? (d + parts - 1) / parts : d / parts;
        if (opset_ < 18 && d % parts != 0)
            invalid("cannot split " + std::to_string(d) + " channels into " +
                    std::to_string(parts) + " equal parts");
        for (int64_t k = 0; k < parts; ++k)
            sizes.push_back(std::min(each, d - k * each));
    }
    if (int(sizes.size()) != outs)
        invalid("Split has " + std::to_string(sizes.size()) + " sizes for " + std::to_string(outs) +
                " outputs");
    int64_t begin = 0;
    for (int k = 0; k < outs; ++k) {
        if (sizes[size_t(k)] < 0) invalid("a split size is negative");
        if (sizes[size_t(k)] > d - begin) invalid("the split sizes exceed the axis"); // no overflow
        if (outputUsed(c, k)) {
            if (sizes[size_t(k)] == 0) invalid("an output of the split is empty");
            emitSlice(c, k, x, begin, sizes[size_t(k)], 1);
        }
        begin += sizes[size_t(k)];
    }
    if (begin != d) invalid("the split sizes do not add up to the axis");
}

void Translator::opDepthSpace(const NodeCtx& c) {
    Value& x = image(c, 0);
    const int64_t b = attrInt(c.n, "blocksize", 0);
    if (b < 1 || b > NetworkLimits::kMaxKernel) invalid("blocksize must be positive");
    Layer l;
    l.type = LayerType::reorg;
    l.op_type =
        std::string(c.n.op_type() == "DepthToSpace" ? kReorgDepthToSpace : kReorgSpaceToDepth);
    l.block = int(b);
    emitLayer(c, std::move(l), {&x});
}

} // namespace lf::onnx_import
