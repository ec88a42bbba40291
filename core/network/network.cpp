#include "network/network.h"

#include "network/shape_inference.h"
#include "util/hash.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace lf {

struct Network::Data {
    std::string name;
    std::string description;
    std::vector<Layer> layers;
    std::vector<std::vector<LayerId>> succ;
    std::vector<LayerId> input_ids;
    std::vector<LayerId> compute_ids;
    std::unordered_map<std::string, LayerId> by_name;
    std::string hash;
};

namespace {
const std::vector<LayerId> kNoIds;

std::string_view foldName(FoldKind k) {
    switch (k) {
    case FoldKind::batchnorm: return "batchnorm";
    case FoldKind::bias: return "bias";
    case FoldKind::scale: return "scale";
    case FoldKind::activation: return "activation";
    case FoldKind::dropout: return "dropout";
    case FoldKind::identity: return "identity";
    case FoldKind::flatten: return "flatten";
    case FoldKind::softmax: return "softmax";
    }
    return "?";
}

// One layer of the canonical description (what the hash covers): structure and shapes,
// inputs by name (their order matters: concat stacks in that order).
std::string canonicalLayerText(const std::vector<Layer>& layers, const Layer& l) {
    nlohmann::ordered_json j;
    j["name"] = l.name;
    j["type"] = std::string(toString(l.type));
    nlohmann::ordered_json ins = nlohmann::ordered_json::array();
    for (LayerId p : l.inputs) ins.push_back(layers[size_t(p)].name);
    j["inputs"] = std::move(ins);
    j["out"] = {l.out.c, l.out.h, l.out.w};
    switch (l.type) {
    case LayerType::conv:
    case LayerType::deconv:
    case LayerType::pool:
        j["kernel"] = {l.kernel_h, l.kernel_w};
        j["stride"] = {l.stride_h, l.stride_w};
        j["padding"] = {l.pad_t, l.pad_l, l.pad_b, l.pad_r};
        j["dilation"] = {l.dilation_h, l.dilation_w};
        j["groups"] = l.groups;
        if (l.type == LayerType::pool) {
            j["mode"] = std::string(toString(l.pool_mode));
            j["ceil_mode"] = l.ceil_mode;
        }
        if (l.type == LayerType::deconv) j["output_padding"] = {l.output_pad_h, l.output_pad_w};
        break;
    case LayerType::global_pool: j["mode"] = std::string(toString(l.pool_mode)); break;
    case LayerType::resize:
        j["scale"] = {l.scale_h, l.scale_w};
        j["mode"] = std::string(toString(l.resize_mode));
        break;
    case LayerType::opaque: j["op"] = l.op_type; break;
    default: break;
    }
    return j.dump();
}

// SHA-256 of the JSON array of all layers sorted by name: independent of the order the file
// lists them in (which only breaks ties in the topological order).
std::string canonicalHashOf(const std::vector<Layer>& layers) {
    std::vector<LayerId> byName(layers.size());
    for (size_t k = 0; k < layers.size(); ++k) byName[k] = LayerId(k);
    std::sort(byName.begin(), byName.end(), [&](LayerId a, LayerId b) {
        return layers[size_t(a)].name < layers[size_t(b)].name;
    });
    Sha256 h;
    h.update("[");
    for (size_t k = 0; k < byName.size(); ++k) {
        if (k) h.update(",");
        h.update(canonicalLayerText(layers, layers[size_t(byName[k])]));
    }
    h.update("]");
    return h.finishHex();
}
}  // namespace

Network::Network() : d_(std::make_shared<Data>()) {}

const std::string& Network::name() const { return d_->name; }
const std::string& Network::description() const { return d_->description; }
const std::vector<Layer>& Network::layers() const { return d_->layers; }
const Layer& Network::layer(LayerId id) const { return d_->layers[size_t(id)]; }
int32_t Network::size() const { return int32_t(d_->layers.size()); }
LayerId Network::find(std::string_view name) const {
    auto it = d_->by_name.find(std::string(name));
    return it == d_->by_name.end() ? kNoLayer : it->second;
}
const std::vector<LayerId>& Network::successors(LayerId id) const {
    if (id < 0 || size_t(id) >= d_->succ.size()) return kNoIds;
    return d_->succ[size_t(id)];
}
const std::vector<LayerId>& Network::inputIds() const { return d_->input_ids; }
const std::vector<LayerId>& Network::computeIds() const { return d_->compute_ids; }
Shape Network::inputShape(LayerId id, size_t k) const {
    const Layer& l = layer(id);
    if (k >= l.inputs.size()) return {};
    return layer(l.inputs[k]).out;
}
const std::string& Network::canonicalHash() const { return d_->hash; }

bool operator==(const Network& a, const Network& b) {
    if (a.d_ == b.d_) return true;
    return a.d_->name == b.d_->name && a.d_->description == b.d_->description &&
           a.d_->hash == b.d_->hash;
}

NetworkSpec Network::toSpec() const {
    NetworkSpec spec;
    spec.name = d_->name;
    spec.description = d_->description;
    for (const Layer& l : d_->layers) {
        if (l.type == LayerType::input) {
            spec.inputs.push_back(InputSpec{l.name, l.out, l.pos});
            continue;
        }
        LayerSpec ls;
        ls.layer = l;
        ls.layer.inputs.clear();
        for (LayerId p : l.inputs) ls.input_names.push_back(layer(p).name);
        spec.layers.push_back(std::move(ls));
    }
    return spec;
}

Result<Network> buildNetwork(const NetworkSpec& spec) {
    const std::string& file = spec.file;
    const size_t nIn = spec.inputs.size();
    const size_t n = nIn + spec.layers.size();
    if (n > size_t(NetworkLimits::kMaxLayers))
        return Error(file, spec.pos,
                     "network has " + std::to_string(n) + " layers; at most " +
                         std::to_string(NetworkLimits::kMaxLayers) + " are supported");
    if (nIn == 0) return Error(file, spec.pos, "network has no inputs");
    if (spec.layers.empty()) return Error(file, spec.pos, "network has no layers");

    // Node k < nIn is input k; node nIn + j is spec layer j.
    auto nodePos = [&](size_t k) { return k < nIn ? spec.inputs[k].pos : spec.layers[k - nIn].layer.pos; };
    auto nodeName = [&](size_t k) -> const std::string& {
        return k < nIn ? spec.inputs[k].name : spec.layers[k - nIn].layer.name;
    };

    std::unordered_map<std::string, size_t> index;
    index.reserve(n);
    for (size_t k = 0; k < n; ++k) {
        const std::string& nm = nodeName(k);
        if (nm.empty()) return Error(file, nodePos(k), "layer has an empty name");
        if (!index.emplace(nm, k).second)
            return Error(file, nodePos(k), "duplicate layer name '" + nm + "'");
    }
    for (size_t k = 0; k < nIn; ++k) {
        const Shape& s = spec.inputs[k].shape;
        if (s.c <= 0 || s.h <= 0 || s.w <= 0 || s.c > NetworkLimits::kMaxChannels ||
            s.h > NetworkLimits::kMaxExtent || s.w > NetworkLimits::kMaxExtent)
            return Error(file, spec.inputs[k].pos,
                         "input '" + spec.inputs[k].name +
                             "' needs channels, height and width between 1 and the supported "
                             "maximum");
    }

    // Edges by name.
    std::vector<std::vector<size_t>> preds(n), succ(n);
    for (size_t j = 0; j < spec.layers.size(); ++j) {
        const LayerSpec& ls = spec.layers[j];
        const size_t k = nIn + j;
        if (ls.input_names.empty())
            return Error(file, ls.layer.pos, "layer '" + ls.layer.name + "' has no inputs");
        if (ls.input_names.size() > size_t(NetworkLimits::kMaxInputsPerLayer))
            return Error(file, ls.layer.pos, "layer '" + ls.layer.name + "' has too many inputs");
        for (size_t q = 0; q < ls.input_names.size(); ++q) {
            const std::string& in = ls.input_names[q];
            auto it = index.find(in);
            SourcePos p = q < ls.input_pos.size() ? ls.input_pos[q] : ls.layer.pos;
            if (it == index.end())
                return Error(file, p, "layer '" + ls.layer.name + "' names unknown input '" + in + "'");
            if (it->second == k)
                return Error(file, p, "layer '" + ls.layer.name + "' takes its own output as input");
            if (std::find(preds[k].begin(), preds[k].end(), it->second) != preds[k].end())
                continue;  // a tensor used twice is one edge
            preds[k].push_back(it->second);
            succ[it->second].push_back(k);
        }
        if (ls.fold && preds[k].size() != 1)
            return Error(file, ls.layer.pos,
                         std::string(foldName(*ls.fold)) + " layer '" + ls.layer.name +
                             "' must have exactly one input");
    }

    // Kahn's algorithm, stable: among ready nodes the one written first goes first.
    std::vector<size_t> indeg(n);
    for (size_t k = 0; k < n; ++k) indeg[k] = preds[k].size();
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
    for (size_t k = 0; k < n; ++k)
        if (indeg[k] == 0) ready.push(k);
    std::vector<size_t> order;
    order.reserve(n);
    while (!ready.empty()) {
        size_t k = ready.top();
        ready.pop();
        order.push_back(k);
        for (size_t s : succ[k])
            if (--indeg[s] == 0) ready.push(s);
    }
    if (order.size() != n) {
        // Report a layer on the cycle: walk predecessors among unprocessed nodes.
        std::vector<char> done(n, 0);
        for (size_t k : order) done[k] = 1;
        size_t start = 0;
        while (done[start]) ++start;
        std::vector<int> seen(n, -1);
        std::vector<size_t> path;
        size_t cur = start;
        while (seen[cur] < 0) {
            seen[cur] = int(path.size());
            path.push_back(cur);
            for (size_t p : preds[cur])
                if (!done[p]) {
                    cur = p;
                    break;
                }
        }
        // path[q + 1] feeds path[q]; the cycle in edge order is cur, path[end], ..., cur.
        std::string cyc = nodeName(cur);
        for (size_t q = path.size(); q-- > size_t(seen[cur]);) {
            cyc += " -> ";
            cyc += nodeName(path[q]);
        }
        return Error(file, nodePos(cur), "the network has a cycle: " + cyc);
    }

    // Canonicalize and assign ids in topological order.
    auto data = std::make_shared<Network::Data>();
    data->name = spec.name;
    data->description = spec.description;
    data->layers.reserve(n);
    std::vector<LayerId> rep(n, kNoLayer);  // node -> id of the layer that carries it
    // Folded nodes: the shape after the op, and the first flatten on the chain that led here.
    constexpr size_t kNone = SIZE_MAX;
    std::vector<Shape> foldShape(n);
    std::vector<size_t> flattenAt(n, kNone);
    auto expectError = [&](const LayerSpec& ls, const std::string& name, const Shape& got) {
        auto str = [](const Shape& x) {
            return std::to_string(x.c) + "x" + std::to_string(x.h) + "x" + std::to_string(x.w);
        };
        return Error(file, ls.expect_pos.line ? ls.expect_pos : ls.layer.pos,
                     "layer '" + name + "': expected output " + str(*ls.expect) +
                         " but inference gives " + str(got));
    };
    for (size_t k : order) {
        if (k < nIn) {
            Layer l;
            l.name = spec.inputs[k].name;
            l.type = LayerType::input;
            l.out = spec.inputs[k].shape;
            l.out_channels = l.out.c;
            l.pos = spec.inputs[k].pos;
            rep[k] = LayerId(data->layers.size());
            data->layers.push_back(std::move(l));
            continue;
        }
        const LayerSpec& ls = spec.layers[k - nIn];
        if (ls.fold) {
            const size_t from = preds[k][0];
            const LayerId into = rep[from];
            Layer& prod = data->layers[size_t(into)];
            prod.folded.push_back(ls.fold_op.empty() ? std::string(foldName(*ls.fold)) : ls.fold_op);
            rep[k] = into;
            // Shape seen after the folded op (flatten: the C*H*W vector an fc reads).
            const bool fromFold = from >= nIn && spec.layers[from - nIn].fold.has_value();
            Shape shape = fromFold ? foldShape[from] : prod.out;
            flattenAt[k] = fromFold ? flattenAt[from] : kNone;
            if (*ls.fold == FoldKind::flatten) {
                shape = Shape{shape.elements(), 1, 1};
                if (flattenAt[k] == kNone) flattenAt[k] = k;
            }
            foldShape[k] = shape;
            if (ls.expect && !(*ls.expect == shape))
                return expectError(ls, ls.layer.name, shape);
            continue;
        }
        // Flatten/reshape is layout-only in front of an fc; elsewhere it would change what the
        // consumer computes, which the IR cannot express. Checked here, at the consumer, so
        // chains of folded ops cost O(1) each.
        if (ls.layer.type != LayerType::fc)
            for (size_t p : preds[k])
                if (flattenAt[p] != kNone) {
                    const LayerSpec& f = spec.layers[flattenAt[p] - nIn];
                    return Error(file, f.layer.pos,
                                 "'" + f.layer.name +
                                     "' (flatten/reshape) is only supported in front of an fc layer");
                }
        Layer l = ls.layer;
        l.inputs.clear();
        for (size_t p : preds[k]) {
            LayerId r = rep[p];
            if (std::find(l.inputs.begin(), l.inputs.end(), r) == l.inputs.end()) l.inputs.push_back(r);
        }
        std::vector<Shape> inShapes;
        inShapes.reserve(l.inputs.size());
        for (LayerId r : l.inputs) inShapes.push_back(data->layers[size_t(r)].out);
        std::string err = inferShape(l, inShapes);
        if (!err.empty()) return Error(file, l.pos, "layer '" + l.name + "': " + err);
        if (ls.expect && !(*ls.expect == l.out)) return expectError(ls, l.name, l.out);
        rep[k] = LayerId(data->layers.size());
        data->layers.push_back(std::move(l));
    }

    const size_t m = data->layers.size();
    data->succ.assign(m, {});
    data->by_name.reserve(m);
    for (size_t id = 0; id < m; ++id) {
        const Layer& l = data->layers[id];
        data->by_name.emplace(l.name, LayerId(id));
        for (LayerId p : l.inputs) data->succ[size_t(p)].push_back(LayerId(id));
        if (l.type == LayerType::input) data->input_ids.push_back(LayerId(id));
        else if (isCompute(l.type)) data->compute_ids.push_back(LayerId(id));
    }
    // Names of folded layers still resolve (to the layer that carries them).
    for (size_t k = 0; k < n; ++k) data->by_name.emplace(nodeName(k), rep[k]);
    data->hash = canonicalHashOf(data->layers);

    Network net;
    net.d_ = std::move(data);
    return net;
}

}  // namespace lf
