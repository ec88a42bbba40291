#include "models/convfusion.h"

#include "util/checked.h"

#include <algorithm>

namespace lf {

std::array<int64_t, 4> effectiveTiles(const LayerDims& d, const LayerSchedule& s, bool fused) {
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    std::array<int64_t, 4> T{};
    for (size_t k = 0; k < 4; ++k)
        T[k] = std::clamp<int64_t>(s.tile[k], 1, std::max<int64_t>(1, D[k]));
    // FuseSel: i cannot be tiled (ConvFusion §IV-B1).
    if (fused) T[size_t(Dim::i)] = D[size_t(Dim::i)];
    return T;
}

CfLayerCost convFusionLayer(const LayerDims& d, const LayerSchedule& s, bool fused) {
    constexpr size_t Z = size_t(Dim::z), Y = size_t(Dim::y), X = size_t(Dim::x), I = size_t(Dim::i);
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    const std::array<int64_t, 4> T = effectiveTiles(d, s, fused);

    // Level of each dim's inner loop: 1..4 (l1 outermost). LT_arr(dim) <=> inner(dim) is
    // strictly below SL_arr; F_arr(dim) <=> SL_arr < inner(dim) <= CL_arr (ConvFusion §IV-A,
    // docs/model-notes.md).
    int lvl[4];
    for (int k = 0; k < 4; ++k)
        lvl[size_t(s.order[size_t(k)])] = k + 1;
    const int slX = int(s.store[size_t(Arr::X)]), clX = int(s.compute[size_t(Arr::X)]);
    const int slW = int(s.store[size_t(Arr::W)]), clW = int(s.compute[size_t(Arr::W)]);
    const int slY = int(s.store[size_t(Arr::Y)]), clY = int(s.compute[size_t(Arr::Y)]);
    auto lt = [&](int sl, size_t dim) { return lvl[dim] > sl; };
    auto folded = [&](int sl, int cl, size_t dim) { return lvl[dim] > sl && lvl[dim] <= cl; };
    // Trans (ConvFusion §IV-C): D_d for loops at or above SL, ceil(D_d/T_d) below; over Λ'.
    auto trans = [&](int sl) {
        int64_t t = 1;
        for (size_t dim : {X, Y, Z})
            t *= lt(sl, dim) ? ceilDiv(D[dim], T[dim]) : D[dim];
        if (!fused) t *= lt(sl, I) ? ceilDiv(D[I], T[I]) : D[I];
        return t;
    };

    CfLayerCost c;
    const int64_t G = d.G;

    // Weights (ConvFusion §IV-B1, ConvFusion §IV-C1): Λ = fused ? {z} : {z, i}.
    if (d.weights) {
        int64_t buf = d.Dm * d.Dn * (fused ? D[I] : 1);
        int64_t vol = buf;
        if (lt(slW, Z)) {
            vol *= T[Z];
            if (!folded(slW, clW, Z)) buf *= T[Z];
        }
        if (!fused && lt(slW, I)) {
            vol *= T[I];
            if (!folded(slW, clW, I)) buf *= T[I];
        }
        c.buf_w = buf;
        c.vol_w = vol;
        c.trans_w = trans(slW);
        c.acc_w = vol * c.trans_w * G;
    }

    // Inputs (ConvFusion §IV-B2, ConvFusion §IV-C2): tile windows (T-1)·S + κ below SL, κ at or
    // above SL or folded.
    {
        int64_t chanVol = fused ? D[I] : (lt(slX, I) ? T[I] : 1);
        int64_t chanBuf = fused ? D[I] : (lt(slX, I) && !folded(slX, clX, I) ? T[I] : 1);
        const int64_t wx = d.windowX(T[X]), kx = d.windowX(1);
        const int64_t wy = d.windowY(T[Y]), ky = d.windowY(1);
        c.ext_x = lt(slX, X) ? wx : kx;
        c.ext_y = lt(slX, Y) ? wy : ky;
        c.ext_c = chanVol;
        const int64_t bx = lt(slX, X) && !folded(slX, clX, X) ? wx : kx;
        const int64_t by = lt(slX, Y) && !folded(slX, clX, Y) ? wy : ky;
        c.vol_x = chanVol * c.ext_x * c.ext_y * d.n_inputs;
        c.buf_x = chanBuf * bx * by * d.n_inputs;
        c.trans_x = trans(slX);
        c.acc_x = c.vol_x * c.trans_x * G;
    }

    // Outputs (ConvFusion §IV-B3, ConvFusion §IV-C3): a tile dim counts when its loop is below
    // SL_Y, below the ii loop (outputs complete after it fold to one) and not folded by CL_Y.
    if (!fused) {
        int64_t buf = 1;
        for (size_t dim : {X, Y, Z})
            if (lt(slY, dim) && lvl[dim] > lvl[I] && !folded(slY, clY, dim)) buf *= T[dim];
        c.buf_y = buf;
        const int64_t outs = d.Dx * d.Dy * d.Dz;
        c.acc_y_out = outs;
        c.acc_y_psum = outs * 2 * (ceilDiv(D[I], T[I]) - 1);
    }

    c.macs = layerMacs(d);
    return c;
}

} // namespace lf
