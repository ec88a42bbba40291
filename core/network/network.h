// Network: an immutable, canonical DAG of layers (docs/models/README.md).
//
// Built from a NetworkSpec (what a reader produced: layers naming their inputs, possibly
// with batch-norm/activation/flatten layers still in place) by buildNetwork(), which
// resolves names, folds what canonicalization folds, sorts topologically (refusing
// cycles), and infers every shape. Layer ids are topological indices, so iterating ids
// in increasing order visits producers before consumers. Copies are cheap (shared data).
#pragma once

#include "network/layer.h"
#include "util/result.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lf {

// Limits that keep hostile files from exhausting memory or time.
struct NetworkLimits {
    static constexpr int64_t kMaxLayers = int64_t(1)
                                          << 20;   // 1 048 576: 10^6 layers and their inputs
    static constexpr int64_t kMaxExtent = 1 << 20; // height / width
    static constexpr int64_t kMaxChannels = 1 << 24;
    static constexpr int64_t kMaxKernel = 1 << 12;
    static constexpr int64_t kMaxStride = 1 << 12;
    static constexpr int64_t kMaxElements = int64_t(1) << 40; // per tensor
    static constexpr int64_t kMaxInputsPerLayer = 4096;
};

// Where the dimensions of a layer or an input were written (0 = unknown): a figure that
// does not fit is reported at the dimension that causes it.
struct DimPos {
    SourcePos channels, height, width; // inputs; `channels` also out_channels / out_features
    SourcePos kernel, inputs;
};

// One layer as read from a file, before canonicalization.
struct LayerSpec {
    Layer layer; // .inputs unused here; see input_names
    std::vector<std::string> input_names;
    std::vector<SourcePos> input_pos; // where each input name was written
    // When set, the layer is folded into its (single) producer at build time.
    std::optional<FoldKind> fold;
    std::string fold_op;         // e.g. "batchnorm", "relu"
    std::optional<Shape> expect; // `expect:` block, checked after inference
    SourcePos expect_pos;
    DimPos dim_pos;
};

struct InputSpec {
    std::string name;
    Shape shape;
    SourcePos pos;
    DimPos dim_pos;
};

struct NetworkSpec {
    std::string file; // for error messages
    std::string name;
    std::string description;
    SourcePos pos;
    std::vector<InputSpec> inputs;
    std::vector<LayerSpec> layers;
};

class Network {
  public:
    Network();

    const std::string& name() const;
    const std::string& description() const;
    // All layers including inputs, in topological order (id = index).
    const std::vector<Layer>& layers() const;
    const Layer& layer(LayerId id) const;
    int32_t size() const;
    // kNoLayer when absent.
    LayerId find(std::string_view name) const;
    const std::vector<LayerId>& successors(LayerId id) const;
    const std::vector<LayerId>& predecessors(LayerId id) const { return layer(id).inputs; }
    // Ids of input layers / of the layers that compute (not input, concat or opaque).
    const std::vector<LayerId>& inputIds() const;
    const std::vector<LayerId>& computeIds() const;
    // Shape of the k-th input tensor of a layer.
    Shape inputShape(LayerId id, size_t k = 0) const;

    // SHA-256 of the canonical network text (layers and inputs, not name/description).
    const std::string& canonicalHash() const;

    // The spec that rebuilds this network (canonical: folded ops kept as `folded`).
    NetworkSpec toSpec() const;

    bool empty() const { return size() == 0; }
    friend bool operator==(const Network& a, const Network& b);

  private:
    friend Result<Network> buildNetwork(const NetworkSpec& spec);
    struct Data;
    std::shared_ptr<const Data> d_;
};

// Resolves, canonicalizes, sorts and shape-checks a spec. Errors carry spec.file and
// the position of the offending layer.
Result<Network> buildNetwork(const NetworkSpec& spec);

} // namespace lf
