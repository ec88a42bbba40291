#include "io/onnx/onnx_translator.h"

#include "io/onnx/onnx_const_eval.h"
#include "network/shape_inference.h"

#include <algorithm>
#include <cctype>
#include <queue>

namespace lf::onnx_import {

Translator::Translator(const onnx::ModelProto& model, int opset, std::string file,
                       const OnnxImportOptions& options, OnnxImportReport* report)
    : model_(model), graph_(model.graph()), opset_(opset), file_(std::move(file)),
      options_(options), report_(report) {}

Result<NetworkSpec> Translator::run() {
    try {
        indexGraph();
        sortNodes();
        markLive();
        addInputs();
        for (int idx : order_)
            if (live_[size_t(idx)]) translateNode(idx);
        finishOutputs();
    } catch (const ImportFailure& f) {
        return Error(file_, {}, f.message);
    }
    finishReport();
    if (!unsupported_.empty() && !options_.allow_opaque)
        return Error(file_, {}, unsupportedSummary());
    spec_.file = file_;
    return spec_;
}

std::string Translator::unsupportedSummary() const {
    std::string msg = std::to_string(unsupported_.size()) + " node" +
                      (unsupported_.size() == 1 ? "" : "s") +
                      " cannot be mapped to layers (load them as opaque pass-through layers to "
                      "import anyway):";
    const size_t shown = std::min<size_t>(unsupported_.size(), 50);
    for (size_t k = 0; k < shown; ++k) {
        const auto& u = unsupported_[k];
        msg += "\n  " + u.op_type + " (node '" + u.node + "'" +
               (u.inputs.empty() ? std::string() : ", inputs " + u.inputs) + "): " + u.reason;
    }
    if (shown < unsupported_.size())
        msg += "\n  ... and " + std::to_string(unsupported_.size() - shown) + " more";
    return msg;
}

Value& Translator::out(const NodeCtx& c, int k) {
    return values_[c.n.output(k)];
}

bool Translator::outputUsed(const NodeCtx& c, int k) const {
    if (k >= c.n.output_size() || c.n.output(k).empty()) return false;
    return consumers_.count(c.n.output(k)) > 0; // graph outputs count as consumers
}

Value& Translator::feature(const NodeCtx& c, int k) const {
    if (k >= int(c.in.size()) || !c.in[size_t(k)]) invalid("missing input " + std::to_string(k));
    Value& v = *c.in[size_t(k)];
    if (v.kind != ValueKind::feature)
        unsupported("input " + std::to_string(k) + " must be an activation, not a constant");
    return v;
}

Value& Translator::image(const NodeCtx& c, int k) const {
    return standardImage(c, k);
}

const ConstTensor& Translator::constant(const NodeCtx& c, int k, const char* what) const {
    const ConstTensor* t = optionalConstant(c, k, what);
    if (!t) invalid(std::string("missing ") + what);
    return *t;
}

const ConstTensor* Translator::optionalConstant(const NodeCtx& c, int k, const char* what) const {
    if (k >= int(c.in.size()) || !c.in[size_t(k)]) return nullptr;
    const Value& v = *c.in[size_t(k)];
    if (v.kind == ValueKind::feature) unsupported(std::string(what) + " is computed at run time");
    if (v.kind != ValueKind::constant)
        unsupported(std::string(what) + " comes from an unsupported node");
    return &v.c;
}

void Translator::requireNoPad(const Value& v) {
    if (v.pad.any())
        unsupported("its input comes from Pad node '" + v.pad.node +
                    "'; padding is merged only into a following Conv or pooling node");
}

std::string Translator::materialize(const Value& v, bool forFc) {
    std::string cur = v.carrier;
    std::string key = cur;
    for (const FoldStep& s : v.steps) {
        const FoldKind kind = s.kind == FoldKind::flatten && !forFc ? FoldKind::identity : s.kind;
        key += '|' + std::to_string(s.id) + ':' + std::to_string(int(kind));
        auto it = emitted_.find(key);
        if (it != emitted_.end()) {
            cur = it->second;
            continue;
        }
        LayerSpec ls;
        ls.layer.name = uniqueName(s.node);
        ls.layer.type = LayerType::opaque;
        ls.fold = kind;
        ls.fold_op = s.op;
        ls.input_names = {cur};
        root_[ls.layer.name] = root_.at(cur);
        emitted_.emplace(key, ls.layer.name);
        cur = ls.layer.name;
        spec_.layers.push_back(std::move(ls));
    }
    return cur;
}

Value& Translator::emitLayer(const NodeCtx& c, Layer layer, const std::vector<const Value*>& inputs,
                             bool forFc, int outIndex) {
    std::vector<Shape> shapes;
    LayerSpec ls;
    std::string taint;
    // Every operand in order, repeats included: Concat(x, x) has twice the channels.
    for (const Value* v : inputs) {
        ls.input_names.push_back(materialize(*v, forFc));
        shapes.push_back(v->ours);
        commitInput(*v);
        if (taint.empty()) taint = v->taint;
    }
    const std::string err = inferShape(layer, shapes);
    if (!err.empty()) invalid(err);
    layer.name = uniqueName(outIndex == 0 ? c.name : c.name + "_" + std::to_string(outIndex));
    layer.source_name = c.n.name();
    root_[layer.name] = layer.name;
    const int64_t batch = inputs.empty() ? 1 : extentOf(*inputs[0], kN);
    Value& o = out(c, outIndex);
    o = Value{};
    o.kind = ValueKind::feature;
    o.ours = layer.out;
    o.dims = layer.type == LayerType::fc
                 ? std::vector<int64_t>{batch, layer.out.c}
                 : std::vector<int64_t>{batch, layer.out.c, layer.out.h, layer.out.w};
    o.carrier = layer.name;
    o.taint = taint;
    ls.layer = std::move(layer);
    spec_.layers.push_back(std::move(ls));
    return o;
}

void Translator::commitInput(const Value& v) {
    auto it = inputIndex_.find(root_.at(v.carrier));
    if (it != inputIndex_.end()) inputCommitted_[size_t(it->second)] = 1;
}

std::string Translator::taintOf(const NodeCtx& c) const {
    for (const Value* v : c.in)
        if (v && v->kind == ValueKind::feature && !v->taint.empty()) return v->taint;
    return {};
}

std::optional<std::vector<int64_t>> Translator::declaredDims(const std::string& tensor) const {
    auto it = declared_.find(tensor);
    if (it == declared_.end()) return std::nullopt;
    for (int64_t d : it->second)
        if (d <= 0) return std::nullopt;
    if (!elementCount(it->second)) return std::nullopt;
    return it->second;
}

void Translator::makeOpaque(const NodeCtx& c, const std::string& reason) {
    std::string op = c.n.domain().empty() || c.n.domain() == "ai.onnx"
                         ? c.n.op_type()
                         : c.n.domain() + "." + c.n.op_type();
    op = readableName(op);
    unsupported_.push_back({op, c.name, reason, inputShapesText(c)});
    // One opaque layer per used output, each reading every activation input: keep it small.
    constexpr int kMaxOpaqueFanout = 1024;
    int features = 0, used = 0;
    for (const Value* v : c.in)
        features += v && v->kind == ValueKind::feature;
    for (int k = 0; k < c.n.output_size(); ++k)
        used += outputUsed(c, k);
    if (features > kMaxOpaqueFanout || used > kMaxOpaqueFanout)
        throw ImportFailure{"node '" + c.name + "' (" + op + ") has too many inputs or outputs"};
    std::vector<std::string> inputs;
    const Value* first = nullptr;
    for (Value* v : c.in) {
        if (!v || v->kind != ValueKind::feature) continue;
        if (!first) first = v;
        Value plain = *v;
        plain.pad = {};
        commitInput(plain);
        std::string nm = materialize(plain, false);
        if (std::find(inputs.begin(), inputs.end(), nm) == inputs.end()) inputs.push_back(nm);
    }
    for (int k = 0; k < c.n.output_size(); ++k) {
        if (!outputUsed(c, k)) continue;
        Value& o = out(c, k);
        o = Value{};
        auto dims = declaredDims(c.n.output(k));
        // Without a declared shape the pass-through shape is a guess: later errors name this.
        const std::string taint = dims ? first ? first->taint : std::string() : c.name;
        if (!first) { // only constants in: a constant we cannot compute
            if (dims) {
                o.kind = ValueKind::constant;
                o.c = ConstTensor::shapeOnly(*dims);
            }
            continue;
        }
        if (!dims) dims = first->dims;
        Shape s = first->ours;
        if (auto view = standardView(*dims))
            s = *view;
        else if (!dims->empty()) {
            // Other ranks: channels from dim 1, the rest as one spatial row.
            s = Shape{dims->size() > 1 ? (*dims)[1] : (*dims)[0], 1, 1};
            int64_t rest = 1;
            for (size_t a = 2; a < dims->size(); ++a)
                rest *= (*dims)[a];
            s.w = rest;
        }
        LayerSpec ls;
        ls.layer.name = uniqueName(k == 0 ? c.name : c.name + "_out" + std::to_string(k));
        ls.layer.type = LayerType::opaque;
        ls.layer.op_type = op;
        ls.layer.out = s;
        ls.input_names = inputs;
        root_[ls.layer.name] = ls.layer.name;
        o.kind = ValueKind::feature;
        o.dims = *dims;
        o.ours = s;
        o.nchw = standardView(*dims) == std::optional<Shape>(s);
        o.inOrder = o.nchw;
        o.carrier = ls.layer.name;
        o.taint = taint;
        spec_.layers.push_back(std::move(ls));
    }
}

void Translator::translateNode(int idx) {
    const onnx::NodeProto& n = graph_.node(idx);
    NodeCtx c{n, idx, nodeNames_[size_t(idx)], {}};
    bool anyFeature = false;
    for (const auto& in : n.input()) {
        if (in.empty()) {
            c.in.push_back(nullptr);
            continue;
        }
        Value* v = &values_[in];
        anyFeature = anyFeature || v->kind == ValueKind::feature;
        c.in.push_back(v);
    }
    const std::string label = "node '" + c.name + "' (" + readableName(n.op_type()) + ")";
    const size_t layersBefore = spec_.layers.size();
    try {
        if (!n.domain().empty() && n.domain() != "ai.onnx")
            unsupported("operators of domain '" + readableName(n.domain()) + "' are not supported");
        if (!anyFeature) {
            translateConstNode(c);
            recordOutcome(c, OnnxNodeFate::constant);
            return;
        }
        const auto& table = handlers();
        auto it = table.find(n.op_type());
        if (it == table.end()) unsupported("no equivalent layer or fold in the network IR");
        (this->*(it->second))(c);
        checkDeclaredShapes(c);
    } catch (const NodeUnsupported& e) {
        makeOpaque(c, e.what());
        recordOutcome(c, OnnxNodeFate::opaque, e.what());
        return;
    } catch (const NodeInvalid& e) {
        const std::string cause = taintOf(c);
        if (cause.empty()) {
            std::string msg = label + ", inputs " + inputShapesText(c) + ": " + e.what();
            if (!unsupported_.empty()) msg += "\n" + unsupportedSummary();
            throw ImportFailure{msg};
        }
        // The input's shape is a guess made for an unsupported node: that node is the
        // cause. Without opaque layers the import fails listing the unsupported nodes;
        // with them, this error names the node whose output shape is unknown.
        if (options_.allow_opaque)
            throw ImportFailure{label +
                                " cannot be checked: its input comes from the opaque "
                                "node '" +
                                cause + "', whose output shape the model does not declare (" +
                                e.what() + ")"};
        spec_.layers.resize(layersBefore);
        for (int k = 0; k < n.output_size(); ++k) {
            if (!outputUsed(c, k)) continue;
            for (Value* v : c.in)
                if (v && v->kind == ValueKind::feature) {
                    out(c, k) = *v;
                    break;
                }
        }
        return;
    }
    const bool madeLayer =
        std::any_of(spec_.layers.begin() + std::ptrdiff_t(layersBefore), spec_.layers.end(),
                    [](const LayerSpec& ls) { return !ls.fold; });
    if (madeLayer) {
        recordOutcome(c, OnnxNodeFate::layer);
        return;
    }
    const std::string& op = n.op_type();
    const bool layout = op == "Reshape" || op == "Flatten" || op == "Transpose" ||
                        op == "Squeeze" || op == "Unsqueeze";
    const Value& o = out(c, 0);
    if (o.kind != ValueKind::feature)
        recordOutcome(c, OnnxNodeFate::constant);
    else if (op == "Pad")
        recordOutcome(c, OnnxNodeFate::padding);
    else
        recordOutcome(c, layout ? OnnxNodeFate::layout : OnnxNodeFate::folded,
                      o.steps.empty() ? std::string() : o.steps.back().op);
}

void Translator::checkDeclaredShapes(const NodeCtx& c) {
    if (!options_.input_shape.empty()) return; // declarations describe another input shape
    for (int k = 0; k < c.n.output_size(); ++k) {
        auto d = declared_.find(c.n.output(k));
        auto v = values_.find(c.n.output(k));
        if (d == declared_.end() || v == values_.end() || v->second.kind != ValueKind::feature)
            continue;
        const auto& want = d->second;
        const auto& got = v->second.dims;
        bool same = want.size() == got.size();
        for (size_t a = 0; same && a < want.size(); ++a)
            same = want[a] < 0 || want[a] == got[a];
        if (!same && warnings_.size() < 50)
            warnings_.push_back("node '" + c.name + "': the model declares " +
                                readableName(c.n.output(k)) + " as " + dimsText(want) +
                                ", the operator gives " + dimsText(got));
    }
}

void Translator::translateConstNode(const NodeCtx& c) {
    std::vector<const ConstTensor*> ins;
    std::vector<ConstTensor> dimsOnly; // inputs without values once the work budget is spent
    dimsOnly.reserve(c.in.size());
    for (Value* v : c.in) {
        if (v && v->kind != ValueKind::constant)
            unsupported("an input comes from an unsupported node");
        if (v && constWork_ > kMaxConstWork) {
            dimsOnly.push_back(ConstTensor::shapeOnly(v->c.dims));
            dimsOnly.back().is_float = v->c.is_float;
            ins.push_back(&dimsOnly.back());
        } else {
            ins.push_back(v ? &v->c : nullptr);
        }
    }
    std::vector<ConstTensor> outs;
    if (!evalConstNode(c.n, opset_, ins, outs)) unsupported("cannot be evaluated at import time");
    for (int k = 0; k < c.n.output_size() && k < int(outs.size()); ++k) {
        if (c.n.output(k).empty()) continue;
        constWork_ += int64_t(outs[size_t(k)].size());
        Value& o = out(c, k);
        o = Value{};
        o.kind = ValueKind::constant;
        o.c = std::move(outs[size_t(k)]);
    }
}

void Translator::finishOutputs() {
    for (const auto& o : graph_.output()) {
        auto it = values_.find(o.name());
        if (it == values_.end() || it->second.kind != ValueKind::feature) continue;
        Value& v = it->second;
        if (v.pad.any()) {
            unsupported_.push_back({"Pad", v.pad.node,
                                    "its output is never consumed by a Conv or pooling node",
                                    dimsText(v.dims)});
            if (v.pad.id >= 0) {
                outcomes_[size_t(v.pad.id)].fate = OnnxNodeFate::opaque;
                outcomes_[size_t(v.pad.id)].detail = unsupported_.back().reason;
            }
            v.pad = {};
        }
        commitInput(v);
        materialize(v, false);
    }
    spec_.name = readableName(graph_.name());
    std::string producer = readableName(model_.producer_name());
    if (!model_.producer_version().empty())
        producer += " " + readableName(model_.producer_version());
    spec_.description =
        "Imported from ONNX (opset " + std::to_string(opset_) +
        (producer.empty() || producer == " " ? std::string() : ", producer " + producer) + ")";
}

const std::map<std::string, Translator::Handler, std::less<>>& Translator::handlers() {
    static const std::map<std::string, Handler, std::less<>> table = [] {
        std::map<std::string, Handler, std::less<>> t;
        t["Conv"] = &Translator::opConv;
        t["ConvTranspose"] = &Translator::opConvTranspose;
        t["Gemm"] = &Translator::opFullyConnected;
        t["MatMul"] = &Translator::opFullyConnected;
        t["MaxPool"] = &Translator::opPool;
        t["AveragePool"] = &Translator::opPool;
        t["GlobalAveragePool"] = &Translator::opGlobalPool;
        t["GlobalMaxPool"] = &Translator::opGlobalPool;
        t["ReduceMean"] = &Translator::opReduce;
        t["ReduceMax"] = &Translator::opReduce;
        t["Concat"] = &Translator::opConcat;
        t["Resize"] = &Translator::opResize;
        t["Upsample"] = &Translator::opResize;
        t["Pad"] = &Translator::opPad;
        t["Shape"] = &Translator::opShapeOf;
        t["Size"] = &Translator::opShapeOf;
        t["Slice"] = &Translator::opSlice;
        t["Split"] = &Translator::opSplit;
        t["DepthToSpace"] = &Translator::opDepthSpace;
        t["SpaceToDepth"] = &Translator::opDepthSpace;
        t["ConvInteger"] = &Translator::opConv;
        t["MatMulInteger"] = &Translator::opFullyConnected;
        t["DynamicQuantizeLinear"] = &Translator::opDynamicQuantize;
        for (const char* op :
             {"Add", "Sub", "Mul", "Div", "Sum", "Mean", "Max", "Min", "Pow", "Equal", "Greater",
              "Less", "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor"})
            t[op] = &Translator::opElementwise;
        for (const char* op : {"Flatten", "Reshape", "Squeeze", "Unsqueeze", "Transpose"})
            t[op] = &Translator::opLayout;
        for (const char* op : {"Relu",
                               "Clip",
                               "Sigmoid",
                               "HardSigmoid",
                               "HardSwish",
                               "LeakyRelu",
                               "PRelu",
                               "Elu",
                               "Selu",
                               "Celu",
                               "Tanh",
                               "Softplus",
                               "Softsign",
                               "Mish",
                               "Erf",
                               "Exp",
                               "Log",
                               "Neg",
                               "Abs",
                               "Sqrt",
                               "Reciprocal",
                               "Sign",
                               "Floor",
                               "Ceil",
                               "Round",
                               "Identity",
                               "Dropout",
                               "Cast",
                               "CastLike",
                               "BatchNormalization",
                               "InstanceNormalization",
                               "Not",
                               "Softmax",
                               "LogSoftmax",
                               "LRN",
                               "QuantizeLinear",
                               "DequantizeLinear"})
            t[op] = &Translator::opUnaryFold;
        return t;
    }();
    return table;
}

} // namespace lf::onnx_import
