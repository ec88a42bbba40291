// Internals of the constant evaluator shared by its translation units.
#pragma once

#include "io/onnx/onnx_tensor.h"

#include <functional>
#include <vector>

namespace lf::onnx_import {

// Input k of a node, or NodeInvalid naming `what`.
const ConstTensor& need(const std::vector<const ConstTensor*>& ins, size_t k, const char* what);

// Strides that map an output index to the index of an input broadcast to it.
struct BroadcastIndex {
    std::vector<int64_t> strides; // per output axis, 0 where broadcast
    BroadcastIndex(const std::vector<int64_t>& in, const std::vector<int64_t>& out);
};

// Calls f(outIndex, inputIndices) for every element of `out` (row-major).
void forEachBroadcast(const std::vector<int64_t>& out, const std::vector<BroadcastIndex>& ins,
                      const std::function<void(int64_t, const std::vector<int64_t>&)>& f);

// A tensor of dims `out` whose element at position pos is element source(pos) of `in`;
// values only while small (kMaxConstValues).
ConstTensor gatherValues(const ConstTensor& in, std::vector<int64_t> out,
                         const std::function<int64_t(const std::vector<int64_t>&)>& source);

ConstTensor evalSlice(const onnx::NodeProto& n, int opset,
                      const std::vector<const ConstTensor*>& ins);
ConstTensor evalGather(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& ins);
std::vector<ConstTensor> evalSplit(const onnx::NodeProto& n, int opset,
                                   const std::vector<const ConstTensor*>& ins);
ConstTensor evalReduce(const onnx::NodeProto& n, int opset,
                       const std::vector<const ConstTensor*>& ins);
ConstTensor evalConcat(const onnx::NodeProto& n, const std::vector<const ConstTensor*>& ins);
ConstTensor evalRange(const std::vector<const ConstTensor*>& ins);
ConstTensor evalWhere(const std::vector<const ConstTensor*>& ins);
ConstTensor expandTo(const ConstTensor& x, const std::vector<int64_t>& out);

} // namespace lf::onnx_import
