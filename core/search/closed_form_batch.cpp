#include "search/closed_form_batch.h"

namespace lf {

void ClosedFormBatch::build(const FastLayer& fl, const LevelStructure& s,
                            const std::array<const TileValue*, 4>& begin,
                            const std::array<const TileValue*, 4>& end) {
    const LayerDims& d = fl.dims();
    fused_ = fl.fused();
    weights_ = d.weights;
    const int64_t Di = fl.extent(Dim::i);
    // Buf_W = Vol_W before tiling = D_m·D_n, times D_i in a fused producer (§IV-B1).
    kernel_ = d.weights ? d.Dm * d.Dn * (fused_ ? Di : 1) : 0;
    G_ = d.G;
    nIn_ = d.n_inputs;
    outs_ = d.Dx * d.Dy * d.Dz;
    macs_ = layerMacs(d);
    const int64_t window[4] = {1, d.windowY(1), d.windowX(1), 1}; // κ of §IV-B2 (y, x)

    for (Dim dim : kAllDims) {
        const size_t k = size_t(dim);
        const uint8_t bit = dimBit(dim);
        const int64_t D = fl.extent(dim);
        DimFactors& f = f_[k];
        const size_t n = size_t(end[k] - begin[k]);
        for (auto* v : {&f.transX, &f.transW, &f.volW, &f.bufW, &f.ext, &f.bufX, &f.bufY,
                        &f.chanVol, &f.chanBuf, &f.accX, &f.accW, &f.psum})
            v->assign(n, 1);
        // i of a fused producer is untiled and not in Λ': Trans and the weight tile ignore it.
        const bool counted = !(fused_ && dim == Dim::i);
        for (size_t c = 0; c < n; ++c) {
            const TileValue& t = begin[k][c];
            const bool ltX = s.lt_x & bit, ltW = s.lt_w & bit;
            if (counted) {
                f.transX[c] = ltX ? t.tiles : D; // §IV-C: ⌈D/T⌉ below SL, D at or above
                f.transW[c] = ltW ? t.tiles : D;
            }
            if ((dim == Dim::z || (dim == Dim::i && !fused_)) && ltW) {
                f.volW[c] = t.t;                     // §IV-B1 Vol_W
                f.bufW[c] = (s.f_w & bit) ? 1 : t.t; // folded: one slice at a time
            }
            if (dim == Dim::x || dim == Dim::y) {
                f.ext[c] = ltX ? t.window : window[k]; // §IV-B2 Vol_X window
                f.bufX[c] = ltX && !(s.f_x & bit) ? t.window : window[k];
            }
            if (dim != Dim::i && !fused_ && (s.buf_y & bit)) f.bufY[c] = t.t; // §IV-B3
            if (dim == Dim::i) {
                if (fused_) {
                    f.chanVol[c] = f.chanBuf[c] = Di;
                } else {
                    f.chanVol[c] = ltX ? t.t : 1;
                    f.chanBuf[c] = ltX && !(s.f_x & bit) ? t.t : 1;
                    f.psum[c] = outs_ * 2 * (t.tiles - 1); // §IV-C3 partial sums
                }
                f.accX[c] = f.chanVol[c] * f.transX[c];
                f.accW[c] = f.volW[c] * f.transW[c];
            }
        }
    }
}

} // namespace lf
