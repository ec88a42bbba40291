// Constant evaluation of the operators that select or rearrange elements: Slice, Gather,
// Concat, Transpose, Range, Where, Expand.
#include "io/onnx/onnx_const_ops.h"

#include "io/onnx/onnx_shape_ops.h"

#include <algorithm>
#include <cmath>

namespace lf::onnx_import {

const ConstTensor& need(const std::vector<const ConstTensor*>& ins, size_t k, const char* what) {
    if (k >= ins.size() || !ins[k]) invalid(std::string("missing ") + what + " input");
    return *ins[k];
}

BroadcastIndex::BroadcastIndex(const std::vector<int64_t>& in, const std::vector<int64_t>& out) {
    strides.assign(out.size(), 0);
    const auto s = stridesOf(in);
    const size_t off = out.size() - in.size();
    for (size_t k = 0; k < in.size(); ++k)
        strides[off + k] = in[k] == 1 ? 0 : s[k];
}

void forEachBroadcast(const std::vector<int64_t>& out, const std::vector<BroadcastIndex>& ins,
                      const std::function<void(int64_t, const std::vector<int64_t>&)>& f) {
    const int64_t count = checkedCount(out, "the result");
    std::vector<int64_t> pos(out.size(), 0), idx(ins.size(), 0);
    for (int64_t k = 0; k < count; ++k) {
        f(k, idx);
        for (size_t a = out.size(); a-- > 0;) {
            ++pos[a];
            for (size_t i = 0; i < ins.size(); ++i)
                idx[i] += ins[i].strides[a];
            if (pos[a] < out[a]) break;
            for (size_t i = 0; i < ins.size(); ++i)
                idx[i] -= ins[i].strides[a] * out[a];
            pos[a] = 0;
        }
    }
}

ConstTensor gatherValues(const ConstTensor& in, std::vector<int64_t> out,
                         const std::function<int64_t(const std::vector<int64_t>&)>& source) {
    const int64_t count = checkedCount(out, "the result");
    ConstTensor t;
    t.dims = out;
    t.is_float = in.is_float;
    if (!in.has_values || count > kMaxConstValues) return t;
    t.has_values = true;
    std::vector<int64_t> pos(out.size(), 0);
    for (int64_t k = 0; k < count; ++k) {
        const int64_t s = source(pos);
        if (s < 0 || size_t(s) >= in.size()) invalid("index out of range");
        if (in.is_float)
            t.floats.push_back(in.floats[size_t(s)]);
        else
            t.ints.push_back(in.ints[size_t(s)]);
        for (size_t a = out.size(); a-- > 0;) {
            if (++pos[a] < out[a]) break;
            pos[a] = 0;
        }
    }
    return t;
}

ConstTensor evalSlice(const onnx::NodeProto& n, int opset,
                      const std::vector<const ConstTensor*>& ins) {
    const ConstTensor& x = need(ins, 0, "data");
    const int64_t r = int64_t(x.dims.size());
    std::vector<int64_t> starts, ends, axes, steps;
    if (opset < 10) {
        starts = attrInts(n, "starts");
        ends = attrInts(n, "ends");
        axes = attrInts(n, "axes");
    } else {
        starts = need(ins, 1, "starts").intValues("Slice starts");
        ends = need(ins, 2, "ends").intValues("Slice ends");
        if (ins.size() > 3 && ins[3]) axes = ins[3]->intValues("Slice axes");
        if (ins.size() > 4 && ins[4]) steps = ins[4]->intValues("Slice steps");
    }
    std::vector<int64_t> begin(size_t(r), 0), step(size_t(r), 1), out = x.dims;
    for (const SliceAxis& a : sliceAxes(x.dims, starts, ends, axes, steps)) {
        begin[size_t(a.axis)] = a.begin;
        step[size_t(a.axis)] = a.step;
        out[size_t(a.axis)] = a.count;
    }
    const auto st = stridesOf(x.dims);
    return gatherValues(x, out, [&](const std::vector<int64_t>& pos) {
        int64_t s = 0;
        for (size_t a = 0; a < pos.size(); ++a)
            s += (begin[a] + pos[a] * step[a]) * st[a];
        return s;
    });
}

ConstTensor evalGather(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& ins) {
    const ConstTensor& x = need(ins, 0, "data");
    const ConstTensor& idx = need(ins, 1, "indices");
    if (x.dims.empty()) invalid("Gather of a scalar");
    const int64_t axis =
        normalizeAxis(attrInt(n, "axis", 0), int64_t(x.dims.size()), "Gather axis");
    std::vector<int64_t> out(x.dims.begin(), x.dims.begin() + axis);
    out.insert(out.end(), idx.dims.begin(), idx.dims.end());
    out.insert(out.end(), x.dims.begin() + axis + 1, x.dims.end());
    if (out.size() > size_t(kMaxRank)) invalid("Gather result has too many dims");
    if (!idx.has_values) {
        ConstTensor t = ConstTensor::shapeOnly(out);
        t.is_float = x.is_float;
        return t;
    }
    const auto indices = idx.intValues("Gather indices");
    const int64_t d = x.dims[size_t(axis)];
    const auto st = stridesOf(x.dims);
    const size_t ir = idx.dims.size();
    const auto ist = stridesOf(idx.dims);
    return gatherValues(x, out, [&](const std::vector<int64_t>& pos) {
        int64_t s = 0;
        for (size_t a = 0; a < size_t(axis); ++a)
            s += pos[a] * st[a];
        int64_t flat = 0;
        for (size_t a = 0; a < ir; ++a)
            flat += pos[size_t(axis) + a] * ist[a];
        int64_t i = indices[size_t(flat)];
        if (i < -d || i >= d) invalid("Gather index " + std::to_string(i) + " is out of range");
        if (i < 0) i += d;
        s += i * st[size_t(axis)];
        for (size_t a = size_t(axis) + 1; a < x.dims.size(); ++a)
            s += pos[a + ir - 1] * st[a];
        return s;
    });
}

ConstTensor evalConcat(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& ins) {
    if (ins.empty() || !ins[0]) invalid("Concat has no inputs");
    const size_t r = ins[0]->dims.size();
    if (r == 0) invalid("Concat of scalars");
    const int64_t axis = normalizeAxis(attrInt(n, "axis", 0), int64_t(r), "Concat axis");
    std::vector<int64_t> out = ins[0]->dims;
    out[size_t(axis)] = 0;
    bool values = true, isFloat = false;
    for (const ConstTensor* t : ins) {
        if (!t || t->dims.size() != r) invalid("Concat inputs differ in rank");
        for (size_t a = 0; a < r; ++a)
            if (a != size_t(axis) && t->dims[a] != ins[0]->dims[a])
                invalid("Concat inputs " + dimsText(ins[0]->dims) + " and " + dimsText(t->dims) +
                        " differ");
        out[size_t(axis)] += t->dims[size_t(axis)];
        values = values && t->has_values;
        isFloat = isFloat || t->is_float;
    }
    const int64_t count = checkedCount(out, "the Concat result");
    ConstTensor res = ConstTensor::shapeOnly(out);
    res.is_float = isFloat;
    if (!values || count > kMaxConstValues) return res;
    res.has_values = true;
    int64_t outer = 1;
    for (size_t a = 0; a < size_t(axis); ++a)
        outer *= out[a];
    for (int64_t o = 0; o < outer; ++o)
        for (const ConstTensor* t : ins) {
            const int64_t block =
                checkedCount(std::vector<int64_t>(t->dims.begin() + axis, t->dims.end()), "Concat");
            for (int64_t k = 0; k < block; ++k) {
                const size_t s = size_t(o * block + k);
                if (isFloat)
                    res.floats.push_back(t->asDouble(s));
                else
                    res.ints.push_back(t->ints[s]);
            }
        }
    return res;
}

ConstTensor evalRange(const std::vector<const ConstTensor*>& ins) {
    const ConstTensor& s = need(ins, 0, "start");
    const ConstTensor& l = need(ins, 1, "limit");
    const ConstTensor& d = need(ins, 2, "delta");
    const auto sv = s.doubleValues("Range start"), lv = l.doubleValues("Range limit"),
               dv = d.doubleValues("Range delta");
    if (sv.size() != 1 || lv.size() != 1 || dv.size() != 1)
        invalid("Range operands must be scalars");
    if (dv[0] == 0) invalid("Range delta is 0");
    auto n = toInt64(std::max(std::ceil((lv[0] - sv[0]) / dv[0]), 0.0));
    if (!n || *n > kMaxTensorElements) invalid("Range has too many elements");
    const bool isFloat = s.is_float || l.is_float || d.is_float;
    ConstTensor t = ConstTensor::shapeOnly({*n});
    t.is_float = isFloat;
    if (*n > kMaxConstValues) return t;
    t.has_values = true;
    for (int64_t k = 0; k < *n; ++k) {
        if (isFloat)
            t.floats.push_back(sv[0] + double(k) * dv[0]);
        else {
            int64_t v;
            if (__builtin_mul_overflow(k, d.ints[0], &v) ||
                __builtin_add_overflow(v, s.ints[0], &v))
                invalid("integer overflow in Range");
            t.ints.push_back(v);
        }
    }
    return t;
}

ConstTensor evalWhere(const std::vector<const ConstTensor*>& ins) {
    const ConstTensor& c = need(ins, 0, "condition");
    const ConstTensor& x = need(ins, 1, "X");
    const ConstTensor& y = need(ins, 2, "Y");
    const auto out = broadcastDims(broadcastDims(c.dims, x.dims), y.dims);
    const int64_t count = checkedCount(out, "the Where result");
    ConstTensor t = ConstTensor::shapeOnly(out);
    t.is_float = x.is_float || y.is_float;
    if (!c.has_values || !x.has_values || !y.has_values || count > kMaxConstValues) return t;
    t.has_values = true;
    forEachBroadcast(
        out,
        {BroadcastIndex(c.dims, out), BroadcastIndex(x.dims, out), BroadcastIndex(y.dims, out)},
        [&](int64_t, const std::vector<int64_t>& i) {
            const bool pick = c.asDouble(size_t(i[0])) != 0;
            const ConstTensor& src = pick ? x : y;
            const size_t k = size_t(pick ? i[1] : i[2]);
            if (t.is_float)
                t.floats.push_back(src.asDouble(k));
            else
                t.ints.push_back(src.ints[k]);
        });
    return t;
}

ConstTensor expandTo(const ConstTensor& x, const std::vector<int64_t>& out) {
    const int64_t count = checkedCount(out, "the result");
    ConstTensor t = ConstTensor::shapeOnly(out);
    t.is_float = x.is_float;
    if (!x.has_values || count > kMaxConstValues) return t;
    t.has_values = true;
    forEachBroadcast(out, {BroadcastIndex(x.dims, out)},
                     [&](int64_t, const std::vector<int64_t>& i) {
                         if (t.is_float)
                             t.floats.push_back(x.floats[size_t(i[0])]);
                         else
                             t.ints.push_back(x.ints[size_t(i[0])]);
                     });
    return t;
}

} // namespace lf::onnx_import
