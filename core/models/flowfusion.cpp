#include "models/flowfusion.h"

#include "util/checked.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

namespace lf {

HwffLayerCost hwffLayer(const LayerDims& d, const HwffTiling& t, int64_t batch) {
    HwffLayerCost c;
    const int64_t tox = std::clamp<int64_t>(t.tox, 1, d.Dx);
    const int64_t toy = std::clamp<int64_t>(t.toy, 1, d.Dy);
    const int64_t tof = std::clamp<int64_t>(t.tof, 1, d.Dz);
    const int64_t tif = std::clamp<int64_t>(t.tif, 1, d.Di);
    const int64_t tb = std::clamp<int64_t>(t.tb, 1, std::max<int64_t>(1, batch));
    // HWFF Eq. 4 (input tile of an output tile), clipped to the real input (docs/models/README.md).
    c.tix = d.windowX(tox);
    c.tiy = d.windowY(toy);
    // HWFF Eq. 1. Grouped layers: a weight tile holds Tif/G input channels per output channel.
    // Exact for one image (network/figure_limits.h); the batch tile Tb can take the figures
    // beyond 64 bits, so they saturate (util/checked.h).
    c.input_buffer = satMul(c.tix * c.tiy * tif * d.n_inputs, tb);
    c.output_buffer = satMul(tox * toy * tof, tb);
    c.weight_buffer = d.weights ? d.Dm * d.Dn * std::max<int64_t>(1, tif / d.G) * tof : 0;
    // HWFF Eq. 2 (output-reuse order: partial sums never leave the chip).
    const int64_t spatial = satMul(ceilDiv(d.Dy, toy) * ceilDiv(d.Dx, tox), ceilDiv(batch, tb));
    c.input_fetch = satMul(ceilDiv(d.Di, tif) * ceilDiv(d.Dz, tof), spatial);
    c.weight_fetch = d.weights ? c.input_fetch : 0;
    c.output_write = satMul(ceilDiv(d.Dz, tof), spatial);
    // HWFF Eq. 3 (Output fetch = 0).
    c.volume = satAdd(
        satAdd(satMul(c.input_buffer, c.input_fetch), satMul(c.weight_buffer, c.weight_fetch)),
        satMul(c.output_buffer, c.output_write));
    return c;
}

int64_t reuseBufferX(int64_t nix, int64_t tix, int64_t nky, int64_t sy, int64_t nif) {
    return std::max<int64_t>(0, nix - tix) * std::max<int64_t>(0, nky - sy) * nif; // HWFF Eq. 8
}

int64_t reuseBufferY(int64_t niy, int64_t tiy, int64_t nkx, int64_t sx, int64_t nif) {
    return std::max<int64_t>(0, niy - tiy) * std::max<int64_t>(0, nkx - sx) * nif; // HWFF Eq. 8
}

int64_t alwaniOverheadY(int64_t tiy, int64_t nky, int64_t sy, int64_t nkx, int64_t sx,
                        int64_t nif) {
    // HWFF Eq. 9: reuse overhead y = (Tiy − (Nky − Sy)) · (Nkx − Sx) · Nif.
    const int64_t rows = std::max<int64_t>(0, tiy - std::max<int64_t>(0, nky - sy));
    return rows * std::max<int64_t>(0, nkx - sx) * nif;
}

int64_t alwaniOverheadX(int64_t tix, int64_t nkx, int64_t sx, int64_t nky, int64_t sy,
                        int64_t nif) {
    // HWFF Eq. 9: reuse overhead x = (Tix − (Nkx − Sx)) · (Nky − Sy) · Nif.
    const int64_t cols = std::max<int64_t>(0, tix - std::max<int64_t>(0, nkx - sx));
    return cols * std::max<int64_t>(0, nky - sy) * nif;
}

int64_t multiTilingMacs(const LayerDims& d, int64_t tox, int64_t toy) {
    // HWFF Eq. 10-12: along each axis the unique outputs form a first tile (X1), Xreps middle
    // tiles of X2 new outputs and a last tile (X3, the remainder); HWFF Eq. 13 sums the tiles
    // times their repetitions. Tiles never overlap, so the sum covers the map once.
    auto axis = [](int64_t n, int64_t t) {
        t = std::clamp<int64_t>(t, 1, n);
        const int64_t steps = ceilDiv(n, t);
        const int64_t reps = std::max<int64_t>(0, steps - 2);   // Xreps = ⌈Nox/Tox⌉ − 2
        const int64_t x1 = t;                                   // X1
        const int64_t x2 = t;                                   // X2 (new outputs per step)
        const int64_t x3 = steps >= 2 ? n - x1 - x2 * reps : 0; // X3 (remainder)
        return std::min(n, x1) + x2 * reps + std::max<int64_t>(0, x3);
    };
    const int64_t covered = axis(d.Dx, tox) * axis(d.Dy, toy);
    if (!d.weights) return 0;
    return d.Dz * d.DiPerGroup() * d.Dm * d.Dn * covered;
}

GroupCost flowFusionGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                          const FusionGroup& group, ReuseModel model) {
    const Precision& prec = hw.precision;
    const int64_t B = std::max(1, hw.batch);
    const std::vector<LayerId>& members = group.layers;
    auto inGroup = [&](LayerId v) { return std::binary_search(members.begin(), members.end(), v); };
    auto slot = [&](LayerId v) {
        return size_t(std::lower_bound(members.begin(), members.end(), v) - members.begin());
    };
    GroupCost gc;
    gc.layers.resize(members.size());

    // Single layer: HWFF Eq. 1-3 with the layer's own tiles (Tif = Ti, Tof = Tz, Tb = B).
    if (members.size() == 1 && net.layer(members[0]).type != LayerType::concat) {
        const LayerId v = members[0];
        const LayerDims d = layerDims(net, v);
        const LayerSchedule& s = sched.layers[size_t(v)];
        HwffTiling t;
        t.tox = group.out_tile ? group.out_tile->w : s.T(Dim::x);
        t.toy = group.out_tile ? group.out_tile->h : s.T(Dim::y);
        // Per-group tiles of grouped layers scale to whole-layer channel tiles.
        t.tof = std::clamp<int64_t>(s.T(Dim::z) * d.G, 1, d.Dz);
        t.tif = std::clamp<int64_t>(s.T(Dim::i) * d.G, 1, d.Di);
        t.tb = B;
        const HwffLayerCost c = hwffLayer(d, t, B);
        LayerCost& lc = gc.layers[0];
        lc.id = v;
        lc.macs = layerMacs(d);
        lc.buf_x = c.input_buffer;
        lc.buf_w = c.weight_buffer;
        lc.buf_y = c.output_buffer;
        // Per image (the batch is scaled later); a saturated product stays saturated.
        lc.dram.input = satDiv(satMul(c.input_buffer, c.input_fetch), B);
        lc.dram.weight = satMul(c.weight_buffer, c.weight_fetch);
        lc.dram.output = satDiv(satMul(c.output_buffer, c.output_write), B);
        const int64_t tif = std::clamp<int64_t>(t.tif, 1, d.Di);
        const int64_t tof = std::clamp<int64_t>(t.tof, 1, d.Dz);
        lc.transfers.push_back({TrafficKind::input, c.input_fetch, tif * d.n_inputs, c.tiy, c.tix,
                                d.in_w, prec.act_bits});
        if (c.weight_buffer > 0)
            lc.transfers.push_back({TrafficKind::weight, c.weight_fetch, 1, 1, c.weight_buffer,
                                    c.weight_buffer, prec.weight_bits});
        lc.transfers.push_back({TrafficKind::output, c.output_write, tof, std::min(t.toy, d.Dy),
                                std::min(t.tox, d.Dx), d.Dx, prec.act_bits});
        gc.buffer_bits = satAdd(satAdd(satMul(c.input_buffer, prec.act_bits),
                                       satMul(c.weight_buffer, prec.weight_bits)),
                                satMul(c.output_buffer, prec.psum_bits));
        gc.tiles = ceilDiv(d.Dy, std::clamp<int64_t>(t.toy, 1, d.Dy)) *
                   ceilDiv(d.Dx, std::clamp<int64_t>(t.tox, 1, d.Dx));
        gc.out_tile_h = std::min(t.toy, d.Dy);
        gc.out_tile_w = std::min(t.tox, d.Dx);
        return gc;
    }

    // Fused group. Output tile of the bottom layer(s): the group's, else the last layer's.
    const LayerSchedule& lastSched = sched.layers[size_t(members.back())];
    const int64_t th = group.out_tile ? group.out_tile->h : lastSched.T(Dim::y);
    const int64_t tw = group.out_tile ? group.out_tile->w : lastSched.T(Dim::x);
    std::vector<int64_t> tox(members.size(), 0), toy(members.size(), 0);
    int64_t fetches = 1; // HWFF Eq. 2 with Tif = Nif, Tof = Nof: output tiles of the bottom layer
    int64_t bufferBits = 0;
    for (size_t k = members.size(); k-- > 0;) {
        const LayerId v = members[k];
        const Layer& layer = net.layer(v);
        LayerCost& lc = gc.layers[k];
        lc.id = v;
        bool consumedInside = false, consumedOutside = net.successors(v).empty();
        for (LayerId s : net.successors(v))
            (inGroup(s) ? consumedInside : consumedOutside) = true;
        if (!consumedInside) {
            // A bottom layer: its output tile is the group's (HWFF Eq. 4 starts here).
            tox[k] = std::clamp<int64_t>(tw, 1, layer.out.w);
            toy[k] = std::clamp<int64_t>(th, 1, layer.out.h);
            fetches =
                std::max(fetches, ceilDiv(layer.out.h, toy[k]) * ceilDiv(layer.out.w, tox[k]));
        }
        if (layer.type == LayerType::concat) {
            for (LayerId p : layer.inputs)
                if (inGroup(p)) {
                    tox[slot(p)] = std::max(tox[slot(p)], tox[k]);
                    toy[slot(p)] = std::max(toy[slot(p)], toy[k]);
                }
            continue;
        }
        const LayerDims d = layerDims(net, v);
        // HWFF Eq. 4: T_ix = (T_ox − 1)·S + K, clipped to the input.
        const int64_t tix = d.windowX(tox[k]), tiy = d.windowY(toy[k]);
        lc.macs = multiTilingMacs(d, tox[k], toy[k]); // HWFF Eq. 13: equals the unfused count
        if (!d.weights) lc.macs = 0;
        // HWFF Eq. 5: every layer's input buffer (Tif = Nif) and its whole weight volume.
        lc.buf_x = satMul(tix * tiy * d.Di * d.n_inputs, B);
        if (d.weights) {
            lc.buf_w = layerWeights(d);
            lc.dram.weight = lc.buf_w; // HWFF Eq. 6: every weight once
            lc.transfers.push_back(
                {TrafficKind::weight, 1, 1, 1, lc.buf_w, lc.buf_w, prec.weight_bits});
        }
        for (LayerId p : layer.inputs) {
            if (inGroup(p)) {
                // HWFF Eq. 8: a reuse buffer per intermediate input keeps the overlap of adjacent
                // tiles, so nothing is recomputed (horizontal processing: reuse buffer x).
                int64_t reuse = reuseBufferX(d.in_w, tix, d.En, d.Sy, d.Di);
                // HWFF Eq. 9: horizontal processing adds reuse overhead y to reuse buffer x.
                if (model == ReuseModel::alwani)
                    reuse += alwaniOverheadY(tiy, d.En, d.Sy, d.Em, d.Sx, d.Di);
                lc.buf_x = satAdd(lc.buf_x, satMul(reuse, B));
                tox[slot(p)] = std::max(tox[slot(p)], tix);
                toy[slot(p)] = std::max(toy[slot(p)], tiy);
            }
        }
        if (!consumedInside) {
            lc.buf_y = satMul(tox[k] * toy[k] * d.Dz, B); // HWFF Eq. 5: bottom output buffer
        }
        bufferBits = satAdd(bufferBits, satAdd(satAdd(satMul(lc.buf_x, prec.act_bits),
                                                      satMul(lc.buf_w, prec.weight_bits)),
                                               satMul(lc.buf_y, prec.psum_bits)));
    }
    // HWFF Eq. 6: the top inputs are fetched once per output tile, the bottom outputs written once
    // per output tile (per image; the batch is applied by the caller).
    for (size_t k = 0; k < members.size(); ++k) {
        const LayerId v = members[k];
        const Layer& layer = net.layer(v);
        LayerCost& lc = gc.layers[k];
        if (layer.type == LayerType::concat) continue;
        const LayerDims d = layerDims(net, v);
        const int64_t tix = d.windowX(tox[k]), tiy = d.windowY(toy[k]);
        for (LayerId p : layer.inputs)
            if (!inGroup(p)) {
                // The top input's halo for every output tile of the bottom layers: a product
                // across layers, saturating.
                lc.dram.input = satAdd(lc.dram.input, satMul(tix * tiy * d.Di, fetches));
                lc.transfers.push_back(
                    {TrafficKind::input, fetches, d.Di, tiy, tix, d.in_w, prec.act_bits});
            }
        bool consumedInside = false, consumedOutside = net.successors(v).empty();
        for (LayerId s : net.successors(v))
            (inGroup(s) ? consumedInside : consumedOutside) = true;
        if (consumedOutside) {
            // Bottom outputs: Tox·Toy·Nof per write; intermediate layers needed outside the
            // group write their unique outputs once.
            const int64_t writes = consumedInside ? 1 : fetches;
            const int64_t box =
                consumedInside ? layer.out.elements() : tox[k] * toy[k] * layer.out.c;
            lc.dram.output = satAdd(lc.dram.output, satMul(box, writes));
            lc.transfers.push_back(
                {TrafficKind::output, writes, layer.out.c, consumedInside ? layer.out.h : toy[k],
                 consumedInside ? layer.out.w : tox[k], layer.out.w, prec.act_bits});
        }
    }
    gc.buffer_bits = bufferBits;
    gc.tiles = fetches;
    gc.out_tile_h = std::clamp<int64_t>(th, 1, net.layer(members.back()).out.h);
    gc.out_tile_w = std::clamp<int64_t>(tw, 1, net.layer(members.back()).out.w);
    return gc;
}

std::vector<std::vector<SubArray>> enumerateSpatialPartitions(int n, int pex, int pey, int min_rows,
                                                              size_t limit) {
    std::vector<std::vector<SubArray>> out;
    if (n < 1 || pex < 1 || pey < 1) return out;
    auto divisors = [](int v) {
        std::vector<int> d;
        for (int k = 1; k <= v; ++k)
            if (v % k == 0) d.push_back(k);
        return d;
    };
    const std::vector<int> dx = divisors(pex), dy = divisors(pey);
    std::set<std::vector<std::array<int, 4>>> seen;
    std::vector<SubArray> cur(static_cast<size_t>(n));
    // Side-by-side column strips and stacked row strips of divisor-sized sub-arrays
    // (HWFF §4.3.1: "sub-arrays of height and width that are even divisors of the PE array").
    for (int layout = 0; layout < 2 && out.size() < limit; ++layout) {
        std::function<void(int, int)> rec = [&](int k, int offset) {
            if (out.size() >= limit) return;
            if (k == n) {
                std::vector<std::array<int, 4>> key;
                for (const SubArray& s : cur)
                    key.push_back({s.col, s.row, s.cols, s.rows});
                if (seen.insert(key).second) out.push_back(cur);
                return;
            }
            for (int w : dx)
                for (int h : dy) {
                    if (h < min_rows) continue;
                    if (layout == 0 && offset + w > pex) continue;
                    if (layout == 1 && offset + h > pey) continue;
                    cur[size_t(k)] =
                        layout == 0 ? SubArray{offset, 0, w, h} : SubArray{0, offset, w, h};
                    rec(k + 1, offset + (layout == 0 ? w : h));
                }
        };
        rec(0, 0);
    }
    // Guillotine packings that cover the whole array: cut it recursively (vertically or
    // horizontally) into `n` divisor-sized pieces, e.g. one half and two quarters, and give
    // the pieces to the layers in every order. These are the partitions strips miss.
    auto isDiv = [](int v, int of) { return v >= 1 && of % v == 0; };
    std::function<std::vector<std::vector<SubArray>>(SubArray, int)> cuts = [&](SubArray r, int k) {
        std::vector<std::vector<SubArray>> res;
        if (!isDiv(r.cols, pex) || !isDiv(r.rows, pey) || r.rows < min_rows) return res;
        if (k == 1) {
            res.push_back({r});
            return res;
        }
        for (int vertical = 0; vertical < 2; ++vertical) {
            const int len = vertical ? r.cols : r.rows;
            for (int c = 1; c < len; ++c) {
                const SubArray a = vertical ? SubArray{r.col, r.row, c, r.rows}
                                            : SubArray{r.col, r.row, r.cols, c};
                const SubArray b = vertical ? SubArray{r.col + c, r.row, r.cols - c, r.rows}
                                            : SubArray{r.col, r.row + c, r.cols, r.rows - c};
                for (int k1 = 1; k1 < k; ++k1)
                    for (const auto& x : cuts(a, k1))
                        for (const auto& y : cuts(b, k - k1)) {
                            auto z = x;
                            z.insert(z.end(), y.begin(), y.end());
                            res.push_back(std::move(z));
                            if (res.size() > limit) return res;
                        }
            }
        }
        return res;
    };
    for (auto pieces : cuts(SubArray{0, 0, pex, pey}, n)) {
        std::sort(pieces.begin(), pieces.end(), [](const SubArray& a, const SubArray& b) {
            return std::tie(a.col, a.row) < std::tie(b.col, b.row);
        });
        do {
            if (out.size() >= limit) return out;
            std::vector<std::array<int, 4>> key;
            for (const SubArray& sa : pieces)
                key.push_back({sa.col, sa.row, sa.cols, sa.rows});
            if (seen.insert(key).second) out.push_back(pieces);
        } while (std::next_permutation(pieces.begin(), pieces.end(),
                                       [](const SubArray& a, const SubArray& b) {
                                           return std::tie(a.col, a.row) < std::tie(b.col, b.row);
                                       }));
    }
    return out;
}

} // namespace lf
