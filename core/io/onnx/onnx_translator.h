// Translation of an ONNX graph into a NetworkSpec (docs/models/README.md).
//
// Nodes are visited in topological order. Every tensor becomes a Value: a constant (dims,
// and values while small), or an activation ("feature") described as the output of a layer
// (its carrier) plus element-wise steps not yet applied (folds) and a Pad not yet merged.
// Element-wise ops on one activation and constants only add steps; a layer-making node
// materializes its inputs' steps as fold layers (LayerSpec::fold), which buildNetwork()
// folds into the producer. Two activations with the same origin combined element-wise
// (x * sigmoid(x), x * clip(x + 3, 0, 6)) merge into one named activation step.
#pragma once

#include "io/onnx/onnx_tensor.h"
#include "io/onnx_import.h"
#include "network/network.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace lf::onnx_import {

struct FoldStep {
    int id = 0; // node that made the step; identifies it
    FoldKind kind = FoldKind::activation;
    std::string op;               // shown in the producer's `folded` list
    std::string node;             // readable name of the node; names the fold layer
    std::vector<std::string> ops; // ONNX operators of a merged element-wise chain
    bool merged = false;
    bool absorbed_scale = false; // a merged chain took its trailing "/ 6" already
};

struct PendingPad {
    int64_t t = 0, l = 0, b = 0, r = 0;
    std::string node;
    int id = -1; // index of the Pad node
    bool any() const { return t || l || b || r; }
};

enum class ValueKind { unknown, constant, feature };

// Roles of the axes of an activation: what an ONNX axis holds of the carrier's tensor.
enum Role : int8_t { kN = 0, kC = 1, kH = 2, kW = 3 };
using Roles = std::vector<int8_t>; // one role per ONNX axis

struct Value {
    ValueKind kind = ValueKind::unknown;
    ConstTensor c;             // constant
    std::vector<int64_t> dims; // feature: ONNX dims, batch first
    Shape ours;                // feature: channels x height x width in the IR
    // The view `dims` gives of the carrier's N x C x H x W tensor: standard (N,C,H,W, or
    // N,F with F = C and H = W = 1), permuted (`roles` names each axis: NHWC graphs), or
    // flattened (an fc may read it; `inOrder` when the memory order is still N,C,H,W).
    bool nchw = true;
    Roles roles;         // permuted views only
    bool inOrder = true; // memory order equals the carrier's N,C,H,W order
    // Flattened views made by Reshape from an ordered view: the roles each axis spans
    // (bit per Role) and the roles whose elements a Transpose reordered internally
    // (channel shuffle); empty when unknown.
    std::vector<uint8_t> spans;
    uint8_t shuffled = 0;
    std::string layoutNode;      // node that last permuted or flattened the view
    std::string carrier;         // layer the value starts from
    std::vector<FoldStep> steps; // folds still to apply on top of the carrier
    PendingPad pad;              // a Pad to merge into the consuming conv / pool
    // The shape is a guess: the value derives from an opaque node whose output the model
    // does not declare. Errors downstream name that node, not the one that tripped on it.
    std::string taint;
};

// What a node handler sees.
struct NodeCtx {
    const onnx::NodeProto& n;
    int index;
    const std::string& name; // readable node name
    std::vector<Value*> in;  // nullptr for omitted optional inputs
};

// A fold step made by node c.
inline FoldStep foldStep(const NodeCtx& c, FoldKind kind, std::string op) {
    FoldStep s;
    s.id = c.index;
    s.node = c.name;
    s.kind = kind;
    s.ops = {op};
    s.op = std::move(op);
    return s;
}

// Thrown for errors that end the import (malformed graph or node).
struct ImportFailure {
    std::string message;
};

class Translator {
  public:
    Translator(const onnx::ModelProto& model, int opset, std::string file,
               const OnnxImportOptions& options, OnnxImportReport* report);
    Result<NetworkSpec> run();

  private:
    // Graph set-up (onnx_translator.cpp).
    void indexGraph();
    void sortNodes();
    void markLive();
    void addInputs();
    void translateNode(int idx);
    void translateConstNode(const NodeCtx& c);
    void finishOutputs();
    void checkDeclaredShapes(const NodeCtx& c);
    std::string unsupportedSummary() const;
    std::string taintOf(const NodeCtx& c) const;
    std::string inputShapesText(const NodeCtx& c) const;
    void recordOutcome(const NodeCtx& c, OnnxNodeFate fate, std::string detail = {});
    void finishReport();

    // Names, values, layers.
    std::string uniqueName(const std::string& base);
    Value& out(const NodeCtx& c, int k);
    bool outputUsed(const NodeCtx& c, int k) const;
    Value& feature(const NodeCtx& c, int k) const; // a feature input or NodeUnsupported
    Value& image(const NodeCtx& c, int k) const;   // N x C x H x W, no pending Pad
    const ConstTensor& constant(const NodeCtx& c, int k, const char* what) const;
    const ConstTensor* optionalConstant(const NodeCtx& c, int k, const char* what) const;
    static void requireNoPad(const Value& v);
    std::string materialize(const Value& v, bool forFc);
    // Stores a fold result as output 0, emitting its folds early when the chain grows long.
    void setFolded(const NodeCtx& c, Value o);
    // Output `outIndex` of the node becomes the layer (named "<node>_<k>" for k > 0).
    Value& emitLayer(const NodeCtx& c, Layer layer, const std::vector<const Value*>& inputs,
                     bool forFc = false, int outIndex = 0);
    void makeOpaque(const NodeCtx& c, const std::string& reason);
    std::optional<std::vector<int64_t>> declaredDims(const std::string& tensor) const;
    // A layer fed by a value fixes the layout of the graph input it derives from.
    void commitInput(const Value& v);
    void notePad(const PendingPad& pad, const Value& consumer); // report: where a Pad went

    // Layouts (onnx_layout.cpp).
    std::optional<Roles> rolesOf(const Value& v) const;
    // The roles of a rank-4 activation without a pending Pad (N,C,H,W or a permutation).
    Roles imageRoles(const Value& x) const;
    void setRoles(Value& o, const Roles& r) const; // o.dims from o.ours in that layout
    int64_t extentOf(const Value& v, int8_t role) const;
    Value& standardImage(const NodeCtx& c, int k) const; // image() with a layout hint
    std::string layoutHint(const Value& v) const;
    void setView(Value& o, const Value& x, const std::string& node);
    bool redeclareInput(Value& x, const std::vector<int64_t>& perm, const std::string& node);
    void transposeView(const NodeCtx& c, Value& o, const Value& x,
                       const std::vector<int64_t>& perm);
    void reshapeView(Value& o, const Value& x);

    // Layers (onnx_ops_layers.cpp).
    void opConv(const NodeCtx& c);
    void opConvTranspose(const NodeCtx& c);
    void opFullyConnected(const NodeCtx& c);
    void opPool(const NodeCtx& c);
    void opGlobalPool(const NodeCtx& c);
    void opReduce(const NodeCtx& c);
    void opConcat(const NodeCtx& c);
    void opResize(const NodeCtx& c);
    void opBinaryLayer(const NodeCtx& c, const std::vector<Value*>& features);

    // Layers that pick or move channels (onnx_ops_reorg.cpp).
    void opSlice(const NodeCtx& c);
    void opSplit(const NodeCtx& c);
    void opDepthSpace(const NodeCtx& c);
    Value& emitSlice(const NodeCtx& c, int out, const Value& x, int64_t begin, int64_t count,
                     int64_t step);
    Value& emitConstChannels(const NodeCtx& c, const Value& x, int64_t channels);

    // Folds, layout and padding (onnx_ops_fold.cpp).
    void opUnaryFold(const NodeCtx& c);
    void opElementwise(const NodeCtx& c);
    void opLayout(const NodeCtx& c);
    void opPad(const NodeCtx& c);
    void opShapeOf(const NodeCtx& c);
    void opDynamicQuantize(const NodeCtx& c);
    FoldStep stepFor(const NodeCtx& c) const;

    using Handler = void (Translator::*)(const NodeCtx&);
    static const std::map<std::string, Handler, std::less<>>& handlers();

    const onnx::ModelProto& model_;
    const onnx::GraphProto& graph_;
    int opset_;
    std::string file_;
    OnnxImportOptions options_;
    OnnxImportReport* report_;

    std::vector<std::string> nodeNames_;             // readable, per node
    std::vector<int> order_;                         // topological order of nodes
    std::vector<char> live_;                         // node contributes to an output
    std::unordered_map<std::string, int> producer_;  // tensor -> node index
    std::unordered_map<std::string, int> consumers_; // tensor -> live consumer count
    std::unordered_map<std::string, Value> values_;
    std::unordered_map<std::string, std::vector<int64_t>> declared_; // value_info dims
    std::set<std::string> initializers_;
    std::vector<const onnx::ValueInfoProto*> graphInputs_; // not initializers

    NetworkSpec spec_;
    std::set<std::string> used_;
    std::unordered_map<std::string, int> nextSuffix_;
    std::unordered_map<std::string, std::string> root_;    // layer name -> real layer it folds into
    std::unordered_map<std::string, std::string> emitted_; // fold chain key -> fold layer
    std::vector<OnnxUnsupportedNode> unsupported_;
    std::vector<std::string> warnings_;
    std::vector<OnnxNodeReport> outcomes_; // per node index; op_type empty = not translated
    std::vector<std::string> inputNotes_;  // per graph input: how its layout was read
    std::vector<Roles> inputRoles_;        // per graph input: role -> ONNX axis of the input
    std::vector<char> inputCommitted_;     // per graph input: a layer reads it
    std::unordered_map<std::string, int> inputIndex_; // input layer name -> index
    int64_t constWork_ = 0;                           // constant elements computed so far
};

// Readable, valid-UTF-8 layer name from an ONNX name ("/layer1/layer1.0/conv1/Conv" ->
// "layer1.0/conv1/Conv"); empty when nothing printable is left.
std::string readableName(std::string_view raw);

// (C,H,W) an ONNX shape stands for in the IR: N,C,H,W -> C,H,W and N,F -> F,1,1.
std::optional<Shape> standardView(const std::vector<int64_t>& dims);

} // namespace lf::onnx_import
