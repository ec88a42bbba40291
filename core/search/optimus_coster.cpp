#include "search/optimus_coster.h"

#include "models/optimus.h"
#include "util/checked.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace lf {

namespace {

// ⌈a / b⌉ for the rows and sub-group counts of cost() (a ≥ 0, b > 0): in 32 bits where both
// fit. A 64-bit division takes several times as long as a 32-bit one on some x86 cores
// (Cascade Lake: tens of cycles), and cost() divides for every group the DP forms.
inline int64_t countCeilDiv(int64_t a, int64_t b) {
    if (a <= b) return a > 0 ? 1 : 0;
    if ((uint64_t(a) | uint64_t(b)) <= UINT32_MAX)
        return int64_t((uint32_t(a) - 1) / uint32_t(b)) + 1;
    return ceilDiv(a, b);
}

} // namespace

inline int64_t OptimusCoster::vertexWindow(size_t v, int axis, int64_t r) const {
    const Window& w = vwin_[2 * v + size_t(axis)];
    if (w.kind != Window::other) return w.read(r);
    const LayerDims& d = dims_[v];
    return axis == 0 ? d.windowY(r) : d.windowX(r);
}

template <class F>
void OptimusCoster::eachArray(size_t n, size_t inEdges, size_t succEdges, F&& f) {
    const size_t edges = std::max(inEdges, succEdges) + 1;
    f(dims_, n);
    f(vwin_, 2 * n);
    for (auto* a : {&weights_, &outC_, &outH_,   &outW_,  &elems_, &acc1_, &acc0_, &rh_,
                    &rw_,      &ah_,   &aw_,     &dp1_,   &dp0_,   &tc_,   &th_,   &eh_,
                    &ew_,      &teh_,  &joined_, &extra_, &owed_,  &eah_,  &eaw_})
        f(*a, n);
    for (auto* a : {&inStart_, &succStart_})
        f(*a, n + 1);
    f(inList_, inEdges);
    f(succList_, succEdges);
    for (auto* a : {&slot_, &outIndex_, &prodBeg_, &prodEnd_, &childCount_, &readBeg_, &readEnd_,
                    &firstK_, &firstPos_, &outside_})
        f(*a, n);
    for (auto* a : {&prodSlot_, &readOut_})
        f(*a, edges);
    f(charged_, n);
    for (auto* a : {&concat_, &compute_, &joinable_, &inside_, &output_, &isoa_, &mayForce_,
                    &state_, &matched_, &topForced_, &neverIsoa_})
        f(*a, n);
}

OptimusCoster::OptimusCoster(const Network& net, const Hardware& hw, int64_t capacity_bits) {
    cap_ = capacity_bits;
    abits_ = hw.precision.act_bits;
    capElems_ = cap_ / abits_;
    wbits_ = hw.precision.weight_bits;
    const OptimusThroughput tp = optimusThroughput(hw);
    Tc_ = tp.tc;
    Th_ = tp.th;
    const size_t n = size_t(net.size());
    size_t inEdges = 0, succEdges = 0;
    for (LayerId v = 0; v < net.size(); ++v) {
        inEdges += net.layer(v).inputs.size();
        succEdges += net.successors(v).size();
    }
    layOut(n, inEdges, succEdges, true);
    int32_t in = 0, out = 0;
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
        compute_[size_t(v)] = isCompute(l.type);
        for (const LayerId p : l.inputs)
            inList_[size_t(in++)] = p;
        inStart_[size_t(v) + 1] = in;
        for (const LayerId s : net.successors(v))
            succList_[size_t(out++)] = s;
        succStart_[size_t(v) + 1] = out;
    }
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
    std::fill(slot_.begin(), slot_.end(), -1);
    std::fill(outIndex_.begin(), outIndex_.end(), -1);
    std::fill(outside_.begin(), outside_.end(), kNoLayer);
    for (LayerId v = 0; v < net.size(); ++v)
        joinable_[size_t(v)] = net.layer(v).type != LayerType::input;
}

// Every array in one allocation, each at a 16-byte boundary, in eachArray()'s order: the
// offsets follow from the counts alone, so a copy lays out its copy of the arena the same way.
void OptimusCoster::layOut(size_t n, size_t inEdges, size_t succEdges, bool construct) {
    size_t bytes = 0;
    eachArray(n, inEdges, succEdges, [&](auto& a, size_t count) {
        using T = std::remove_reference_t<decltype(a[0])>;
        static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
        bytes = (bytes + 15) / 16 * 16 + count * sizeof(T);
    });
    if (construct) {
        arena_.size = bytes;
        arena_.bytes = std::make_unique_for_overwrite<std::byte[]>(bytes); // set below
    }
    bytes = 0;
    eachArray(n, inEdges, succEdges, [&](auto& a, size_t count) {
        using T = std::remove_reference_t<decltype(a[0])>;
        bytes = (bytes + 15) / 16 * 16;
        a.p_ = reinterpret_cast<T*>(arena_.bytes.get() + bytes);
        a.n_ = count;
        if (construct) std::uninitialized_value_construct_n(a.p_, count);
        bytes += count * sizeof(T);
    });
}

detail::OptimusCosterData::Arena::Arena(const Arena& o)
    : bytes(std::make_unique_for_overwrite<std::byte[]>(o.size)), size(o.size) {
    std::memcpy(bytes.get(), o.bytes.get(), size);
}

// Every member copied as it is; then the arrays point into the copy's arena.
OptimusCoster::OptimusCoster(const OptimusCoster& o) : OptimusCosterData(o) {
    layOut(dims_.size(), inList_.size(), succList_.size(), false);
}

OptimusDeferral OptimusCoster::deferral() const {
    OptimusDeferral d;
    d.elems.assign(elems_.begin(), elems_.end());
    d.weights.assign(weights_.begin(), weights_.end());
    d.rows.assign(outH_.begin(), outH_.end());
    d.compute.assign(compute_.begin(), compute_.end());
    // As the windows here (vertexWindow on each axis).
    d.windows.assign(vwin_.begin(), vwin_.end());
    d.other_read = [dims = std::vector<LayerDims>(dims_.begin(), dims_.end())](LayerId v, int axis,
                                                                               int64_t r) {
        return axis == 0 ? dims[size_t(v)].windowY(r) : dims[size_t(v)].windowX(r);
    };
    d.channels.assign(outC_.begin(), outC_.end());
    d.cols.assign(outW_.begin(), outW_.end());
    d.channel_tile = Tc_;
    // The fewest rows and columns a layer holds at the smallest tile of any group: alone (an
    // output) min(T_h, O_h) rows and all its columns; consumed, at least what one of its
    // consumers reads of it at their fewest (windows only grow), found from the last layer up
    // (ids are topological). Tiles shrink upstream where that is less than alone.
    const size_t n = dims_.size();
    d.least_rows.resize(n);
    d.least_cols.resize(n);
    for (size_t v = 0; v < n; ++v) {
        d.least_rows[v] = std::min(Th_, outH_[v]);
        d.least_cols[v] = outW_[v];
    }
    for (size_t v = n; v-- > 0;)
        for (int32_t e = inStart_[v]; e < inStart_[v + 1]; ++e) {
            const size_t p = size_t(inList_[size_t(e)]);
            if (!joinable_[p] || !joinable_[v]) continue; // never in a group together
            const int64_t rows = std::max<int64_t>(1, vertexWindow(v, 0, d.least_rows[v]));
            const int64_t cols = std::max<int64_t>(1, vertexWindow(v, 1, d.least_cols[v]));
            d.tiles_shrink = d.tiles_shrink || rows < d.least_rows[p] || cols < d.least_cols[p];
            d.least_rows[p] = std::min(d.least_rows[p], rows);
            d.least_cols[p] = std::min(d.least_cols[p], cols);
        }
    d.act_bits = abits_;
    d.weight_bits = wbits_;
    d.joinable.assign(joinable_.begin(), joinable_.end());
    d.tile_rows = Th_;
    return d;
}

void OptimusCoster::setJoinable(const std::vector<char>& vertex) {
    for (size_t v = 0; v < joinable_.size(); ++v)
        joinable_[v] = v < vertex.size() && vertex[v];
    held_.clear(); // the walks kept depend on which layers may join
    heldIds_.clear();
    heldUsed_ = 0;
}

// Each member's slot, before any member looks up another, and the sums its consumers add to
// in smallestTile() cleared; Σ|param|.
void OptimusCoster::begin(const std::vector<LayerId>& members) {
    m_ = &members;
    n_ = members.size();
    joinedDone_ = isoaDone_ = false;
    int64_t weights = 0;
    // In one loop: groups are small, and a fill per array costs a call each.
    int64_t *__restrict rh = rh_.data(), *__restrict rw = rw_.data(), *__restrict ah = ah_.data(),
                        *__restrict aw = aw_.data(), *__restrict acc1 = acc1_.data(),
                        *__restrict acc0 = acc0_.data();
    int32_t* __restrict slot = slot_.data(), * __restrict cnt = childCount_.data();
    for (size_t k = 0; k < n_; ++k) {
        const size_t v = size_t(members[k]);
        slot[v] = int32_t(k);
        weights += weights_[v];
        cnt[k] = 0;
        rh[k] = rw[k] = ah[k] = aw[k] = acc1[k] = acc0[k] = 0;
    }
    weights_sum_ = weights;
}

void OptimusCoster::end() {
    for (LayerId v : *m_)
        slot_[size_t(v)] = -1;
    for (size_t o = 0; o < nOutside_; ++o)
        outIndex_[size_t(outside_[o])] = -1;
    m_ = nullptr;
}

// One pass from the outputs up (a member's consumers come after it and have added to its
// sums when it is met). Which members are outputs (some consumer outside the group, or none)
// and the Optimus Eq. 3 terms they give; R(l, t) of Optimus §5.2 on both axes (R(n, t) = t at
// the group's outputs, R(l−1, t) = R(l, t)·S + K − S, clipped to the real maps) at the
// smallest tile t_h × t_w = lo × O_w (rh_, rw_; the line buffer), where an output holds
// min(lo, O_h(l)) rows and its whole width (called with lo = T_h and ow unbounded: the group's
// lo = min(T_h, max O_h) gives the same, since no output is higher than the highest), and at
// 1 × 1 (ah_, aw_, for Optimus Alg. 2); the producer edges and the outside tensors (each
// once: footnote 3; models/optimus.cpp) with the largest window any member reads of each at
// the smallest tile (eh_, ew_), Optimus Alg. 2's dp over the group's consumers, and every
// operator's fmap at min(T_c, C_out).
//
// The outside tensors are met from the last reader up; firstK_/firstPos_ keep where the
// first reader reads each, for joinedBound(), which charges them in the members' order.
void OptimusCoster::smallestTile(int64_t lo, int64_t ow) {
    // Raw pointers: the flags are chars, which may alias anything, so through the vectors
    // every flag written would reload every array.
    const LayerId* __restrict m = m_->data();
    const int32_t* __restrict succStart = succStart_.data();
    int32_t* __restrict cnt = childCount_.data();
    int64_t* __restrict acc1 = acc1_.data();
    int64_t* __restrict acc0 = acc0_.data();
    char* __restrict inside = inside_.data();
    char* __restrict output = output_.data();
    const int64_t* __restrict outH = outH_.data();
    const int64_t* __restrict outW = outW_.data();
    const int64_t* __restrict outC = outC_.data();
    const int64_t* __restrict elems = elems_.data();
    const char* __restrict concat = concat_.data();
    const char* __restrict joinable = joinable_.data();
    const int32_t* __restrict inStart = inStart_.data();
    const int32_t* __restrict inList = inList_.data();
    const int32_t* __restrict slot = slot_.data();
    int32_t* __restrict outIndex = outIndex_.data();
    LayerId* __restrict outside = outside_.data();
    int32_t* __restrict prodBeg = prodBeg_.data();
    int32_t* __restrict prodEnd = prodEnd_.data();
    int32_t* __restrict prodSlot = prodSlot_.data();
    int32_t* __restrict readBeg = readBeg_.data();
    int32_t* __restrict readEnd = readEnd_.data();
    int32_t* __restrict readOut = readOut_.data();
    int32_t* __restrict firstK = firstK_.data();
    int32_t* __restrict firstPos = firstPos_.data();
    char* __restrict mayForce = mayForce_.data();
    int64_t* __restrict rhs = rh_.data();
    int64_t* __restrict rws = rw_.data();
    int64_t* __restrict ahs = ah_.data();
    int64_t* __restrict aws = aw_.data();
    int64_t* __restrict eh = eh_.data();
    int64_t* __restrict ew = ew_.data();
    int64_t* __restrict eah = eah_.data();
    int64_t* __restrict eaw = eaw_.data();
    int64_t* __restrict extra = extra_.data();
    int64_t* __restrict dp1 = dp1_.data();
    int64_t* __restrict dp0 = dp0_.data();
    const bool symmetric = symmetric_, sameH = lo == 1;
    const int64_t Tc = Tc_;
    int64_t weakest = 0, ifmap = 0, most = 1, ofmap = 0, oh = 1;
    int32_t np = 0, nr = 0, no = 0;
    for (size_t k = n_; k-- > 0;) {
        const size_t v = size_t(m[k]);
        const int64_t fullH = outH[v], fullW = outW[v];
        const int32_t nSucc = succStart[v + 1] - succStart[v];
        const bool in = cnt[k] != 0, out = cnt[k] != nSucc || nSucc == 0;
        inside[k] = in;
        output[k] = out;
        if (out) {
            ofmap += elems[v];
            oh = std::max(oh, fullH);
        }
        int64_t rh = rhs[k], rw = rws[k];
        if (!in) {
            rh = std::max(rh, std::min(lo, fullH));
            rw = std::max(rw, std::min(ow, fullW));
        }
        rh = std::clamp<int64_t>(rh, 1, fullH);
        rw = std::clamp<int64_t>(rw, 1, fullW);
        rhs[k] = rh;
        rws[k] = rw;
        // At 1 × 1 (min(1, full) = 1 at the outputs): the heights are the tile's when its
        // height is 1, and with square maps and windows the widths are the heights.
        const int64_t ah = sameH ? rh : std::clamp<int64_t>(ahs[k], 1, fullH);
        const int64_t aw = symmetric ? ah : std::clamp<int64_t>(aws[k], 1, fullW);
        // Optimus Alg. 2 at t_h · t_w = 1 · 1: dp1 = this operator ISOA, dp0 = not; its
        // consumers in the group added their terms already (they come after it).
        const int64_t area = ah * aw, C = outC[v];
        const int64_t d1 = satAdd(Tc * area, acc1[k]), d0 = satAdd(C * area, acc0[k]);
        dp1[k] = d1;
        dp0[k] = d0;
        const int64_t dmin = std::min(d1, d0);
        prodBeg[k] = np;
        readBeg[k] = nr;
        const int32_t i0 = inStart[v], i1 = inStart[v + 1];
        char may = 0;
        if (i0 != i1) {
            const int64_t wh = vertexWindow(v, 0, rh), ww = vertexWindow(v, 1, rw);
            const int64_t wah = sameH ? wh : vertexWindow(v, 0, ah);
            const int64_t waw = symmetric ? wah : vertexWindow(v, 1, aw);
            for (int32_t e = i0; e < i1; ++e) {
                const LayerId p = inList[size_t(e)];
                const int32_t q = slot[size_t(p)];
                if (q >= 0) {
                    prodSlot[size_t(np++)] = q;
                    ++cnt[q];
                    // Saturating: a member below several producers counts once per path.
                    acc1[q] = satAdd(acc1[q], d0);
                    acc0[q] = satAdd(acc0[q], dmin);
                    rhs[q] = std::max(rhs[q], wh);
                    rws[q] = std::max(rws[q], ww);
                    if (!sameH) ahs[q] = std::max(ahs[q], wah);
                    if (!symmetric) aws[q] = std::max(aws[q], waw);
                    continue;
                }
                may |= joinable[size_t(p)];
                int32_t o = outIndex[size_t(p)];
                if (o < 0) {
                    o = no++;
                    outIndex[size_t(p)] = o;
                    outside[o] = p;
                    eh[o] = ew[o] = eah[o] = eaw[o] = 1;
                    extra[o] = 0;
                    firstK[o] = -1;
                    ifmap += elems[size_t(p)];
                }
                if (firstK[o] != int32_t(k)) { // the members come last first
                    firstK[o] = int32_t(k);
                    firstPos[o] = e - i0;
                }
                readOut[size_t(nr++)] = o;
                eh[o] = std::max(eh[o], wh);
                most = std::max(most, wh);
                ew[o] = std::max(ew[o], ww);
                eah[o] = std::max(eah[o], wah);
                eaw[o] = std::max(eaw[o], waw);
            }
        }
        prodEnd[k] = np;
        readEnd[k] = nr;
        mayForce[k] = may;
        if (!concat[v]) weakest += std::min(Tc, C) * rh * rw;
    }
    nOutside_ = size_t(no);
    ofmap_ = ofmap;
    oh_ = oh;
    ifmap_ = ifmap;
    weakest_ = weakest;
    mostRead_ = most;
}

// A member's state over every decision a larger group can impose, its producers' found first
// (Optimus Alg. 2 L5): certainly not ISOA when Optimus Alg. 2 never picks it (dp1 ≥ dp0) or
// a producer certainly is; undecided when an outside producer may join (mayForce_) or a
// producer is undecided; else certainly ISOA.
char OptimusCoster::certainState(size_t k) const {
    bool forcedOff = false, maybe = mayForce_[k];
    for (int32_t e = prodBeg_[k]; e < prodEnd_[k]; ++e) {
        const char p = state_[size_t(prodSlot_[size_t(e)])];
        forcedOff = forcedOff || p == kIsoa;
        maybe = maybe || p == kMaybe;
    }
    return !(dp1_[k] < dp0_[k]) || forcedOff ? kNotIsoa : maybe ? kMaybe : kIsoa;
}

// One pass from the inputs down: the ISOA flags of Optimus Alg. 2 (an ISOA operator forces its
// consumers off: a member is ISOA only when no producer in the group is), the channel tiles t_c(l)
// of Optimus Eq. 4 and the operators' fmaps at the smallest tile with them (opsMembers_).
//
// With `upper`, the same pass also finds what any group holding this one with as many
// smallest-tile rows needs at most for this one's operators' terms of Optimus Eq. 4 there,
// under any Optimus Alg. 2 ISOA decision (upper_, elements; OptimusGroupClass::upper_bound_bits).
// Its operators keep their extents in such a group, and decideBound()'s certain states hold
// there too: an operator certainly ISOA holds min(T_c, C_out), any other may hold all its
// channels.
void OptimusCoster::decide(bool upper) {
    const LayerId* __restrict m = m_->data();
    const int64_t* __restrict outC = outC_.data();
    const char* __restrict concat = concat_.data();
    char* __restrict isoa = isoa_.data();
    const int64_t* __restrict dp1 = dp1_.data();
    const int64_t* __restrict dp0 = dp0_.data();
    const int64_t* __restrict rh = rh_.data();
    const int64_t* __restrict rw = rw_.data();
    int64_t* __restrict tc = tc_.data();
    const int32_t* __restrict prodBeg = prodBeg_.data();
    const int32_t* __restrict prodEnd = prodEnd_.data();
    const int32_t* __restrict prodSlot = prodSlot_.data();
    const char* __restrict mayForce = mayForce_.data();
    char* __restrict state = state_.data();
    const int64_t Tc = Tc_;
    int64_t members = 0, bound = 0;
    for (size_t k = 0; k < n_; ++k) {
        const size_t v = size_t(m[k]);
        const int64_t C = outC[v], tcMin = std::min(Tc, C);
        const bool picks = dp1[k] < dp0[k];
        bool phi = picks;
        const int32_t p0 = prodBeg[k], p1 = prodEnd[k];
        if (!upper) {
            for (int32_t e = p0; e < p1 && phi; ++e)
                phi = !isoa[size_t(prodSlot[size_t(e)])]; // an ISOA producer forces it off
        } else {
            // The same pass finds certainState(k): decideBound()'s state, without its
            // matching.
            bool forcedOff = false, maybe = mayForce[k];
            for (int32_t e = p0; e < p1; ++e) {
                const size_t p = size_t(prodSlot[size_t(e)]);
                phi = phi && !isoa[p];
                forcedOff = forcedOff || state[p] == kIsoa;
                maybe = maybe || state[p] == kMaybe;
            }
            const char st = !picks || forcedOff ? kNotIsoa : maybe ? kMaybe : kIsoa;
            state[k] = st;
            bound += (st == kIsoa ? tcMin : C) * (concat[v] ? 0 : rh[k] * rw[k]);
        }
        isoa[k] = phi;
        tc[k] = phi ? tcMin : C;
        const int64_t area = concat[v] ? 0 : rh[k] * rw[k];
        members += tc[k] * area;
    }
    opsMembers_ = members;
    upper_ = bound;
}

// The operators' bound over every decision a larger group can impose (ops_), in a second pass
// down: a member is certainly not ISOA when Optimus Alg. 2 never picks it (dp1 ≥ dp0) or a
// parent inside the group certainly is (it is forced off); only the tops' outside parents are
// unknown here, and a member they may force stays undecided. Of a producer and its consumer
// that are both undecided, one holds all its channels (if the producer is ISOA the consumer
// is forced off): over a matching of such edges, the smaller of the two differences is owed
// at least once per edge. Needed only for a group that does not fit (one that fits is bound
// by weakest_, see cost()).
void OptimusCoster::decideBound() {
    const auto& m = *m_;
    int64_t ops = 0;
    auto extra = [&](size_t k) {
        const size_t v = size_t(m[k]);
        return (outC_[v] - std::min(Tc_, outC_[v])) * rh_[k] * rw_[k];
    };
    for (size_t k = 0; k < n_; ++k) {
        const size_t v = size_t(m[k]);
        const int64_t C = outC_[v], tcMin = std::min(Tc_, C);
        const char st = certainState(k);
        state_[k] = st;
        matched_[k] = 0;
        if (concat_[v]) continue;
        const int64_t area = rh_[k] * rw_[k];
        ops += (st == kNotIsoa ? C : tcMin) * area;
        if (st != kMaybe) continue;
        for (int32_t e = prodBeg_[k]; e < prodEnd_[k] && !matched_[k]; ++e) {
            const size_t p = size_t(prodSlot_[size_t(e)]);
            if (state_[p] != kMaybe || concat_[size_t(m[p])] || matched_[p]) continue;
            ops += std::min(extra(p), extra(k));
            matched_[p] = matched_[k] = 1;
        }
    }
    ops_ = ops;
}

// R(l, t) on one axis at tile t (r) and the windows read of the outside tensors (e).
void OptimusCoster::extents(int axis, int64_t t, int64_t* r, int64_t* e) const {
    const auto& m = *m_;
    std::fill(r, r + n_, 0);
    std::fill(e, e + nOutside_, 1);
    for (size_t k = n_; k-- > 0;) {
        const size_t v = size_t(m[k]);
        const int64_t full = axis == 0 ? outH_[v] : outW_[v];
        if (!inside_[k]) r[k] = std::max(r[k], std::min(t, full));
        r[k] = std::clamp<int64_t>(r[k], 1, full);
        const int64_t need = vertexWindow(v, axis, r[k]);
        for (int32_t j = prodBeg_[k]; j < prodEnd_[k]; ++j) {
            int64_t& rq = r[size_t(prodSlot_[size_t(j)])];
            rq = std::max(rq, need);
        }
        for (int32_t j = readBeg_[k]; j < readEnd_[k]; ++j) {
            int64_t& eo = e[size_t(readOut_[size_t(j)])];
            eo = std::max(eo, need);
        }
    }
}

// Whether Optimus Eq. 4's left-hand side at t_h = th (the widths at the smallest tile: the line
// buffer) stays within `limit`: every outside tensor once with all its channels and the
// largest window read of it, then every operator's output at t_c(l). One pass up that stops
// as soon as the sum, which only grows, exceeds the limit. When it fits, `operators` (if
// given) gets the operators' part of the sum.
bool OptimusCoster::fmapFits(int64_t th, int64_t limit, int64_t* operators) {
    return fmapAt(th, limit, operators) <= limit;
}

int64_t OptimusCoster::fmapAt(int64_t th, int64_t limit, int64_t* operators) {
    const LayerId* __restrict m = m_->data();
    const int64_t* __restrict outH = outH_.data();
    const int64_t* __restrict outC = outC_.data();
    const char* __restrict inside = inside_.data();
    const char* __restrict concat = concat_.data();
    const LayerId* __restrict outside = outside_.data();
    const int64_t* __restrict ew = ew_.data();
    const int64_t* __restrict tc = tc_.data();
    const int64_t* __restrict rw = rw_.data();
    const int32_t* __restrict prodBeg = prodBeg_.data();
    const int32_t* __restrict prodEnd = prodEnd_.data();
    const int32_t* __restrict prodSlot = prodSlot_.data();
    const int32_t* __restrict readBeg = readBeg_.data();
    const int32_t* __restrict readEnd = readEnd_.data();
    const int32_t* __restrict readOut = readOut_.data();
    int64_t* __restrict teh = teh_.data();
    int64_t* __restrict rows = th_.data();
    int64_t total = 0, ops = 0;
    for (size_t o = 0; o < nOutside_; ++o) {
        teh[o] = 1;
        total += outC[size_t(outside[o])] * ew[o];
    }
    // `rows` (by member, the most its consumers read) is all zero between calls: each entry is
    // cleared once read, and the ones not yet read where the sum stops (not a fill per call:
    // a call each, for a few members).
    for (size_t k = n_; k-- > 0;) {
        const size_t v = size_t(m[k]);
        const int64_t full = outH[v];
        int64_t r = rows[k];
        rows[k] = 0;
        if (!inside[k]) r = std::max(r, std::min(th, full));
        r = std::clamp<int64_t>(r, 1, full);
        if (!concat[v]) {
            const int64_t term = tc[k] * r * rw[k];
            total += term;
            ops += term;
        }
        if (total > limit) {
            std::fill(rows, rows + k, 0);
            return total;
        }
        const int32_t p0 = prodBeg[k], p1 = prodEnd[k];
        const int32_t r0 = readBeg[k], r1 = readEnd[k];
        if (p0 == p1 && r0 == r1) continue;
        const int64_t need = vertexWindow(v, 0, r);
        for (int32_t e = p0; e < p1; ++e) {
            int64_t& rq = rows[size_t(prodSlot[size_t(e)])];
            rq = std::max(rq, need);
        }
        for (int32_t e = r0; e < r1; ++e) {
            const size_t o = size_t(readOut[size_t(e)]);
            if (need <= teh[o]) continue;
            total += outC[size_t(outside[o])] * ew[o] * (need - teh[o]);
            teh[o] = need;
        }
    }
    if (operators) *operators = ops;
    return total;
}

OptimusCoster::Cost OptimusCoster::cost(const std::vector<LayerId>& members, int64_t ceiling,
                                        bool upper, bool full) {
    begin(members);
    smallestTile(Th_, INT64_MAX); // an output's rows min(lo, O_h) are min(T_h, its own O_h)
    const int64_t oh = oh_, weights = weights_sum_, ofmap = ofmap_;
    const int64_t lo = std::min(Th_, oh);
    const int64_t ifmap = ifmap_;
    Cost c;
    const int64_t tiles = countCeilDiv(oh, lo);                    // sub-groups at t_h = lo
    c.memory_cost = satAdd(ifmap + ofmap, satMul(tiles, weights)); // infeasible: t_h = lo
    // Before the ISOA decision: every operator at min(T_c, C_out) and the outside inputs
    // as they are bound the fmaps at the smallest tile from below. Most groups the DP forms
    // exceed the buffer already there, and most of those for good (see below).
    int64_t outsideNow = 0;
    for (size_t o = 0; o < nOutside_; ++o)
        outsideNow += outC_[size_t(outside_[o])] * eh_[o] * ew_[o];
    const int64_t weakest = weakest_;
    const int64_t capElems = capElems_;
    if (weakest + outsideNow > capElems) {
        c.feasible = false;
        c.lower_bound_bits = weakest * abits_;
        if (weakest + outsideBound(false) > capElems) { // hopeless before the ISOA decision
            c.hopeless = true;
            end();
            return c;
        }
    }
    decide(upper);
    c.operator_fmap = opsMembers_;
    c.operator_least = weakest;
    if (upper) c.operator_upper = upper_;
    // What every group holding this one needs at least (at the smallest tile its extents
    // only grow): its operators under any ISOA decision its tops may be forced into
    // (summable over disjoint groups), and its outside inputs at no fewer channels than
    // they will hold there. An infeasible group gets the exact minimum over the ISOA
    // decisions when it has few tops (lowerBound()).
    const int64_t fLo = outsideNow + opsMembers_;
    // A group that fits bounds the groups holding it by its operators at min(T_c, C_out):
    // it is never hopeless, and the tighter ops_ costs a second pass.
    if (fLo > capElems) decideBound();
    const int64_t ops = fLo > capElems ? ops_ : weakest;
    c.lower_bound_bits = ops * abits_;
    // A group that fits is never hopeless: both bounds are at most its own fmaps (the
    // operators' bound under its own decision, the outside tensors at all their channels).
    c.hopeless = fLo > capElems && ops + outsideBound(true) > capElems;
    if (!c.hopeless && fLo > capElems) { // the exact minimum over the tops' decisions, if few
        const int64_t plain = outsideBound(false);
        c.hopeless = lowerBound(capElems - plain) + plain > capElems;
    }
    if (upper && fLo <= capElems) {
        c.upper_bound_bits = satMul(upper_, abits_);
        c.upper_rows = mostRead_;
    }
    // The full tile's operator terms, where asked for: the smallest tile's when it is the full
    // one (⌈O_h / lo⌉ = 1), else found below where the streamed weights' search tries that tile,
    // or by a pass of its own. The pass stops past this limit (the figure is then not found):
    // every term is at most a tensor (NetworkLimits::kMaxElements), so the sum cannot overflow.
    constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max() / 4;
    if (full && fLo <= capElems && tiles == 1) c.operator_full = opsMembers_;
    const bool resident = fLo <= capElems && fLo * abits_ + weights * wbits_ <= cap_;
    if (fLo > capElems) {
        c.feasible = false; // Optimus Eq. 4 has no solution; optimusPlan keeps t_h = lo
    } else if (resident) {
        c.weights_resident =
            true; // resident at the largest t_h that fits: Optimus Eq. 3 with Σ|param| once
        c.memory_cost = ifmap + ofmap + weights;
        int64_t ops = 0;
        if (full && tiles > 1 && fmapAt(oh, kNoLimit, &ops) <= kNoLimit) c.operator_full = ops;
    } else {
        // Streamed weights: the largest t_h meeting Optimus Eq. 4 sets the number of sub-groups
        // ⌈O_h / t_h⌉, which is all Optimus Eq. 3 needs: the fewest sub-groups k whose tile
        // max(lo, ⌈O_h / k⌉) fits (fmap grows with t_h, so the test is monotone in k; lo fits).
        // Several k share a tile: a tile at most one known to fit fits, one at least one known
        // not to does not, without a probe.
        int64_t a = 1, b = tiles;
        int64_t fits = lo, fails = INT64_MAX;
        // Above the ceiling from kMax + 1 sub-groups on: if even kMax does not fit, the
        // cost is above it and (kMax + 1) sub-groups bound it.
        const int64_t base = ifmap + ofmap;
        // Only whether it reaches b matters beyond b (the most sub-groups): kMax is found exactly
        // below b (a double quotient, corrected in integers: see countCeilDiv), else b.
        int64_t kMax = -1;
        if (ceiling >= base) {
            const int64_t spare = ceiling - base, w = std::max<int64_t>(weights, 1);
            if (satMul(b, w) <= spare) {
                kMax = b;
            } else { // spare < b · w: the quotient is below b
                const double q = double(spare) / double(w);
                kMax = q >= double(b - 1) ? b - 1 : int64_t(q);
                while (kMax > 0 && satMul(kMax, w) > spare)
                    --kMax;
                while (kMax + 1 < b && satMul(kMax + 1, w) <= spare)
                    ++kMax;
            }
        }
        // One sub-group first, where it is within the ceiling: the full tile (t_h = O_h, every
        // output whole) is where most such groups fit, which a bisection would reach last; and
        // its operators' terms let the groups holding this one be costed from records
        // (OptimusGroupClass::operator_full).
        if (kMax >= 1 && b > 1) {
            int64_t ops = 0;
            const int64_t total = fmapAt(oh, full ? kNoLimit : capElems, &ops);
            if (full && total <= kNoLimit) c.operator_full = ops;
            if (total <= capElems) {
                c.memory_cost = satAdd(base, weights);
                c.operator_full = ops;
                end();
                return c;
            }
            a = 2;
            fails = oh;
        } else if (full && b > 1) { // not tried: kMax < 1
            int64_t ops = 0;
            if (fmapAt(oh, kNoLimit, &ops) <= kNoLimit) c.operator_full = ops;
        }
        if (kMax < b) {
            const int64_t t = kMax >= 1 ? std::max(lo, countCeilDiv(oh, kMax)) : 0;
            if (kMax < 1 || t >= fails || !fmapFits(t, capElems)) {
                c.subgroups = std::max<int64_t>(kMax, 0) + 1;
                c.memory_cost = satAdd(base, satMul(c.subgroups, weights));
                end();
                return c;
            }
            b = kMax; // it fits
            fits = t;
        }
        while (a < b) {
            const int64_t mid = a + (b - a) / 2;
            const int64_t t = std::max(lo, countCeilDiv(oh, mid));
            const bool ok = t <= fits ? true : t >= fails ? false : fmapFits(t, capElems);
            if (ok)
                fits = std::max(fits, t);
            else
                fails = std::min(fails, t);
            if (ok)
                b = mid;
            else
                a = mid + 1;
        }
        c.subgroups = a;
        c.memory_cost = satAdd(ifmap + ofmap, satMul(a, weights)); // Optimus Eq. 3
    }
    end();
    return c;
}

// Which outside tensors' producers Optimus Alg. 2 can never make ISOA in a group grown from
// this one (neverIsoa_). A producer whose consumers are all members has exactly them as
// consumers in every such group, with the same dp at 1 × 1 and extents (nothing below them
// changes), so its own dp is known now. Another one is ISOA only when
// (C − T_c)·area > Σ over its consumers of (dp0 − min(dp1, dp0)): its consumers in this group
// give that sum a floor, others only add to it, and its area is at most its whole map.
// Found once per group.
void OptimusCoster::producersIsoa() {
    if (isoaDone_) return;
    isoaDone_ = true;
    int64_t* owed = owed_.data();
    std::fill(owed, owed + nOutside_, 0);
    for (size_t k = 0; k < n_; ++k)
        for (int32_t e = readBeg_[k]; e < readEnd_[k]; ++e) {
            const size_t j = size_t(readOut_[size_t(e)]);
            bool again = false; // a member reading a tensor twice counts once
            for (int32_t f = readBeg_[k]; f < e && !again; ++f)
                again = readOut_[size_t(f)] == int32_t(j);
            if (!again) owed[j] = satAdd(owed[j], dp0_[k] - std::min(dp1_[k], dp0_[k]));
        }
    for (size_t j = 0; j < nOutside_; ++j) {
        const size_t p = size_t(outside_[j]);
        bool allIn = true;
        for (int32_t e = succStart_[p]; e < succStart_[p + 1] && allIn; ++e)
            allIn = slot_[size_t(succList_[size_t(e)])] >= 0;
        if (allIn) {
            const int64_t a = std::clamp<int64_t>(eah_[j], 1, outH_[p]) *
                              std::clamp<int64_t>(eaw_[j], 1, outW_[p]);
            int64_t d1 = Tc_ * a, d0 = outC_[p] * a;
            for (int32_t e = succStart_[p]; e < succStart_[p + 1]; ++e) {
                const size_t c = size_t(slot_[size_t(succList_[size_t(e)])]);
                d1 = satAdd(d1, dp0_[c]);
                d0 = satAdd(d0, std::min(dp1_[c], dp0_[c]));
            }
            neverIsoa_[j] = !(d1 < d0);
        } else {
            neverIsoa_[j] =
                owed[j] >= satMul(outC_[p] - std::min(Tc_, outC_[p]), satMul(outH_[p], outW_[p]));
        }
    }
}

// What each outside tensor holds at least when its producer joins a larger group (outside
// tensors whose producer can never join: -1), at the smallest tile's windows. A producer
// that joins brings its own inputs along (outside, or joined themselves): each input tensor
// is charged once, to the first tensor whose producer reads it. Found once per group.
//
// A producer that can never be ISOA (producersIsoa()) holds all its channels when it joins,
// as much as the tensor outside (-1 too).
int64_t OptimusCoster::joinedBound(size_t o) {
    if (!joinedDone_) {
        joinedDone_ = true;
        if (stamp_ > UINT32_MAX - (uint32_t(1) << 24)) { // before the stamps wrap (see heldFromTop)
            std::fill(charged_.begin(), charged_.end(), 0);
            stamp_ = 0;
        }
        groupBase_ = ++stamp_;
        // In the members' order, as their readers first read them (see smallestTile()).
        order_.resize(nOutside_);
        for (size_t j = 0; j < nOutside_; ++j)
            order_[j] = int32_t(j);
        std::sort(order_.begin(), order_.end(), [&](int32_t a, int32_t b) {
            return firstK_[size_t(a)] != firstK_[size_t(b)]
                       ? firstK_[size_t(a)] < firstK_[size_t(b)]
                       : firstPos_[size_t(a)] < firstPos_[size_t(b)];
        });
        producersIsoa();
        for (const int32_t jj : order_) {
            const size_t j = size_t(jj);
            const size_t p = size_t(outside_[j]);
            const int64_t area = eh_[j] * ew_[j];
            joined_[j] = !joinable_[p] || (neverIsoa_[j] && !concat_[p]) ? -1
                         : concat_[p]
                             ? concatBound(p, eh_[j], ew_[j], 0)
                             : std::min(Tc_, outC_[p]) * area + inputsBound(p, eh_[j], ew_[j], 0);
        }
    }
    return joined_[o];
}

// The outside inputs' terms at the smallest tile at the fewest channels they hold in any
// supergroup: all of them when their producer can never join (an input), else min(T_c, C)
// as the producer's own output, or for a concat what its inputs hold.
//
// With the members' ISOA states known (decide()), a producer that joins at min(T_c, C) is an
// ISOA operator and forces its readers off (Optimus Alg. 2 L5): each reader that decide() counted
// at min(T_c, C_out) then holds C_out, so that producer costs at least its share of the
// difference (a reader with d outside producers charges each 1/d, so a reader forced twice
// is not counted twice; one decide() already charged in a matched edge charges nothing
// here). A tensor costs the lesser of all its channels (outside, or produced by a non-ISOA
// operator) and that.
int64_t OptimusCoster::outsideBound(bool withStates) {
    if (withStates) {
        const auto& m = *m_;
        for (size_t k = 0; k < n_; ++k) {
            const int32_t r0 = readBeg_[k], r1 = readEnd_[k];
            const size_t v = size_t(m[k]);
            if (r0 == r1 || state_[k] == kNotIsoa || concat_[v] || matched_[k]) continue;
            const int64_t owedAll = (outC_[v] - std::min(Tc_, outC_[v])) * rh_[k] * rw_[k];
            const int64_t share = r1 - r0 == 1 ? owedAll : owedAll / (r1 - r0); // most read one
            for (int32_t e = r0; e < r1; ++e)
                extra_[size_t(readOut_[size_t(e)])] += share;
        }
    }
    int64_t total = 0;
    for (size_t o = 0; o < nOutside_; ++o) {
        int64_t c = outC_[size_t(outside_[o])] * eh_[o] * ew_[o];
        const int64_t joined = joinedBound(o);
        // A joined concat is not an operator at min(T_c, C): its inputs may be ISOA while it is
        // not, and then it forces none of its readers off.
        const bool forces = withStates && !concat_[size_t(outside_[o])];
        if (joined >= 0) c = std::min(c, joined + (forces ? extra_[o] : 0));
        total += c;
    }
    return total;
}
// What the inputs of a producer `p` joined at extents eh × ew hold at least: the window it
// reads of each. When p holds min(T_c, C) < C it is an ISOA operator, and no producer of an
// ISOA operator is one (Optimus Alg. 2 L5: it would force p off), so its inputs hold all their
// channels (a concat holds none of its own: its inputs are bound as they are); else each as
// heldBound().
int64_t OptimusCoster::inputsBound(size_t p, int64_t eh, int64_t ew, int depth) {
    int64_t total = 0;
    const int64_t wh = vertexWindow(p, 0, eh), ww = vertexWindow(p, 1, ew);
    const bool isoa = outC_[p] > Tc_;
    for (int32_t e = inStart_[p]; e < inStart_[p + 1]; ++e) {
        const size_t q = size_t(inList_[size_t(e)]);
        if (!chargeable(q)) continue;
        total += isoa && !concat_[q] ? outC_[q] * wh * ww
                 : depth == 0        ? heldFromTop(q, wh, ww)
                                     : heldBound(q, wh, ww, depth);
    }
    return total;
}

// Whether a tensor is charged now (not a member, not an outside tensor, not charged before in
// this bound), charging it; in a walk being recorded, one that is not marks the walk unclean
// unless the walk charged it itself.
inline bool OptimusCoster::chargeable(size_t q) {
    if (outIndex_[q] >= 0 || slot_[q] >= 0 || charged_[q] >= groupBase_) {
        clean_ = clean_ && charged_[q] == stamp_ && outIndex_[q] < 0 && slot_[q] < 0;
        return false;
    }
    charged_[q] = stamp_;
    if (recording_) walk_.push_back(int32_t(q));
    return true;
}

// heldBound(q, eh, ew, 0) for a tensor read by an outside tensor's producer: the walk from q up
// charges the layers it reaches, skipping the group's members and outside tensors and what this
// bound charged already. A walk that skipped none but its own depends on q, eh and ew alone:
// kept, and replayed where its layers are all still chargeable (the same value, the same
// layers charged). Each walk has a stamp of its own (≥ groupBase_) to tell its charges apart.
int64_t OptimusCoster::heldFromTop(size_t q, int64_t eh, int64_t ew) {
    if (!walksUp(q)) return heldBound(q, eh, ew, 0); // all its channels: no walk
    const bool keyed = q < (size_t(1) << 20) && eh < (int64_t(1) << 22) && ew < (int64_t(1) << 22);
    const uint64_t key = (uint64_t(q) | uint64_t(eh) << 20 | uint64_t(ew) << 42) + 1;
    // The entry of `k` in held_, or the empty one where it would go (linear probing).
    auto slotOf = [this](uint64_t k) {
        const size_t mask = held_.size() - 1;
        size_t i = size_t((k * 0x9E3779B97F4A7C15ull) >> 40) & mask;
        while (held_[i].key != 0 && held_[i].key != k)
            i = (i + 1) & mask;
        return i;
    };
    if (keyed && !held_.empty()) {
        const size_t at = slotOf(key);
        if (held_[at].key == key) {
            // Charged as they are checked; where one is not chargeable, the ones before it are
            // uncharged again (0 is below any group's stamps) and the walk is made afresh.
            const HeldEntry& h = held_[at];
            const int32_t* ids = heldIds_.data() + h.from;
            for (uint32_t i = 0; i < h.count; ++i) {
                const size_t x = size_t(ids[i]);
                if (outIndex_[x] >= 0 || slot_[x] >= 0 || charged_[x] >= groupBase_) {
                    while (i-- > 0)
                        charged_[size_t(ids[i])] = 0;
                    return heldBound(q, eh, ew, 0); // not recorded: it met the group
                }
                charged_[x] = stamp_;
            }
            return h.value;
        }
    }
    // At most 2^16 walks and 2^22 layers kept (16 MB): past them, walked each time.
    if (!keyed || heldUsed_ >= (size_t(1) << 16) || heldIds_.size() >= (size_t(1) << 22))
        return heldBound(q, eh, ew, 0);
    ++stamp_; // this walk's own
    recording_ = true;
    clean_ = true;
    walk_.clear();
    const int64_t value = heldBound(q, eh, ew, 0);
    recording_ = false;
    if (!clean_) return value;
    if (2 * (heldUsed_ + 1) > held_.size()) { // grow (from none) and re-insert
        std::vector<HeldEntry> old = std::move(held_);
        held_.assign(std::max<size_t>(1024, 2 * old.size()), HeldEntry{});
        for (const HeldEntry& h : old)
            if (h.key != 0) held_[slotOf(h.key)] = h;
    }
    held_[slotOf(key)] = {key, value, uint32_t(heldIds_.size()), uint32_t(walk_.size())};
    heldIds_.insert(heldIds_.end(), walk_.begin(), walk_.end());
    ++heldUsed_;
    return value;
}

// The least a tensor `q` outside the group holds in a larger group that reads eh × ew of it:
// all its channels if it stays outside or its producer cannot join or holds them; a concat
// what its inputs hold (it passes windows through and holds no fmap of its own); an operator
// that joins at min(T_c, C) < C is ISOA, so its own inputs then hold all their channels.
// Deeper than a few producers the bound stops at min(T_c, C).
int64_t OptimusCoster::heldBound(size_t q, int64_t eh, int64_t ew, int depth) {
    const int64_t all = outC_[q] * eh * ew;
    if (!walksUp(q)) return all;
    if (concat_[q]) return depth > 8 ? 0 : std::min(all, concatBound(q, eh, ew, depth + 1));
    const int64_t isoa = Tc_ * eh * ew;
    return depth > 8 ? isoa : std::min(all, isoa + inputsBound(q, eh, ew, depth + 1));
}

// What a joined concat's inputs hold at least at extents eh × ew, each as heldBound(); inputs
// that are the group's own outside tensors are counted there already.
int64_t OptimusCoster::concatBound(size_t concat, int64_t eh, int64_t ew, int depth) {
    int64_t total = 0;
    for (int32_t e = inStart_[concat]; e < inStart_[concat + 1]; ++e) {
        const size_t q = size_t(inList_[size_t(e)]);
        if (!chargeable(q)) continue;
        total += depth == 0 ? heldFromTop(q, eh, ew) : heldBound(q, eh, ew, depth);
    }
    return total;
}

// The operators' fmap terms at the current extents (rh_, rw_) for the least favourable
// ISOA decisions a larger group can impose. Adding upstream operators changes nothing
// below them but the "forced off" flags of the members fed from outside (Optimus Alg. 2 L5), so
// the minimum over those flags bounds every group that holds this one. Exact with up to
// six tops (members that would be ISOA and may be forced off), else decide()'s bound; once a
// decision stays within `limit` the search stops (the group is not hopeless) and returns that
// decision's terms.
int64_t OptimusCoster::lowerBound(int64_t limit) {
    const auto& m = *m_;
    const size_t n = n_;
    std::vector<size_t>& tops = tops_;
    tops.clear();
    // Forcing matters for members Optimus Alg. 2 would make ISOA that read a tensor whose
    // producer may join and be ISOA.
    producersIsoa();
    for (size_t k = 0; k < n; ++k) {
        if (!(dp1_[k] < dp0_[k]) || !mayForce_[k]) continue;
        bool may = false;
        for (int32_t e = readBeg_[k]; e < readEnd_[k] && !may; ++e) {
            const size_t o = size_t(readOut_[size_t(e)]);
            may = joinable_[size_t(outside_[o])] && !neverIsoa_[o];
        }
        if (may) tops.push_back(k);
    }
    auto sumFor = [&](uint32_t mask) {
        std::fill(topForced_.begin(), topForced_.begin() + ptrdiff_t(n), 0);
        for (size_t b = 0; b < tops.size(); ++b)
            if (mask >> b & 1) topForced_[tops[b]] = 1;
        int64_t total = 0;
        for (size_t k = 0; k < n; ++k) {
            const size_t v = size_t(m[k]);
            bool isoa = !topForced_[k] && dp1_[k] < dp0_[k];
            for (int32_t e = prodBeg_[k]; e < prodEnd_[k] && isoa; ++e)
                isoa = !isoa_[size_t(prodSlot_[size_t(e)])];
            isoa_[k] = isoa;
            if (!concat_[v]) total += (isoa ? std::min(Tc_, outC_[v]) : outC_[v]) * rh_[k] * rw_[k];
        }
        return total;
    };
    if (tops.size() > 6) return ops_; // decide()'s bound
    // No top forced: the group's own decision, whose terms decide() summed.
    int64_t best = opsMembers_;
    if (best <= limit) return best;
    for (uint32_t mask = 1; mask < (1u << tops.size()); ++mask) {
        best = std::min(best, sumFor(mask));
        if (best <= limit) break; // not hopeless: the exact minimum does not matter
    }
    return best;
}

OptimusGroupClass OptimusCoster::classOf(const Cost& c) {
    OptimusGroupClass k;
    k.hopeless = c.hopeless;
    k.lower_bound_bits = c.lower_bound_bits;
    k.upper_bound_bits = c.upper_bound_bits;
    k.upper_rows = c.upper_rows;
    k.infeasible = !c.feasible;
    k.subgroups = c.subgroups;
    if (c.operator_fmap > 0) { // the ISOA decision was made
        k.operator_fmap = c.operator_fmap;
        k.operator_least = c.operator_least;
        k.operator_upper = c.operator_upper;
        k.operator_full = c.operator_full;
    }
    return k;
}

int64_t OptimusCoster::fmapAt(const std::vector<LayerId>& members, int64_t t_h, int64_t t_w) {
    begin(members);
    smallestTile(1, 1); // Optimus Alg. 2 at 1 × 1
    decide(false);
    extents(1, t_w, rw_.data(), ew_.data());
    extents(0, t_h, rh_.data(), eh_.data());
    int64_t total = 0;
    for (size_t o = 0; o < nOutside_; ++o)
        total += outC_[size_t(outside_[o])] * eh_[o] * ew_[o];
    for (size_t k = 0; k < n_; ++k)
        if (!concat_[size_t(members[k])]) total += tc_[k] * rh_[k] * rw_[k];
    end();
    return total;
}

} // namespace lf
