// Network IR: layer kinds and the layer record (docs/models/README.md).
#pragma once

#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lf {

using LayerId = int32_t;
inline constexpr LayerId kNoLayer = -1;

// A tensor shape, batch implicit: channels x height x width.
struct Shape {
    int64_t c = 0, h = 0, w = 0;
    int64_t elements() const { return c * h * w; }
    friend bool operator==(const Shape&, const Shape&) = default;
};

// Layer kinds of the canonical IR. `opaque` is a pass-through the importer could not map
// (never fusable, no cost); `deconv` is a transposed convolution; `reorg` moves data without
// computing (a channel slice, depth-to-space, space-to-depth; see Layer::op_type).
enum class LayerType : uint8_t {
    input,
    conv,
    deconv,
    fc,
    pool,
    global_pool,
    add,
    mul,
    concat,
    resize,
    opaque,
    reorg,
};

// Kinds accepted on load that canonicalization folds into their producer (docs/models/README.md).
enum class FoldKind : uint8_t {
    batchnorm,
    bias,
    scale,
    activation, // relu, relu6, clip, hardswish, sigmoid, silu, leaky_relu, ...
    dropout,
    identity,
    flatten, // flatten / reshape / squeeze before an fc
    softmax,
};

enum class PoolMode : uint8_t { max, avg };
enum class ResizeMode : uint8_t { nearest, bilinear };

std::string_view toString(LayerType t);
std::optional<LayerType> layerTypeFromString(std::string_view s);
std::string_view toString(PoolMode m);
std::string_view toString(ResizeMode m);

struct Layer {
    std::string name;
    LayerType type = LayerType::conv;
    std::vector<LayerId> inputs; // producers, each once (ids are topological indices)
    // The input tensors in the order the layer reads them, set only when a producer appears
    // more than once (concat [x, x], x * x); see operandIds().
    std::vector<LayerId> operands;

    // conv / deconv / pool / fc parameters
    int64_t out_channels = 0; // conv/deconv filters, fc out_features; 0 = same as input
    int kernel_h = 1, kernel_w = 1;
    int stride_h = 1, stride_w = 1;
    int pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;
    int dilation_h = 1, dilation_w = 1;
    int output_pad_h = 0, output_pad_w = 0; // deconv only
    int64_t groups = 1;
    PoolMode pool_mode = PoolMode::max;
    bool ceil_mode = false;
    int scale_h = 1, scale_w = 1; // resize
    ResizeMode resize_mode = ResizeMode::nearest;

    std::string activation;          // folded activation, as written ("relu", ...)
    std::vector<std::string> folded; // ops folded into this layer by canonicalization
    std::string op_type;             // opaque: the original operator name; reorg: kReorgSlice, ...
    // The layer's node name in the ONNX file it was imported from (empty otherwise); the
    // ONNX export writes it back, so tools that match node names see the original ones.
    std::string source_name;

    // concat: channels of constant data (zeros that pad the channels, ...) no layer produces.
    int64_t const_channels = 0;
    // reorg "slice": out_channels channels begin, begin + step, ... of the input.
    int64_t slice_begin = 0, slice_step = 1;
    // reorg "depth_to_space" / "space_to_depth": the block size.
    int block = 1;

    // Filled by shape inference.
    Shape out;

    // Where the layer was defined (0 = unknown).
    SourcePos pos;

    // What the layer reads, in order, repeats included (shape inference, writing).
    const std::vector<LayerId>& operandIds() const { return operands.empty() ? inputs : operands; }

    friend bool operator==(const Layer&, const Layer&) = default;
};

// Layers that carry weights.
inline bool hasWeights(LayerType t) {
    return t == LayerType::conv || t == LayerType::deconv || t == LayerType::fc;
}

// Layers that compute (everything the models cost); input/concat/opaque/reorg do not.
inline bool isCompute(LayerType t) {
    return t != LayerType::input && t != LayerType::concat && t != LayerType::opaque &&
           t != LayerType::reorg;
}

// The operations of a reorg layer (Layer::op_type).
inline constexpr std::string_view kReorgSlice = "slice";
inline constexpr std::string_view kReorgDepthToSpace = "depth_to_space";
inline constexpr std::string_view kReorgSpaceToDepth = "space_to_depth";

} // namespace lf
