#include "teaching/tile_pyramid.h"

#include "models/optimus.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <map>

namespace lf {

Rect Rect::intersected(const Rect& o) const {
    const int64_t x0 = std::max(x, o.x), y0 = std::max(y, o.y);
    const int64_t x1 = std::min(x + w, o.x + o.w), y1 = std::min(y + h, o.y + o.h);
    if (x1 <= x0 || y1 <= y0) return {};
    return {x0, y0, x1 - x0, y1 - y0};
}

Rect Rect::united(const Rect& o) const {
    if (empty()) return o;
    if (o.empty()) return *this;
    const int64_t x0 = std::min(x, o.x), y0 = std::min(y, o.y);
    const int64_t x1 = std::max(x + w, o.x + o.w), y1 = std::max(y + h, o.y + o.h);
    return {x0, y0, x1 - x0, y1 - y0};
}

namespace {

// Input rows [a, b) needed for output rows [o0, o1) of a windowed layer (with padding),
// clipped to the input.
std::pair<int64_t, int64_t> windowRange(int64_t o0, int64_t o1, int64_t stride, int64_t extent,
                                        int64_t pad, int64_t in) {
    int64_t a = o0 * stride - pad;
    int64_t b = (o1 - 1) * stride - pad + extent;
    return {std::clamp<int64_t>(a, 0, in), std::clamp<int64_t>(b, 0, in)};
}

// The region of input `k` a layer needs for the region `out` of its output.
Rect inputRegion(const Network& net, LayerId id, const Rect& out, const Shape& in) {
    if (out.empty()) return {};
    const Layer& l = net.layer(id);
    Rect r;
    auto clipTo = [&](Rect x) { return x.intersected(Rect{0, 0, in.w, in.h}); };
    switch (l.type) {
    case LayerType::conv:
    case LayerType::pool: {
        const int64_t ey = int64_t(l.kernel_h - 1) * l.dilation_h + 1,
                      ex = int64_t(l.kernel_w - 1) * l.dilation_w + 1;
        auto [y0, y1] = windowRange(out.y, out.y + out.h, l.stride_h, ey, l.pad_t, in.h);
        auto [x0, x1] = windowRange(out.x, out.x + out.w, l.stride_w, ex, l.pad_l, in.w);
        return Rect{x0, y0, x1 - x0, y1 - y0};
    }
    case LayerType::deconv: {
        const LayerDims d = layerDims(net, id);
        const int64_t y0 =
            std::max<int64_t>(0, (out.y + l.pad_t - (d.En - 1) + l.stride_h - 1) / l.stride_h);
        const int64_t y1 = std::min<int64_t>(in.h, (out.y + out.h - 1 + l.pad_t) / l.stride_h + 1);
        const int64_t x0 =
            std::max<int64_t>(0, (out.x + l.pad_l - (d.Em - 1) + l.stride_w - 1) / l.stride_w);
        const int64_t x1 = std::min<int64_t>(in.w, (out.x + out.w - 1 + l.pad_l) / l.stride_w + 1);
        return Rect{x0, y0, std::max<int64_t>(0, x1 - x0), std::max<int64_t>(0, y1 - y0)};
    }
    case LayerType::resize: {
        const int64_t extra = l.resize_mode == ResizeMode::bilinear ? 1 : 0;
        r.y = out.y / l.scale_h;
        r.x = out.x / l.scale_w;
        r.h = ceilDiv(out.y + out.h, l.scale_h) + extra - r.y;
        r.w = ceilDiv(out.x + out.w, l.scale_w) + extra - r.x;
        return clipTo(r);
    }
    case LayerType::fc:
    case LayerType::global_pool:
        return Rect{0, 0, in.w, in.h};
    default:
        // Element-wise and concat: the same region (broadcast inputs: all of them).
        if (in.w == 1 && in.h == 1) return Rect{0, 0, 1, 1};
        return clipTo(out);
    }
}

} // namespace

TilePyramid tilePyramid(const Network& net, const Hardware& hw, const Schedule& sched,
                        int groupIndex) {
    TilePyramid p;
    p.net = &net;
    const FusionGroup& g = sched.groups[size_t(groupIndex)];
    p.strategy = g.strategy;
    auto inGroup = [&](LayerId v) {
        return std::binary_search(g.layers.begin(), g.layers.end(), v);
    };
    std::map<LayerId, int> levelOf;
    // Group inputs first (in id order), then the members.
    std::vector<LayerId> inputs;
    for (LayerId v : g.layers)
        for (LayerId q : net.layer(v).inputs)
            if (!inGroup(q) && std::find(inputs.begin(), inputs.end(), q) == inputs.end())
                inputs.push_back(q);
    std::sort(inputs.begin(), inputs.end());
    auto addLevel = [&](LayerId id, bool input) {
        const Layer& l = net.layer(id);
        PyramidLevel lv;
        lv.id = id;
        lv.name = l.name;
        lv.group_input = input;
        lv.width = l.out.w;
        lv.height = l.out.h;
        lv.channels = l.out.c;
        levelOf[id] = int(p.levels.size());
        p.levels.push_back(lv);
    };
    for (LayerId q : inputs)
        addLevel(q, true);
    for (LayerId v : g.layers)
        addLevel(v, false);
    p.consumers.assign(p.levels.size(), {});
    for (LayerId v : g.layers)
        for (LayerId q : net.layer(v).inputs)
            p.consumers[size_t(levelOf[q])].push_back(levelOf[v]);

    // The bottom tile.
    const LayerId last = g.layers.back();
    const Layer& bottom = net.layer(last);
    if (g.out_tile) {
        p.tile_h = g.out_tile->h;
        p.tile_w = g.out_tile->w;
    } else if (g.strategy == Strategy::optimus) {
        const OptimusPlan plan = optimusPlan(net, hw, g.layers, hw.buffer.bits());
        p.tile_h = plan.t_h;
        p.tile_w = plan.t_w;
    } else {
        p.tile_h = sched.layers[size_t(last)].T(Dim::y);
        p.tile_w = sched.layers[size_t(last)].T(Dim::x);
    }
    p.tile_h = std::clamp<int64_t>(p.tile_h, 1, bottom.out.h);
    p.tile_w = std::clamp<int64_t>(p.tile_w, 1, bottom.out.w);
    p.tiles_y = ceilDiv(bottom.out.h, p.tile_h);
    p.tiles_x = ceilDiv(bottom.out.w, p.tile_w);
    p.capacity_elements = hw.buffer.bits() / std::max(1, hw.precision.act_bits);
    // The largest region of each map. A region's size depends only on how far its tile is
    // from the map's borders (clipping shrinks it), so the tiles next to each border and the
    // middle ones cover every size — a few dozen steps instead of all of them.
    auto probes = [](int64_t n) {
        std::vector<int64_t> v;
        for (int64_t c :
             {int64_t(0), int64_t(1), int64_t(2), n / 2 - 1, n / 2, n / 2 + 1, n - 3, n - 2, n - 1})
            if (c >= 0 && c < n && std::find(v.begin(), v.end(), c) == v.end()) v.push_back(c);
        return v;
    };
    std::vector<int> sample;
    for (int64_t ty : probes(p.tiles_y))
        for (int64_t tx : probes(p.tiles_x))
            sample.push_back(int(ty * p.tiles_x + tx));
    for (int k : sample) {
        const PyramidStep s = p.step(k);
        for (size_t q = 0; q < p.levels.size(); ++q) {
            p.levels[q].tile_w = std::max(p.levels[q].tile_w, s.levels[q].region.w);
            p.levels[q].tile_h = std::max(p.levels[q].tile_h, s.levels[q].region.h);
        }
    }
    return p;
}

PyramidStep TilePyramid::step(int k) const {
    PyramidStep out;
    out.index = k;
    out.ty = k / tiles_x;
    out.tx = k % tiles_x;
    auto regions = [&](int64_t tx, int64_t ty) {
        std::vector<Rect> r(levels.size());
        for (size_t q = levels.size(); q-- > 0;) {
            const PyramidLevel& lv = levels[q];
            if (consumers[q].empty() && !lv.group_input) {
                r[q] = Rect{tx * tile_w, ty * tile_h, tile_w, tile_h}.intersected(
                    Rect{0, 0, lv.width, lv.height});
            }
            for (int c : consumers[q]) {
                const Layer& cl = net->layer(levels[size_t(c)].id);
                const Shape in = net->layer(lv.id).out;
                (void)cl;
                r[q] = r[q].united(inputRegion(*net, levels[size_t(c)].id, r[size_t(c)], in));
            }
        }
        return r;
    };
    const std::vector<Rect> cur = regions(out.tx, out.ty);
    const std::vector<Rect> left =
        out.tx > 0 ? regions(out.tx - 1, out.ty) : std::vector<Rect>(levels.size());
    const std::vector<Rect> above =
        out.ty > 0 ? regions(out.tx, out.ty - 1) : std::vector<Rect>(levels.size());
    std::vector<Rect> prev(levels.size());
    if (k > 0) prev = regions((k - 1) % tiles_x, (k - 1) / tiles_x);
    out.levels.resize(levels.size());
    for (size_t q = 0; q < levels.size(); ++q) {
        const PyramidLevel& lv = levels[q];
        LevelStep& ls = out.levels[q];
        ls.region = cur[q];
        ls.overlap_left = cur[q].intersected(left[q]);
        ls.overlap_above = cur[q].intersected(above[q]);
        const int64_t overlap = ls.overlap_left.area() + ls.overlap_above.area() -
                                ls.overlap_left.intersected(ls.overlap_above).area();
        const int64_t area = cur[q].area();
        if (lv.group_input) {
            // Optimus keeps rows in a line buffer: only new rows are loaded.
            ls.loaded = (strategy == Strategy::optimus ? area - ls.overlap_above.area() : area) *
                        lv.channels;
        } else if (strategy == Strategy::recompute) {
            ls.computed = area * lv.channels;
            ls.recomputed = overlap * lv.channels;
        } else {
            ls.reused = overlap * lv.channels;
            ls.computed = (area - overlap) * lv.channels;
        }
        ls.evicted = (prev[q].area() - prev[q].intersected(cur[q]).area()) * lv.channels;
        out.live_elements += area * lv.channels;
    }
    return out;
}

} // namespace lf
