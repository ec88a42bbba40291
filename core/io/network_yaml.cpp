#include "io/network_yaml.h"

#include "io/yaml_support.h"
#include "network/network.h"
#include "util/format.h"

#include <algorithm>
#include <array>

namespace lf {

using namespace yamlio;

namespace {

struct FoldName {
    std::string_view name;
    FoldKind kind;
};
// Layer types accepted on load that canonicalization folds into their producer
// (docs/models/README.md).
constexpr std::array<FoldName, 24> kFoldTypes = {{
    {"batchnorm", FoldKind::batchnorm},   {"bias", FoldKind::bias},
    {"scale", FoldKind::scale},           {"relu", FoldKind::activation},
    {"relu6", FoldKind::activation},      {"clip", FoldKind::activation},
    {"hardswish", FoldKind::activation},  {"hardsigmoid", FoldKind::activation},
    {"sigmoid", FoldKind::activation},    {"silu", FoldKind::activation},
    {"swish", FoldKind::activation},      {"leaky_relu", FoldKind::activation},
    {"prelu", FoldKind::activation},      {"elu", FoldKind::activation},
    {"tanh", FoldKind::activation},       {"gelu", FoldKind::activation},
    {"activation", FoldKind::activation}, {"dropout", FoldKind::dropout},
    {"identity", FoldKind::identity},     {"flatten", FoldKind::flatten},
    {"reshape", FoldKind::flatten},       {"squeeze", FoldKind::flatten},
    {"softmax", FoldKind::softmax},       {"lrn", FoldKind::identity},
}};

constexpr std::string_view kLayerTypesHelp =
    "conv, deconv, fc, pool, global_pool, add, mul, concat, resize, reorg, opaque, or a folded "
    "type "
    "(batchnorm, bias, scale, relu, relu6, clip, hardswish, hardsigmoid, sigmoid, silu, "
    "leaky_relu, dropout, identity, flatten, reshape, squeeze, softmax, ...)";

constexpr int64_t kMaxK = NetworkLimits::kMaxKernel;

template <class N> Shape readShape(const N& m, const char* what) {
    requireMap(m, what);
    checkKeys(m, {"channels", "height", "width"});
    Shape s;
    s.c = toInt(req(m, "channels"), "channels", 1, NetworkLimits::kMaxChannels);
    s.h = toInt(req(m, "height"), "height", 1, NetworkLimits::kMaxExtent);
    s.w = toInt(req(m, "width"), "width", 1, NetworkLimits::kMaxExtent);
    return s;
}

template <class N>
void readPair(const N& n, const char* what, int64_t lo, int64_t hi, int& h, int& w) {
    auto v = intList(n, what, 1, 2, lo, hi);
    h = int(v[0]);
    w = int(v.size() == 2 ? v[1] : v[0]);
}

template <class N> LayerSpec readLayer(const N& n) {
    requireMap(n, "a layer");
    LayerSpec ls;
    Layer& l = ls.layer;
    l.pos = posOf(n);
    l.name = toString(req(n, "name"), "name");
    if (l.name.empty()) fail(n["name"], "layer name is empty");
    if (l.name.size() > 1024) fail(n["name"], "layer name is longer than 1024 characters");
    const N typeNode = req(n, "type");
    const std::string type = toString(typeNode, "type");

    const N ins = req(n, "inputs");
    if (ins.IsScalar()) {
        ls.input_names.push_back(std::string(ins.Scalar()));
        ls.input_pos.push_back(posOf(ins));
        ls.dim_pos.inputs = posOf(ins);
    } else {
        requireSeq(ins, "inputs");
        ls.dim_pos.inputs = posOf(ins);
        if (ins.size() > size_t(NetworkLimits::kMaxInputsPerLayer)) fail(ins, "too many inputs");
        for (const auto& i : ins) {
            ls.input_names.push_back(toString(i, "input name"));
            ls.input_pos.push_back(posOf(i));
        }
    }

    if (const N e = n["expect"]) {
        ls.expect = readShape(e, "expect");
        ls.expect_pos = posOf(e);
    }

    auto fold = std::find_if(kFoldTypes.begin(), kFoldTypes.end(),
                             [&](const FoldName& f) { return f.name == type; });
    if (fold != kFoldTypes.end()) {
        checkKeys(n, {"name", "type", "inputs", "function", "expect", "alpha", "min", "max",
                      "shape", "epsilon"});
        ls.fold = fold->kind;
        ls.fold_op = type == "activation" ? getString(n, "function", "activation") : type;
        l.type = LayerType::opaque; // placeholder; folded away at build
        return ls;
    }

    auto lt = layerTypeFromString(type);
    if (!lt || *lt == LayerType::input)
        fail(typeNode, "unknown layer type " + quoteValue(type) + " (expected " +
                           std::string(kLayerTypesHelp) + ")");
    l.type = *lt;

    auto common = std::initializer_list<std::string_view>{};
    (void)common;
    switch (l.type) {
    case LayerType::conv:
    case LayerType::deconv:
        checkKeys(n, {"name", "type", "inputs", "out_channels", "kernel", "stride", "padding",
                      "dilation", "groups", "activation", "folded", "expect", "output_padding"});
        l.out_channels =
            toInt(req(n, "out_channels"), "out_channels", 1, NetworkLimits::kMaxChannels);
        ls.dim_pos.channels = posOf(n["out_channels"]);
        readPair(req(n, "kernel"), "kernel", 1, kMaxK, l.kernel_h, l.kernel_w);
        ls.dim_pos.kernel = posOf(n["kernel"]);
        l.groups = getInt(n, "groups", 1, 1, NetworkLimits::kMaxChannels);
        if (l.type == LayerType::deconv && n["output_padding"])
            readPair(n["output_padding"], "output_padding", 0, kMaxK, l.output_pad_h,
                     l.output_pad_w);
        else if (n["output_padding"])
            fail(n["output_padding"], "output_padding applies to deconv layers only");
        break;
    case LayerType::fc:
        checkKeys(n, {"name", "type", "inputs", "out_features", "activation", "folded", "expect"});
        l.out_channels =
            toInt(req(n, "out_features"), "out_features", 1, NetworkLimits::kMaxChannels);
        ls.dim_pos.channels = posOf(n["out_features"]);
        break;
    case LayerType::pool: {
        checkKeys(n, {"name", "type", "inputs", "mode", "kernel", "stride", "padding", "dilation",
                      "ceil_mode", "activation", "folded", "expect"});
        readPair(req(n, "kernel"), "kernel", 1, kMaxK, l.kernel_h, l.kernel_w);
        ls.dim_pos.kernel = posOf(n["kernel"]);
        const std::string mode = getString(n, "mode", "max");
        if (mode == "max")
            l.pool_mode = PoolMode::max;
        else if (mode == "avg")
            l.pool_mode = PoolMode::avg;
        else
            fail(n["mode"], "pool mode must be max or avg, got " + quoteValue(mode));
        l.ceil_mode = getBool(n, "ceil_mode", false);
        break;
    }
    case LayerType::global_pool: {
        checkKeys(n, {"name", "type", "inputs", "mode", "activation", "folded", "expect"});
        const std::string mode = getString(n, "mode", "avg");
        if (mode == "max")
            l.pool_mode = PoolMode::max;
        else if (mode == "avg")
            l.pool_mode = PoolMode::avg;
        else
            fail(n["mode"], "pool mode must be max or avg, got " + quoteValue(mode));
        break;
    }
    case LayerType::add:
    case LayerType::mul:
        checkKeys(n, {"name", "type", "inputs", "activation", "folded", "expect"});
        break;
    case LayerType::concat:
        checkKeys(
            n, {"name", "type", "inputs", "constant_channels", "activation", "folded", "expect"});
        l.const_channels = getInt(n, "constant_channels", 0, 0, NetworkLimits::kMaxChannels);
        break;
    case LayerType::reorg: {
        checkKeys(n, {"name", "type", "inputs", "op", "begin", "channels", "step", "block",
                      "folded", "expect"});
        l.op_type = getString(n, "op", "");
        if (l.op_type == kReorgSlice) {
            l.slice_begin = getInt(n, "begin", 0, 0, NetworkLimits::kMaxChannels - 1);
            l.out_channels = toInt(req(n, "channels"), "channels", 1, NetworkLimits::kMaxChannels);
            l.slice_step =
                getInt(n, "step", 1, -NetworkLimits::kMaxChannels, NetworkLimits::kMaxChannels);
            if (n["block"]) fail(n["block"], "block applies to depth_to_space / space_to_depth");
        } else if (l.op_type == kReorgDepthToSpace || l.op_type == kReorgSpaceToDepth) {
            l.block = int(toInt(req(n, "block"), "block", 1, NetworkLimits::kMaxKernel));
            for (const char* k : {"begin", "channels", "step"})
                if (n[k]) fail(n[k], std::string(k) + " applies to slice only");
        } else {
            fail(n["op"] ? n["op"] : n,
                 "reorg op must be slice, depth_to_space or space_to_depth, got '" + l.op_type +
                     "'");
        }
        break;
    }
    case LayerType::resize: {
        checkKeys(n, {"name", "type", "inputs", "scale", "mode", "activation", "folded", "expect"});
        readPair(req(n, "scale"), "scale", 1, 1024, l.scale_h, l.scale_w);
        const std::string mode = getString(n, "mode", "nearest");
        if (mode == "nearest")
            l.resize_mode = ResizeMode::nearest;
        else if (mode == "bilinear")
            l.resize_mode = ResizeMode::bilinear;
        else
            fail(n["mode"], "resize mode must be nearest or bilinear, got " + quoteValue(mode));
        break;
    }
    case LayerType::opaque:
        checkKeys(n, {"name", "type", "inputs", "op", "shape", "folded", "expect"});
        l.op_type = getString(n, "op", "");
        if (const N s = n["shape"]) l.out = readShape(s, "shape");
        break;
    case LayerType::input:
        break;
    }

    if (l.type == LayerType::conv || l.type == LayerType::deconv || l.type == LayerType::pool) {
        if (const N s = n["stride"])
            readPair(s, "stride", 1, NetworkLimits::kMaxStride, l.stride_h, l.stride_w);
        if (const N d = n["dilation"])
            readPair(d, "dilation", 1, kMaxK, l.dilation_h, l.dilation_w);
        if (const N p = n["padding"]) {
            auto v = intList(p, "padding", 1, 4, 0, kMaxK);
            if (v.size() == 3)
                fail(p,
                     "padding takes 1, 2 or 4 values ([top/bottom, left/right] or [t, l, b, r])");
            if (v.size() == 1)
                l.pad_t = l.pad_l = l.pad_b = l.pad_r = int(v[0]);
            else if (v.size() == 2) {
                l.pad_t = l.pad_b = int(v[0]);
                l.pad_l = l.pad_r = int(v[1]);
            } else {
                l.pad_t = int(v[0]);
                l.pad_l = int(v[1]);
                l.pad_b = int(v[2]);
                l.pad_r = int(v[3]);
            }
        }
    }
    if (const N a = n["activation"]) l.activation = toString(a, "activation");
    if (const N f = n["folded"]) {
        requireSeq(f, "folded");
        for (const auto& e : f)
            l.folded.push_back(toString(e, "folded op"));
    }
    return ls;
}

template <class N> NetworkSpec readNetworkSpecT(const N& root, const std::string& file) {
    checkFormat(root, "network", 1);
    checkKeys(root, {"format", "name", "description", "inputs", "layers"});
    NetworkSpec spec;
    spec.file = file;
    spec.pos = posOf(root);
    spec.name = toString(req(root, "name"), "name");
    spec.description = getString(root, "description", "");
    const N ins = req(root, "inputs");
    requireSeq(ins, "inputs");
    const N layers = req(root, "layers");
    requireSeq(layers, "layers");
    if (ins.size() + layers.size() > size_t(NetworkLimits::kMaxLayers))
        fail(layers,
             "network has more than " + std::to_string(NetworkLimits::kMaxLayers) + " layers");
    for (const auto& i : ins) {
        requireMap(i, "an input");
        checkKeys(i, {"name", "channels", "height", "width"});
        InputSpec is;
        is.pos = posOf(i);
        is.name = toString(req(i, "name"), "name");
        is.shape.c = toInt(req(i, "channels"), "channels", 1, NetworkLimits::kMaxChannels);
        is.shape.h = toInt(req(i, "height"), "height", 1, NetworkLimits::kMaxExtent);
        is.shape.w = toInt(req(i, "width"), "width", 1, NetworkLimits::kMaxExtent);
        is.dim_pos.channels = posOf(i["channels"]);
        is.dim_pos.height = posOf(i["height"]);
        is.dim_pos.width = posOf(i["width"]);
        spec.inputs.push_back(std::move(is));
    }
    spec.layers.reserve(layers.size());
    for (const auto& l : layers)
        spec.layers.push_back(readLayer<N>(l));
    return spec;
}

} // namespace

NetworkSpec yamlio::readNetworkSpecNode(const YAML::Node& root, const std::string& file) {
    return readNetworkSpecT(root, file);
}

Result<NetworkSpec> parseNetworkSpec(std::string_view text, const std::string& file) {
    auto tree = parseTree(text, file);
    if (!tree) return tree.error();
    try {
        return readNetworkSpecT((*tree)->root(), file);
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    }
}

Result<Network> readNetworkYaml(std::string_view text, const std::string& file) {
    auto spec = parseNetworkSpec(text, file);
    if (!spec) return spec.error();
    return buildNetwork(*spec);
}

Result<Network> loadNetworkYamlFile(const std::string& path) {
    auto text = readFile(path);
    if (!text) return text.error();
    return readNetworkYaml(*text, path);
}

namespace {
void emitPair(YAML::Emitter& out, const char* key, int h, int w, bool squareAsInt) {
    out << YAML::Key << key << YAML::Value;
    if (squareAsInt && h == w)
        out << intText(h);
    else
        out << YAML::Flow << YAML::BeginSeq << intText(h) << intText(w) << YAML::EndSeq;
}
} // namespace

void yamlio::emitNetworkBody(YAML::Emitter& out, const Network& net) {
    out << YAML::Key << "format" << YAML::Value << "layerfuse/network@1";
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, net.name());
    if (!net.description().empty()) {
        out << YAML::Key << "description" << YAML::Value;
        emitString(out, net.description());
    }
    out << YAML::Key << "inputs" << YAML::Value << YAML::BeginSeq;
    for (LayerId id : net.inputIds()) {
        const Layer& l = net.layer(id);
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value;
        emitString(out, l.name);
        out << YAML::Key << "channels" << YAML::Value << intText(l.out.c);
        out << YAML::Key << "height" << YAML::Value << intText(l.out.h);
        out << YAML::Key << "width" << YAML::Value << intText(l.out.w);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
    for (const Layer& l : net.layers()) {
        if (l.type == LayerType::input) continue;
        out << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value;
        emitString(out, l.name);
        out << YAML::Key << "type" << YAML::Value << std::string(toString(l.type));
        out << YAML::Key << "inputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (LayerId p : l.operandIds())
            emitString(out, net.layer(p).name);
        out << YAML::EndSeq;
        const bool windowed =
            l.type == LayerType::conv || l.type == LayerType::deconv || l.type == LayerType::pool;
        if (l.type == LayerType::conv || l.type == LayerType::deconv)
            out << YAML::Key << "out_channels" << YAML::Value << intText(l.out_channels);
        if (l.type == LayerType::fc)
            out << YAML::Key << "out_features" << YAML::Value << intText(l.out_channels);
        if (l.type == LayerType::pool || l.type == LayerType::global_pool)
            out << YAML::Key << "mode" << YAML::Value << std::string(toString(l.pool_mode));
        if (windowed) {
            emitPair(out, "kernel", l.kernel_h, l.kernel_w, true);
            if (l.stride_h != 1 || l.stride_w != 1)
                emitPair(out, "stride", l.stride_h, l.stride_w, true);
            if (l.pad_t || l.pad_l || l.pad_b || l.pad_r) {
                out << YAML::Key << "padding" << YAML::Value << YAML::Flow << YAML::BeginSeq;
                if (l.pad_t == l.pad_b && l.pad_l == l.pad_r)
                    out << intText(l.pad_t) << intText(l.pad_l);
                else
                    out << intText(l.pad_t) << intText(l.pad_l) << intText(l.pad_b)
                        << intText(l.pad_r);
                out << YAML::EndSeq;
            }
            if (l.dilation_h != 1 || l.dilation_w != 1)
                emitPair(out, "dilation", l.dilation_h, l.dilation_w, true);
        }
        if ((l.type == LayerType::conv || l.type == LayerType::deconv) && l.groups != 1)
            out << YAML::Key << "groups" << YAML::Value << intText(l.groups);
        if (l.type == LayerType::deconv && (l.output_pad_h || l.output_pad_w))
            emitPair(out, "output_padding", l.output_pad_h, l.output_pad_w, true);
        if (l.type == LayerType::pool && l.ceil_mode)
            out << YAML::Key << "ceil_mode" << YAML::Value << true;
        if (l.type == LayerType::resize) {
            emitPair(out, "scale", l.scale_h, l.scale_w, true);
            if (l.resize_mode != ResizeMode::nearest)
                out << YAML::Key << "mode" << YAML::Value << std::string(toString(l.resize_mode));
        }
        if (l.type == LayerType::concat && l.const_channels)
            out << YAML::Key << "constant_channels" << YAML::Value << intText(l.const_channels);
        if (l.type == LayerType::reorg) {
            out << YAML::Key << "op" << YAML::Value;
            emitString(out, l.op_type);
            if (l.op_type == kReorgSlice) {
                out << YAML::Key << "begin" << YAML::Value << intText(l.slice_begin);
                out << YAML::Key << "channels" << YAML::Value << intText(l.out_channels);
                if (l.slice_step != 1)
                    out << YAML::Key << "step" << YAML::Value << intText(l.slice_step);
            } else {
                out << YAML::Key << "block" << YAML::Value << intText(l.block);
            }
        }
        if (l.type == LayerType::opaque) {
            if (!l.op_type.empty()) {
                out << YAML::Key << "op" << YAML::Value;
                emitString(out, l.op_type);
            }
            out << YAML::Key << "shape" << YAML::Value << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "channels" << YAML::Value << intText(l.out.c);
            out << YAML::Key << "height" << YAML::Value << intText(l.out.h);
            out << YAML::Key << "width" << YAML::Value << intText(l.out.w);
            out << YAML::EndMap;
        }
        if (!l.activation.empty()) {
            out << YAML::Key << "activation" << YAML::Value;
            emitString(out, l.activation);
        }
        if (!l.folded.empty()) {
            out << YAML::Key << "folded" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const auto& f : l.folded)
                emitString(out, f);
            out << YAML::EndSeq;
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

std::string writeNetworkYaml(const Network& net) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    emitNetworkBody(out, net);
    out << YAML::EndMap;
    return finish(out);
}

} // namespace lf
