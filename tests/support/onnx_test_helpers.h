// Helpers for the ONNX import tests: import a built model, look layers up, count types, and
// check every import against ONNX's own shape inference (libonnx 1.12, the library
// python3-onnx wraps): the dims of every activation tensor and the MACs of every Conv,
// ConvTranspose, Gemm and MatMul.
#pragma once

#include "onnx_model_builder.h"

#include "io/onnx_import.h"
#include "network/dims.h"
#include "network/network.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace lf::test {

inline std::string dimsString(const std::vector<int64_t>& d) {
    std::string s = "[";
    for (size_t k = 0; k < d.size(); ++k)
        s += (k ? "," : "") + std::to_string(d[k]);
    return s + "]";
}

// Dims ONNX shape inference gives every tensor (-1 where unknown), with the graph inputs
// set to `inputShape` ({C,H,W} or {N,C,H,W}) when given.
inline std::map<std::string, std::vector<int64_t>>
onnxInferredDims(onnx::ModelProto m, const std::vector<int64_t>& inputShape = {}) {
    std::map<std::string, bool> init;
    for (const auto& i : m.graph().initializer())
        init[i.name()] = true;
    for (auto& in : *m.mutable_graph()->mutable_input()) {
        if (init.count(in.name())) continue;
        auto* shape = in.mutable_type()->mutable_tensor_type()->mutable_shape();
        std::vector<int64_t> want = inputShape;
        // As the importer: C,H,W fills an NHWC input [N,?,?,C] in its own layout.
        if (want.size() == 3 && shape->dim_size() == 4 && !shape->dim(1).has_dim_value() &&
            shape->dim(3).has_dim_value() && shape->dim(3).dim_value() == want[0])
            want = {want[1], want[2], want[0]};
        if (want.size() + 1 == size_t(shape->dim_size())) want.insert(want.begin(), 1);
        for (int k = 0; k < shape->dim_size(); ++k) {
            auto* d = shape->mutable_dim(k);
            if (k < int(want.size()))
                d->set_dim_value(want[size_t(k)]);
            else if (k == 0 && !d->has_dim_value())
                d->set_dim_value(1);
        }
    }
    m.mutable_graph()->clear_value_info();
    onnx::ShapeInferenceOptions opts{false, 0, true};
    std::unordered_map<std::string, onnx::TensorShapeProto> generated; // data propagation
    try {
        onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(), opts, &generated);
    } catch (const std::exception&) {
        return {}; // operators of unknown domains: nothing to compare
    }
    std::map<std::string, std::vector<int64_t>> dims;
    auto take = [&](const onnx::ValueInfoProto& vi) {
        if (!vi.type().tensor_type().has_shape()) return;
        std::vector<int64_t> d;
        for (const auto& x : vi.type().tensor_type().shape().dim())
            d.push_back(x.has_dim_value() ? x.dim_value() : -1);
        dims[vi.name()] = d;
    };
    for (const auto& vi : m.graph().input())
        take(vi);
    for (const auto& vi : m.graph().value_info())
        take(vi);
    for (const auto& vi : m.graph().output())
        take(vi);
    return dims;
}

// Throws when an activation's dims differ from ONNX shape inference or a layer's MACs differ
// from the operator's formula on the inferred shapes.
inline void checkAgainstOnnx(const onnx::ModelProto& model, const Network& net,
                             const OnnxImportReport& report,
                             const std::vector<int64_t>& inputShape = {}) {
    for (const auto& o : model.opset_import())
        if ((o.domain().empty() || o.domain() == "ai.onnx") && o.version() > 17)
            return; // libonnx 1.12 knows opsets up to 17 only
    const auto ref = onnxInferredDims(model, inputShape);
    std::map<std::string, std::vector<int64_t>> consts;
    for (const auto& i : model.graph().initializer())
        consts[i.name()] = {i.dims().begin(), i.dims().end()};
    std::map<std::string, const onnx::NodeProto*> byOutput;
    for (const auto& n : model.graph().node())
        for (const auto& o : n.output())
            byOutput[o] = &n;
    // Tensors ONNX 1.12 leaves without a full shape (after operators of unknown domains,
    // Reshape targets its data propagation misses) are not compared; every other one is.
    for (const auto& r : report.nodes) {
        for (const auto& [tensor, dims] : r.outputs) {
            auto it = ref.find(tensor);
            if (it == ref.end() || r.fate == OnnxNodeFate::opaque ||
                std::count(it->second.begin(), it->second.end(), -1))
                continue;
            if (it->second != dims)
                throw std::runtime_error("node '" + r.node + "' (" + r.op_type + "): tensor '" +
                                         tensor + "' is " + dimsString(dims) +
                                         " after import but " + dimsString(it->second) +
                                         " by ONNX shape inference");
        }
        if (r.fate != OnnxNodeFate::layer || r.outputs.empty()) continue;
        const onnx::NodeProto& n = *byOutput.at(r.outputs[0].first);
        const std::string op = n.op_type();
        if (op != "Conv" && op != "ConvTranspose" && op != "Gemm" && op != "MatMul" &&
            op != "ConvInteger" && op != "MatMulInteger")
            continue;
        const auto w = consts.count(n.input(1)) ? consts.at(n.input(1)) : std::vector<int64_t>{};
        if (!ref.count(n.output(0)) || !ref.count(n.input(0))) continue;
        const auto& out = ref.at(n.output(0));
        const auto& in = ref.at(n.input(0));
        if (std::count(out.begin(), out.end(), -1) || std::count(in.begin(), in.end(), -1))
            continue;
        int64_t macs = 0;
        if (op == "Conv" || op == "ConvInteger")
            macs = out[1] * out[2] * out[3] * w[1] * w[2] * w[3];
        else if (op == "ConvTranspose")
            macs = in[1] * in[2] * in[3] * w[1] * w[2] * w[3];
        else if (out.size() == 4) // MatMul over the channels of an NHWC view: a 1x1 conv
            macs = out[1] * out[2] * w[0] * w[1];
        else
            macs = w[0] * w[1];
        const LayerId id = net.find(r.layer);
        if (id == kNoLayer) throw std::runtime_error("no layer " + r.layer);
        const int64_t got = layerMacs(layerDims(net, id));
        if (got != macs)
            throw std::runtime_error("layer '" + r.layer + "' (" + op +
                                     "): " + std::to_string(got) + " MACs, the formula gives " +
                                     std::to_string(macs));
    }
}

inline Network importOk(const OnnxModelBuilder& b, const OnnxImportOptions& o = {},
                        OnnxImportReport* report = nullptr) {
    OnnxImportReport rep;
    auto r = importOnnxBytes(b.bytes(), "test.onnx", o, &rep);
    if (!r) throw std::runtime_error(r.error().toString());
    checkAgainstOnnx(b.model, *r, rep, o.input_shape);
    if (report) *report = rep;
    return *r;
}

inline std::string importError(const OnnxModelBuilder& b, const OnnxImportOptions& o = {},
                               OnnxImportReport* report = nullptr) {
    auto r = importOnnxBytes(b.bytes(), "test.onnx", o, report);
    if (r) throw std::runtime_error("import unexpectedly succeeded");
    return r.error().toString();
}

inline const Layer& L(const Network& n, const char* name) {
    const LayerId id = n.find(name);
    if (id == kNoLayer) throw std::runtime_error(std::string("no layer ") + name);
    return n.layer(id);
}

inline int countType(const Network& n, LayerType t) {
    int k = 0;
    for (const Layer& l : n.layers())
        k += l.type == t;
    return k;
}

inline std::vector<std::string> inputNames(const Network& n, const Layer& l) {
    std::vector<std::string> v;
    for (LayerId p : l.inputs)
        v.push_back(n.layer(p).name);
    return v;
}

using Folded = std::vector<std::string>;

// x [1,C,H,W] -> Conv(name, W [M, C/g, k, k]) with optional attributes already set by caller.
inline onnx::NodeProto& conv(OnnxModelBuilder& b, const std::string& name, const std::string& in,
                             const std::string& out, std::vector<int64_t> w) {
    b.weight(name + ".w", w);
    return b.node("Conv", {in, name + ".w"}, {out}, name);
}

} // namespace lf::test
