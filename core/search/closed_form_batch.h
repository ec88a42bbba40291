// The single-layer closed form (ConvFusion §IV-A..D, models/convfusion.h) evaluated for a
// whole batch of candidate tiles at once, as the searches walk them: one structure (search/
// layer_space.h), every tile vector of the candidate lists.
//
// Every field of the closed form is a product of factors that each depend on one tiled dim
// (ConvFusion Eqs. of §IV-B for Buf, §IV-C for Trans and Acc): Trans = Π over dims of
// ⌈D/T⌉ or D, Vol_X = channels × x window × y window, Buf_W = kernel × the z and i tiles
// not folded, and so on. So the factors are tabulated once per structure and candidate,
// the products of the z, y and x factors are formed once per (z, y, x) — strength reduction
// of the four nested loops — and the innermost loop over the i candidates costs one
// multiplication per field. The results equal convFusionLayer() field by field (products
// of the same integers); tests check this bit for bit on every bundled network.
#pragma once

#include "models/convfusion.h"
#include "search/layer_space.h"

#include <array>
#include <cstdint>
#include <vector>

namespace lf {

// Per-candidate factors of one structure for one dim.
struct DimFactors {
    std::vector<int64_t> transX, transW; // Trans_X / Trans_W factor: ⌈D/T⌉ below SL, else D
    std::vector<int64_t> volW, bufW;     // weight tile factor of Vol_W / Buf_W (z, i)
    std::vector<int64_t> ext, bufX;      // X window in x / y of Vol_X and of Buf_X
    std::vector<int64_t> bufY;           // Buf_Y factor (z, y, x of a non-fused layer)
    std::vector<int64_t> chanVol, chanBuf, accX, accW, psum; // i only (see build())
};

// The factor tables of one structure over candidate spans of the four dims.
class ClosedFormBatch {
  public:
    // Spans: [begin, end) of each dim's candidates, indexed by Dim.
    void build(const FastLayer& fl, const LevelStructure& s,
               const std::array<const TileValue*, 4>& begin,
               const std::array<const TileValue*, 4>& end);

    // Products of the z, y and x factors (one per (z, y, x) of the loops).
    struct Row {
        int64_t transX = 1, transW = 1, volW = 0, bufW = 0, accW = 0, extXY = 0, bufXY = 0,
                accX = 0, bufY = 0, extX = 0, extY = 0;
    };
    Row row(size_t z, size_t y, size_t x) const {
        const DimFactors &fz = f_[0], &fy = f_[1], &fx = f_[2];
        Row r;
        r.transX = fz.transX[z] * fy.transX[y] * fx.transX[x];
        r.transW = fz.transW[z] * fy.transW[y] * fx.transW[x];
        r.volW = kernel_ * fz.volW[z];
        r.bufW = kernel_ * fz.bufW[z];
        r.accW = r.volW * r.transW * G_;
        r.extX = fx.ext[x];
        r.extY = fy.ext[y];
        r.extXY = r.extX * r.extY * nIn_;
        r.bufXY = fx.bufX[x] * fy.bufX[y] * nIn_;
        r.accX = r.extXY * r.transX * G_;
        r.bufY = fz.bufY[z] * fy.bufY[y] * fx.bufY[x];
        return r;
    }
    // The closed form of candidate `i` of the i span in row `r`; equal to
    // convFusionLayer(dims, s.schedule(tiles), fused).
    CfLayerCost eval(const Row& r, size_t i) const {
        const DimFactors& fi = f_[3];
        CfLayerCost c;
        if (weights_) {
            c.vol_w = r.volW * fi.volW[i];
            c.buf_w = r.bufW * fi.bufW[i];
            c.trans_w = r.transW * fi.transW[i];
            c.acc_w = r.accW * fi.accW[i];
        }
        c.ext_x = r.extX;
        c.ext_y = r.extY;
        c.ext_c = fi.chanVol[i];
        c.vol_x = fi.chanVol[i] * r.extXY;
        c.buf_x = fi.chanBuf[i] * r.bufXY;
        c.trans_x = r.transX * fi.transX[i];
        c.acc_x = r.accX * fi.accX[i];
        if (!fused_) {
            c.buf_y = r.bufY;
            c.acc_y_out = outs_;
            c.acc_y_psum = fi.psum[i];
        }
        c.macs = macs_;
        return c;
    }

  private:
    std::array<DimFactors, 4> f_;
    int64_t kernel_ = 0, G_ = 1, nIn_ = 1, outs_ = 0, macs_ = 0;
    bool weights_ = true, fused_ = false;
};

} // namespace lf
