#include "io/onnx/onnx_tensor.h"

#include "util/checked.h"

#include <cmath>
#include <cstring>

namespace lf::onnx_import {

namespace {

using DT = onnx::TensorProto;

// Bytes per element of the types we can read values of; 0 for the others.
size_t elementBytes(int type) {
    switch (type) {
    case DT::FLOAT:
    case DT::INT32:
    case DT::UINT32:
        return 4;
    case DT::INT64:
    case DT::UINT64:
    case DT::DOUBLE:
        return 8;
    case DT::UINT8:
    case DT::INT8:
    case DT::BOOL:
        return 1;
    case DT::UINT16:
    case DT::INT16:
    case DT::FLOAT16:
    case DT::BFLOAT16:
        return 2;
    default:
        return 0;
    }
}

bool isFloatType(int type) {
    return type == DT::FLOAT || type == DT::DOUBLE || type == DT::FLOAT16 || type == DT::BFLOAT16;
}

double halfToDouble(uint16_t h) {
    const int sign = (h >> 15) & 1;
    const int exp = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    double v;
    if (exp == 0)
        v = std::ldexp(double(mant), -24);
    else if (exp == 31)
        v = mant ? NAN : INFINITY;
    else
        v = std::ldexp(double(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

double bf16ToDouble(uint16_t b) {
    uint32_t bits = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

template <class T> T readLE(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

// One raw element as double or int64.
void pushRaw(ConstTensor& t, int type, const char* p) {
    switch (type) {
    case DT::FLOAT:
        t.floats.push_back(readLE<float>(p));
        break;
    case DT::DOUBLE:
        t.floats.push_back(readLE<double>(p));
        break;
    case DT::FLOAT16:
        t.floats.push_back(halfToDouble(readLE<uint16_t>(p)));
        break;
    case DT::BFLOAT16:
        t.floats.push_back(bf16ToDouble(readLE<uint16_t>(p)));
        break;
    case DT::INT32:
        t.ints.push_back(readLE<int32_t>(p));
        break;
    case DT::UINT32:
        t.ints.push_back(readLE<uint32_t>(p));
        break;
    case DT::INT64:
        t.ints.push_back(readLE<int64_t>(p));
        break;
    case DT::UINT64: {
        const uint64_t u = readLE<uint64_t>(p);
        t.ints.push_back(u > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(u));
        break;
    }
    case DT::UINT8:
        t.ints.push_back(readLE<uint8_t>(p));
        break;
    case DT::INT8:
        t.ints.push_back(readLE<int8_t>(p));
        break;
    case DT::BOOL:
        t.ints.push_back(readLE<uint8_t>(p) ? 1 : 0);
        break;
    case DT::UINT16:
        t.ints.push_back(readLE<uint16_t>(p));
        break;
    case DT::INT16:
        t.ints.push_back(readLE<int16_t>(p));
        break;
    default:
        break;
    }
}

// The typed field a tensor of `type` stores its values in, and its size.
int typedFieldSize(const onnx::TensorProto& t, int type) {
    switch (type) {
    case DT::FLOAT:
        return t.float_data_size();
    case DT::DOUBLE:
        return t.double_data_size();
    case DT::INT64:
        return t.int64_data_size();
    case DT::UINT32:
    case DT::UINT64:
        return t.uint64_data_size();
    case DT::STRING:
        return t.string_data_size();
    default:
        return t.int32_data_size();
    }
}

void pushTyped(ConstTensor& out, const onnx::TensorProto& t, int type, int k) {
    switch (type) {
    case DT::FLOAT:
        out.floats.push_back(t.float_data(k));
        break;
    case DT::DOUBLE:
        out.floats.push_back(t.double_data(k));
        break;
    case DT::FLOAT16:
        out.floats.push_back(halfToDouble(uint16_t(t.int32_data(k))));
        break;
    case DT::BFLOAT16:
        out.floats.push_back(bf16ToDouble(uint16_t(t.int32_data(k))));
        break;
    case DT::INT64:
        out.ints.push_back(t.int64_data(k));
        break;
    case DT::UINT32:
    case DT::UINT64: {
        const uint64_t u = t.uint64_data(k);
        out.ints.push_back(u > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(u));
        break;
    }
    case DT::BOOL:
        out.ints.push_back(t.int32_data(k) ? 1 : 0);
        break;
    default:
        out.ints.push_back(t.int32_data(k));
        break;
    }
}

} // namespace

std::optional<int64_t> toInt64(double v) {
    if (!std::isfinite(v) || v < -9.2e18 || v > 9.2e18) return std::nullopt;
    return int64_t(v);
}

int64_t ConstTensor::asInt(size_t k) const {
    if (!is_float) return ints[k];
    const double v = floats[k];
    auto i = toInt64(v);
    if (!i || double(*i) != v) invalid("value " + std::to_string(v) + " is not an integer");
    return *i;
}

std::vector<int64_t> ConstTensor::intValues(const char* what) const {
    if (!has_values) unsupported(std::string(what) + " is not a constant known at import time");
    std::vector<int64_t> v;
    v.reserve(size());
    for (size_t k = 0; k < size(); ++k)
        v.push_back(asInt(k));
    return v;
}

std::vector<double> ConstTensor::doubleValues(const char* what) const {
    if (!has_values) unsupported(std::string(what) + " is not a constant known at import time");
    std::vector<double> v;
    v.reserve(size());
    for (size_t k = 0; k < size(); ++k)
        v.push_back(asDouble(k));
    return v;
}

ConstTensor ConstTensor::ofInts(std::vector<int64_t> dims, std::vector<int64_t> values) {
    ConstTensor t;
    t.dims = std::move(dims);
    t.has_values = true;
    t.ints = std::move(values);
    return t;
}

ConstTensor ConstTensor::ofFloats(std::vector<int64_t> dims, std::vector<double> values) {
    ConstTensor t;
    t.dims = std::move(dims);
    t.has_values = true;
    t.is_float = true;
    t.floats = std::move(values);
    return t;
}

ConstTensor ConstTensor::shapeOnly(std::vector<int64_t> dims) {
    ConstTensor t;
    t.dims = std::move(dims);
    return t;
}

std::optional<int64_t> elementCount(const std::vector<int64_t>& dims) {
    if (dims.size() > size_t(kMaxRank)) return std::nullopt;
    int64_t n = 1;
    for (int64_t d : dims) {
        if (d < 0) return std::nullopt;
        auto m = checkedMul(n, d);
        if (!m || *m > kMaxTensorElements) return std::nullopt;
        n = *m;
    }
    return n;
}

int64_t checkedCount(const std::vector<int64_t>& dims, const std::string& what) {
    if (dims.size() > size_t(kMaxRank))
        invalid(what + " has rank " + std::to_string(dims.size()) + " (at most " +
                std::to_string(kMaxRank) + " is supported)");
    auto n = elementCount(dims);
    if (!n)
        invalid(what + " has dims " + dimsText(dims) + ", which are negative or absurdly large");
    return *n;
}

ConstTensor decodeTensor(const onnx::TensorProto& t, const std::string& what) {
    if (t.dims_size() > kMaxRank)
        invalid(what + " has rank " + std::to_string(t.dims_size()) + " (at most " +
                std::to_string(kMaxRank) + " is supported)");
    ConstTensor out;
    out.dims.assign(t.dims().begin(), t.dims().end());
    const int64_t count = checkedCount(out.dims, what);
    const int type = t.data_type();
    out.is_float = isFloatType(type);

    if (t.data_location() == onnx::TensorProto::EXTERNAL) return out; // weights elsewhere
    const size_t esize = elementBytes(type);
    if (!t.raw_data().empty()) {
        if (esize == 0) return out; // strings / complex: shape only
        const auto need = checkedMul(count, int64_t(esize));
        if (!need || uint64_t(*need) != t.raw_data().size())
            invalid(what + " stores " + std::to_string(t.raw_data().size()) +
                    " bytes but its dims " + dimsText(out.dims) + " need " +
                    (need ? std::to_string(*need) : "more"));
        if (count > kMaxDecodedValues) return out;
        (out.is_float ? out.floats.reserve(size_t(count)) : out.ints.reserve(size_t(count)));
        const char* p = t.raw_data().data();
        for (int64_t k = 0; k < count; ++k)
            pushRaw(out, type, p + k * int64_t(esize));
        out.has_values = true;
        return out;
    }
    const int stored = typedFieldSize(t, type);
    if (stored == 0) return out; // no data in the file: the shape is all we have
    if (int64_t(stored) != count)
        invalid(what + " stores " + std::to_string(stored) + " values but its dims " +
                dimsText(out.dims) + " need " + std::to_string(count));
    if (esize == 0 || count > kMaxDecodedValues) return out;
    for (int k = 0; k < stored; ++k)
        pushTyped(out, t, type, k);
    out.has_values = true;
    return out;
}

ConstTensor constantNodeValue(const onnx::NodeProto& n) {
    if (const auto* a = findAttr(n, "value")) {
        if (a->type() != onnx::AttributeProto::TENSOR &&
            a->type() != onnx::AttributeProto::UNDEFINED)
            invalid("attribute 'value' must be a tensor");
        return decodeTensor(a->t(), "the constant");
    }
    if (const auto* a = findAttr(n, "sparse_value")) {
        std::vector<int64_t> dims(a->sparse_tensor().dims().begin(),
                                  a->sparse_tensor().dims().end());
        checkedCount(dims, "the sparse constant");
        return ConstTensor::shapeOnly(std::move(dims));
    }
    if (hasAttr(n, "value_float"))
        return ConstTensor::ofFloats({}, {attrFloat(n, "value_float", 0)});
    if (hasAttr(n, "value_int")) return ConstTensor::ofInts({}, {attrInt(n, "value_int", 0)});
    if (hasAttr(n, "value_floats")) {
        auto f = attrFloats(n, "value_floats");
        return ConstTensor::ofFloats({int64_t(f.size())}, {f.begin(), f.end()});
    }
    if (hasAttr(n, "value_ints")) {
        auto v = attrInts(n, "value_ints");
        const int64_t size = int64_t(v.size());
        return ConstTensor::ofInts({size}, std::move(v));
    }
    if (const auto* a = findAttr(n, "value_strings")) {
        if (a->strings_size() > kMaxAttrList) invalid("attribute 'value_strings' is too long");
        return ConstTensor::shapeOnly({int64_t(a->strings_size())});
    }
    if (hasAttr(n, "value_string")) return ConstTensor::shapeOnly({});
    invalid("Constant node has no value attribute");
}

} // namespace lf::onnx_import
