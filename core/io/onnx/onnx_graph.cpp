// Graph set-up of the ONNX translation: indexes, topological order, live nodes, graph
// inputs, and the names layers get.
#include "io/onnx/onnx_translator.h"

#include <algorithm>
#include <cctype>
#include <queue>

namespace lf::onnx_import {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
size_t utf8Length(std::string_view s, size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return n;
}

std::string lower(std::string s) {
    for (char& ch : s)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

} // namespace

std::string readableName(std::string_view raw) {
    std::string clean;
    for (size_t i = 0; i < raw.size() && clean.size() < 4 * kMaxNameLength;) {
        const size_t n = utf8Length(raw, i);
        const auto c = static_cast<unsigned char>(raw[i]);
        if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7f))) {
            clean += '_';
            ++i;
        } else {
            clean.append(raw.substr(i, n));
            i += n;
        }
    }
    // Exporters write scopes like "/layer1/layer1.0/conv1/Conv": drop empty segments and
    // a segment the next one repeats as its prefix.
    std::vector<std::string> segs;
    size_t start = 0;
    while (start <= clean.size()) {
        size_t end = clean.find('/', start);
        if (end == std::string::npos) end = clean.size();
        std::string s = clean.substr(start, end - start);
        if (!s.empty() && s.find_first_not_of(' ') != std::string::npos)
            segs.push_back(std::move(s));
        start = end + 1;
    }
    std::string out;
    for (size_t k = 0; k < segs.size(); ++k) {
        if (k + 1 < segs.size() && segs[k + 1].rfind(segs[k] + ".", 0) == 0) continue;
        if (!out.empty()) out += '/';
        out += segs[k];
    }
    if (out.size() > kMaxNameLength) {
        size_t cut = kMaxNameLength;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) >> 6) == 0x2)
            --cut;
        out.resize(cut);
    }
    return out;
}

std::optional<Shape> standardView(const std::vector<int64_t>& dims) {
    if (dims.size() == 4) return Shape{dims[1], dims[2], dims[3]};
    if (dims.size() == 2) return Shape{dims[1], 1, 1};
    return std::nullopt;
}

void Translator::indexGraph() {
    const int nodes = graph_.node_size();
    if (nodes > NetworkLimits::kMaxLayers)
        throw ImportFailure{"the graph has " + std::to_string(nodes) + " nodes; at most " +
                            std::to_string(NetworkLimits::kMaxLayers) + " are supported"};
    auto failAt = [](const std::string& what, const std::exception& e) {
        throw ImportFailure{what + ": " + e.what()};
    };
    for (const auto& init : graph_.initializer()) {
        const std::string what = "initializer '" + readableName(init.name()) + "'";
        if (init.name().empty()) throw ImportFailure{"an initializer has no name"};
        if (!initializers_.insert(init.name()).second)
            throw ImportFailure{what + " is defined twice"};
        Value v;
        v.kind = ValueKind::constant;
        try {
            v.c = decodeTensor(init, what);
        } catch (const NodeInvalid& e) {
            throw ImportFailure{e.what()};
        }
        values_[init.name()] = std::move(v);
    }
    for (const auto& sp : graph_.sparse_initializer()) {
        const std::string& nm = sp.values().name();
        if (nm.empty() || !initializers_.insert(nm).second) continue;
        Value v;
        v.kind = ValueKind::constant;
        v.c.dims.assign(sp.dims().begin(), sp.dims().end());
        try {
            checkedCount(v.c.dims, "sparse initializer '" + readableName(nm) + "'");
        } catch (const NodeInvalid& e) {
            failAt("sparse initializer", e);
        }
        values_[nm] = std::move(v);
    }
    auto declare = [&](const onnx::ValueInfoProto& vi) {
        if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) return;
        const auto& shape = vi.type().tensor_type().shape();
        if (shape.dim_size() > kMaxRank) return;
        std::vector<int64_t> dims;
        for (const auto& d : shape.dim())
            dims.push_back(d.has_dim_value() && d.dim_value() > 0 ? d.dim_value() : -1);
        declared_.emplace(vi.name(), std::move(dims));
    };
    for (const auto& vi : graph_.value_info())
        declare(vi);
    for (const auto& vi : graph_.output())
        declare(vi);
    for (const auto& in : graph_.input()) {
        declare(in);
        if (initializers_.count(in.name())) continue; // IR < 4 lists initializers as inputs too
        if (in.name().empty()) throw ImportFailure{"a graph input has no name"};
        if (producer_.count(in.name()) || values_.count(in.name()))
            throw ImportFailure{"graph input '" + readableName(in.name()) + "' is declared twice"};
        producer_[in.name()] = -1;
        graphInputs_.push_back(&in);
    }
    nodeNames_.resize(size_t(nodes));
    outcomes_.resize(size_t(nodes));
    std::unordered_map<std::string, int> perOp;
    for (int i = 0; i < nodes; ++i) {
        const auto& n = graph_.node(i);
        std::string nm = readableName(n.name());
        if (nm.empty()) {
            std::string op = lower(readableName(n.op_type()));
            if (op.empty()) op = "node";
            nm = op + "_" + std::to_string(perOp[op]++);
        }
        nodeNames_[size_t(i)] = nm;
        if (n.input_size() > kMaxNodeInputs || n.output_size() > kMaxNodeInputs)
            throw ImportFailure{"node '" + nm + "' has too many inputs or outputs"};
        for (const auto& o : n.output()) {
            if (o.empty()) continue;
            if (initializers_.count(o) || !producer_.emplace(o, i).second)
                throw ImportFailure{"tensor '" + readableName(o) + "' is produced twice (node '" +
                                    nm + "')"};
        }
    }
    for (int i = 0; i < nodes; ++i)
        for (const auto& in : graph_.node(i).input())
            if (!in.empty() && !producer_.count(in) && !initializers_.count(in))
                throw ImportFailure{
                    "node '" + nodeNames_[size_t(i)] + "' (" +
                    readableName(graph_.node(i).op_type()) + ") reads '" + readableName(in) +
                    "', which is neither an initializer, a graph input nor the output of a node"};
}

void Translator::sortNodes() {
    const size_t n = size_t(graph_.node_size());
    std::vector<std::vector<int>> succ(n);
    std::vector<int> indeg(n, 0);
    for (size_t i = 0; i < n; ++i) {
        std::set<int> deps;
        for (const auto& in : graph_.node(int(i)).input()) {
            auto it = producer_.find(in);
            if (it != producer_.end() && it->second >= 0) deps.insert(it->second);
        }
        for (int d : deps) {
            succ[size_t(d)].push_back(int(i));
            ++indeg[i];
        }
    }
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (size_t i = 0; i < n; ++i)
        if (indeg[i] == 0) ready.push(int(i));
    while (!ready.empty()) {
        const int i = ready.top();
        ready.pop();
        order_.push_back(i);
        for (int s : succ[size_t(i)])
            if (--indeg[size_t(s)] == 0) ready.push(s);
    }
    if (order_.size() != n) {
        size_t first = 0;
        while (indeg[first] == 0)
            ++first;
        throw ImportFailure{"the graph has a cycle through node '" + nodeNames_[first] + "' (" +
                            readableName(graph_.node(int(first)).op_type()) + ")"};
    }
}

void Translator::markLive() {
    live_.assign(size_t(graph_.node_size()), 0);
    if (graph_.output_size() == 0) throw ImportFailure{"the graph declares no outputs"};
    std::vector<int> stack;
    for (const auto& o : graph_.output()) {
        auto it = producer_.find(o.name());
        if (it == producer_.end() && !initializers_.count(o.name()))
            throw ImportFailure{"graph output '" + readableName(o.name()) +
                                "' is not produced by any node"};
        if (it != producer_.end() && it->second >= 0) stack.push_back(it->second);
        ++consumers_[o.name()];
    }
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        if (live_[size_t(i)]) continue;
        live_[size_t(i)] = 1;
        for (const auto& in : graph_.node(i).input()) {
            if (in.empty()) continue;
            ++consumers_[in];
            auto it = producer_.find(in);
            if (it != producer_.end() && it->second >= 0 && !live_[size_t(it->second)])
                stack.push_back(it->second);
        }
    }
}

void Translator::addInputs() {
    for (size_t k = 0; k < graphInputs_.size(); ++k) {
        const onnx::ValueInfoProto& vi = *graphInputs_[k];
        if (!consumers_.count(vi.name())) continue; // unused input: nothing to declare
        const std::string shown =
            readableName(vi.name()).empty() ? "input" : readableName(vi.name());
        const std::string what = "input '" + shown + "'";
        if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape())
            throw ImportFailure{what + " is not a tensor with a declared rank"};
        const auto& shape = vi.type().tensor_type().shape();
        if (shape.dim_size() != 4 && shape.dim_size() != 2)
            throw ImportFailure{
                what + " has rank " + std::to_string(shape.dim_size()) +
                "; only image inputs N x C x H x W (or N x features) are supported"};
        std::vector<int64_t> dims;
        for (const auto& d : shape.dim())
            dims.push_back(d.has_dim_value() && d.dim_value() > 0 ? d.dim_value() : -1);
        const auto& given = options_.input_shape;
        if (!given.empty()) {
            // An NHWC input [N,?,?,C] given as C,H,W: fill it in the input's own layout.
            const bool nhwc = dims.size() == 4 && given.size() == 3 && dims[1] < 0 && dims[3] > 0 &&
                              dims[3] == given[0];
            if (nhwc)
                dims = {dims[0], given[1], given[2], given[0]};
            else if (dims.size() == 4 && given.size() == 3)
                std::copy(given.begin(), given.end(), dims.begin() + 1);
            else if (given.size() == dims.size())
                dims = given;
            else
                throw ImportFailure{"the input shape has " + std::to_string(given.size()) +
                                    " values but " + what + " has rank " +
                                    std::to_string(dims.size())};
        }
        if (dims[0] < 0) dims[0] = 1; // batch is implicit in the IR
        if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; })) {
            if (report_) report_->needs_input_shape = true;
            throw ImportFailure{
                what + " has dynamic dimensions " + dimsText(dims) +
                ": give the input shape as C,H,W or N,C,H,W (command line: --input-shape " +
                (dims.size() == 4
                     ? std::to_string(dims[1] > 0 ? dims[1] : 3) + ",224,224"
                     : std::string("1,") + std::to_string(dims[1] > 0 ? dims[1] : 1000)) +
                ")"};
        }
        const Shape s = *standardView(dims);
        if (s.c > NetworkLimits::kMaxChannels || s.h > NetworkLimits::kMaxExtent ||
            s.w > NetworkLimits::kMaxExtent || dims[0] > NetworkLimits::kMaxChannels)
            throw ImportFailure{what + " has absurd dimensions " + dimsText(dims)};
        InputSpec in;
        in.name = uniqueName(shown);
        in.shape = s;
        root_[in.name] = in.name;
        Value v;
        v.kind = ValueKind::feature;
        v.dims = dims;
        v.ours = s;
        v.carrier = in.name;
        values_[vi.name()] = std::move(v);
        inputRoles_.push_back(Roles{kN, kC, kH, kW});
        inputCommitted_.push_back(dims.size() != 4); // only images change layout
        inputNotes_.emplace_back();
        inputIndex_[in.name] = int(spec_.inputs.size());
        spec_.inputs.push_back(std::move(in));
    }
}

std::string Translator::uniqueName(const std::string& base) {
    const std::string b = base.empty() ? std::string("layer") : base;
    if (used_.insert(b).second) return b;
    int& k = nextSuffix_[b];
    if (k < 2) k = 2;
    for (;; ++k) {
        std::string cand = b + "_" + std::to_string(k);
        if (used_.insert(cand).second) return cand;
    }
}

} // namespace lf::onnx_import
