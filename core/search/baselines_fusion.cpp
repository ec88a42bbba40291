#include "search/baselines_fusion.h"

#include "models/optimus.h"
#include "network/dims.h"

#include <algorithm>
#include <limits>

namespace lf {

const char* toString(PriorFuser f) {
    return f == PriorFuser::dnnvm ? "DNNVM" : "Efficient-S";
}

namespace {

bool isOperator(const Network& net, LayerId v) {
    const LayerType t = net.layer(v).type;
    return t == LayerType::concat || (isCompute(t) && t != LayerType::opaque);
}

bool inGroup(const std::vector<LayerId>& m, LayerId v) {
    return std::binary_search(m.begin(), m.end(), v);
}

// R(l, t) of Optimus §2.3 along one axis: the extent of each member's output that a tile of `t`
// at the group's outputs needs, R(l−1) = (R(l) − 1)·S + K through the members (clipped to
// the map: padding is never moved).
std::vector<int64_t> tileExtents(const Network& net, const std::vector<LayerId>& m, int axis,
                                 int64_t t) {
    std::vector<int64_t> r(m.size(), 0);
    auto slot = [&](LayerId v) {
        return size_t(std::lower_bound(m.begin(), m.end(), v) - m.begin());
    };
    for (size_t k = m.size(); k-- > 0;) {
        const Layer& l = net.layer(m[k]);
        const int64_t full = axis == 0 ? l.out.h : l.out.w;
        bool consumedOutside = net.successors(m[k]).empty();
        for (LayerId s : net.successors(m[k]))
            consumedOutside = consumedOutside || !inGroup(m, s);
        if (consumedOutside) r[k] = std::max(r[k], t);
        r[k] = std::clamp<int64_t>(r[k], 1, full);
        const LayerDims d = layerDims(net, m[k]);
        const int64_t need = l.type == LayerType::concat ? r[k]
                             : axis == 0                 ? d.windowY(r[k])
                                                         : d.windowX(r[k]);
        for (LayerId p : l.inputs)
            if (inGroup(m, p)) r[slot(p)] = std::max(r[slot(p)], need);
    }
    return r;
}

struct Candidate {
    int64_t cost = 0;       // per image, the objective of the dynamic program
    int64_t cost_batch = 0; // with the batch
    bool valid = false;
};

class PriorCoster {
  public:
    PriorCoster(const Network& net, const Hardware& hw, int64_t capBits)
        : net_(net), hw_(hw), cap_(capBits), B_(std::max(1, hw.batch)) {}

    Candidate single(LayerId v) const {
        Candidate c;
        c.valid = true;
        if (net_.layer(v).type == LayerType::concat) return c; // written in place
        const OptimusPlan p = optimusPlan(net_, hw_, {v}, cap_);
        c.cost = p.memory_cost;
        const int64_t weightLoads = p.weights_resident ? 1 : B_ * p.subgroups;
        c.cost_batch = B_ * (p.ifmap + p.ofmap) + weightLoads * p.weights;
        return c;
    }
    Candidate group(const std::vector<LayerId>& m) const {
        if (m.size() == 1) return single(m.front());
        const PriorGroupCost g = priorGroupCost(net_, hw_, m, cap_);
        Candidate c;
        c.valid = g.valid;
        c.cost = g.memoryCost();
        c.cost_batch = B_ * (g.ifmap + g.ofmap) + g.params; // parameters stay for the batch
        return c;
    }

  private:
    const Network& net_;
    const Hardware& hw_;
    int64_t cap_;
    int64_t B_;
};

// Optimal partition of one ordered list of operators into runs (a chain for DNNVM, the
// linear proxy for Efficient-S). A run that does not fit makes every longer run from the
// same start invalid too (fmaps and parameters only grow), which ends the extension.
void partitionRuns(const std::vector<LayerId>& order, const PriorCoster& coster,
                   PriorFuserResult& res) {
    const size_t n = order.size();
    constexpr int64_t kInf = std::numeric_limits<int64_t>::max();
    std::vector<int64_t> best(n + 1, kInf);
    std::vector<size_t> from(n + 1, 0);
    best[0] = 0;
    // runs[i] = cost of runs starting at i, grown one operator at a time.
    std::vector<std::vector<Candidate>> runs(n);
    for (size_t i = 0; i < n; ++i) {
        std::vector<LayerId> m;
        for (size_t j = i; j < n; ++j) {
            m.insert(std::upper_bound(m.begin(), m.end(), order[j]), order[j]);
            const Candidate c = coster.group(m);
            ++res.candidate_groups;
            if (!c.valid) break;
            runs[i].push_back(c);
        }
    }
    for (size_t j = 1; j <= n; ++j)
        for (size_t i = 0; i < j; ++i) {
            if (best[i] == kInf || j - i > runs[i].size()) continue;
            const int64_t total = best[i] + runs[i][j - i - 1].cost;
            if (total < best[j]) {
                best[j] = total;
                from[j] = i;
            }
        }
    std::vector<std::vector<LayerId>> groups;
    for (size_t j = n; j > 0; j = from[j]) {
        const size_t i = from[j];
        std::vector<LayerId> g(order.begin() + std::ptrdiff_t(i),
                               order.begin() + std::ptrdiff_t(j));
        std::sort(g.begin(), g.end());
        res.cost += runs[i][j - i - 1].cost;
        res.cost_batch += runs[i][j - i - 1].cost_batch;
        groups.push_back(std::move(g));
    }
    res.groups.insert(res.groups.end(), groups.rbegin(), groups.rend());
}

// DNNVM's barriers (Optimus §2.2): operators with several inputs or several consumers.
bool isBarrier(const Network& net, LayerId v) {
    return net.layer(v).inputs.size() > 1 || net.successors(v).size() > 1;
}

} // namespace

PriorGroupCost priorGroupCost(const Network& net, const Hardware& hw,
                              const std::vector<LayerId>& members, int64_t capacity_bits) {
    PriorGroupCost g;
    // The smallest tile Optimus' own scheduler allows (Optimus Eq. 4: t_h ≥ min(T_h, O_h), line
    // buffer t_w = O_w): the prior works' cost does not depend on the tile, and any smaller
    // tile would let them fuse groups Optimus' scheduler cannot run.
    int64_t oh = 1, ow = 1;
    for (LayerId v : members) {
        oh = std::max(oh, net.layer(v).out.h);
        ow = std::max(ow, net.layer(v).out.w);
    }
    const std::vector<int64_t> rh =
        tileExtents(net, members, 0, std::min(optimusThroughput(hw).th, oh));
    const std::vector<int64_t> rw = tileExtents(net, members, 1, ow);
    int64_t fmap = 0;
    std::vector<LayerId> outside;
    for (size_t k = 0; k < members.size(); ++k) {
        const Layer& l = net.layer(members[k]);
        if (l.type != LayerType::concat) // a concat holds its producers' pixels, not its own
            fmap += l.out.c * rh[k] * rw[k];
        if (hasWeights(l.type)) g.params += layerWeights(layerDims(net, members[k]));
        bool output = net.successors(members[k]).empty();
        for (LayerId s : net.successors(members[k]))
            output = output || !inGroup(members, s);
        if (output) g.ofmap += l.out.elements();
        const LayerDims d = layerDims(net, members[k]);
        for (LayerId p : l.inputs) {
            if (inGroup(members, p)) continue;
            // The l = 0 term: the window of the outside input this member reads.
            const Shape in = net.layer(p).out;
            const int64_t eh = l.type == LayerType::concat ? rh[k] : d.windowY(rh[k]);
            const int64_t ew = l.type == LayerType::concat ? rw[k] : d.windowX(rw[k]);
            fmap += in.c * std::min(eh, in.h) * std::min(ew, in.w);
            if (std::find(outside.begin(), outside.end(), p) == outside.end()) {
                outside.push_back(p);
                g.ifmap += in.elements();
            }
        }
    }
    g.fmap_bits = fmap * hw.precision.act_bits;
    g.weight_bits = g.params * hw.precision.weight_bits;
    g.valid = g.fmap_bits + g.weight_bits <= capacity_bits;
    return g;
}

PriorFuserResult priorFuse(const Network& net, const Hardware& hw, PriorFuser kind,
                           int64_t capacity_bytes) {
    const int64_t capBits = (capacity_bytes >= 0 ? capacity_bytes : hw.buffer.bytes) * 8;
    const PriorCoster coster(net, hw, capBits);
    PriorFuserResult res;
    if (kind == PriorFuser::efficient_s) {
        std::vector<LayerId> proxy; // ids are a topological order: the linear proxy
        for (LayerId v = 0; v < net.size(); ++v)
            if (isOperator(net, v)) proxy.push_back(v);
        partitionRuns(proxy, coster, res);
    } else {
        std::vector<char> done(size_t(net.size()), 0);
        for (LayerId v = 0; v < net.size(); ++v) {
            if (!isOperator(net, v) || done[size_t(v)]) continue;
            std::vector<LayerId> chain{v};
            done[size_t(v)] = 1;
            // A chain between barriers: follow the only consumer while it is no barrier.
            if (!isBarrier(net, v))
                while (net.successors(chain.back()).size() == 1) {
                    const LayerId s = net.successors(chain.back()).front();
                    if (!isOperator(net, s) || isBarrier(net, s) || done[size_t(s)]) break;
                    chain.push_back(s);
                    done[size_t(s)] = 1;
                }
            partitionRuns(chain, coster, res);
        }
        std::sort(res.groups.begin(), res.groups.end());
    }
    return res;
}

} // namespace lf
