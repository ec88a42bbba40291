// Internals of the ONNX importer shared by its translation units: limits, the two ways a
// node can fail, and checked access to node attributes.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lf::onnx_import {

// Limits that keep hostile files from exhausting memory or time.
inline constexpr int kMaxRank = 16;
inline constexpr int64_t kMaxConstValues = int64_t(1) << 16; // values we compute with
// Stored constants are decoded only up to this size: shape operands are tiny; weights are
// never needed.
inline constexpr int64_t kMaxDecodedValues = 4096;
// Total constant elements computed per import; beyond it only dims are propagated.
inline constexpr int64_t kMaxConstWork = int64_t(1) << 26;
// Folds waiting on one activation; longer chains are emitted as fold layers early.
inline constexpr size_t kMaxPendingSteps = 32;
inline constexpr size_t kMaxChainOps = 16;
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 40;
inline constexpr int kMaxAttrList = 1024;
inline constexpr int kMaxNodeInputs = 1 << 16;
inline constexpr size_t kMaxNameLength = 200;

// The model is malformed (a wrong attribute, inconsistent dims, ...): the import fails.
struct NodeInvalid : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// The model is valid but the node has no equivalent in the IR: opaque when allowed.
struct NodeUnsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void invalid(const std::string& msg) {
    throw NodeInvalid(msg);
}
[[noreturn]] inline void unsupported(const std::string& msg) {
    throw NodeUnsupported(msg);
}

// Attribute access. A present attribute of the wrong type or with too many values is
// NodeInvalid; an absent one gives the default.
const onnx::AttributeProto* findAttr(const onnx::NodeProto& n, std::string_view name);
int64_t attrInt(const onnx::NodeProto& n, std::string_view name, int64_t def);
float attrFloat(const onnx::NodeProto& n, std::string_view name, float def);
std::string attrString(const onnx::NodeProto& n, std::string_view name, std::string def);
std::vector<int64_t> attrInts(const onnx::NodeProto& n, std::string_view name);
std::vector<float> attrFloats(const onnx::NodeProto& n, std::string_view name);
bool hasAttr(const onnx::NodeProto& n, std::string_view name);

// "[1,3,?,224]" for messages.
std::string dimsText(const std::vector<int64_t>& dims);

// Narrows an attribute value to int, refusing what does not fit [lo, hi].
int toIntIn(int64_t v, int64_t lo, int64_t hi, const char* what);

} // namespace lf::onnx_import
