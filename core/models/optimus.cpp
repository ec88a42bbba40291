#include "models/optimus.h"

#include "network/dag.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace lf {

std::string optimusValidity(const Network& net, const std::vector<LayerId>& layers) {
    if (layers.empty()) return "the group is empty";
    if (layers.size() == 1) return {};
    if (!isWeaklyConnected(net, layers)) return "the layers are not connected";
    LayerId via = kNoLayer;
    if (fusingCreatesCycle(net, layers, &via))
        return "fusing creates a cycle through " + net.layer(via).name; // Optimus Alg. 1 ISValid
    return {};
}

OptimusThroughput optimusThroughput(const Hardware& hw) {
    // Footnote 4: T_* is the parallelism of the PE array along each dim of the dataflow.
    OptimusThroughput t;
    auto apply = [&](const std::vector<LoopDim>& axis, int64_t pes) {
        // A product of dims on one axis: the first one gets the parallelism.
        if (axis.empty()) return;
        switch (axis.front()) {
        case LoopDim::oc:
            t.tc *= pes;
            break;
        case LoopDim::oy:
            t.th *= pes;
            break;
        case LoopDim::ox:
            t.tw *= pes;
            break;
        default:
            break;
        }
    };
    apply(hw.pe_array.dataflow.cols, hw.pe_array.cols);
    apply(hw.pe_array.dataflow.rows, hw.pe_array.rows);
    return t;
}

namespace {

// A group over the network, with what the passes below ask of each member found once (the
// t_h search of optimusPlan() runs extents() a dozen times per group).
struct GroupView {
    GroupView(const Network& n, const std::vector<LayerId>& m)
        : net(n), members(m), dims(m.size()), consumed(m.size(), 0), output(m.size(), 0),
          prodBeg(m.size() + 1, 0) {
        for (size_t k = 0; k < m.size(); ++k) {
            const LayerId v = m[k];
            const Layer& l = net.layer(v);
            dims[k] = layerDims(net, v);
            const auto& succ = net.successors(v);
            output[k] = succ.empty();
            for (LayerId s : succ)
                (in(s) ? consumed[k] : output[k]) = 1;
            for (LayerId p : l.inputs)
                if (in(p)) producers.push_back(slot(p));
            prodBeg[k + 1] = producers.size();
        }
    }
    const Network& net;
    const std::vector<LayerId>& members;
    std::vector<LayerDims> dims;   // by member
    std::vector<char> consumed;    // by member: read by another member
    std::vector<char> output;      // by member: read outside the group, or by nothing
    std::vector<size_t> producers; // the members' in-group producers (slots), by member:
    std::vector<size_t> prodBeg;   // [prodBeg[k], prodBeg[k + 1])
    bool in(LayerId v) const { return std::binary_search(members.begin(), members.end(), v); }
    size_t slot(LayerId v) const {
        return size_t(std::lower_bound(members.begin(), members.end(), v) - members.begin());
    }
    bool isOutput(LayerId v) const { return output[slot(v)]; }
    // Rows (axis 0) or columns (axis 1) member k reads of its inputs for r of its own
    // (R(l−1) = (R(l)−1)·S + K; a concat passes its extent through).
    int64_t window(size_t k, int axis, int64_t r) const {
        if (net.layer(members[k]).type == LayerType::concat) return r;
        return axis == 0 ? dims[k].windowY(r) : dims[k].windowX(r);
    }
};

// R(l, t) along one axis for every member (axis 0 = height, 1 = width), Optimus §5.2.
std::vector<int64_t> extents(const GroupView& g, int axis, int64_t t) {
    std::vector<int64_t> r(g.members.size(), 0);
    for (size_t k = g.members.size(); k-- > 0;) {
        const Shape& o = g.net.layer(g.members[k]).out;
        const int64_t full = axis == 0 ? o.h : o.w;
        if (!g.consumed[k]) r[k] = std::max(r[k], std::min(t, full));
        r[k] = std::clamp<int64_t>(r[k], 1, full);
        if (g.prodBeg[k] == g.prodBeg[k + 1]) continue;
        const int64_t need = g.window(k, axis, r[k]);
        for (size_t j = g.prodBeg[k]; j < g.prodBeg[k + 1]; ++j)
            r[g.producers[j]] = std::max(r[g.producers[j]], need);
    }
    return r;
}

int64_t outputHeight(const GroupView& g) {
    int64_t h = 1;
    for (size_t k = 0; k < g.members.size(); ++k)
        if (g.output[k]) h = std::max(h, g.net.layer(g.members[k]).out.h);
    return h;
}
int64_t outputWidth(const GroupView& g) {
    int64_t w = 1;
    for (size_t k = 0; k < g.members.size(); ++k)
        if (g.output[k]) w = std::max(w, g.net.layer(g.members[k]).out.w);
    return w;
}

// The tensors the group reads from outside, each once (footnote 3 sums a group's inputs; a
// tensor read by several members is still one ifmap), with the first member reading it.
struct OutsideInput {
    LayerId producer = kNoLayer;
    size_t first_reader = 0;
};
std::vector<OutsideInput> outsideInputs(const GroupView& g) {
    std::vector<OutsideInput> out;
    for (size_t k = 0; k < g.members.size(); ++k)
        for (LayerId p : g.net.layer(g.members[k]).inputs) {
            if (g.in(p)) continue;
            const bool seen = std::any_of(out.begin(), out.end(),
                                          [&](const OutsideInput& o) { return o.producer == p; });
            if (!seen) out.push_back({p, k});
        }
    return out;
}

// Extent of an outside tensor along one axis: the largest window any member reads of it.
int64_t outsideExtent(const GroupView& g, LayerId producer, int axis,
                      const std::vector<int64_t>& r) {
    int64_t e = 1;
    for (size_t k = 0; k < g.members.size(); ++k)
        for (LayerId p : g.net.layer(g.members[k]).inputs)
            if (p == producer) e = std::max(e, g.window(k, axis, r[k]));
    return e;
}

// Rows (axis 0) or columns (axis 1) [lo, hi] of member v's input that its output interval
// [a, b] needs, clipped to the real input (padding is generated on chip, docs/models/README.md).
std::pair<int64_t, int64_t> inputInterval(const GroupView& g, LayerId v, int axis, int64_t a,
                                          int64_t b) {
    const Layer& l = g.net.layer(v);
    const LayerDims d = layerDims(g.net, v);
    const int64_t in = axis == 0 ? d.in_h : d.in_w;
    int64_t lo = a, hi = b;
    if (l.type != LayerType::concat && l.type != LayerType::add && l.type != LayerType::mul) {
        const int64_t S = axis == 0 ? d.Sy : d.Sx, E = axis == 0 ? d.En : d.Em;
        const int64_t pad = axis == 0 ? l.pad_t : l.pad_l;
        switch (d.window) {
        case WindowKind::conv: // R(l−1) = (R(l)−1)·S + K, placed
            lo = a * S - pad;
            hi = b * S - pad + E - 1;
            break;
        case WindowKind::deconv: { // output o = i·S − pad + k: i ∈ [⌈(a+pad−E+1)/S⌉, ⌊(b+pad)/S⌋]
            const int64_t num = a + pad - E + 1;
            lo = num >= 0 ? ceilDiv(num, S) : -((-num) / S);
            hi = (b + pad) / S;
            break;
        }
        case WindowKind::upsample: {
            const int64_t up = std::max<int64_t>(1, axis == 0 ? d.up_y : d.up_x);
            lo = a / up;
            hi = b / up + (d.bilinear ? 1 : 0);
            break;
        }
        }
    }
    return {std::max<int64_t>(0, lo), std::min(in - 1, hi)};
}

// Rows (axis 0) or columns (axis 1) each member computes over all sub-groups along the axis
// when the group's outputs are cut into tiles of `t` (the last one partial). Members that
// recompute (ISOA, Optimus §5.2) compute this much; the others keep the overlap in a line buffer.
std::vector<int64_t> computedExtent(const GroupView& g, int axis, int64_t t, int64_t full) {
    const size_t n = g.members.size();
    std::vector<int64_t> total(n, 0);
    std::vector<int64_t> lo(n), hi(n);
    t = std::clamp<int64_t>(t, 1, std::max<int64_t>(1, full));
    for (int64_t start = 0; start < full; start += t) {
        std::fill(lo.begin(), lo.end(), std::numeric_limits<int64_t>::max());
        std::fill(hi.begin(), hi.end(), -1);
        for (size_t k = n; k-- > 0;) {
            const LayerId v = g.members[k];
            const Shape& o = g.net.layer(v).out;
            const int64_t own = axis == 0 ? o.h : o.w;
            if (g.isOutput(v) && start < own) {
                lo[k] = std::min(lo[k], start);
                hi[k] = std::max(hi[k], std::min(start + t, own) - 1);
            }
            if (hi[k] < lo[k]) continue;
            total[k] += hi[k] - lo[k] + 1;
            for (LayerId p : g.net.layer(v).inputs) {
                if (!g.in(p)) continue;
                const auto [a, b] = inputInterval(g, v, axis, lo[k], hi[k]);
                if (b < a) continue;
                const size_t q = g.slot(p);
                lo[q] = std::min(lo[q], a);
                hi[q] = std::max(hi[q], b);
            }
        }
    }
    return total;
}

// Optimus Alg. 2: ISOA decision by DP in reverse topological order, cost at t_h·t_w = 1·1.
std::vector<char> isoaDecision(const GroupView& g, int64_t Tc) {
    const size_t n = g.members.size();
    const auto rh = extents(g, 0, 1), rw = extents(g, 1, 1);
    std::vector<int64_t> dp1(n), dp0(n);
    for (size_t k = n; k-- > 0;) {
        const LayerId v = g.members[k];
        const int64_t cout = g.net.layer(v).out.c;
        // Saturating: a layer below several parents counts once per path, so on wide DAGs the
        // sums grow with the number of paths (the saturated value only has to compare).
        dp1[k] = satMul(satMul(Tc, rh[k]), rw[k]);   // L2
        dp0[k] = satMul(satMul(cout, rh[k]), rw[k]); // L3
        for (LayerId s : g.net.successors(v)) {
            if (!g.in(s)) continue;
            const size_t q = g.slot(s);
            dp1[k] = satAdd(dp1[k], dp0[q]);                   // L5: successors do not use ISOA
            dp0[k] = satAdd(dp0[k], std::min(dp1[q], dp0[q])); // L6
        }
    }
    // L7-8: backtracking in topological order.
    std::vector<char> phi(n, 0);
    std::vector<char> forcedOff(n, 0);
    for (size_t k = 0; k < n; ++k) {
        phi[k] = !forcedOff[k] && dp1[k] < dp0[k];
        if (phi[k])
            for (LayerId s : g.net.successors(g.members[k]))
                if (g.in(s)) forcedOff[g.slot(s)] = 1;
    }
    return phi;
}

} // namespace

int64_t optimusMemoryCost(const Network& net, const std::vector<LayerId>& group, int64_t t_h,
                          int64_t t_w, bool weights_once) {
    const GroupView g{net, group};
    int64_t ifmap = 0, ofmap = 0, params = 0;
    for (const OutsideInput& o : outsideInputs(g))
        ifmap += net.layer(o.producer).out.elements();
    for (LayerId v : group) {
        if (g.isOutput(v)) ofmap += net.layer(v).out.elements();
        params += layerWeights(layerDims(net, v));
    }
    const int64_t oh = outputHeight(g), ow = outputWidth(g);
    const int64_t sub =
        ceilDiv(oh, std::clamp<int64_t>(t_h, 1, oh)) * ceilDiv(ow, std::clamp<int64_t>(t_w, 1, ow));
    return satAdd(ifmap + ofmap, satMul(weights_once ? 1 : sub, params)); // Optimus Eq. 3
}

OptimusPlan optimusPlan(const Network& net, const Hardware& hw, const std::vector<LayerId>& group,
                        int64_t capacity_bits, int64_t fixed_h, int64_t fixed_w) {
    const GroupView g{net, group};
    const OptimusThroughput tp = optimusThroughput(hw);
    OptimusPlan plan;
    plan.isoa = isoaDecision(g, tp.tc);
    const size_t n = group.size();
    plan.tc.resize(n);
    for (size_t k = 0; k < n; ++k) {
        const int64_t cout = net.layer(group[k]).out.c;
        plan.tc[k] = plan.isoa[k] ? std::min(tp.tc, cout) : cout; // Optimus Eq. 4 t_c(l)
    }
    const std::vector<OutsideInput> outside = outsideInputs(g);
    for (const OutsideInput& o : outside)
        plan.ifmap += net.layer(o.producer).out.elements();
    for (size_t k = 0; k < n; ++k) {
        if (g.output[k]) plan.ofmap += net.layer(group[k]).out.elements();
        plan.weights += layerWeights(g.dims[k]);
    }
    const int64_t oh = outputHeight(g), ow = outputWidth(g);
    const int64_t tw = fixed_w > 0 ? std::min(fixed_w, ow) : ow; // line buffer: t_w = O_w
    const auto rw = extents(g, 1, tw);
    // Optimus Eq. 4 left-hand side: Σ t_c(l)·R_h(l, t_h)·R_w(l, t_w) over the group's fmaps (each
    // outside input once, with all its channels and the largest window read of it, then
    // every operator's output).
    std::vector<int64_t> outsideW; // each outside tensor's width term, the same for every t_h
    for (const OutsideInput& o : outside)
        outsideW.push_back(net.layer(o.producer).out.c * outsideExtent(g, o.producer, 1, rw));
    auto fmap = [&](int64_t th) {
        const auto rh = extents(g, 0, th);
        int64_t total = 0;
        for (size_t j = 0; j < outside.size(); ++j)
            total += outsideW[j] * outsideExtent(g, outside[j].producer, 0, rh);
        for (size_t k = 0; k < n; ++k)
            if (net.layer(group[k]).type != LayerType::concat) total += plan.tc[k] * rh[k] * rw[k];
        return total;
    };
    const int64_t abits = hw.precision.act_bits, wbits = hw.precision.weight_bits;
    const int64_t wBits = plan.weights * wbits;
    auto fits = [&](int64_t th, bool withWeights) {
        return fmap(th) * abits + (withWeights ? wBits : 0) <= capacity_bits;
    };
    // Largest t_h in [min(T_h, O_h), O_h] meeting the constraint (fmap grows with t_h).
    auto maxTh = [&](bool withWeights) -> int64_t {
        int64_t lo = std::min(tp.th, oh), hi = oh;
        if (!fits(lo, withWeights)) return 0;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo + 1) / 2;
            if (fits(mid, withWeights))
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    };
    auto subgroups = [&](int64_t th) { return ceilDiv(oh, th) * ceilDiv(ow, tw); };
    if (fixed_h > 0) {
        plan.t_h = std::min(fixed_h, oh);
        plan.feasible = fits(plan.t_h, false);
        plan.weights_resident = fits(plan.t_h, true);
    } else {
        const int64_t tRes = maxTh(true), tStream = maxTh(false);
        if (tStream == 0) {
            plan.feasible = false; // Optimus Eq. 4 has no solution: the group is invalid
            plan.t_h = std::min(tp.th, oh);
        } else {
            const int64_t costStream = satMul(subgroups(tStream), plan.weights);
            if (tRes > 0 && plan.weights <= costStream) {
                plan.t_h = tRes;
                plan.weights_resident = true;
            } else {
                plan.t_h = tStream;
            }
        }
    }
    plan.t_w = tw;
    plan.fmap_buffer = fmap(plan.t_h);
    plan.subgroups = subgroups(plan.t_h);
    plan.memory_cost = satAdd(plan.ifmap + plan.ofmap,
                              satMul(plan.weights_resident ? 1 : plan.subgroups, plan.weights));
    return plan;
}

GroupCost optimusGroup(const Network& net, const Hardware& hw, const Schedule&,
                       const FusionGroup& group) {
    const GroupView g{net, group.layers};
    const Precision& prec = hw.precision;
    const int64_t cap = hw.buffer.bits();
    const int64_t fh = group.out_tile ? group.out_tile->h : 0;
    const int64_t fw = group.out_tile ? group.out_tile->w : 0;
    const OptimusPlan plan = optimusPlan(net, hw, group.layers, cap, fh, fw);
    const bool resident = plan.weights_resident || group.weights_resident;
    const auto rh = extents(g, 0, plan.t_h), rw = extents(g, 1, plan.t_w);
    const int64_t subH = ceilDiv(outputHeight(g), plan.t_h);
    const auto rowsComputed = computedExtent(g, 0, plan.t_h, outputHeight(g));
    const auto colsComputed = computedExtent(g, 1, plan.t_w, outputWidth(g));
    const std::vector<OutsideInput> outside = outsideInputs(g);

    GroupCost gc;
    gc.layers.resize(group.layers.size());
    for (size_t k = 0; k < group.layers.size(); ++k) {
        const LayerId v = group.layers[k];
        const Layer& l = net.layer(v);
        LayerCost& lc = gc.layers[k];
        lc.id = v;
        const LayerDims d = layerDims(net, v);
        const int64_t plain = layerMacs(d);
        // ISOA operators recompute the overlap of adjacent sub-groups (Optimus §5.2); the others
        // keep it in a line buffer. Over all sub-groups an ISOA operator computes
        // rowsComputed × colsComputed outputs of its out.h × out.w map (windows clipped to
        // the real map, the last sub-group at its real size).
        lc.macs = plain;
        const int64_t area = l.out.h * l.out.w;
        const int64_t computed = satMul(rowsComputed[k], colsComputed[k]);
        if (plan.isoa[k] && area > 0 && computed > area) {
            lc.macs = plain % area == 0
                          ? satMul(plain / area, computed)
                          : satFromDouble(double(plain) * double(computed) / double(area));
        }
        lc.recompute_macs = lc.macs - plain;
        if (l.type != LayerType::concat) lc.buf_y = plan.tc[k] * rh[k] * rw[k];
        for (const OutsideInput& o : outside) {
            if (o.first_reader != k) continue; // a shared tensor is loaded once
            const Shape in = net.layer(o.producer).out;
            lc.buf_x +=
                in.c * outsideExtent(g, o.producer, 0, rh) * outsideExtent(g, o.producer, 1, rw);
            lc.dram.input += in.elements(); // Optimus Eq. 3 |ifmap|
            lc.transfers.push_back({TrafficKind::input, plan.subgroups, in.c, ceilDiv(in.h, subH),
                                    in.w, in.w, prec.act_bits});
        }
        if (g.isOutput(v)) {
            lc.dram.output += l.out.elements(); // Optimus Eq. 3 |ofmap|
            lc.transfers.push_back({TrafficKind::output, plan.subgroups, l.out.c,
                                    ceilDiv(l.out.h, subH), std::min(plan.t_w, l.out.w), l.out.w,
                                    prec.act_bits});
        }
        const int64_t w = layerWeights(d);
        if (w > 0) {
            const int64_t loads = resident ? 1 : plan.subgroups; // Optimus Eq. 3 parameter term
            lc.dram.weight = satMul(loads, w);
            lc.buf_w = resident ? w : 0;
            lc.transfers.push_back({TrafficKind::weight, loads, 1, 1, w, w, prec.weight_bits});
        }
    }
    // Buffer: the fmaps of Optimus Eq. 4 at psum/act precision, plus the parameters when resident.
    gc.buffer_bits =
        plan.fmap_buffer * prec.act_bits + (resident ? plan.weights * prec.weight_bits : 0);
    gc.tiles = plan.subgroups;
    gc.out_tile_h = plan.t_h;
    gc.out_tile_w = plan.t_w;
    gc.weights_batch_reused = resident;
    if (!plan.feasible)
        gc.warnings.push_back(
            "Optimus Eq. 4 has no solution: the fmaps of the smallest tile exceed the buffer");
    return gc;
}

} // namespace lf
