#include "io/onnx/onnx_shape_ops.h"

#include "util/checked.h"

#include <algorithm>

namespace lf::onnx_import {

std::vector<int64_t> broadcastDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const size_t r = std::max(a.size(), b.size());
    std::vector<int64_t> out(r);
    for (size_t k = 0; k < r; ++k) {
        const int64_t x = k < r - a.size() ? 1 : a[k - (r - a.size())];
        const int64_t y = k < r - b.size() ? 1 : b[k - (r - b.size())];
        if (x == y || y == 1)
            out[k] = x;
        else if (x == 1)
            out[k] = y;
        else
            invalid("shapes " + dimsText(a) + " and " + dimsText(b) + " do not broadcast");
    }
    return out;
}

int64_t normalizeAxis(int64_t axis, int64_t rank, const char* what) {
    if (axis < -rank || axis >= rank)
        invalid(std::string(what) + " " + std::to_string(axis) + " is outside a rank-" +
                std::to_string(rank) + " tensor");
    return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> reshapeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& shape,
                                 bool allowzero) {
    if (shape.size() > size_t(kMaxRank)) invalid("Reshape target has too many dims");
    const int64_t total = checkedCount(in, "the Reshape input");
    std::vector<int64_t> out(shape.size());
    int inferred = -1;
    int64_t known = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
        int64_t d = shape[k];
        if (d == 0 && !allowzero) {
            if (k >= in.size())
                invalid("Reshape copies dim " + std::to_string(k) + " that the input lacks");
            d = in[k];
        }
        if (d == -1) {
            if (inferred >= 0) invalid("Reshape target " + dimsText(shape) + " has two -1 dims");
            inferred = int(k);
            continue;
        }
        if (d < 0) invalid("Reshape target " + dimsText(shape) + " has a negative dim");
        out[k] = d;
        auto m = checkedMul(known, d);
        if (!m || *m > kMaxTensorElements)
            invalid("Reshape target " + dimsText(shape) + " is too large");
        known = *m;
    }
    if (inferred >= 0) {
        if (known == 0 || total % known != 0)
            invalid("cannot reshape " + dimsText(in) + " to " + dimsText(shape));
        out[size_t(inferred)] = total / known;
    } else if (known != total) {
        invalid("cannot reshape " + dimsText(in) + " (" + std::to_string(total) + " elements) to " +
                dimsText(shape));
    }
    return out;
}

std::vector<int64_t> flattenDims(const std::vector<int64_t>& in, int64_t axis) {
    const int64_t r = int64_t(in.size());
    if (axis < -r || axis > r) invalid("Flatten axis " + std::to_string(axis) + " is out of range");
    if (axis < 0) axis += r;
    std::vector<int64_t> lo(in.begin(), in.begin() + axis), hi(in.begin() + axis, in.end());
    return {checkedCount(lo, "Flatten"), checkedCount(hi, "Flatten")};
}

std::vector<int64_t> squeezeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& axes) {
    const int64_t r = int64_t(in.size());
    std::vector<char> drop(in.size(), 0);
    if (axes.empty()) {
        for (size_t k = 0; k < in.size(); ++k)
            drop[k] = in[k] == 1;
    } else {
        for (int64_t a : axes) {
            const int64_t k = normalizeAxis(a, r, "Squeeze axis");
            if (in[size_t(k)] != 1)
                invalid("Squeeze axis " + std::to_string(a) + " has extent " +
                        std::to_string(in[size_t(k)]));
            drop[size_t(k)] = 1;
        }
    }
    std::vector<int64_t> out;
    for (size_t k = 0; k < in.size(); ++k)
        if (!drop[k]) out.push_back(in[k]);
    return out;
}

std::vector<int64_t> unsqueezeDims(const std::vector<int64_t>& in,
                                   const std::vector<int64_t>& axes) {
    const int64_t r = int64_t(in.size() + axes.size());
    if (r > kMaxRank) invalid("Unsqueeze gives a rank above " + std::to_string(kMaxRank));
    std::vector<char> inserted(size_t(r), 0);
    for (int64_t a : axes) {
        const int64_t k = normalizeAxis(a, r, "Unsqueeze axis");
        if (inserted[size_t(k)]) invalid("Unsqueeze names axis " + std::to_string(a) + " twice");
        inserted[size_t(k)] = 1;
    }
    std::vector<int64_t> out;
    size_t src = 0;
    for (int64_t k = 0; k < r; ++k)
        out.push_back(inserted[size_t(k)] ? 1 : in[src++]);
    return out;
}

std::vector<int64_t> transposePerm(size_t rank, const std::vector<int64_t>& perm) {
    std::vector<int64_t> p = perm;
    if (p.empty())
        for (size_t k = 0; k < rank; ++k)
            p.push_back(int64_t(rank - 1 - k));
    if (p.size() != rank)
        invalid("Transpose perm " + dimsText(perm) + " does not match rank " +
                std::to_string(rank));
    std::vector<char> seen(rank, 0);
    for (int64_t& a : p) {
        a = normalizeAxis(a, int64_t(rank), "Transpose perm entry");
        if (seen[size_t(a)]) invalid("Transpose perm " + dimsText(perm) + " repeats an axis");
        seen[size_t(a)] = 1;
    }
    return p;
}

std::vector<int64_t> permuteDims(const std::vector<int64_t>& in, const std::vector<int64_t>& perm) {
    std::vector<int64_t> out;
    for (int64_t a : perm)
        out.push_back(in[size_t(a)]);
    return out;
}

std::vector<int64_t> axesOperand(const onnx::NodeProto& n, int opset, int inputSinceOpset,
                                 const ConstTensor* input) {
    if (opset < inputSinceOpset) return attrInts(n, "axes");
    if (!input) return {};
    if (input->size() > size_t(kMaxRank) && input->has_values) invalid("too many axes");
    return input->intValues("the axes operand");
}

std::vector<SliceAxis> sliceAxes(const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& starts,
                                 const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                                 std::vector<int64_t> steps) {
    if (axes.empty())
        for (size_t k = 0; k < starts.size(); ++k)
            axes.push_back(int64_t(k));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (starts.size() != ends.size() || axes.size() != starts.size() ||
        steps.size() != starts.size())
        invalid("Slice starts, ends, axes and steps differ in length");
    std::vector<SliceAxis> out;
    for (size_t k = 0; k < axes.size(); ++k) {
        SliceAxis r;
        r.axis = normalizeAxis(axes[k], int64_t(dims.size()), "Slice axis");
        const int64_t d = dims[size_t(r.axis)];
        r.step = steps[k];
        if (r.step == 0) invalid("Slice step is 0");
        if (r.step == INT64_MIN) invalid("Slice step is out of range");
        auto clampIndex = [&](int64_t v, int64_t lo, int64_t hi) {
            if (v < 0) v = v < -d ? -1 : v + d; // -d-1 and below clamp to before the start
            return std::clamp(v, lo, hi);
        };
        const bool up = r.step > 0;
        r.begin = up ? clampIndex(starts[k], 0, d) : clampIndex(starts[k], -1, d - 1);
        const int64_t e = up ? clampIndex(ends[k], 0, d) : clampIndex(ends[k], -1, d - 1);
        r.count = up ? (e > r.begin ? (e - r.begin - 1) / r.step + 1 : 0)
                     : (r.begin > e ? (r.begin - e - 1) / (-r.step) + 1 : 0);
        out.push_back(r);
    }
    return out;
}

std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims) {
    std::vector<int64_t> s(dims.size(), 1);
    for (size_t k = dims.size(); k-- > 1;)
        s[k - 1] = s[k] * dims[k];
    return s;
}

} // namespace lf::onnx_import
