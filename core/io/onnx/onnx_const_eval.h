// Import-time evaluation of nodes whose inputs are all constants: the shape sub-graphs
// exporters emit (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, scales for Resize, ...)
// and constant preprocessing of weights.
#pragma once

#include "io/onnx/onnx_tensor.h"

#include <vector>

namespace lf::onnx_import {

// Evaluates `n` on constant inputs (nullptr for omitted optional inputs) into `outs`
// (one per node output). Values are computed while they stay small (kMaxConstValues);
// beyond that only dims are kept. Returns false when the operator is not one the
// importer evaluates; throws NodeInvalid for malformed nodes.
bool evalConstNode(const onnx::NodeProto& n, int opset, const std::vector<const ConstTensor*>& ins,
                   std::vector<ConstTensor>& outs);

// Element-wise operators evaluated (and, on activations, folded) by the importer.
bool isElementwiseBinary(const std::string& op);
bool isElementwiseUnary(const std::string& op);

} // namespace lf::onnx_import
