// ONNX import: a `.onnx` model (binary protobuf, opsets 7-18) to a canonical Network
// (docs/models/README.md, docs/file-formats.md).
//
// Convolutions, transposed convolutions, Gemm/MatMul (as fc), pooling, global pooling,
// element-wise Add/Mul/Sum, Concat over channels and integer-scale Resize/Upsample become
// layers. Batch-norm, biases, scales and activations — also activations spelled out as
// element-wise chains with constants, as exporters emit them (hard-swish as
// `x * Clip(x + 3, 0, 6) / 6`, SiLU as `x * Sigmoid(x)`) — are folded into their producer;
// layout-only Flatten/Reshape/Squeeze/Unsqueeze/Transpose are folded away; Pad is merged into
// the padding of the following Conv or pool; shape sub-graphs (Shape, Gather, Slice, Cast,
// Concat, ... feeding Reshape or Resize) are evaluated at import time.
//
// Every failure is an Error naming the file and, where it applies, the node; nothing is
// half-loaded. Hostile files are refused before anything large is allocated.
#pragma once

#include "network/network.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

struct OnnxImportOptions {
    // Shape of the model's image input(s) as {C, H, W} or {N, C, H, W}; needed when the
    // model leaves a dimension dynamic. When given it replaces the shape the model declares.
    std::vector<int64_t> input_shape;
    // Load operators that have no equivalent in the IR as opaque pass-through layers
    // (never fusable) instead of refusing the model.
    bool allow_opaque = false;
};

// An operator the importer cannot map, with the reason.
struct OnnxUnsupportedNode {
    std::string op_type; // "Foo", or "domain.Foo" outside the default domain
    std::string node;    // readable node name
    std::string reason;
    std::string inputs; // its input shapes, e.g. "[1,32,80,80], constant [8]"
};

// What became of one ONNX node.
enum class OnnxNodeFate : uint8_t {
    layer,    // became a layer of the network
    folded,   // folded into a layer: batch-norm, bias, scale, activation, pre-processing
    layout,   // layout only: Reshape/Flatten/Transpose/Squeeze (NHWC views, flattening)
    padding,  // Pad merged into the padding of the next conv / pool
    constant, // evaluated at import time (weights, shape / pad / axes sub-graphs)
    opaque,   // no equivalent: an opaque pass-through layer (or the reason for refusal)
};
std::string_view toString(OnnxNodeFate f);

struct OnnxNodeReport {
    std::string node;    // readable node name
    std::string op_type; // "Conv", or "domain.Op" outside the default domain
    OnnxNodeFate fate = OnnxNodeFate::layer;
    // layer: its name; folded / layout / padding: the layer it folds into (an input's name
    // for pre-processing); empty for constants.
    std::string layer;
    std::string detail; // "batchnorm", "relu6", "channel slice 0..57", the opaque reason, ...
    // ONNX dims of every output that is an activation, as the import computed them (the
    // tests compare them with ONNX shape inference).
    std::vector<std::pair<std::string, std::vector<int64_t>>> outputs;
};

// What an import did besides the network: for the studio's import dialog and
// `layerfuse-cli convert --report`.
struct OnnxImportReport {
    std::vector<OnnxUnsupportedNode> unsupported; // loaded as opaque when allowed
    bool needs_input_shape = false;               // failed for a dynamic input dimension
    // Tensors whose shape the model declares (value_info) differently from the operator's
    // definition; the import follows the definition.
    std::vector<std::string> warnings;
    // Every node that contributes to an output, in graph order.
    std::vector<OnnxNodeReport> nodes;
    // How each graph input was read, e.g. "input 'x' [1,320,320,4] is NHWC: read as
    // 4x320x320 (Transpose 'T')".
    std::vector<std::string> inputs;
};

struct OnnxInputInfo {
    std::string name;
    std::vector<int64_t> dims;          // -1 where the model leaves the dimension dynamic
    std::vector<std::string> dim_names; // symbolic names of the dynamic dims ("" if none)
};

// Model facts readable without importing (the studio pre-fills its input-shape dialog).
struct OnnxModelInfo {
    int64_t ir_version = 0;
    int64_t opset = 0;
    std::string producer;
    std::string graph_name;
    std::vector<OnnxInputInfo> inputs; // graph inputs that are not initializers
    bool has_dynamic_input = false;
};

Result<Network> importOnnx(const std::string& path, const OnnxImportOptions& options = {},
                           OnnxImportReport* report = nullptr);
// `bytes` is the model file's content; `file` names it in error messages.
Result<Network> importOnnxBytes(std::string_view bytes, const std::string& file,
                                const OnnxImportOptions& options = {},
                                OnnxImportReport* report = nullptr);
// The spec before canonicalization (fold layers still in place), for tools and tests.
Result<NetworkSpec> onnxToNetworkSpec(std::string_view bytes, const std::string& file,
                                      const OnnxImportOptions& options = {},
                                      OnnxImportReport* report = nullptr);

Result<OnnxModelInfo> inspectOnnx(const std::string& path);
Result<OnnxModelInfo> inspectOnnxBytes(std::string_view bytes, const std::string& file);

// Parses an input shape written "C,H,W" or "N,C,H,W" (also with 'x' separators).
Result<std::vector<int64_t>> parseOnnxInputShape(std::string_view text);

// True for paths ending in ".onnx" (any case).
bool isOnnxPath(std::string_view path);

} // namespace lf
