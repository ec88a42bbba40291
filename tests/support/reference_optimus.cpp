#include "reference_optimus.h"

#include "models/evaluate.h"
#include "models/optimus.h"
#include "search/optimus_groups.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>

namespace lf::test {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using Set = std::vector<uint64_t>;

bool has(const Set& s, LayerId v) {
    return (s[size_t(v) / 64] >> (v % 64)) & 1;
}

struct Dp {
    const Network& net;
    std::vector<std::vector<std::pair<Set, double>>> byFirst; // valid groups by first vertex
    std::vector<double> alone;                                // cost of each vertex alone
    std::map<Set, double> memo;

    // Vertices of `s` with no neighbour in `s` can only be groups of their own.
    double dropIsolated(Set& s) const {
        double taken = 0;
        for (LayerId v = 0; v < net.size(); ++v) {
            if (!has(s, v)) continue;
            bool linked = false;
            for (LayerId p : net.predecessors(v))
                linked = linked || has(s, p);
            for (LayerId q : net.successors(v))
                linked = linked || has(s, q);
            if (linked) continue;
            s[size_t(v) / 64] &= ~(uint64_t(1) << (v % 64));
            taken += alone[size_t(v)];
        }
        return taken;
    }

    double solve(const Set& s) {
        LayerId first = -1;
        for (LayerId v = 0; v < net.size() && first < 0; ++v)
            if (has(s, v)) first = v;
        if (first < 0) return 0;
        if (auto it = memo.find(s); it != memo.end()) return it->second;
        double best = kInf;
        for (const auto& [g, c] : byFirst[size_t(first)]) {
            bool inside = true;
            for (size_t k = 0; k < s.size() && inside; ++k)
                inside = (g[k] & ~s[k]) == 0;
            if (!inside) continue;
            Set rest = s;
            for (size_t k = 0; k < s.size(); ++k)
                rest[k] &= ~g[k];
            const double taken = dropIsolated(rest);
            best = std::min(best, c + taken + solve(rest));
        }
        memo.emplace(s, best);
        return best;
    }
};

} // namespace

double referenceGroupCost(const Network& net, const Hardware& hw,
                          const std::vector<LayerId>& members) {
    bool compute = false;
    for (LayerId v : members)
        compute = compute || isCompute(net.layer(v).type);
    if (!compute) return members.size() == 1 ? 0 : kInf; // a lone concat moves nothing
    if (!optimusValidity(net, members).empty()) return kInf;
    const OptimusPlan p = optimusPlan(net, hw, members, hw.buffer.bytes * 8);
    if (!p.feasible)
        return members.size() > 1
                   ? kInf
                   : referenceLoneLayerCost(net, hw, members.front(), hw.buffer.bytes * 8);
    return double(p.memory_cost);
}

double referenceLoneLayerCost(const Network& net, const Hardware& hw, LayerId v,
                              int64_t capacity_bits) {
    Hardware one = hw;
    one.buffer.bytes = capacity_bits / 8;
    one.batch = 1;
    const Schedule s = defaultSchedule(net, one);
    const Metrics m = evaluate(net, one, s);
    const int g = s.groupOf(v);
    return double(m.groups[size_t(g)].dram.total());
}

ReferenceOptimus referenceOptimus(const Network& net, const Hardware& hw,
                                  const std::vector<LayerType>& fusible) {
    OptimusGroupRules rules;
    rules.vertex.assign(size_t(net.size()), 0);
    for (LayerId v = 0; v < net.size(); ++v) {
        const LayerType t = net.layer(v).type;
        rules.vertex[size_t(v)] =
            t == LayerType::concat ||
            (isCompute(t) && t != LayerType::opaque &&
             (fusible.empty() || std::find(fusible.begin(), fusible.end(), t) != fusible.end()));
    }
    rules.prune_hopeless = false;
    const OptimusGroupSpace space(net, rules,
                                  [&](const std::vector<LayerId>& m, int, double, bool) {
                                      OptimusGroupClass c;
                                      c.cost = referenceGroupCost(net, hw, m);
                                      return c;
                                  });
    Dp dp{net, {}, {}, {}};
    dp.byFirst.resize(size_t(net.size()));
    dp.alone.assign(size_t(net.size()), 0);
    ReferenceOptimus r;
    for (size_t g = 0; g < space.size(); ++g) {
        if (space.cost(g) == kInf) continue;
        const std::vector<LayerId> m = space.members(g);
        if (m.size() == 1) dp.alone[size_t(m.front())] = space.cost(g);
        dp.byFirst[size_t(m.front())].push_back(
            {Set(space.bits(g), space.bits(g) + space.words()), space.cost(g)});
        ++r.groups;
    }
    Set all(space.words(), 0);
    for (LayerId v = 0; v < net.size(); ++v)
        if (rules.vertex[size_t(v)]) all[size_t(v) / 64] |= uint64_t(1) << (v % 64);
    r.cost = dp.dropIsolated(all) + dp.solve(all);
    r.subproblems = int64_t(dp.memo.size());
    for (LayerId v : net.computeIds()) // compute layers outside the DP stay alone
        if (!rules.vertex[size_t(v)]) r.cost += referenceGroupCost(net, hw, {v});
    return r;
}

} // namespace lf::test
