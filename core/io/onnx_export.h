// ONNX export: a Network as an ONNX model (opset 14, IR 7) written with Debian's libonnx
// protobuf classes (docs/exports.md "Writing ONNX").
//
// Every layer becomes the operator the importer reads back as that layer (conv -> Conv,
// deconv -> ConvTranspose, fc -> Flatten + Gemm, pool -> MaxPool / AveragePool,
// global_pool -> GlobalAveragePool / GlobalMaxPool, add -> Add / Sum, mul -> Mul, concat ->
// Concat, resize -> Resize, reorg -> Slice / DepthToSpace / SpaceToDepth), named after the layer —
// or after its node in the ONNX file it was imported from — so that importing the file again gives
// a network with the same canonical hash. Folded activations become the ONNX nodes after their
// layer (relu -> Relu, relu6 -> Clip, ...). Weights are initializers with their shapes and no
// values: a workload needs the shapes only, and the file stays small.
#pragma once

#include "network/network.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace lf {

enum class OnnxElementType { float32, int8, int16 };

struct OnnxExportOptions {
    OnnxElementType activation_type = OnnxElementType::float32;
    OnnxElementType weight_type = OnnxElementType::float32;
    // Write only the activation operators Stream parses (Relu, Sigmoid, Tanh, and SiLU as
    // x * Sigmoid(x)); other folded activations are left out with a note.
    bool stream_activations_only = false;
};

// What the export wrote and left out.
struct OnnxExportReport {
    // Every node, in graph order, with the layer it belongs to (a layer's own operator, the
    // Flatten or Reshape that adapts its input or output, its activation).
    struct Node {
        LayerId layer = kNoLayer;
        std::string name, op_type;
    };
    std::vector<Node> nodes;
    std::vector<std::string> notes; // what was left out, one sentence each
};

// The element type of `bits`-wide values: int8 up to 8 bits, int16 up to 16, else float32.
OnnxElementType onnxElementTypeForBits(int bits);

// The ONNX node name of a layer: its node's name in the file it was imported from, else its
// own name.
std::string onnxNodeName(const Layer& l);

// The serialized model. Errors name the layer that has no ONNX form (opaque layers, a mul
// of more than two tensors, a dilated average pool).
Result<std::string> writeOnnxModel(const Network& net, const OnnxExportOptions& options = {},
                                   OnnxExportReport* report = nullptr);
// writeOnnxModel into a file.
Status saveOnnxModel(const std::string& path, const Network& net,
                     const OnnxExportOptions& options = {}, OnnxExportReport* report = nullptr);

} // namespace lf
