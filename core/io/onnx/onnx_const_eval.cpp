#include "io/onnx/onnx_const_eval.h"

#include "io/onnx/onnx_const_ops.h"
#include "io/onnx/onnx_shape_ops.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace lf::onnx_import {

namespace {

const std::set<std::string, std::less<>> kBinary = {
    "Add",   "Sub",  "Mul",     "Div",         "Pow",
    "Min",   "Max",  "Mod",     "Sum",         "Mean",
    "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
    "And",   "Or",   "Xor",     "PRelu"};
const std::set<std::string, std::less<>> kUnary = {"Neg",
                                                   "Abs",
                                                   "Floor",
                                                   "Ceil",
                                                   "Round",
                                                   "Sqrt",
                                                   "Reciprocal",
                                                   "Not",
                                                   "Relu",
                                                   "Sigmoid",
                                                   "Exp",
                                                   "Log",
                                                   "Tanh",
                                                   "Erf",
                                                   "HardSigmoid",
                                                   "HardSwish",
                                                   "LeakyRelu",
                                                   "Elu",
                                                   "Selu",
                                                   "Celu",
                                                   "Softplus",
                                                   "Softsign",
                                                   "Clip",
                                                   "Sign",
                                                   "Identity",
                                                   "Dropout",
                                                   "Cast",
                                                   "CastLike",
                                                   "BatchNormalization",
                                                   "Softmax",
                                                   "LogSoftmax",
                                                   "DequantizeLinear",
                                                   "QuantizeLinear"};

ConstTensor reshaped(const ConstTensor& x, std::vector<int64_t> dims) {
    ConstTensor t = x;
    t.dims = std::move(dims);
    return t;
}

int64_t intOp(const std::string& op, int64_t a, int64_t b) {
    int64_t r = 0;
    bool ovf = false;
    if (op == "Add" || op == "Sum")
        ovf = __builtin_add_overflow(a, b, &r);
    else if (op == "Sub")
        ovf = __builtin_sub_overflow(a, b, &r);
    else if (op == "Mul")
        ovf = __builtin_mul_overflow(a, b, &r);
    else if (op == "Div" || op == "Mod") {
        if (b == 0) invalid("integer division by zero");
        if (a == INT64_MIN && b == -1) invalid("integer overflow");
        if (op == "Div")
            r = a / b;
        else {
            r = a % b; // sign of the divisor, as ONNX's Mod with fmod=0
            if (r != 0 && ((r < 0) != (b < 0))) r += b;
        }
    } else if (op == "Min")
        r = std::min(a, b);
    else if (op == "Max")
        r = std::max(a, b);
    else if (op == "Pow") {
        auto v = toInt64(std::pow(double(a), double(b)));
        if (!v) invalid("integer overflow in Pow");
        r = *v;
    } else if (op == "Equal")
        r = a == b;
    else if (op == "Less")
        r = a < b;
    else if (op == "Greater")
        r = a > b;
    else if (op == "LessOrEqual")
        r = a <= b;
    else if (op == "GreaterOrEqual")
        r = a >= b;
    else if (op == "And")
        r = a && b;
    else if (op == "Or")
        r = a || b;
    else if (op == "Xor")
        r = bool(a) != bool(b);
    else if (op == "PRelu") {
        r = a;
        if (a < 0) ovf = __builtin_mul_overflow(a, b, &r);
    }
    if (ovf) invalid("integer overflow in " + op);
    return r;
}

double floatOp(const std::string& op, double a, double b) {
    if (op == "Add" || op == "Sum") return a + b;
    if (op == "Sub") return a - b;
    if (op == "Mul") return a * b;
    if (op == "Div") return a / b;
    if (op == "Mod") return std::fmod(a, b);
    if (op == "Min") return std::min(a, b);
    if (op == "Max") return std::max(a, b);
    if (op == "Pow") return std::pow(a, b);
    if (op == "Equal") return a == b;
    if (op == "Less") return a < b;
    if (op == "Greater") return a > b;
    if (op == "LessOrEqual") return a <= b;
    if (op == "GreaterOrEqual") return a >= b;
    if (op == "PRelu") return a < 0 ? a * b : a;
    return 0;
}

bool isComparison(const std::string& op) {
    return op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
           op == "GreaterOrEqual" || op == "And" || op == "Or" || op == "Xor";
}

ConstTensor binary(const std::string& op, const ConstTensor& a, const ConstTensor& b) {
    const auto out = broadcastDims(a.dims, b.dims);
    const int64_t count = checkedCount(out, "the result");
    const bool isFloat = (a.is_float || b.is_float) && !isComparison(op);
    if (!a.has_values || !b.has_values || count > kMaxConstValues) {
        ConstTensor t = ConstTensor::shapeOnly(out);
        t.is_float = isFloat;
        return t;
    }
    ConstTensor t;
    t.dims = out;
    t.has_values = true;
    t.is_float = isFloat;
    const bool floatMath = a.is_float || b.is_float;
    forEachBroadcast(
        out, {BroadcastIndex(a.dims, out), BroadcastIndex(b.dims, out)},
        [&](int64_t, const std::vector<int64_t>& i) {
            if (floatMath) {
                const double v = floatOp(op, a.asDouble(size_t(i[0])), b.asDouble(size_t(i[1])));
                if (isFloat)
                    t.floats.push_back(v);
                else
                    t.ints.push_back(v != 0);
            } else {
                t.ints.push_back(intOp(op, a.ints[size_t(i[0])], b.ints[size_t(i[1])]));
            }
        });
    return t;
}

ConstTensor unary(const onnx::NodeProto& n, const ConstTensor& x) {
    const std::string& op = n.op_type();
    ConstTensor t = x;
    if (op == "Cast") {
        const int64_t to = attrInt(n, "to", 1);
        const bool toFloat = to == onnx::TensorProto::FLOAT || to == onnx::TensorProto::DOUBLE ||
                             to == onnx::TensorProto::FLOAT16 || to == onnx::TensorProto::BFLOAT16;
        if (!x.has_values || toFloat == x.is_float) {
            t.is_float = toFloat;
            return t;
        }
        ConstTensor c;
        c.dims = x.dims;
        c.has_values = true;
        c.is_float = toFloat;
        for (size_t k = 0; k < x.size(); ++k) {
            if (toFloat)
                c.floats.push_back(double(x.ints[k]));
            else {
                auto v = toInt64(std::trunc(x.floats[k]));
                if (!v) invalid("Cast of a value that does not fit an integer");
                c.ints.push_back(to == onnx::TensorProto::BOOL ? x.floats[k] != 0 : *v);
            }
        }
        return c;
    }
    const bool valueOps = op == "Neg" || op == "Abs" || op == "Floor" || op == "Ceil" ||
                          op == "Round" || op == "Sqrt" || op == "Reciprocal" || op == "Not" ||
                          op == "Relu" || op == "Sign" || op == "Identity" || op == "Dropout";
    if (!valueOps || !x.has_values) {
        if (!valueOps) { // shape-preserving ops we do not compute values of
            t.has_values = false;
            t.ints.clear();
            t.floats.clear();
        }
        return t;
    }
    for (size_t k = 0; k < x.size(); ++k) {
        if (x.is_float) {
            double& v = t.floats[k];
            if (op == "Neg")
                v = -v;
            else if (op == "Abs")
                v = std::fabs(v);
            else if (op == "Floor")
                v = std::floor(v);
            else if (op == "Ceil")
                v = std::ceil(v);
            else if (op == "Round")
                v = std::nearbyint(v);
            else if (op == "Sqrt")
                v = std::sqrt(v);
            else if (op == "Reciprocal")
                v = 1.0 / v;
            else if (op == "Relu")
                v = std::max(v, 0.0);
            else if (op == "Sign")
                v = double((v > 0) - (v < 0));
            else if (op == "Not")
                v = v == 0;
        } else {
            int64_t& v = t.ints[k];
            if ((op == "Neg" || op == "Abs") && v == INT64_MIN)
                invalid("integer overflow in " + op);
            if (op == "Neg")
                v = -v;
            else if (op == "Abs")
                v = v < 0 ? -v : v;
            else if (op == "Relu")
                v = std::max<int64_t>(v, 0);
            else if (op == "Sign")
                v = (v > 0) - (v < 0);
            else if (op == "Not")
                v = v == 0;
            else if (op == "Reciprocal") {
                if (v == 0) invalid("integer division by zero");
                v = 1 / v;
            }
        }
    }
    return t;
}

// Copies values of `in` into a tensor of dims `out`, element k taken from source(k).
std::vector<int64_t> shapeOperand(const ConstTensor& s, const char* what) {
    if (s.dims.size() > 1) invalid(std::string(what) + " must be a 1-D tensor");
    if (s.has_values && s.size() > size_t(kMaxRank))
        invalid(std::string(what) + " has too many dims");
    return s.intValues(what);
}

} // namespace

bool isElementwiseBinary(const std::string& op) {
    return kBinary.count(op) > 0;
}
bool isElementwiseUnary(const std::string& op) {
    return kUnary.count(op) > 0;
}

bool evalConstNode(const onnx::NodeProto& n, int opset, const std::vector<const ConstTensor*>& ins,
                   std::vector<ConstTensor>& outs) {
    const std::string& op = n.op_type();
    outs.clear();
    auto one = [&](ConstTensor t) {
        outs.push_back(std::move(t));
        return true;
    };
    if (op == "Constant") return one(constantNodeValue(n));
    if (kBinary.count(op)) {
        if (ins.empty() || !ins[0]) invalid(op + " has no inputs");
        if ((op != "Sum" && op != "Mean" && op != "Min" && op != "Max") && ins.size() != 2)
            invalid(op + " takes two inputs");
        const std::string step = op == "Mean" ? std::string("Sum") : op;
        ConstTensor acc = *ins[0];
        for (size_t k = 1; k < ins.size(); ++k)
            acc = binary(step, acc, need(ins, k, "operand"));
        if (op == "Mean" && acc.has_values) {
            if (!acc.is_float) invalid("Mean of integers");
            for (double& v : acc.floats)
                v /= double(ins.size());
        }
        return one(std::move(acc));
    }
    if (kUnary.count(op)) {
        ConstTensor t = unary(n, need(ins, 0, "X"));
        outs.push_back(t);
        for (int k = 1; k < n.output_size(); ++k)
            outs.push_back(ConstTensor::shapeOnly(t.dims));
        return true;
    }
    if (op == "Shape") {
        const ConstTensor& x = need(ins, 0, "data");
        const int64_t r = int64_t(x.dims.size());
        int64_t s = std::clamp<int64_t>(attrInt(n, "start", 0), -r, r);
        int64_t e = std::clamp<int64_t>(attrInt(n, "end", r), -r, r);
        if (s < 0) s += r;
        if (e < 0) e += r;
        std::vector<int64_t> v;
        for (int64_t k = s; k < e; ++k)
            v.push_back(x.dims[size_t(k)]);
        const int64_t len = int64_t(v.size());
        return one(ConstTensor::ofInts({len}, std::move(v)));
    }
    if (op == "Size")
        return one(ConstTensor::ofInts({}, {checkedCount(need(ins, 0, "data").dims, "Size")}));
    if (op == "Reshape") {
        const ConstTensor& x = need(ins, 0, "data");
        const auto shape =
            opset < 5 ? attrInts(n, "shape") : shapeOperand(need(ins, 1, "shape"), "Reshape shape");
        return one(reshaped(x, reshapeDims(x.dims, shape, attrInt(n, "allowzero", 0) != 0)));
    }
    if (op == "Flatten") {
        const ConstTensor& x = need(ins, 0, "input");
        return one(reshaped(x, flattenDims(x.dims, attrInt(n, "axis", 1))));
    }
    if (op == "Squeeze" || op == "Unsqueeze") {
        const ConstTensor& x = need(ins, 0, "data");
        const auto axes = axesOperand(n, opset, 13, ins.size() > 1 ? ins[1] : nullptr);
        return one(
            reshaped(x, op == "Squeeze" ? squeezeDims(x.dims, axes) : unsqueezeDims(x.dims, axes)));
    }
    if (op == "Transpose") {
        const ConstTensor& x = need(ins, 0, "data");
        const auto perm = transposePerm(x.dims.size(), attrInts(n, "perm"));
        const auto st = stridesOf(x.dims);
        return one(gatherValues(x, permuteDims(x.dims, perm), [&](const std::vector<int64_t>& pos) {
            int64_t s = 0;
            for (size_t a = 0; a < pos.size(); ++a)
                s += pos[a] * st[size_t(perm[a])];
            return s;
        }));
    }
    if (op == "Split") {
        outs = evalSplit(n, opset, ins);
        return true;
    }
    if (op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMin" || op == "ReduceMax" ||
        op == "ReduceMean")
        return one(evalReduce(n, opset, ins));
    if (op == "Gather") return one(evalGather(n, ins));
    if (op == "Slice") return one(evalSlice(n, opset, ins));
    if (op == "Concat") return one(evalConcat(n, ins));
    if (op == "Range") return one(evalRange(ins));
    if (op == "Where") return one(evalWhere(ins));
    if (op == "Expand") {
        const ConstTensor& x = need(ins, 0, "input");
        const auto shape = shapeOperand(need(ins, 1, "shape"), "Expand shape");
        return one(expandTo(x, broadcastDims(x.dims, shape)));
    }
    if (op == "ConstantOfShape") {
        const auto shape = shapeOperand(need(ins, 0, "input"), "ConstantOfShape shape");
        ConstTensor fill = ConstTensor::ofFloats({}, {0.0});
        if (const auto* a = findAttr(n, "value")) {
            fill = decodeTensor(a->t(), "the fill value");
            if (!fill.has_values || fill.size() != 1)
                invalid("ConstantOfShape value must be one element");
            fill.dims = {};
        }
        checkedCount(shape, "ConstantOfShape");
        return one(expandTo(fill, shape));
    }
    return false;
}

} // namespace lf::onnx_import
