#include "io/onnx_export.h"

#include "util/atomic_file.h"

#include "network/dims.h"

#include <onnx/onnx_pb.h>

#include <climits>
#include <map>
#include <set>

namespace lf {

namespace {

constexpr int kOpset = 14; // HardSwish needs 14; the importer reads 7-18
constexpr int kIrVersion = 7;

int protoType(OnnxElementType t) {
    switch (t) {
    case OnnxElementType::int8:
        return onnx::TensorProto::INT8;
    case OnnxElementType::int16:
        return onnx::TensorProto::INT16;
    case OnnxElementType::float32:
        break;
    }
    return onnx::TensorProto::FLOAT;
}

void setTensorType(onnx::ValueInfoProto* vi, const std::string& name, int type,
                   const std::vector<int64_t>& dims) {
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims)
        shape->add_dim()->set_dim_value(d);
}

void addInts(onnx::NodeProto* n, const char* name, const std::vector<int64_t>& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
        a->add_ints(x);
}

void addInt(onnx::NodeProto* n, const char* name, int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}

void addString(onnx::NodeProto* n, const char* name, const std::string& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
}

// Builds the graph: unique tensor and node names, and each layer's output in the rank its
// consumers need (Gemm takes and gives 2-D tensors, every other operator 4-D).
class GraphWriter {
  public:
    GraphWriter(const Network& net, const OnnxExportOptions& o, onnx::GraphProto* g,
                OnnxExportReport* r)
        : net_(net), opt_(o), g_(g), report_(r), act_(protoType(o.activation_type)),
          wt_(protoType(o.weight_type)) {
        for (const Layer& l : net.layers())
            taken_.insert(l.name);
    }

    Status write() {
        for (LayerId id = 0; id < net_.size(); ++id) {
            const Layer& l = net_.layer(id);
            if (l.type == LayerType::input) {
                setTensorType(g_->add_input(), l.name, act_, dims4(l.out));
                out_[id] = l.name;
                flat_[id] = false;
                continue;
            }
            if (Status s = writeLayer(id); !s) return s;
        }
        for (LayerId id = 0; id < net_.size(); ++id) {
            const Layer& l = net_.layer(id);
            if (l.type == LayerType::input || !net_.successors(id).empty()) continue;
            setTensorType(g_->add_output(), out_[id], act_,
                          flat_[id] ? std::vector<int64_t>{1, l.out.c} : dims4(l.out));
        }
        return Ok{};
    }

  private:
    static std::vector<int64_t> dims4(const Shape& s) { return {1, s.c, s.h, s.w}; }

    std::string unique(const std::string& base) {
        std::string n = base;
        for (int k = 2; !taken_.insert(n).second; ++k)
            n = base + "_" + std::to_string(k);
        return n;
    }

    onnx::NodeProto* node(const std::string& op, const std::string& name) {
        onnx::NodeProto* n = g_->add_node();
        n->set_op_type(op);
        n->set_name(uniqueNode(name));
        if (report_) report_->nodes.push_back({current_, n->name(), op});
        return n;
    }

    std::string uniqueNode(const std::string& base) {
        std::string n = base;
        for (int k = 2; !nodeNames_.insert(n).second; ++k)
            n = base + "_" + std::to_string(k);
        return n;
    }

    // A weight-shaped initializer with no values (a workload needs the shape only).
    std::string weight(const Layer& l, const std::vector<int64_t>& dims) {
        onnx::TensorProto* t = g_->add_initializer();
        t->set_name(unique(l.name + ".weight"));
        t->set_data_type(wt_);
        for (int64_t d : dims)
            t->add_dims(d);
        return t->name();
    }

    std::string constant(const std::string& base, int type, const std::vector<int64_t>& dims,
                         const std::vector<double>& values) {
        onnx::TensorProto* t = g_->add_initializer();
        t->set_name(unique(base));
        t->set_data_type(type);
        for (int64_t d : dims)
            t->add_dims(d);
        for (double v : values) {
            if (type == onnx::TensorProto::FLOAT)
                t->add_float_data(float(v));
            else if (type == onnx::TensorProto::INT64)
                t->add_int64_data(v <= double(INT64_MIN) ? INT64_MIN : int64_t(v));
            else
                t->add_int32_data(int32_t(v)); // int8 / int16 values live in int32_data
        }
        return t->name();
    }

    // Producer `p`'s tensor as consumer of kind `fc` needs it.
    std::string input(LayerId p, bool forFc, const std::string& consumerNode) {
        if (forFc == flat_[p]) return out_[p];
        auto& cache = forFc ? flatView_ : fourView_;
        if (auto it = cache.find(p); it != cache.end()) return it->second;
        const Layer& src = net_.layer(p);
        std::string t;
        if (forFc) {
            onnx::NodeProto* n = node("Flatten", consumerNode + "/Flatten");
            n->add_input(out_[p]);
            t = unique(src.name + ".flat");
            n->add_output(t);
            addInt(n, "axis", 1);
        } else {
            onnx::NodeProto* n = node("Reshape", onnxNodeName(src) + "/Reshape");
            n->add_input(out_[p]);
            n->add_input(constant(src.name + ".shape", onnx::TensorProto::INT64, {4},
                                  {1, double(src.out.c), 1, 1}));
            t = unique(src.name + ".nchw");
            n->add_output(t);
        }
        cache[p] = t;
        return t;
    }

    // The activation folded into a layer, as nodes after it; returns the final tensor.
    std::string activation(const Layer& l, const std::string& nodeName, std::string x) {
        const std::string& a = l.activation;
        if (a.empty()) return x;
        const bool streamOk =
            a == "relu" || a == "sigmoid" || a == "tanh" || a == "silu" || a == "swish";
        static const std::map<std::string, std::string> kSingle{{"relu", "Relu"},
                                                                {"sigmoid", "Sigmoid"},
                                                                {"tanh", "Tanh"},
                                                                {"hardswish", "HardSwish"},
                                                                {"hardsigmoid", "HardSigmoid"},
                                                                {"leaky_relu", "LeakyRelu"},
                                                                {"elu", "Elu"}};
        const bool known =
            kSingle.count(a) || a == "relu6" || a == "clip" || a == "silu" || a == "swish";
        if (!known || (opt_.stream_activations_only && !streamOk)) {
            if (report_)
                report_->notes.push_back(
                    "the " + a + " activation of " + l.name + " is not written" +
                    (known ? " (Stream has no parser for it)" : " (no ONNX operator at opset 14)") +
                    "; LayerFuse's models do not cost activations");
            return x;
        }
        const std::string pre = x;
        const std::string y = unique(l.name + "." + a);
        if (a == "silu" || a == "swish") {
            onnx::NodeProto* s = node("Sigmoid", nodeName + "/Sigmoid");
            s->add_input(pre);
            const std::string sig = unique(l.name + ".sigmoid");
            s->add_output(sig);
            onnx::NodeProto* m = node("Mul", nodeName + "/Mul");
            m->add_input(pre);
            m->add_input(sig);
            m->add_output(y);
        } else if (a == "relu6" || a == "clip") {
            onnx::NodeProto* c = node("Clip", nodeName + "/Clip");
            c->add_input(pre);
            c->add_input(constant(l.name + ".clip_min", act_, {}, {0}));
            c->add_input(constant(l.name + ".clip_max", act_, {}, {6}));
            c->add_output(y);
        } else {
            onnx::NodeProto* n = node(kSingle.at(a), nodeName + "/" + kSingle.at(a));
            n->add_input(pre);
            n->add_output(y);
        }
        return y;
    }

    Status writeLayer(LayerId id) {
        current_ = id;
        const Layer& l = net_.layer(id);
        const std::string nodeName = onnxNodeName(l);
        const std::vector<LayerId>& ops = l.operandIds();
        const bool fc = l.type == LayerType::fc;
        auto fail = [&](const std::string& why) {
            return Error(l.name + " (" + std::string(toString(l.type)) + ") " + why);
        };
        // The layer's own node first (so its name is the layer's), its activation after.
        onnx::NodeProto* n = nullptr;
        const Shape in = ops.empty() ? l.out : net_.layer(ops.front()).out;
        switch (l.type) {
        case LayerType::conv:
        case LayerType::deconv: {
            n = node(l.type == LayerType::conv ? "Conv" : "ConvTranspose", nodeName);
            n->add_input(input(ops.front(), false, nodeName));
            const int64_t g = std::max<int64_t>(1, l.groups);
            n->add_input(
                weight(l, l.type == LayerType::conv
                              ? std::vector<int64_t>{l.out.c, in.c / g, l.kernel_h, l.kernel_w}
                              : std::vector<int64_t>{in.c, l.out.c / g, l.kernel_h, l.kernel_w}));
            addInts(n, "kernel_shape", {l.kernel_h, l.kernel_w});
            addInts(n, "strides", {l.stride_h, l.stride_w});
            addInts(n, "pads", {l.pad_t, l.pad_l, l.pad_b, l.pad_r});
            addInts(n, "dilations", {l.dilation_h, l.dilation_w});
            addInt(n, "group", g);
            if (l.type == LayerType::deconv && (l.output_pad_h || l.output_pad_w))
                addInts(n, "output_padding", {l.output_pad_h, l.output_pad_w});
            break;
        }
        case LayerType::fc: {
            // Flatten first (named after the Gemm), so the Gemm node carries the layer's name.
            const std::string x = input(ops.front(), true, nodeName);
            n = node("Gemm", nodeName);
            n->add_input(x);
            n->add_input(weight(l, {in.c * in.h * in.w, l.out.c})); // transB = 0: [in, out]
            break;
        }
        case LayerType::pool: {
            if (l.pool_mode == PoolMode::avg && (l.dilation_h != 1 || l.dilation_w != 1))
                return fail("is a dilated average pool, which ONNX's AveragePool cannot express");
            n = node(l.pool_mode == PoolMode::max ? "MaxPool" : "AveragePool", nodeName);
            n->add_input(input(ops.front(), false, nodeName));
            addInts(n, "kernel_shape", {l.kernel_h, l.kernel_w});
            addInts(n, "strides", {l.stride_h, l.stride_w});
            addInts(n, "pads", {l.pad_t, l.pad_l, l.pad_b, l.pad_r});
            if (l.ceil_mode) addInt(n, "ceil_mode", 1);
            if (l.pool_mode == PoolMode::max && (l.dilation_h != 1 || l.dilation_w != 1))
                addInts(n, "dilations", {l.dilation_h, l.dilation_w});
            break;
        }
        case LayerType::global_pool:
            n = node(l.pool_mode == PoolMode::max ? "GlobalMaxPool" : "GlobalAveragePool",
                     nodeName);
            n->add_input(input(ops.front(), false, nodeName));
            break;
        case LayerType::add:
        case LayerType::mul:
            if (l.type == LayerType::mul && ops.size() > 2)
                return fail("multiplies " + std::to_string(ops.size()) +
                            " tensors; ONNX's Mul takes two");
            n = node(l.type == LayerType::mul ? "Mul" : ops.size() > 2 ? "Sum" : "Add", nodeName);
            for (LayerId p : ops)
                n->add_input(input(p, false, nodeName));
            break;
        case LayerType::concat:
            n = node("Concat", nodeName);
            for (LayerId p : ops)
                n->add_input(input(p, false, nodeName));
            if (l.const_channels > 0) // channels of constant data: an initializer, no values
                n->add_input(weight(l, {1, l.const_channels, l.out.h, l.out.w}));
            addInt(n, "axis", 1);
            break;
        case LayerType::reorg:
            if (l.op_type == kReorgSlice) {
                n = node("Slice", nodeName);
                n->add_input(input(ops.front(), false, nodeName));
                const int64_t begin = l.slice_begin, step = l.slice_step;
                int64_t end = begin + l.out.c * step;
                if (step < 0 && end < 0) end = INT64_MIN; // past the first channel
                const int i64 = onnx::TensorProto::INT64;
                n->add_input(constant(l.name + ".starts", i64, {1}, {double(begin)}));
                n->add_input(constant(l.name + ".ends", i64, {1}, {double(end)}));
                n->add_input(constant(l.name + ".axes", i64, {1}, {1}));
                n->add_input(constant(l.name + ".steps", i64, {1}, {double(step)}));
            } else if (l.op_type == kReorgDepthToSpace || l.op_type == kReorgSpaceToDepth) {
                n = node(l.op_type == kReorgDepthToSpace ? "DepthToSpace" : "SpaceToDepth",
                         nodeName);
                n->add_input(input(ops.front(), false, nodeName));
                addInt(n, "blocksize", l.block);
            } else {
                return fail("is a reorg '" + l.op_type + "' with no ONNX form LayerFuse can write");
            }
            break;
        case LayerType::resize:
            n = node("Resize", nodeName);
            n->add_input(input(ops.front(), false, nodeName));
            n->add_input(""); // roi
            n->add_input(constant(l.name + ".scales", onnx::TensorProto::FLOAT, {4},
                                  {1, 1, double(l.scale_h), double(l.scale_w)}));
            addString(n, "mode", l.resize_mode == ResizeMode::nearest ? "nearest" : "linear");
            break;
        case LayerType::opaque:
            return fail("stands for the unsupported operator '" + l.op_type +
                        "'; it has no ONNX form LayerFuse can write");
        case LayerType::input:
            break;
        }
        const bool hasActivation = !l.activation.empty();
        const std::string y = hasActivation ? unique(l.name + ".pre") : l.name;
        n->add_output(y);
        out_[id] = activation(l, nodeName, y);
        flat_[id] = fc;
        return Ok{};
    }

    const Network& net_;
    const OnnxExportOptions& opt_;
    onnx::GraphProto* g_;
    OnnxExportReport* report_;
    int act_, wt_;
    LayerId current_ = kNoLayer; // the layer whose nodes are being written
    std::set<std::string> taken_, nodeNames_;
    std::map<LayerId, std::string> out_, flatView_, fourView_;
    std::map<LayerId, bool> flat_;
};

} // namespace

OnnxElementType onnxElementTypeForBits(int bits) {
    if (bits <= 8) return OnnxElementType::int8;
    if (bits <= 16) return OnnxElementType::int16;
    return OnnxElementType::float32;
}

std::string onnxNodeName(const Layer& l) {
    return l.source_name.empty() ? l.name : l.source_name;
}

Result<std::string> writeOnnxModel(const Network& net, const OnnxExportOptions& options,
                                   OnnxExportReport* report) {
    onnx::ModelProto model;
    model.set_ir_version(kIrVersion);
    model.set_producer_name("LayerFuse");
    model.set_producer_version(LAYERFUSE_VERSION);
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOpset);
    onnx::GraphProto* g = model.mutable_graph();
    g->set_name(net.name());
    if (!net.description().empty()) g->set_doc_string(net.description());
    GraphWriter w(net, options, g, report);
    if (Status s = w.write(); !s) return s.error();
    std::string bytes;
    if (!model.SerializeToString(&bytes)) return Error("cannot serialize the ONNX model");
    return bytes;
}

Status saveOnnxModel(const std::string& path, const Network& net, const OnnxExportOptions& options,
                     OnnxExportReport* report) {
    auto bytes = writeOnnxModel(net, options, report);
    if (!bytes) {
        Error e = bytes.error();
        e.file = path;
        return e;
    }
    return writeFileAtomically(path, *bytes);
}

} // namespace lf
