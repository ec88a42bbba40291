#include "io/exports/zigzag_mapping.h"

#include "io/yaml_support.h"
#include "models/convfusion.h"
#include "models/rf_level.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

namespace lf {

using yamlio::intText;

namespace {

// ZigZag dim a LayerFuse loop dim stands for in this layer ("" when the layer has none).
const char* zigzagDimOf(LoopDim l, ZigZagForm form) {
    const bool kc = form == ZigZagForm::conv || form == ZigZagForm::grouped_conv;
    switch (l) {
    case LoopDim::ox:
        return "OX";
    case LoopDim::oy:
        return "OY";
    case LoopDim::oc:
        return kc ? "K" : (form == ZigZagForm::depthwise_conv ? "" : "G");
    case LoopDim::ic:
        return kc ? "C" : "";
    case LoopDim::kx:
        return form == ZigZagForm::add ? "" : "FX";
    case LoopDim::ky:
        return form == ZigZagForm::add ? "" : "FY";
    case LoopDim::b:
        return "B";
    }
    return "";
}

const char* loopDimName(LoopDim l) {
    switch (l) {
    case LoopDim::ox:
        return "ox";
    case LoopDim::oy:
        return "oy";
    case LoopDim::oc:
        return "oc";
    case LoopDim::ic:
        return "ic";
    case LoopDim::kx:
        return "kx";
    case LoopDim::ky:
        return "ky";
    case LoopDim::b:
        return "b";
    }
    return "?";
}

// The largest divisor of n not above t (t >= 1).
int64_t largestDivisorAtMost(int64_t n, int64_t t) {
    if (t >= n) return n;
    int64_t best = 1;
    for (int64_t a = 1; a * a <= n; ++a) {
        if (n % a != 0) continue;
        if (a <= t) best = std::max(best, a);
        if (n / a <= t) best = std::max(best, n / a);
    }
    return best;
}

const char* tiledDim(Dim dim, ZigZagForm form) {
    const bool kc = form == ZigZagForm::conv || form == ZigZagForm::grouped_conv;
    switch (dim) {
    case Dim::z:
        return kc ? "K" : "";
    case Dim::y:
        return "OY";
    case Dim::x:
        return "OX";
    case Dim::i:
        return kc ? "C" : "";
    }
    return "";
}

} // namespace

ZigZagLayerMapping zigzagLayerMapping(const Network& net, const Hardware& hw, LayerId id,
                                      const LayerSchedule& ls) {
    const Layer& layer = net.layer(id);
    const LayerDims d = layerDims(net, id);
    const ZigZagForm form = zigzagForm(layer, d);
    const Dataflow& df = ls.unroll ? *ls.unroll : hw.pe_array.dataflow;
    ZigZagLayerMapping m;

    // Spatial: the array model's unrolling (models/rf_level.h), per axis.
    const ArrayUnroll au = arrayUnroll(d, df, hw.pe_array.cols, hw.pe_array.rows, hw.batch);
    std::map<std::string, int64_t> unroll; // ZigZag dim -> product of its unrolling
    auto axis = [&](const std::vector<LoopDim>& listed, int pes, std::vector<ZigZagLoop>& out) {
        int64_t lfExtent = 1;
        bool seen[7] = {};
        for (LoopDim l : listed) {
            if (seen[size_t(l)]) continue;
            seen[size_t(l)] = true;
            const int64_t e = loopDimExtent(l, d, hw.batch);
            const int64_t u = au.u[size_t(l)];
            lfExtent *= e;
            m.spatial_cycles *= ceilDiv(e, u);
            if (u <= 1) continue;
            const char* zz = zigzagDimOf(l, form);
            if (!*zz) {
                m.notes.push_back(std::string("the dataflow's ") + loopDimName(l) +
                                  " has no ZigZag dim in this layer; not unrolled");
                continue;
            }
            out.push_back({zz, u});
            unroll[zz] = unroll.count(zz) ? unroll[zz] * u : u;
        }
        m.layerfuse_cycles *=
            ceilDiv(lfExtent, std::min<int64_t>(lfExtent, std::max<int64_t>(1, pes)));
    };
    // A dim on both axes counts on the columns only (the array model's rule).
    std::vector<LoopDim> rowsListed;
    for (LoopDim l : df.rows)
        if (std::find(df.cols.begin(), df.cols.end(), l) == df.cols.end()) rowsListed.push_back(l);
    axis(df.cols, hw.pe_array.cols, m.d1);
    axis(rowsListed, hw.pe_array.rows, m.d2);
    if (m.spatial_cycles != m.layerfuse_cycles)
        m.notes.push_back("the array model packs the unrolled dims of an axis as one product (" +
                          intText(m.layerfuse_cycles) +
                          " passes); ZigZag unrolls each dim by its "
                          "own factor (" +
                          intText(m.spatial_cycles) + " passes)");

    // Temporal extent of every dim: ⌈D/U⌉.
    std::map<std::string, int64_t> q, size;
    for (const ZigZagLoop& l : zigzagLoops(net, hw, id)) {
        const auto it = unroll.find(l.dim);
        q[l.dim] = ceilDiv(l.size, it == unroll.end() ? 1 : it->second);
        size[l.dim] = l.size;
    }

    // Inner tile factors: T/U where it divides, else the largest divisor of ⌈D/U⌉ below.
    const std::array<int64_t, 4> T = effectiveTiles(d, ls, false);
    std::map<std::string, int64_t> inner;
    for (Dim dim : kAllDims) {
        const char* zz = tiledDim(dim, form);
        if (!*zz) continue;
        const int64_t u = unroll.count(zz) ? unroll[zz] : 1;
        const int64_t t = T[size_t(dim)];
        const int64_t f = largestDivisorAtMost(q[zz], ceilDiv(t, u));
        inner[zz] = f;
        const bool whole = t >= size[zz]; // the whole dim, the last spatial pass partial
        if (f * u != t && !whole)
            m.notes.push_back(std::string(zz) + ": tile " + intText(t) +
                              (u > 1 ? " with " + intText(u) + " unrolled on the array" : "") +
                              " is " + intText(f * u) + " in ZigZag (" +
                              (u > t ? "its spatial loops sit below every temporal loop"
                                     : "its loop factors must multiply to the dim exactly") +
                              ")");
    }

    // The register-file tile loops of LayerFuse's energy model, innermost after the kernel.
    std::vector<ZigZagLoop> rfLoops;
    std::vector<std::string> innerOrder; // innermost first
    for (auto it = ls.order.rbegin(); it != ls.order.rend(); ++it)
        if (const char* zz = tiledDim(*it, form); *zz) innerOrder.push_back(zz);
    if (hw.register_file.bytes_per_pe > 0 && d.weights) {
        const RfLevel rf =
            rfLevel(d, au, rfCapacityPerPe(hw.register_file), hw.precision, ls.order);
        for (const RfLoop& l : rf.loops) {
            if (!q.count(l.dim)) continue;
            int64_t r = l.size;
            if (l.dim == "G") {
                if (q["G"] % r != 0) r = 1; // RF tiles divide the extent (rf_level.cpp)
                q["G"] /= r;
            } else {
                r = std::gcd(r, inner[l.dim]);
                if (r != l.size)
                    m.notes.push_back(l.dim + ": the register-file tile " + intText(l.size) +
                                      " does not divide the buffer tile; " + intText(r) +
                                      " in ZigZag");
                inner[l.dim] /= r;
            }
            if (r > 1) rfLoops.push_back({l.dim, r});
        }
    }

    auto push = [&](const std::string& dim, int64_t size) {
        if (size > 1) m.temporal.push_back({dim, size});
    };
    if (form != ZigZagForm::add) {
        push("FX", q["FX"]);
        push("FY", q["FY"]);
    }
    for (const ZigZagLoop& l : rfLoops)
        push(l.dim, l.size);
    std::map<std::string, int64_t> outer;
    for (Dim dim : kAllDims)
        if (const char* zz = tiledDim(dim, form); *zz) {
            const int64_t rf = [&] {
                for (const ZigZagLoop& l : rfLoops)
                    if (l.dim == zz) return l.size;
                return int64_t(1);
            }();
            outer[zz] = q[zz] / (inner[zz] * rf);
        }
    for (const std::string& zz : innerOrder)
        push(zz, inner[zz]);
    for (auto it = ls.order.rbegin(); it != ls.order.rend(); ++it)
        if (const char* zz = tiledDim(*it, form); *zz) push(zz, outer[zz]);
    if (q.count("G")) push("G", q["G"]);
    push("B", q["B"]);
    return m;
}

} // namespace lf
