// The per-layer schedule space of ConvFusion (ConvFusion §III, ConvFusion Table 2) as the searches
// walk it: loop orders and store/compute levels reduced to their distinct cost structures, and
// an allocation-free evaluation of the single-layer closed form (ConvFusion §IV-A..D, models/
// convfusion.h) for one structure and one tile vector.
//
// The closed form depends on the order and the levels only through, per array, the set of
// dims whose inner loop lies below the store level (LT) and the subset of those that are
// folded (F), plus the dims that multiply Buf_Y. Schedules that agree on these sets have
// the same cost for every tile vector, so a search evaluates each structure once; the
// representative (order, levels) of a structure is the first one met in a fixed
// enumeration order (orders lexicographic over z, y, x, i, then SL/CL of X, W, Y).
#pragma once

#include "models/convfusion.h"
#include "network/dims.h"
#include "schedule/schedule.h"
#include "search/search_types.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace lf {

// Bit of a dim in the structure masks.
constexpr uint8_t dimBit(Dim d) {
    return uint8_t(1u << unsigned(d));
}

struct LevelStructure {
    uint8_t lt_x = 0, f_x = 0; // X: dims below SL_X; folded ones (only x, y, i matter)
    uint8_t lt_w = 0, f_w = 0; // W: dims below SL_W (trans: x, y, z, i); folded (z, i)
    uint8_t buf_y = 0;         // dims whose tile multiplies Buf_Y (non-fused only)
    uint8_t relevant = 0;      // dims whose tile changes the cost at all
    std::array<Dim, 4> order{Dim::z, Dim::y, Dim::x, Dim::i};
    std::array<Level, 3> store{Level::tile, Level::tile, Level::tile};
    std::array<Level, 3> compute{Level::tile, Level::tile, Level::tile};

    // The representative schedule with the given tiles.
    LayerSchedule schedule(const std::array<int64_t, 4>& tiles) const;
};

// The distinct structures of a non-fused layer (the last layer of a segment or a layer on
// its own) or of a fused producer, in the given level space. Computed once per process.
// With `weights_resident` the W masks do not matter (all weights stay on chip) and the
// structures that differ only in them are merged.
const std::vector<LevelStructure>& levelStructures(bool fused, LevelSpace space,
                                                   bool weights_resident = false);

// Whether a layer schedule's levels lie in a level space (tiles are not looked at).
bool inLevelSpace(const LayerSchedule& s, bool fused, LevelSpace space);

// One tile candidate of a dim with what the closed form needs of it.
struct TileValue {
    int64_t t = 1;      // tile size
    int64_t tiles = 1;  // ⌈D/T⌉
    int64_t window = 1; // input extent of T outputs (x, y only; clipped to the input)
};

// A layer's dims prepared for fast evaluation (docs/models/convfusion.md). `fused` as in
// convFusionLayer: a producer inside a segment (T_i = D_i, no Y array).
class FastLayer {
  public:
    FastLayer(const LayerDims& d, bool fused);

    const LayerDims& dims() const { return d_; }
    bool fused() const { return fused_; }
    // Per-group extent of a dim (z and i per group, as the tiles).
    int64_t extent(Dim dim) const { return D_[size_t(dim)]; }
    TileValue tileValue(Dim dim, int64_t t) const;
    // Candidates of a dim for a tile set (i of a fused layer: D_i only).
    std::vector<TileValue> candidates(Dim dim, TileSet set) const;

    // The closed form of convFusionLayer for structure `s` and tiles z, y, x, i; equal to
    // convFusionLayer(dims, s.schedule(tiles), fused) field by field.
    CfLayerCost eval(const LevelStructure& s, const TileValue& z, const TileValue& y,
                     const TileValue& x, const TileValue& i) const {
        CfLayerCost c;
        const uint8_t bz = dimBit(Dim::z), by = dimBit(Dim::y), bx = dimBit(Dim::x),
                      bi = dimBit(Dim::i);
        auto trans = [&](uint8_t lt) {
            int64_t t = ((lt & bz) ? z.tiles : D_[0]) * ((lt & by) ? y.tiles : D_[1]) *
                        ((lt & bx) ? x.tiles : D_[2]);
            if (!fused_) t *= (lt & bi) ? i.tiles : D_[3];
            return t;
        };
        if (d_.weights) {
            int64_t vol = kernel_ * (fused_ ? D_[3] : 1);
            int64_t buf = vol;
            if (s.lt_w & bz) {
                vol *= z.t;
                if (!(s.f_w & bz)) buf *= z.t;
            }
            if (!fused_ && (s.lt_w & bi)) {
                vol *= i.t;
                if (!(s.f_w & bi)) buf *= i.t;
            }
            c.buf_w = buf;
            c.vol_w = vol;
            c.trans_w = trans(s.lt_w);
            c.acc_w = vol * c.trans_w * G_;
        }
        {
            const bool ltI = s.lt_x & bi;
            const int64_t chanVol = fused_ ? D_[3] : (ltI ? i.t : 1);
            const int64_t chanBuf = fused_ ? D_[3] : (ltI && !(s.f_x & bi) ? i.t : 1);
            const bool ltX = s.lt_x & bx, ltY = s.lt_x & by;
            c.ext_x = ltX ? x.window : kx_;
            c.ext_y = ltY ? y.window : ky_;
            c.ext_c = chanVol;
            const int64_t wx = ltX && !(s.f_x & bx) ? x.window : kx_;
            const int64_t wy = ltY && !(s.f_x & by) ? y.window : ky_;
            c.vol_x = chanVol * c.ext_x * c.ext_y * nIn_;
            c.buf_x = chanBuf * wx * wy * nIn_;
            c.trans_x = trans(s.lt_x);
            c.acc_x = c.vol_x * c.trans_x * G_;
        }
        if (!fused_) {
            int64_t buf = 1;
            if (s.buf_y & bz) buf *= z.t;
            if (s.buf_y & by) buf *= y.t;
            if (s.buf_y & bx) buf *= x.t;
            c.buf_y = buf;
            c.acc_y_out = outs_;
            c.acc_y_psum = outs_ * 2 * (i.tiles - 1);
        }
        c.macs = macs_;
        return c;
    }

  private:
    LayerDims d_;
    bool fused_;
    std::array<int64_t, 4> D_{}; // indexed by Dim
    int64_t kernel_ = 1, kx_ = 1, ky_ = 1, G_ = 1, nIn_ = 1, outs_ = 0, macs_ = 0;
};

} // namespace lf
