// Constant evaluation of Split and of the reductions shape sub-graphs use (ReduceProd of a
// shape to flatten it, ...).
#include "io/onnx/onnx_const_ops.h"
#include "io/onnx/onnx_shape_ops.h"

#include <algorithm>

namespace lf::onnx_import {

std::vector<ConstTensor> evalSplit(const onnx::NodeProto& n, int opset,
                                   const std::vector<const ConstTensor*>& ins) {
    const ConstTensor& x = need(ins, 0, "input");
    if (x.dims.empty()) invalid("Split of a scalar");
    const int64_t axis = normalizeAxis(attrInt(n, "axis", 0), int64_t(x.dims.size()), "Split axis");
    const int64_t d = x.dims[size_t(axis)];
    const int outs = n.output_size();
    std::vector<int64_t> sizes;
    if (opset < 13)
        sizes = attrInts(n, "split");
    else if (ins.size() > 1 && ins[1])
        sizes = ins[1]->intValues("the split sizes");
    if (sizes.empty()) {
        if (outs < 1) invalid("Split has no outputs");
        const int64_t each = opset >= 18 ? (d + outs - 1) / outs : d / outs;
        if (opset < 18 && d % outs != 0) invalid("Split into unequal parts needs sizes");
        for (int64_t k = 0; k < outs; ++k)
            sizes.push_back(std::clamp<int64_t>(d - k * each, 0, each));
    }
    if (int(sizes.size()) != outs) invalid("Split sizes do not match its outputs");
    std::vector<ConstTensor> res;
    const auto st = stridesOf(x.dims);
    int64_t begin = 0;
    for (int64_t size : sizes) {
        if (size < 0 || begin + size > d) invalid("Split sizes exceed the axis");
        std::vector<int64_t> out = x.dims;
        out[size_t(axis)] = size;
        const int64_t b = begin;
        res.push_back(gatherValues(x, out, [&](const std::vector<int64_t>& pos) {
            int64_t s = 0;
            for (size_t a = 0; a < pos.size(); ++a)
                s += (pos[a] + (int64_t(a) == axis ? b : 0)) * st[a];
            return s;
        }));
        begin += size;
    }
    if (begin != d) invalid("Split sizes do not add up to the axis");
    return res;
}

ConstTensor evalReduce(const onnx::NodeProto& n, int opset,
                       const std::vector<const ConstTensor*>& ins) {
    const ConstTensor& x = need(ins, 0, "data");
    const std::string& op = n.op_type();
    const int since = op == "ReduceSum" ? 13 : 18;
    std::vector<int64_t> axes = axesOperand(n, opset, since, ins.size() > 1 ? ins[1] : nullptr);
    const int64_t r = int64_t(x.dims.size());
    std::vector<char> reduced(size_t(r), 0);
    if (axes.empty() && !(opset >= since && attrInt(n, "noop_with_empty_axes", 0)))
        std::fill(reduced.begin(), reduced.end(), 1);
    for (int64_t a : axes)
        reduced[size_t(normalizeAxis(a, r, "Reduce axis"))] = 1;
    const bool keep = attrInt(n, "keepdims", 1) != 0;
    std::vector<int64_t> out, kept;
    for (int64_t a = 0; a < r; ++a) {
        if (!reduced[size_t(a)])
            out.push_back(x.dims[size_t(a)]);
        else if (keep)
            out.push_back(1);
        kept.push_back(reduced[size_t(a)] ? 1 : x.dims[size_t(a)]);
    }
    ConstTensor t = ConstTensor::shapeOnly(out);
    t.is_float = x.is_float || op == "ReduceMean";
    const int64_t count = checkedCount(kept, "the reduction");
    if (!x.has_values || x.size() == 0 || count > kMaxConstValues) return t;
    std::vector<double> acc(size_t(count), op == "ReduceProd" ? 1.0 : 0.0);
    std::vector<char> seen(size_t(count), 0);
    const auto st = stridesOf(kept);
    std::vector<int64_t> pos(size_t(r), 0);
    for (size_t k = 0; k < x.size(); ++k) {
        int64_t o = 0;
        for (int64_t a = 0; a < r; ++a)
            if (!reduced[size_t(a)]) o += pos[size_t(a)] * st[size_t(a)];
        const double v = x.asDouble(k);
        double& s = acc[size_t(o)];
        if (op == "ReduceProd")
            s *= v;
        else if (op == "ReduceMin")
            s = seen[size_t(o)] ? std::min(s, v) : v;
        else if (op == "ReduceMax")
            s = seen[size_t(o)] ? std::max(s, v) : v;
        else
            s += v;
        seen[size_t(o)] = 1;
        for (int64_t a = r; a-- > 0;) {
            if (++pos[size_t(a)] < x.dims[size_t(a)]) break;
            pos[size_t(a)] = 0;
        }
    }
    if (op == "ReduceMean")
        for (double& v : acc)
            v /= double(int64_t(x.size()) / count);
    t.has_values = true;
    for (double v : acc) {
        if (t.is_float)
            t.floats.push_back(v);
        else {
            auto i = toInt64(v);
            if (!i) invalid("integer overflow in " + op);
            t.ints.push_back(*i);
        }
    }
    return t;
}

} // namespace lf::onnx_import
