#include "search/layer_space.h"

#include "util/checked.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace lf {

namespace {

constexpr uint8_t kZ = dimBit(Dim::z), kY = dimBit(Dim::y), kX = dimBit(Dim::x),
                  kI = dimBit(Dim::i);

// Levels of each dim's inner loop: 1..4 (l1 outermost), indexed by Dim.
std::array<int, 4> innerLevels(const std::array<Dim, 4>& order) {
    std::array<int, 4> lvl{};
    for (int k = 0; k < 4; ++k)
        lvl[size_t(order[size_t(k)])] = k + 1;
    return lvl;
}

uint8_t belowMask(const std::array<int, 4>& lvl, int sl) {
    uint8_t m = 0;
    for (Dim d : kAllDims)
        if (lvl[size_t(d)] > sl) m |= dimBit(d);
    return m;
}

uint8_t foldedMask(const std::array<int, 4>& lvl, int sl, int cl) {
    uint8_t m = 0;
    for (Dim d : kAllDims)
        if (lvl[size_t(d)] > sl && lvl[size_t(d)] <= cl) m |= dimBit(d);
    return m;
}

// ConvFusion §III-C folding condition (search_types.h, LevelSpace::sound): every folded
// loop indexes the array, and a loop along which the array's windows overlap is the
// innermost folded loop.
bool soundFold(const std::array<int, 4>& lvl, int sl, int cl, uint8_t indexes,
               uint8_t overlapping) {
    const uint8_t f = foldedMask(lvl, sl, cl);
    if (f & ~indexes) return false;
    for (Dim d : kAllDims)
        if ((f & overlapping & dimBit(d)) && lvl[size_t(d)] != cl) return false;
    return true;
}

std::vector<std::array<Dim, 4>> allOrders() {
    std::array<Dim, 4> o{Dim::z, Dim::y, Dim::x, Dim::i};
    std::vector<std::array<Dim, 4>> out;
    std::sort(o.begin(), o.end());
    do
        out.push_back(o);
    while (std::next_permutation(o.begin(), o.end()));
    return out;
}

std::vector<LevelStructure> buildStructures(bool fused, LevelSpace space, bool resident) {
    std::vector<LevelStructure> out;
    std::map<std::tuple<uint8_t, uint8_t, uint8_t, uint8_t, uint8_t>, size_t> seen;
    for (const auto& order : allOrders()) {
        const auto lvl = innerLevels(order);
        const int lvlI = lvl[size_t(Dim::i)];
        for (int slX = 0; slX <= 4; ++slX)
            for (int clX = slX; clX <= 4; ++clX)
                for (int slW = 0; slW <= 4; ++slW)
                    for (int clW = slW; clW <= 4; ++clW)
                        for (int slY = std::max(slX, slW); slY <= 4; ++slY)
                            for (int clY = slY; clY <= 4; ++clY) {
                                if (space == LevelSpace::sound) {
                                    if (!soundFold(lvl, slX, clX, kX | kY | kI, kX | kY)) continue;
                                    if (!soundFold(lvl, slW, clW, kZ | kI, 0)) continue;
                                    if (fused) {
                                        // No Y array: one legal choice stands for all.
                                        if (slY != 4 || clY != 4) continue;
                                    } else if (slY > lvlI || clY != slY) {
                                        continue;
                                    }
                                } else if (fused && (slY != 4 || clY != 4)) {
                                    continue;
                                }
                                LevelStructure s;
                                s.order = order;
                                s.store = {Level(slX), Level(slY), Level(slW)};
                                s.compute = {Level(clX), Level(clY), Level(clW)};
                                s.lt_x = belowMask(lvl, slX);
                                s.f_x = foldedMask(lvl, slX, clX) & (kX | kY | kI);
                                s.lt_w = belowMask(lvl, slW);
                                s.f_w = foldedMask(lvl, slW, clW) & (kZ | kI);
                                if (!fused) {
                                    const uint8_t fy = foldedMask(lvl, slY, clY);
                                    for (Dim d : {Dim::z, Dim::y, Dim::x})
                                        if (lvl[size_t(d)] > slY && lvl[size_t(d)] > lvlI &&
                                            !(fy & dimBit(d)))
                                            s.buf_y |= dimBit(d);
                                } else {
                                    // T_i = D_i: nothing about i changes the cost.
                                    s.lt_x &= uint8_t(~kI);
                                    s.f_x &= uint8_t(~kI);
                                    s.lt_w &= uint8_t(~kI);
                                    s.f_w &= uint8_t(~kI);
                                }
                                if (resident) s.lt_w = s.f_w = 0;
                                s.relevant = s.lt_x | s.lt_w | s.buf_y | (fused ? 0 : kI);
                                const auto key =
                                    std::make_tuple(s.lt_x, s.f_x, s.lt_w, s.f_w, s.buf_y);
                                if (seen.emplace(key, out.size()).second) out.push_back(s);
                            }
    }
    // A structure whose masks equal another's except for fewer folded dims (or more dims in
    // Buf_Y) costs the same accesses and moves the same tiles with a buffer at least as
    // large, for every tile vector: it is never on a front.
    auto subset = [](uint8_t a, uint8_t b) { return (a & ~b) == 0; };
    std::vector<LevelStructure> kept;
    for (const LevelStructure& a : out) {
        bool dominated = false;
        for (const LevelStructure& b : out) {
            if (&a == &b || a.lt_x != b.lt_x || a.lt_w != b.lt_w) continue;
            const bool le =
                subset(a.f_x, b.f_x) && subset(a.f_w, b.f_w) && subset(b.buf_y, a.buf_y);
            const bool same = a.f_x == b.f_x && a.f_w == b.f_w && a.buf_y == b.buf_y;
            if (le && !same) {
                dominated = true;
                break;
            }
        }
        if (!dominated) kept.push_back(a);
    }
    return kept;
}

} // namespace

LayerSchedule LevelStructure::schedule(const std::array<int64_t, 4>& tiles) const {
    LayerSchedule s;
    s.order = order;
    s.store = store;
    s.compute = compute;
    s.tile = tiles;
    return s;
}

const std::vector<LevelStructure>& levelStructures(bool fused, LevelSpace space,
                                                   bool weights_resident) {
    // Function-local statics: built once, thread-safe initialization.
    static const std::vector<LevelStructure> table[2][2][2] = {
        {{buildStructures(false, LevelSpace::sound, false),
          buildStructures(false, LevelSpace::sound, true)},
         {buildStructures(false, LevelSpace::legal, false),
          buildStructures(false, LevelSpace::legal, true)}},
        {{buildStructures(true, LevelSpace::sound, false),
          buildStructures(true, LevelSpace::sound, true)},
         {buildStructures(true, LevelSpace::legal, false),
          buildStructures(true, LevelSpace::legal, true)}},
    };
    return table[fused ? 1 : 0][space == LevelSpace::legal ? 1 : 0][weights_resident ? 1 : 0];
}

bool inLevelSpace(const LayerSchedule& s, bool fused, LevelSpace space) {
    const auto lvl = innerLevels(s.order);
    const int slX = int(s.SL(Arr::X)), clX = int(s.CL(Arr::X));
    const int slW = int(s.SL(Arr::W)), clW = int(s.CL(Arr::W));
    const int slY = int(s.SL(Arr::Y)), clY = int(s.CL(Arr::Y));
    if (clX < slX || clW < slW || clY < slY || slY < slX || slY < slW) return false;
    if (space == LevelSpace::legal) return true;
    if (!soundFold(lvl, slX, clX, kX | kY | kI, kX | kY) || !soundFold(lvl, slW, clW, kZ | kI, 0))
        return false;
    return fused || (slY <= lvl[size_t(Dim::i)] && clY == slY);
}

FastLayer::FastLayer(const LayerDims& d, bool fused) : d_(d), fused_(fused) {
    D_ = {std::max<int64_t>(1, d.DzPerGroup()), std::max<int64_t>(1, d.Dy),
          std::max<int64_t>(1, d.Dx), std::max<int64_t>(1, d.DiPerGroup())};
    kernel_ = d.Dm * d.Dn;
    kx_ = d.windowX(1);
    ky_ = d.windowY(1);
    G_ = d.G;
    nIn_ = d.n_inputs;
    outs_ = d.Dx * d.Dy * d.Dz;
    macs_ = layerMacs(d);
}

TileValue FastLayer::tileValue(Dim dim, int64_t t) const {
    const int64_t D = D_[size_t(dim)];
    t = std::clamp<int64_t>(t, 1, D);
    if (fused_ && dim == Dim::i) t = D;
    TileValue v;
    v.t = t;
    v.tiles = ceilDiv(D, t);
    v.window = dim == Dim::x ? d_.windowX(t) : dim == Dim::y ? d_.windowY(t) : t;
    return v;
}

std::vector<TileValue> FastLayer::candidates(Dim dim, TileSet set) const {
    std::vector<TileValue> out;
    if (fused_ && dim == Dim::i) {
        out.push_back(tileValue(dim, D_[3]));
        return out;
    }
    // Of the sizes of the set that split D into the same number of tiles only the smallest
    // is kept: it moves and buffers no more of any array and demands no larger tile of a
    // producer, whose candidates for a smaller extent hold the clamped size again (true of
    // all three sets). Divisors are already the smallest for their count.
    for (int64_t t : tileCandidates(D_[size_t(dim)], set)) {
        const TileValue v = tileValue(dim, t);
        if (out.empty() || out.back().tiles != v.tiles) out.push_back(v);
    }
    return out;
}

} // namespace lf
