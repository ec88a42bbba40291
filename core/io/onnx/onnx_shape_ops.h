// Output dims of ONNX's layout and broadcasting operators, shared by the constant
// evaluator and the translation of activations. Every function checks its inputs against
// the operator's definition and throws NodeInvalid with the reason.
#pragma once

#include "io/onnx/onnx_tensor.h"

#include <cstdint>
#include <vector>

namespace lf::onnx_import {

// Multidirectional (numpy) broadcasting of two shapes.
std::vector<int64_t> broadcastDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b);

// A possibly negative axis in [-rank, rank) made non-negative.
int64_t normalizeAxis(int64_t axis, int64_t rank, const char* what);

std::vector<int64_t> reshapeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& shape,
                                 bool allowzero);
std::vector<int64_t> flattenDims(const std::vector<int64_t>& in, int64_t axis);
// Empty `axes` squeezes every dim of extent 1.
std::vector<int64_t> squeezeDims(const std::vector<int64_t>& in, const std::vector<int64_t>& axes);
std::vector<int64_t> unsqueezeDims(const std::vector<int64_t>& in,
                                   const std::vector<int64_t>& axes);
// Validates `perm` (empty = reversed) and returns it normalized.
std::vector<int64_t> transposePerm(size_t rank, const std::vector<int64_t>& perm);
std::vector<int64_t> permuteDims(const std::vector<int64_t>& in, const std::vector<int64_t>& perm);

// The axes operand of Squeeze/Unsqueeze/Reduce*: an attribute before `inputSinceOpset`,
// input `inputIndex` from then on (a missing input gives an empty list).
std::vector<int64_t> axesOperand(const onnx::NodeProto& n, int opset, int inputSinceOpset,
                                 const ConstTensor* input);

// One axis of an ONNX Slice: the first index taken, how many, and the step.
struct SliceAxis {
    int64_t axis = 0, begin = 0, count = 0, step = 1;
};
// The axes a Slice with these operands selects on `dims` (ONNX clamping rules; empty axes
// mean 0, 1, ...; empty steps mean 1).
std::vector<SliceAxis> sliceAxes(const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& starts,
                                 const std::vector<int64_t>& ends, std::vector<int64_t> axes,
                                 std::vector<int64_t> steps);

// Row-major strides of dims.
std::vector<int64_t> stridesOf(const std::vector<int64_t>& dims);

} // namespace lf::onnx_import
