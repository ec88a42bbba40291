// Constant tensors of an ONNX model: initializers, Constant nodes and the results of
// shape sub-graphs evaluated at import time.
#pragma once

#include "io/onnx/onnx_common.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lf::onnx_import {

// A constant's dims and, when small enough to compute with, its values. Large weights keep
// their dims only: import needs shapes, never weights.
struct ConstTensor {
    std::vector<int64_t> dims;
    bool has_values = false;
    bool is_float = false;
    std::vector<int64_t> ints;  // values when !is_float (booleans as 0/1)
    std::vector<double> floats; // values when is_float

    size_t size() const { return is_float ? floats.size() : ints.size(); }
    double asDouble(size_t k) const { return is_float ? floats[k] : double(ints[k]); }
    // The k-th value as an integer (floats must be whole numbers that fit).
    int64_t asInt(size_t k) const;
    // All values as integers; NodeInvalid when absent or not integral.
    std::vector<int64_t> intValues(const char* what) const;
    std::vector<double> doubleValues(const char* what) const;

    static ConstTensor ofInts(std::vector<int64_t> dims, std::vector<int64_t> values);
    static ConstTensor ofFloats(std::vector<int64_t> dims, std::vector<double> values);
    static ConstTensor shapeOnly(std::vector<int64_t> dims);
};

// Element count of fully known dims; nullopt when a dim is negative, the rank exceeds
// kMaxRank or the product exceeds kMaxTensorElements.
std::optional<int64_t> elementCount(const std::vector<int64_t>& dims);
// Same, as NodeInvalid.
int64_t checkedCount(const std::vector<int64_t>& dims, const std::string& what);

// Decodes a TensorProto (dims checked, stored data checked against the dims). Throws
// NodeInvalid with a message naming `what`.
ConstTensor decodeTensor(const onnx::TensorProto& t, const std::string& what);

// The value of a Constant node (any of its value_* attributes).
ConstTensor constantNodeValue(const onnx::NodeProto& n);

// Converts a double to int64_t, refusing NaN and values outside the int64 range.
std::optional<int64_t> toInt64(double v);

} // namespace lf::onnx_import
