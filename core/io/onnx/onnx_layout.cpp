// Layouts of activations (docs/file-formats.md, ONNX models): which axis of an ONNX tensor
// holds which axis of the IR's N x C x H x W tensor. NHWC graphs from TensorFlow keep
// tensors permuted between Transpose pairs; a Transpose right after pre-processing of a graph
// input makes that input NHWC; Reshapes that only move axes of extent 1 keep the data order;
// Reshape -> Transpose -> Reshape channel shuffles reorder channels only.
#include "io/onnx/onnx_shape_ops.h"
#include "io/onnx/onnx_translator.h"

#include <algorithm>

namespace lf::onnx_import {

namespace {

constexpr char kRoleNames[] = "NCHW";

bool isIdentity(const Roles& r) {
    for (size_t k = 0; k < r.size(); ++k)
        if (r[k] != int8_t(k)) return false;
    return true;
}

std::string rolesText(const Roles& r) {
    std::string s;
    for (int8_t x : r)
        s += kRoleNames[x];
    return s;
}

// Non-unit axes keep their relative order: the memory order is the carrier's.
bool ordered(const Roles& roles, const std::vector<int64_t>& dims) {
    int8_t last = -1;
    for (size_t a = 0; a < roles.size(); ++a) {
        if (dims[a] == 1) continue;
        if (roles[a] < last) return false;
        last = roles[a];
    }
    return true;
}

// Extents of the carrier tensor per role.
std::array<int64_t, 4> roleExtents(const Value& v, int64_t batch) {
    return {batch, v.ours.c, v.ours.h, v.ours.w};
}

} // namespace

std::optional<Roles> Translator::rolesOf(const Value& v) const {
    if (v.nchw && v.dims.size() == 4) return Roles{kN, kC, kH, kW};
    if (v.nchw && v.dims.size() == 2) return Roles{kN, kC};
    if (!v.nchw && !v.roles.empty() && v.roles.size() == v.dims.size()) return v.roles;
    return std::nullopt;
}

Roles Translator::imageRoles(const Value& x) const {
    const auto roles = rolesOf(x);
    if (!roles || roles->size() != 4)
        unsupported("needs an N x C x H x W activation (or a transposed view of one), got dims " +
                    dimsText(x.dims) + layoutHint(x));
    return *roles;
}

void Translator::setRoles(Value& o, const Roles& r) const {
    const int64_t batch = o.dims.empty() ? 1 : o.dims[0];
    const auto e = roleExtents(o, batch);
    o.dims.assign(r.size(), 1);
    for (size_t a = 0; a < r.size(); ++a)
        o.dims[a] = e[size_t(r[a])];
    o.nchw = r.size() == 4 ? isIdentity(r) : r == Roles{kN, kC} && o.ours.h == 1 && o.ours.w == 1;
    o.roles = o.nchw ? Roles{} : r;
    o.inOrder = ordered(r, o.dims);
    o.spans.clear();
    o.shuffled = 0;
}

int64_t Translator::extentOf(const Value& v, int8_t role) const {
    if (auto r = rolesOf(v))
        for (size_t a = 0; a < r->size(); ++a)
            if ((*r)[a] == role) return v.dims[a];
    return role == kN ? (v.dims.empty() ? 1 : v.dims[0]) : roleExtents(v, 1)[size_t(role)];
}

std::string Translator::layoutHint(const Value& v) const {
    if (v.nchw) return {};
    if (!v.roles.empty())
        return " (the " + rolesText(v.roles) + " view of layer '" + root_.at(v.carrier) +
               "' made by node '" + v.layoutNode +
               "'; a layer reads only N x C x H x W tensors, and nothing transposes it back)";
    if (v.layoutNode.empty())
        return " (the output of layer '" + root_.at(v.carrier) +
               "', which the layer IR cannot express as N x C x H x W)";
    return " (a reshaped view of layer '" + root_.at(v.carrier) + "' made by node '" +
           v.layoutNode + "', which the layer IR cannot express)";
}

Value& Translator::standardImage(const NodeCtx& c, int k) const {
    Value& v = feature(c, k);
    requireNoPad(v);
    if (v.dims.size() != 4 || !v.nchw)
        unsupported("needs an N x C x H x W activation, got dims " + dimsText(v.dims) +
                    layoutHint(v));
    return v;
}

bool Translator::redeclareInput(Value& x, const std::vector<int64_t>& perm,
                                const std::string& node) {
    const auto root = root_.find(x.carrier);
    if (root == root_.end()) return false;
    const auto found = inputIndex_.find(root->second);
    if (found == inputIndex_.end() || inputCommitted_[size_t(found->second)]) return false;
    const int idx = found->second;
    const auto cur = rolesOf(x);
    if (!cur || cur->size() != 4) return false;
    // sigma renames roles so that the transposed value becomes N,C,H,W.
    Roles sigma(4);
    for (size_t a = 0; a < 4; ++a)
        sigma[size_t((*cur)[size_t(perm[a])])] = int8_t(a);
    if (sigma[kN] != kN || isIdentity(sigma)) return false;
    std::vector<Value*> affected;
    for (auto& [name, v] : values_) {
        if (v.kind != ValueKind::feature || root_.at(v.carrier) != root->second) continue;
        if (!rolesOf(v) || rolesOf(v)->size() != 4) return false; // a flattened view exists
        affected.push_back(&v);
    }
    const auto e = roleExtents(x, 1);
    const Shape s{e[size_t(std::find(sigma.begin(), sigma.end(), kC) - sigma.begin())],
                  e[size_t(std::find(sigma.begin(), sigma.end(), kH) - sigma.begin())],
                  e[size_t(std::find(sigma.begin(), sigma.end(), kW) - sigma.begin())]};
    for (Value* v : affected) {
        Roles r = *rolesOf(*v);
        for (int8_t& q : r)
            q = sigma[size_t(q)];
        v->ours = s;
        v->nchw = isIdentity(r);
        v->roles = v->nchw ? Roles{} : r;
        v->inOrder = ordered(r, v->dims);
        v->layoutNode = node;
    }
    InputSpec& in = spec_.inputs[size_t(idx)];
    Roles inputRoles(4);
    for (size_t a = 0; a < 4; ++a)
        inputRoles[a] = sigma[size_t(inputRoles_[size_t(idx)][a])];
    inputRoles_[size_t(idx)] = inputRoles;
    inputCommitted_[size_t(idx)] = 1; // the layout is decided once
    in.shape = s;
    inputNotes_[size_t(idx)] = "input '" + in.name + "' is " + rolesText(inputRoles) +
                               ": read as " + std::to_string(s.c) + "x" + std::to_string(s.h) +
                               "x" + std::to_string(s.w) + " (C x H x W) for Transpose '" + node +
                               "'";
    return true;
}

void Translator::transposeView(const NodeCtx& c, Value& o, const Value& x,
                               const std::vector<int64_t>& perm) {
    o.dims = permuteDims(x.dims, perm);
    o.layoutNode = c.name;
    if (auto r = rolesOf(x)) {
        Roles nr(r->size());
        for (size_t a = 0; a < nr.size(); ++a)
            nr[a] = (*r)[size_t(perm[a])];
        o.nchw = isIdentity(nr);
        o.roles = o.nchw ? Roles{} : nr;
        o.inOrder = ordered(nr, o.dims);
        o.spans.clear();
        return;
    }
    o.nchw = false;
    o.roles.clear();
    if (x.spans.size() != x.dims.size()) {
        o.inOrder = false;
        o.spans.clear();
        return;
    }
    // A flattened view: the order stays known when the non-unit axes that span one role
    // each stay in role order and axes spanning several roles keep their place; axes of
    // one role may change places (a channel shuffle).
    std::vector<uint8_t> spans(perm.size());
    for (size_t a = 0; a < perm.size(); ++a)
        spans[a] = x.spans[size_t(perm[a])];
    std::vector<size_t> nu;
    for (size_t a = 0; a < perm.size(); ++a)
        if (o.dims[a] != 1) nu.push_back(a);
    auto single = [](uint8_t s) { return s && !(s & (s - 1)); };
    bool known = true;
    uint8_t shuffled = x.shuffled;
    uint8_t lastRole = 0;
    for (size_t k = 0; k < nu.size() && known; ++k) {
        const uint8_t s = spans[nu[k]];
        for (size_t j = 0; j < nu.size(); ++j) {
            const bool moved = (j < k) != (perm[nu[j]] < perm[nu[k]]);
            if (j == k || !moved) continue;
            if (!single(s) || !single(spans[nu[j]]) || s != spans[nu[j]])
                known = false;
            else
                shuffled |= s;
        }
        if (single(s)) {
            if (s < lastRole) known = false;
            lastRole = s;
        }
    }
    o.spans = known ? spans : std::vector<uint8_t>{};
    o.shuffled = known ? shuffled : 0;
    o.inOrder = known && shuffled == 0;
}

void Translator::reshapeView(Value& o, const Value& x) {
    const auto& d = o.dims;
    o.roles.clear();
    o.spans.clear();
    o.shuffled = 0;
    // Moving axes of extent 1 only: the non-unit axes keep their roles.
    if (auto r = rolesOf(x); r && d.size() == 4) {
        std::vector<size_t> src, dst;
        for (size_t a = 0; a < x.dims.size(); ++a)
            if (x.dims[a] != 1) src.push_back(a);
        for (size_t a = 0; a < d.size(); ++a)
            if (d[a] != 1) dst.push_back(a);
        bool same = src.size() == dst.size();
        for (size_t k = 0; same && k < src.size(); ++k)
            same = x.dims[src[k]] == d[dst[k]];
        if (same) {
            Roles nr(4, -1);
            std::vector<char> used(4, 0);
            for (size_t k = 0; k < src.size(); ++k) {
                nr[dst[k]] = (*r)[src[k]];
                used[size_t((*r)[src[k]])] = 1;
            }
            int8_t next = 0;
            for (int8_t& q : nr) {
                if (q >= 0) continue;
                while (used[size_t(next)])
                    ++next;
                q = next;
                used[size_t(next)] = 1;
            }
            o.nchw = isIdentity(nr) && x.shuffled == 0;
            o.roles = o.nchw ? Roles{} : nr;
            o.inOrder = ordered(nr, d);
            return;
        }
    }
    const bool orderKnown = x.inOrder || (x.spans.size() == x.dims.size() && !x.spans.empty());
    if (!orderKnown) {
        o.nchw = false;
        o.inOrder = false;
        return;
    }
    // Memory order is N,C,H,W (up to reorderings inside the shuffled roles): the standard
    // view again when the dims say so, else a flattened view whose axes span known roles.
    if (standardView(d) == std::optional<Shape>(o.ours) && !(x.shuffled & ~(1u << kC))) {
        o.nchw = true;
        o.inOrder = x.shuffled == 0;
        o.shuffled = x.shuffled;
        return;
    }
    o.nchw = false;
    o.inOrder = x.shuffled == 0;
    o.shuffled = x.shuffled;
    const auto e = roleExtents(x, x.dims.empty() ? 1 : x.dims[0]);
    // Role boundaries in elements from the end of memory (W is innermost).
    std::array<int64_t, 5> below{}; // below[r]: elements of the roles after r
    below[4] = 1;
    for (int r = 3; r >= 0; --r)
        below[size_t(r)] = below[size_t(r) + 1] * e[size_t(r)];
    std::vector<uint8_t> spans(d.size(), 0);
    int64_t inner = 1;
    for (size_t a = d.size(); a-- > 0;) {
        const int64_t lo = inner, hi = inner * d[a]; // this axis covers strides [lo, hi)
        for (int r = 0; r < 4; ++r)
            if (e[size_t(r)] > 1 && lo < below[size_t(r)] && hi > below[size_t(r) + 1])
                spans[a] |= uint8_t(1u << r);
        inner = hi;
    }
    o.spans = spans;
}

} // namespace lf::onnx_import
