#include "search/optimus_coster.h"

#include "models/optimus.h"
#include "util/checked.h"

#include <algorithm>

namespace lf {

OptimusCoster::OptimusCoster(const Network& net, const Hardware& hw, int64_t capacity_bits)
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
    slot_.assign(n, -1);
    outIndex_.assign(n, -1);
}

void OptimusCoster::begin(const std::vector<LayerId>& members) {
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
    win_.resize(2 * n);
    for (size_t k = 0; k < n; ++k) {
        const size_t v = size_t(members[k]);
        const LayerDims& d = dims_[v];
        for (int axis = 0; axis < 2; ++axis) {
            Window& w = win_[2 * k + size_t(axis)];
            w.kind = concat_[v]                     ? Window::identity
                     : d.window == WindowKind::conv ? Window::conv
                                                    : Window::other;
            w.stride = axis == 0 ? d.Sy : d.Sx;
            w.extent = axis == 0 ? d.En : d.Em;
            w.input = axis == 0 ? d.in_h : d.in_w;
        }
    }
    eh_.resize(outside_.size());
    ew_.resize(outside_.size());
}

void OptimusCoster::end() {
    for (LayerId v : *m_)
        slot_[size_t(v)] = -1;
    for (LayerId p : outside_)
        outIndex_[size_t(p)] = -1;
    m_ = nullptr;
}

// Input extent member k reads for an output extent r (a concat passes it through).
int64_t OptimusCoster::window(size_t k, int axis, int64_t r) const {
    const Window& w = win_[2 * k + size_t(axis)];
    switch (w.kind) {
    case Window::identity:
        return r;
    case Window::conv:
        return std::min((r - 1) * w.stride + w.extent, w.input); // (T−1)·S + E, clipped
    case Window::other:
        break;
    }
    const LayerDims& d = dims_[size_t((*m_)[k])];
    return axis == 0 ? d.windowY(r) : d.windowX(r);
}

// R(l, t) of Optimus §5.2 along one axis (0 = height, 1 = width): R(n, t) = t at the group's
// outputs, R(l−1, t) = R(l, t)·S + K − S, clipped to the real maps.
void OptimusCoster::extents(int axis, int64_t t, std::vector<int64_t>& r) const {
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
void OptimusCoster::outsideExtents(int axis, const std::vector<int64_t>& r,
                                   std::vector<int64_t>& e) const {
    std::fill(e.begin(), e.end(), 1);
    for (const auto& [o, k] : readers_)
        e[size_t(o)] = std::max(e[size_t(o)], window(size_t(k), axis, r[size_t(k)]));
}

// Optimus Alg. 2: ISOA decision at t_h · t_w = 1 · 1, then the Optimus Eq. 4 channel tiles t_c(l).
void OptimusCoster::isoa() {
    const size_t n = m_->size();
    extents(0, 1, rh_);
    extents(1, 1, rw_);
    for (size_t k = n; k-- > 0;) {
        const int64_t area = rh_[k] * rw_[k];
        dp1_[k] = Tc_ * area;
        dp0_[k] = outC_[size_t((*m_)[k])] * area;
        for (int32_t e = childStart_[k]; e < childStart_[k + 1]; ++e) {
            const size_t q = size_t(childSlot_[size_t(e)]);
            dp1_[k] += dp0_[q];
            dp0_[k] += std::min(dp1_[q], dp0_[q]);
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
int64_t OptimusCoster::fmap(int64_t th) {
    extents(0, th, rh_);
    outsideExtents(0, rh_, eh_);
    int64_t total = 0;
    for (size_t o = 0; o < outside_.size(); ++o)
        total += outC_[size_t(outside_[o])] * eh_[o] * ew_[o];
    for (size_t k = 0; k < m_->size(); ++k)
        if (!concat_[size_t((*m_)[k])]) total += tc_[k] * rh_[k] * rw_[k];
    return total;
}

OptimusCoster::Cost OptimusCoster::cost(const std::vector<LayerId>& members) {
    begin(members);
    isoa();
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
    const int64_t fLo = fmap(lo) * abits_;
    Cost c;
    // The bound is at most the operators' terms of fLo: only an infeasible group can be
    // hopeless.
    c.lower_bound_bits = fLo > cap_ ? lowerBound() * abits_ : 0;
    if (fLo > cap_) {
        c.feasible = false; // Optimus Eq. 4 has no solution; optimusPlan keeps t_h = lo
        c.memory_cost = ifmap + ofmap + ceilDiv(oh, lo) * weights;
    } else if (fLo + weights * wbits_ <= cap_) {
        c.weights_resident =
            true; // resident at the largest t_h that fits: Optimus Eq. 3 with Σ|param| once
        c.memory_cost = ifmap + ofmap + weights;
    } else {
        // Streamed weights: the largest t_h meeting Optimus Eq. 4 sets the number of sub-groups.
        int64_t a = lo, b = oh;
        while (a < b) {
            const int64_t mid = a + (b - a + 1) / 2;
            if (fmap(mid) * abits_ <= cap_)
                a = mid;
            else
                b = mid - 1;
        }
        c.memory_cost = ifmap + ofmap + ceilDiv(oh, a) * weights; // Optimus Eq. 3
    }
    end();
    return c;
}

// The operators' fmap terms at the current extents (rh_, rw_) for the least favourable
// ISOA decisions a larger group can impose. Adding upstream operators changes nothing
// below them but the "forced off" flags of the members fed from outside (Optimus Alg. 2 L5), so
// the minimum over those flags bounds every group that holds this one.
int64_t OptimusCoster::lowerBound() {
    const auto& m = *m_;
    const size_t n = m.size();
    std::vector<size_t>& tops = tops_;
    tops.clear();
    for (size_t k = 0; k < n; ++k)
        if (int32_t(prodStart_[k + 1] - prodStart_[k]) <
            inStart_[size_t(m[k]) + 1] - inStart_[size_t(m[k])])
            tops.push_back(k);
    auto sumFor = [&](uint32_t mask, bool weakest) {
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
            if (!concat_[v])
                total += (isoa || weakest ? std::min(Tc_, outC_[v]) : outC_[v]) * rh_[k] * rw_[k];
        }
        return total;
    };
    // Every operator at min(T_c, C_out) bounds all cases; when that already exceeds the
    // buffer, or there are too many cases, it is the bound.
    const int64_t weakest = sumFor(0, true);
    if (weakest * abits_ > cap_ || tops.size() > 4) return weakest;
    int64_t best = INT64_MAX;
    for (uint32_t mask = 0; mask < (1u << tops.size()); ++mask) {
        best = std::min(best, sumFor(mask, false));
        if (best * abits_ <= cap_) break; // not hopeless: the exact minimum does not matter
    }
    return best;
}

int64_t OptimusCoster::fmapAt(const std::vector<LayerId>& members, int64_t t_h, int64_t t_w) {
    begin(members);
    isoa();
    extents(1, t_w, rw_);
    outsideExtents(1, rw_, ew_);
    const int64_t f = fmap(t_h);
    end();
    return f;
}

} // namespace lf
