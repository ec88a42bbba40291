// buildNetwork: names -> edges, topological order (refusing cycles), canonicalization
// (folding BN/activations/flatten into producers, docs/models/README.md) and shape inference.
// Linear in the size of the spec apart from the ordering heap, so that 10^6 layers build in
// about a second: flat arrays instead of per-node vectors, name lookups through string
// views, no per-layer JSON.
#include "network/canonical_hash.h"
#include "network/figure_limits.h"
#include "network/network_data.h"
#include "network/shape_inference.h"
#include "util/format.h"

#include <algorithm>
#include <queue>

namespace lf {

namespace {

std::string_view foldName(FoldKind k) {
    switch (k) {
    case FoldKind::batchnorm:
        return "batchnorm";
    case FoldKind::bias:
        return "bias";
    case FoldKind::scale:
        return "scale";
    case FoldKind::activation:
        return "activation";
    case FoldKind::dropout:
        return "dropout";
    case FoldKind::identity:
        return "identity";
    case FoldKind::flatten:
        return "flatten";
    case FoldKind::softmax:
        return "softmax";
    }
    return "?";
}

std::string shapeStr(const Shape& x) {
    return std::to_string(x.c) + "x" + std::to_string(x.h) + "x" + std::to_string(x.w);
}

constexpr uint32_t kNone = UINT32_MAX;

// A list of lists in two flat arrays: items of list i are at [start[i], start[i + 1]).
struct Lists {
    std::vector<uint32_t> start, items;
    size_t size(size_t i) const { return start[i + 1] - start[i]; }
    const uint32_t* begin(size_t i) const { return items.data() + start[i]; }
    const uint32_t* end(size_t i) const { return items.data() + start[i + 1]; }
};

} // namespace

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
    auto nodePos = [&](size_t k) {
        return k < nIn ? spec.inputs[k].pos : spec.layers[k - nIn].layer.pos;
    };
    auto nodeName = [&](size_t k) -> const std::string& {
        return k < nIn ? spec.inputs[k].name : spec.layers[k - nIn].layer.name;
    };

    std::unordered_map<std::string_view, uint32_t> index;
    index.reserve(n);
    for (size_t k = 0; k < n; ++k) {
        const std::string& nm = nodeName(k);
        if (nm.empty()) return Error(file, nodePos(k), "layer has an empty name");
        if (!index.emplace(nm, uint32_t(k)).second)
            return Error(file, nodePos(k), "duplicate layer name " + quoteValue(nm));
    }
    for (size_t k = 0; k < nIn; ++k) {
        const Shape& s = spec.inputs[k].shape;
        if (s.c <= 0 || s.h <= 0 || s.w <= 0 || s.c > NetworkLimits::kMaxChannels ||
            s.h > NetworkLimits::kMaxExtent || s.w > NetworkLimits::kMaxExtent)
            return Error(file, spec.inputs[k].pos,
                         "input " + quoteValue(spec.inputs[k].name) +
                             " needs channels, height and width between 1 and the supported "
                             "maximum");
        if (!(CheckedInt(s.c) * s.h * s.w <= NetworkLimits::kMaxElements)) {
            // Blame the largest of the three: it is what makes the tensor too big.
            const DimPos& at = spec.inputs[k].dim_pos;
            const SourcePos where = s.c >= s.h && s.c >= s.w ? at.channels
                                    : s.h >= s.w             ? at.height
                                                             : at.width;
            return Error(file, where.line > 0 ? where : spec.inputs[k].pos,
                         "input " + quoteValue(spec.inputs[k].name) + ": " + shapeStr(s) +
                             " is more than 2^40 elements, the largest tensor supported");
        }
    }

    // args: every input of every node in order, repeats included (what the layer reads);
    // preds: each producer once (the DAG edges).
    Lists args, preds;
    args.start.assign(n + 1, 0);
    preds.start.assign(n + 1, 0);
    std::vector<uint32_t> lastConsumer(n, kNone); // dedup marker: O(1) per input
    for (size_t k = 0; k < n; ++k) {
        args.start[k] = uint32_t(args.items.size());
        preds.start[k] = uint32_t(preds.items.size());
        if (k < nIn) continue;
        const LayerSpec& ls = spec.layers[k - nIn];
        if (ls.input_names.empty())
            return Error(file, ls.layer.pos,
                         "layer " + quoteValue(ls.layer.name) + " has no inputs");
        if (ls.input_names.size() > size_t(NetworkLimits::kMaxInputsPerLayer))
            return Error(file, ls.layer.pos,
                         "layer " + quoteValue(ls.layer.name) + " has too many inputs");
        for (size_t q = 0; q < ls.input_names.size(); ++q) {
            const std::string& in = ls.input_names[q];
            auto it = index.find(in);
            const SourcePos p = q < ls.input_pos.size() ? ls.input_pos[q] : ls.layer.pos;
            if (it == index.end())
                return Error(file, p,
                             "layer " + quoteValue(ls.layer.name) + " names unknown input " +
                                 quoteValue(in));
            if (it->second == k)
                return Error(file, p,
                             "layer " + quoteValue(ls.layer.name) +
                                 " takes its own output as input");
            args.items.push_back(it->second);
            if (lastConsumer[it->second] == k) continue; // a tensor used twice is one edge
            lastConsumer[it->second] = uint32_t(k);
            preds.items.push_back(it->second);
        }
        if (ls.fold && preds.items.size() - preds.start[k] != 1)
            return Error(file, ls.layer.pos,
                         std::string(foldName(*ls.fold)) + " layer " + quoteValue(ls.layer.name) +
                             " must have exactly one input");
    }
    args.start[n] = uint32_t(args.items.size());
    preds.start[n] = uint32_t(preds.items.size());

    // Successors by counting sort: for each producer, its consumers in node order.
    Lists succ;
    succ.start.assign(n + 1, 0);
    for (uint32_t p : preds.items)
        ++succ.start[p + 1];
    for (size_t k = 0; k < n; ++k)
        succ.start[k + 1] += succ.start[k];
    succ.items.resize(preds.items.size());
    {
        std::vector<uint32_t> fill(succ.start.begin(), succ.start.end() - 1);
        for (size_t k = 0; k < n; ++k)
            for (const uint32_t* p = preds.begin(k); p != preds.end(k); ++p)
                succ.items[fill[*p]++] = uint32_t(k);
    }

    // Kahn's algorithm, stable: among ready nodes the one written first goes first.
    std::vector<uint32_t> indeg(n);
    for (size_t k = 0; k < n; ++k)
        indeg[k] = uint32_t(preds.size(k));
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (size_t k = 0; k < n; ++k)
        if (indeg[k] == 0) ready.push(uint32_t(k));
    std::vector<uint32_t> order;
    order.reserve(n);
    while (!ready.empty()) {
        const uint32_t k = ready.top();
        ready.pop();
        order.push_back(k);
        for (const uint32_t* s = succ.begin(k); s != succ.end(k); ++s)
            if (--indeg[*s] == 0) ready.push(*s);
    }
    if (order.size() != n) {
        // Report a layer on the cycle: walk predecessors among unprocessed nodes (every one
        // of them has an unprocessed predecessor).
        std::vector<char> done(n, 0);
        for (uint32_t k : order)
            done[k] = 1;
        size_t start = 0;
        while (done[start])
            ++start;
        std::vector<int64_t> seen(n, -1);
        std::vector<size_t> path;
        size_t cur = start;
        while (seen[cur] < 0) {
            seen[cur] = int64_t(path.size());
            path.push_back(cur);
            for (const uint32_t* p = preds.begin(cur); p != preds.end(cur); ++p)
                if (!done[*p]) {
                    cur = *p;
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
    std::vector<LayerId> rep(n, kNoLayer); // node -> id of the layer that carries it
    // Folded nodes: the shape after the op, and the first flatten on the chain that led here.
    std::vector<Shape> foldShape(n);
    std::vector<uint32_t> flattenAt(n, kNone);
    auto expectError = [&](const LayerSpec& ls, const std::string& name, const Shape& got) {
        return Error(file, ls.expect_pos.line ? ls.expect_pos : ls.layer.pos,
                     "layer " + quoteValue(name) + ": expected output " + shapeStr(*ls.expect) +
                         " but inference gives " + shapeStr(got));
    };
    std::vector<LayerId> repSeen(n, kNoLayer); // dedup marker over layer ids
    std::vector<Shape> inShapes;
    size_t foldedCount = 0;
    for (uint32_t k : order) {
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
            const uint32_t from = *preds.begin(k);
            const LayerId into = rep[from];
            Layer& prod = data->layers[size_t(into)];
            prod.folded.push_back(ls.fold_op.empty() ? std::string(foldName(*ls.fold))
                                                     : ls.fold_op);
            rep[k] = into;
            ++foldedCount;
            // Shape seen after the folded op (flatten: the C*H*W vector an fc reads).
            const bool fromFold = from >= nIn && spec.layers[from - nIn].fold.has_value();
            Shape shape = fromFold ? foldShape[from] : prod.out;
            flattenAt[k] = fromFold ? flattenAt[from] : kNone;
            if (*ls.fold == FoldKind::flatten) {
                shape = Shape{shape.elements(), 1, 1};
                if (flattenAt[k] == kNone) flattenAt[k] = k;
            }
            foldShape[k] = shape;
            if (ls.expect && !(*ls.expect == shape)) return expectError(ls, ls.layer.name, shape);
            continue;
        }
        // Flatten/reshape is layout-only in front of an fc; elsewhere it would change what the
        // consumer computes, which the IR cannot express. Checked here, at the consumer, so
        // chains of folded ops cost O(1) each.
        if (ls.layer.type != LayerType::fc)
            for (const uint32_t* p = preds.begin(k); p != preds.end(k); ++p)
                if (flattenAt[*p] != kNone) {
                    const LayerSpec& f = spec.layers[flattenAt[*p] - nIn];
                    return Error(
                        file, f.layer.pos,
                        quoteValue(f.layer.name) +
                            " (flatten/reshape) is only supported in front of an fc layer");
                }
        Layer l = ls.layer;
        l.inputs.clear();
        l.operands.clear();
        const LayerId self = LayerId(data->layers.size());
        for (const uint32_t* a = args.begin(k); a != args.end(k); ++a) {
            const LayerId r = rep[*a];
            l.operands.push_back(r);
            if (repSeen[size_t(r)] == self) continue;
            repSeen[size_t(r)] = self;
            l.inputs.push_back(r);
        }
        if (l.operands.size() == l.inputs.size()) l.operands.clear(); // no repeats
        inShapes.clear();
        for (LayerId r : l.operandIds())
            inShapes.push_back(data->layers[size_t(r)].out);
        const std::string err = inferShape(l, inShapes);
        if (!err.empty()) return Error(file, l.pos, "layer " + quoteValue(l.name) + ": " + err);
        if (ls.expect && !(*ls.expect == l.out)) return expectError(ls, l.name, l.out);
        rep[k] = self;
        data->layers.push_back(std::move(l));
    }

    const size_t m = data->layers.size();
    data->succ.resize(m);
    for (size_t id = 0; id < m; ++id) {
        const Layer& l = data->layers[id];
        for (LayerId p : l.inputs)
            data->succ[size_t(p)].push_back(LayerId(id));
        if (l.type == LayerType::input)
            data->input_ids.push_back(LayerId(id));
        else if (isCompute(l.type))
            data->compute_ids.push_back(LayerId(id));
    }
    // Every name resolves: a layer to itself, a folded layer to the layer that carries it.
    data->folded_names.reserve(foldedCount); // never reallocates below: views stay valid
    data->by_name.reserve(n);
    for (size_t id = 0; id < m; ++id)
        data->by_name.emplace(data->layers[id].name, LayerId(id));
    for (size_t k = nIn; k < n; ++k)
        if (spec.layers[k - nIn].fold) {
            data->folded_names.push_back(nodeName(k));
            data->by_name.emplace(data->folded_names.back(), rep[k]);
        }
    data->hash = canonicalHash(data->layers);

    Network net;
    net.d_ = std::move(data);
    // Every figure of every layer fits 64 bits (network/figure_limits.h); the positions of
    // the offending layer's dimensions are looked up only when one does not.
    const Status figures = checkFigureLimits(net, file, [&](LayerId id) {
        const std::string& name = net.layer(id).name;
        for (const InputSpec& in : spec.inputs)
            if (in.name == name) return in.dim_pos;
        for (const LayerSpec& ls : spec.layers)
            if (!ls.fold && ls.layer.name == name) return ls.dim_pos;
        return DimPos{};
    });
    if (!figures) return figures.error();
    return net;
}

} // namespace lf
