#include "reference_optimus_coster.h"

#include "models/optimus.h"
#include "util/checked.h"

#include <algorithm>

namespace lf::test {

inline int64_t ReferenceOptimusCoster::vertexWindow(size_t v, int axis, int64_t r) const {
    const Window& w = vwin_[2 * v + size_t(axis)];
    switch (w.kind) {
    case Window::identity:
        return r;
    case Window::conv:
        return std::min((r - 1) * w.stride + w.extent, w.input); // (T−1)·S + E, clipped
    case Window::other:
        break;
    }
    const LayerDims& d = dims_[v];
    return axis == 0 ? d.windowY(r) : d.windowX(r);
}

// Input extent member k reads for an output extent r (a concat passes it through).
inline int64_t ReferenceOptimusCoster::window(size_t k, int axis, int64_t r) const {
    return vertexWindow(size_t((*m_)[k]), axis, r);
}

ReferenceOptimusCoster::ReferenceOptimusCoster(const Network& net, const Hardware& hw,
                                               int64_t capacity_bits)
    : cap_(capacity_bits), abits_(hw.precision.act_bits), wbits_(hw.precision.weight_bits) {
    const OptimusThroughput tp = optimusThroughput(hw);
    Tc_ = tp.tc;
    Th_ = tp.th;
    const size_t n = size_t(net.size());
    dims_.resize(n);
    weights_.assign(n, 0);
    outC_.resize(n);
    outH_.resize(n);
    outW_.resize(n);
    elems_.resize(n);
    concat_.resize(n);
    inStart_.assign(n + 1, 0);
    succStart_.assign(n + 1, 0);
    for (LayerId v = 0; v < net.size(); ++v) {
        const Layer& l = net.layer(v);
        if (l.type != LayerType::input) {
            dims_[size_t(v)] = layerDims(net, v);
            weights_[size_t(v)] = layerWeights(dims_[size_t(v)]);
        }
        outC_[size_t(v)] = l.out.c;
        outH_[size_t(v)] = l.out.h;
        outW_[size_t(v)] = l.out.w;
        elems_[size_t(v)] = l.out.elements();
        concat_[size_t(v)] = l.type == LayerType::concat;
        inList_.insert(inList_.end(), l.inputs.begin(), l.inputs.end());
        inStart_[size_t(v) + 1] = int32_t(inList_.size());
        const auto& s = net.successors(v);
        succList_.insert(succList_.end(), s.begin(), s.end());
        succStart_[size_t(v) + 1] = int32_t(succList_.size());
    }
    vwin_.resize(2 * n);
    for (size_t v = 0; v < n; ++v) {
        const LayerDims& d = dims_[v];
        for (int axis = 0; axis < 2; ++axis) {
            Window& w = vwin_[2 * v + size_t(axis)];
            w.kind = concat_[v]                     ? Window::identity
                     : d.window == WindowKind::conv ? Window::conv
                                                    : Window::other;
            w.stride = axis == 0 ? d.Sy : d.Sx;
            w.extent = axis == 0 ? d.En : d.Em;
            w.input = axis == 0 ? d.in_h : d.in_w;
        }
    }
    // Square maps and windows (the common case): both axes have the same extents.
    symmetric_ = true;
    for (size_t v = 0; v < n && symmetric_; ++v) {
        const Window &y = vwin_[2 * v], &x = vwin_[2 * v + 1];
        symmetric_ = outH_[v] == outW_[v] && y.kind == x.kind && y.stride == x.stride &&
                     y.extent == x.extent && y.input == x.input;
        for (int64_t r = 1; symmetric_ && y.kind == Window::other && r <= outH_[v]; ++r)
            symmetric_ = vertexWindow(v, 0, r) == vertexWindow(v, 1, r);
    }
    slot_.assign(n, -1);
    outIndex_.assign(n, -1);
    charged_.assign(n, 0);
    joinable_.assign(n, 1);
    for (LayerId v = 0; v < net.size(); ++v)
        joinable_[size_t(v)] = net.layer(v).type != LayerType::input;
}

void ReferenceOptimusCoster::setJoinable(const std::vector<char>& vertex) {
    for (size_t v = 0; v < joinable_.size(); ++v)
        joinable_[v] = v < vertex.size() && vertex[v];
}

void ReferenceOptimusCoster::begin(const std::vector<LayerId>& members) {
    m_ = &members;
    const size_t n = members.size();
    for (size_t k = 0; k < n; ++k)
        slot_[size_t(members[k])] = int32_t(k);
    inside_.assign(n, 0);
    output_.assign(n, 0);
    prodStart_.assign(n + 1, 0);
    childStart_.assign(n + 1, 0);
    prodSlot_.clear();
    childSlot_.clear();
    outside_.clear();
    readers_.clear();
    mayForce_.assign(n, 0);
    for (size_t k = 0; k < n; ++k) {
        const size_t v = size_t(members[k]);
        if (succStart_[v] == succStart_[v + 1]) output_[k] = 1;
        for (int32_t e = succStart_[v]; e < succStart_[v + 1]; ++e) {
            const int32_t q = slot_[size_t(succList_[size_t(e)])];
            if (q >= 0) {
                inside_[k] = 1;
                childSlot_.push_back(q);
            } else {
                output_[k] = 1;
            }
        }
        childStart_[k + 1] = int32_t(childSlot_.size());
        // The tensors read from outside, each once (footnote 3; models/optimus.cpp).
        for (int32_t e = inStart_[v]; e < inStart_[v + 1]; ++e) {
            const LayerId p = inList_[size_t(e)];
            const int32_t q = slot_[size_t(p)];
            if (q >= 0) {
                prodSlot_.push_back(q);
                continue;
            }
            mayForce_[k] |= joinable_[size_t(p)];
            if (outIndex_[size_t(p)] < 0) {
                outIndex_[size_t(p)] = int32_t(outside_.size());
                outside_.push_back(p);
            }
            readers_.push_back({outIndex_[size_t(p)], int32_t(k)});
        }
        prodStart_[k + 1] = int32_t(prodSlot_.size());
    }
    for (auto* v : {&rh_, &rw_, &dp1_, &dp0_, &tc_})
        v->resize(n);
    eh_.resize(outside_.size());
    ew_.resize(outside_.size());
}

void ReferenceOptimusCoster::end() {
    for (LayerId v : *m_)
        slot_[size_t(v)] = -1;
    for (LayerId p : outside_)
        outIndex_[size_t(p)] = -1;
    m_ = nullptr;
}

// R(l, t) of Optimus §5.2 along one axis (0 = height, 1 = width): R(n, t) = t at the group's
// outputs, R(l−1, t) = R(l, t)·S + K − S, clipped to the real maps.
void ReferenceOptimusCoster::extents(int axis, int64_t t, std::vector<int64_t>& r) const {
    const size_t n = m_->size();
    std::fill(r.begin(), r.end(), 0);
    for (size_t k = n; k-- > 0;) {
        const size_t v = size_t((*m_)[k]);
        const int64_t full = axis == 0 ? outH_[v] : outW_[v];
        if (!inside_[k]) r[k] = std::max(r[k], std::min(t, full));
        r[k] = std::clamp<int64_t>(r[k], 1, full);
        if (prodStart_[k] == prodStart_[k + 1]) continue;
        const int64_t need = window(k, axis, r[k]);
        for (int32_t e = prodStart_[k]; e < prodStart_[k + 1]; ++e) {
            int64_t& rq = r[size_t(prodSlot_[size_t(e)])];
            rq = std::max(rq, need);
        }
    }
}

// The largest window any member reads of each outside tensor along one axis.
void ReferenceOptimusCoster::outsideExtents(int axis, const std::vector<int64_t>& r,
                                            std::vector<int64_t>& e) const {
    std::fill(e.begin(), e.end(), 1);
    for (const auto& [o, k] : readers_)
        e[size_t(o)] = std::max(e[size_t(o)], window(size_t(k), axis, r[size_t(k)]));
}

// Optimus Alg. 2: ISOA decision at t_h · t_w = 1 · 1, then the Optimus Eq. 4 channel tiles t_c(l).
void ReferenceOptimusCoster::isoa() {
    const size_t n = m_->size();
    ah_.resize(n);
    aw_.resize(n);
    extents(0, 1, ah_);
    if (symmetric_)
        std::copy(ah_.begin(), ah_.end(), aw_.begin());
    else
        extents(1, 1, aw_);
    for (size_t k = n; k-- > 0;) {
        const int64_t area = ah_[k] * aw_[k];
        dp1_[k] = Tc_ * area;
        dp0_[k] = outC_[size_t((*m_)[k])] * area;
        for (int32_t e = childStart_[k]; e < childStart_[k + 1]; ++e) {
            const size_t q = size_t(childSlot_[size_t(e)]);
            // Saturating: a child below several parents counts once per path.
            dp1_[k] = satAdd(dp1_[k], dp0_[q]);
            dp0_[k] = satAdd(dp0_[k], std::min(dp1_[q], dp0_[q]));
        }
    }
    phi_.assign(n, 0);
    forced_.assign(n, 0);
    for (size_t k = 0; k < n; ++k) {
        phi_[k] = !forced_[k] && dp1_[k] < dp0_[k];
        if (phi_[k])
            for (int32_t e = childStart_[k]; e < childStart_[k + 1]; ++e)
                forced_[size_t(childSlot_[size_t(e)])] = 1;
        const int64_t cout = outC_[size_t((*m_)[k])];
        tc_[k] = phi_[k] ? std::min(Tc_, cout) : cout;
    }
}

// Optimus Eq. 4 left-hand side at t_h (rw_ and ew_ hold the width extents): every outside tensor
// once with all its channels and the largest window read of it, then every operator's
// output.
int64_t ReferenceOptimusCoster::fmap(int64_t th) {
    extents(0, th, rh_);
    outsideExtents(0, rh_, eh_);
    return fmapHere();
}

// fmap() at the extents already in rh_, rw_, eh_, ew_.
int64_t ReferenceOptimusCoster::fmapHere() const {
    int64_t total = 0;
    for (size_t o = 0; o < outside_.size(); ++o)
        total += outC_[size_t(outside_[o])] * eh_[o] * ew_[o];
    for (size_t k = 0; k < m_->size(); ++k)
        if (!concat_[size_t((*m_)[k])]) total += tc_[k] * rh_[k] * rw_[k];
    return total;
}

ReferenceOptimusCoster::Cost ReferenceOptimusCoster::cost(const std::vector<LayerId>& members) {
    begin(members);
    int64_t ifmap = 0, ofmap = 0, weights = 0, oh = 1, ow = 1;
    for (LayerId p : outside_)
        ifmap += elems_[size_t(p)];
    for (size_t k = 0; k < members.size(); ++k) {
        const size_t v = size_t(members[k]);
        if (output_[k]) {
            ofmap += elems_[v];
            oh = std::max(oh, outH_[v]);
            ow = std::max(ow, outW_[v]);
        }
        weights += weights_[v];
    }
    extents(1, ow, rw_); // line buffer: t_w = O_w
    outsideExtents(1, rw_, ew_);
    const int64_t lo = std::min(Th_, oh);
    if (symmetric_ && lo == ow) {
        std::copy(rw_.begin(), rw_.end(), rh_.begin());
        std::copy(ew_.begin(), ew_.end(), eh_.begin());
    } else {
        extents(0, lo, rh_);
        outsideExtents(0, rh_, eh_);
    }
    Cost c;
    c.memory_cost = satAdd(ifmap + ofmap, satMul(ceilDiv(oh, lo), weights)); // infeasible: t_h = lo
    // Before the ISOA decision: every operator at min(T_c, C_out) and the outside inputs
    // as they are bound the fmaps at the smallest tile from below. Most groups the DP forms
    // exceed the buffer already there, and most of those for good (see below).
    int64_t weakest = 0, outsideNow = 0;
    for (size_t k = 0; k < members.size(); ++k)
        if (!concat_[size_t(members[k])])
            weakest += std::min(Tc_, outC_[size_t(members[k])]) * rh_[k] * rw_[k];
    for (size_t o = 0; o < outside_.size(); ++o)
        outsideNow += outC_[size_t(outside_[o])] * eh_[o] * ew_[o];
    const int64_t capElems = cap_ / abits_;
    if (weakest + outsideNow > capElems) {
        c.feasible = false;
        c.lower_bound_bits = weakest * abits_;
        if (weakest + outsideBound(false) > capElems) { // hopeless before the ISOA decision
            c.hopeless = true;
            end();
            return c;
        }
    }
    isoa();
    // What every group holding this one needs at least (at the smallest tile its extents
    // only grow): its operators under any ISOA decision its tops may be forced into
    // (summable over disjoint groups), and its outside inputs at no fewer channels than
    // they will hold there. An infeasible group gets the exact minimum over the ISOA
    // decisions when it has few tops (lowerBound()).
    const int64_t fLo = fmapHere();
    const int64_t ops = operatorBound(), outside = outsideBound(true);
    c.lower_bound_bits = ops * abits_;
    c.hopeless = ops + outside > capElems;
    if (!c.hopeless && fLo > capElems) { // the exact minimum over the tops' decisions, if few
        const int64_t plain = outsideBound(false);
        c.hopeless = lowerBound(capElems - plain) + plain > capElems;
    }
    if (fLo > capElems) {
        c.feasible = false; // Optimus Eq. 4 has no solution; optimusPlan keeps t_h = lo
    } else if (fLo * abits_ + weights * wbits_ <= cap_) {
        c.weights_resident =
            true; // resident at the largest t_h that fits: Optimus Eq. 3 with Σ|param| once
        c.memory_cost = ifmap + ofmap + weights;
    } else {
        // Streamed weights: the largest t_h meeting Optimus Eq. 4 sets the number of sub-groups
        // ⌈O_h / t_h⌉, which is all Optimus Eq. 3 needs: the fewest sub-groups k whose tile
        // max(lo, ⌈O_h / k⌉) fits (fmap grows with t_h, so the test is monotone in k; lo fits).
        int64_t a = 1, b = ceilDiv(oh, lo);
        while (a < b) {
            const int64_t mid = a + (b - a) / 2;
            if (fmap(std::max(lo, ceilDiv(oh, mid))) <= capElems)
                b = mid;
            else
                a = mid + 1;
        }
        c.memory_cost = satAdd(ifmap + ofmap, satMul(a, weights)); // Optimus Eq. 3
    }
    end();
    return c;
}

// The operators' fmap terms at the current extents (rh_, rw_) with every member that any
// supergroup could make an ISOA operator at min(T_c, C_out): a member is certainly not ISOA
// when Optimus Alg. 2 never picks it (dp1 ≥ dp0) or a parent inside the group certainly is (it is
// forced off); only the tops' outside parents are unknown here, and a member they may force
// stays undecided. One pass; a lower bound of every decision the tops allow.
int64_t ReferenceOptimusCoster::operatorBound() {
    const auto& m = *m_;
    const size_t n = m.size();
    state_.resize(n);
    int64_t total = 0;
    for (size_t k = 0; k < n; ++k) {
        const size_t v = size_t(m[k]);
        bool forced = false;
        bool maybe = mayBeForced(k);
        for (int32_t e = prodStart_[k]; e < prodStart_[k + 1]; ++e) {
            const char p = state_[size_t(prodSlot_[size_t(e)])];
            forced = forced || p == kIsoa;
            maybe = maybe || p == kMaybe;
        }
        state_[k] = dp1_[k] >= dp0_[k] || forced ? kNotIsoa : maybe ? kMaybe : kIsoa;
        if (!concat_[v])
            total += (state_[k] == kNotIsoa ? outC_[v] : std::min(Tc_, outC_[v])) * rh_[k] * rw_[k];
    }
    // Of a producer and its consumer that are both undecided, one holds all its channels (if
    // the producer is ISOA the consumer is forced off): over a matching of such edges, the
    // smaller of the two differences is owed at least once per edge.
    auto extra = [&](size_t k) {
        const size_t v = size_t(m[k]);
        return (outC_[v] - std::min(Tc_, outC_[v])) * rh_[k] * rw_[k];
    };
    matched_.assign(n, 0);
    for (size_t k = 0; k < n; ++k) {
        if (state_[k] != kMaybe || concat_[size_t(m[k])]) continue;
        for (int32_t e = prodStart_[k]; e < prodStart_[k + 1] && !matched_[k]; ++e) {
            const size_t p = size_t(prodSlot_[size_t(e)]);
            if (state_[p] != kMaybe || concat_[size_t(m[p])] || matched_[p]) continue;
            total += std::min(extra(p), extra(k));
            matched_[p] = matched_[k] = 1;
        }
    }
    return total;
}

// Whether a supergroup can give member k a new parent: one of its producers outside the
// group may join it (Optimus Alg. 2 L5 may then force k off).
bool ReferenceOptimusCoster::mayBeForced(size_t k) const {
    return mayForce_[k]; // found by begin()
}

// The outside inputs' terms at the current extents (eh_, ew_) at the fewest channels they
// hold in any supergroup: all of them when their producer can never join (an input), else
// min(T_c, C) as the producer's own output, or for a concat what its inputs hold.
//
// With the members' ISOA states known (operatorBound()), a producer that joins at
// min(T_c, C) is an ISOA operator and forces its readers off (Optimus Alg. 2 L5): each reader that
// operatorBound() counted at min(T_c, C_out) then holds C_out, so that producer costs at
// least its share of the difference (a reader with d outside producers charges each 1/d,
// so a reader forced twice is not counted twice; one operatorBound() already charged in a
// matched edge charges nothing here). A tensor costs the lesser of all its
// channels (outside, or produced by a non-ISOA operator) and that.
int64_t ReferenceOptimusCoster::outsideBound(bool withStates) {
    const size_t n = m_->size();
    if (withStates) {
        share_.assign(n, 0);
        degree_.assign(n, 0);
        for (const auto& r : readers_)
            ++degree_[size_t(r.second)];
        for (size_t k = 0; k < n; ++k) {
            const size_t v = size_t((*m_)[k]);
            if (degree_[k] > 0 && state_[k] != kNotIsoa && !concat_[v] && !matched_[k])
                share_[k] = (outC_[v] - std::min(Tc_, outC_[v])) * rh_[k] * rw_[k] / degree_[k];
        }
        std::fill(extra_.begin(), extra_.end(), 0);
        extra_.resize(outside_.size(), 0);
        for (const auto& [o, k] : readers_)
            extra_[size_t(o)] += share_[size_t(k)];
    }
    // A producer that joins brings its own inputs along (outside, or joined themselves):
    // each input tensor is charged once, to the first tensor whose producer reads it.
    ++stamp_;
    int64_t total = 0;
    for (size_t o = 0; o < outside_.size(); ++o) {
        const size_t p = size_t(outside_[o]);
        const int64_t area = eh_[o] * ew_[o];
        int64_t c = outC_[p] * area;
        if (joinable_[p]) {
            const int64_t joined =
                concat_[p] ? concatBound(p, 0) * area
                           : std::min(Tc_, outC_[p]) * area + inputsBound(p, eh_[o], ew_[o]);
            c = std::min(c, joined + (withStates ? extra_[o] : 0));
        }
        total += c;
    }
    return total;
}

// What the inputs of a producer `p` joined at extents eh × ew hold at least: the window it
// reads of each, at min(T_c, C) channels if that input may join too, else all of them.
int64_t ReferenceOptimusCoster::inputsBound(size_t p, int64_t eh, int64_t ew) {
    int64_t total = 0;
    const int64_t wh = vertexWindow(p, 0, eh), ww = vertexWindow(p, 1, ew);
    for (int32_t e = inStart_[p]; e < inStart_[p + 1]; ++e) {
        const size_t q = size_t(inList_[size_t(e)]);
        if (outIndex_[q] >= 0 || slot_[q] >= 0 || charged_[q] == stamp_) continue;
        charged_[q] = stamp_;
        const int64_t c = !joinable_[q] ? outC_[q]
                          : concat_[q]  ? std::min(outC_[q], concatBound(q, 1))
                                        : std::min(Tc_, outC_[q]);
        total += c * wh * ww;
    }
    return total;
}

// Channels a joined concat's inputs hold at least (a concat passes windows through and
// holds no fmap of its own): each input at min(T_c, C) if it may join, all of C if not,
// recursively through concats; inputs that are the group's own outside tensors are counted
// there already.
int64_t ReferenceOptimusCoster::concatBound(size_t concat, int depth) {
    if (depth > 8) return 0;
    int64_t total = 0;
    for (int32_t e = inStart_[concat]; e < inStart_[concat + 1]; ++e) {
        const size_t q = size_t(inList_[size_t(e)]);
        if (outIndex_[q] >= 0 || slot_[q] >= 0 || charged_[q] == stamp_) continue;
        charged_[q] = stamp_;
        total += !joinable_[q] ? outC_[q]
                 : concat_[q]  ? std::min(outC_[q], concatBound(q, depth + 1))
                               : std::min(Tc_, outC_[q]);
    }
    return total;
}

// The operators' fmap terms at the current extents (rh_, rw_) for the least favourable
// ISOA decisions a larger group can impose. Adding upstream operators changes nothing
// below them but the "forced off" flags of the members fed from outside (Optimus Alg. 2 L5), so
// the minimum over those flags bounds every group that holds this one. Exact with up to
// six tops (members that would be ISOA and may be forced off), else operatorBound(); once a
// decision stays within `limit` the search stops (the group is not hopeless) and returns that
// decision's terms.
int64_t ReferenceOptimusCoster::lowerBound(int64_t limit) {
    const auto& m = *m_;
    const size_t n = m.size();
    std::vector<size_t>& tops = tops_;
    tops.clear();
    for (size_t k = 0; k < n; ++k)
        if (dp1_[k] < dp0_[k] && mayBeForced(k)) tops.push_back(k); // forcing matters
    auto sumFor = [&](uint32_t mask) {
        std::fill(forced_.begin(), forced_.end(), 0);
        for (size_t b = 0; b < tops.size(); ++b)
            if (mask >> b & 1) forced_[tops[b]] = 1;
        int64_t total = 0;
        for (size_t k = 0; k < n; ++k) {
            const size_t v = size_t(m[k]);
            const bool isoa = !forced_[k] && dp1_[k] < dp0_[k];
            if (isoa)
                for (int32_t e = childStart_[k]; e < childStart_[k + 1]; ++e)
                    forced_[size_t(childSlot_[size_t(e)])] = 1;
            if (!concat_[v]) total += (isoa ? std::min(Tc_, outC_[v]) : outC_[v]) * rh_[k] * rw_[k];
        }
        return total;
    };
    if (tops.size() > 6) return operatorBound();
    int64_t best = INT64_MAX;
    for (uint32_t mask = 0; mask < (1u << tops.size()); ++mask) {
        best = std::min(best, sumFor(mask));
        if (best <= limit) break; // not hopeless: the exact minimum does not matter
    }
    return best;
}

int64_t ReferenceOptimusCoster::fmapAt(const std::vector<LayerId>& members, int64_t t_h,
                                       int64_t t_w) {
    begin(members);
    isoa();
    extents(1, t_w, rw_);
    outsideExtents(1, rw_, ew_);
    const int64_t f = fmap(t_h);
    end();
    return f;
}

} // namespace lf::test
