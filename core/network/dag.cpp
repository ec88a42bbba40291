#include "network/dag.h"

#include <algorithm>

namespace lf {

Reachability::Reachability(const Network& net) : net_(&net) {
    const int32_t n = net.size();
    if (n > kMaxBitsetLayers) return;
    words_ = (n + 63) / 64;
    bits_.assign(size_t(n) * size_t(words_), 0);
    // Reverse topological order: a layer reaches itself and all its successors' sets.
    for (int32_t v = n - 1; v >= 0; --v) {
        uint64_t* row = &bits_[size_t(v) * size_t(words_)];
        row[v / 64] |= uint64_t(1) << (v % 64);
        for (LayerId s : net.successors(v)) {
            const uint64_t* srow = &bits_[size_t(s) * size_t(words_)];
            for (int32_t w = 0; w < words_; ++w)
                row[w] |= srow[w];
        }
    }
}

bool Reachability::reaches(LayerId from, LayerId to) const {
    if (from == to) return true;
    if (from > to) return false; // ids are topological
    if (words_ > 0)
        return (bits_[size_t(from) * size_t(words_) + size_t(to / 64)] >> (to % 64)) & 1;
    // Large network: forward search limited to ids <= to.
    std::vector<char> seen(size_t(to - from + 1), 0);
    std::vector<LayerId> stack{from};
    seen[0] = 1;
    while (!stack.empty()) {
        LayerId v = stack.back();
        stack.pop_back();
        for (LayerId s : net_->successors(v)) {
            if (s == to) return true;
            if (s > to || seen[size_t(s - from)]) continue;
            seen[size_t(s - from)] = 1;
            stack.push_back(s);
        }
    }
    return false;
}

std::vector<std::vector<LayerId>> sequences(const Network& net) {
    const int32_t n = net.size();
    auto compute = [&](LayerId v) { return isCompute(net.layer(v).type); };
    auto linkedToNext = [&](LayerId v) -> LayerId {
        const auto& s = net.successors(v);
        if (s.size() != 1) return kNoLayer;
        LayerId c = s[0];
        if (!compute(c) || net.layer(c).inputs.size() != 1) return kNoLayer;
        return c;
    };
    std::vector<char> inner(size_t(n), 0); // has a linked predecessor
    for (LayerId v = 0; v < n; ++v)
        if (compute(v)) {
            LayerId c = linkedToNext(v);
            if (c != kNoLayer) inner[size_t(c)] = 1;
        }
    std::vector<std::vector<LayerId>> out;
    for (LayerId v = 0; v < n; ++v) {
        if (!compute(v) || inner[size_t(v)]) continue;
        std::vector<LayerId> seq{v};
        for (LayerId c = linkedToNext(v); c != kNoLayer; c = linkedToNext(c))
            seq.push_back(c);
        out.push_back(std::move(seq));
    }
    return out;
}

bool isWeaklyConnected(const Network& net, const std::vector<LayerId>& layers) {
    if (layers.empty()) return false;
    std::vector<LayerId> sorted = layers;
    std::sort(sorted.begin(), sorted.end());
    auto in = [&](LayerId v) { return std::binary_search(sorted.begin(), sorted.end(), v); };
    std::vector<LayerId> seen{sorted[0]};
    std::vector<LayerId> stack{sorted[0]};
    auto visit = [&](LayerId u) {
        if (!in(u) || std::find(seen.begin(), seen.end(), u) != seen.end()) return;
        seen.push_back(u);
        stack.push_back(u);
    };
    while (!stack.empty()) {
        LayerId v = stack.back();
        stack.pop_back();
        for (LayerId s : net.successors(v))
            visit(s);
        for (LayerId p : net.predecessors(v))
            visit(p);
    }
    return seen.size() == sorted.size();
}

bool fusingCreatesCycle(const Network& net, const std::vector<LayerId>& layers, LayerId* via) {
    if (layers.empty()) return false;
    std::vector<LayerId> sorted = layers;
    std::sort(sorted.begin(), sorted.end());
    const LayerId lo = sorted.front(), hi = sorted.back();
    auto in = [&](LayerId v) { return std::binary_search(sorted.begin(), sorted.end(), v); };
    // Outside layers reachable from the set without passing through it, restricted to
    // ids below `hi` (only those can lead back into the set, ids being topological).
    std::vector<char> mark(size_t(hi - lo + 1), 0);
    std::vector<LayerId> stack;
    for (LayerId v : sorted)
        for (LayerId s : net.successors(v))
            if (!in(s) && s < hi && !mark[size_t(s - lo)]) {
                mark[size_t(s - lo)] = 1;
                stack.push_back(s);
            }
    while (!stack.empty()) {
        LayerId v = stack.back();
        stack.pop_back();
        for (LayerId s : net.successors(v)) {
            if (in(s)) {
                if (via) *via = v;
                return true;
            }
            if (s < hi && !mark[size_t(s - lo)]) {
                mark[size_t(s - lo)] = 1;
                stack.push_back(s);
            }
        }
    }
    return false;
}

} // namespace lf
