#include "teaching/explain.h"

#include "models/convfusion.h"
#include "models/convfusion_segment.h"
#include "models/flowfusion.h"
#include "models/optimus.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>

namespace lf {

std::string Formula::text() const {
    std::string lhs = name + " = ";
    std::string symbols, values;
    const char* op = sum ? " + " : " · ";
    for (size_t k = 0; k < terms.size(); ++k) {
        if (k) {
            symbols += op;
            values += op;
        }
        symbols += terms[k].symbol;
        values += std::to_string(terms[k].value);
    }
    if (terms.empty()) return lhs + std::to_string(value);
    if (terms.size() == 1 && symbols == values) return lhs + values;
    return lhs + symbols + " = " + values + " = " + std::to_string(value);
}

const Formula* LayerExplanation::find(std::string_view n) const {
    for (const Formula& f : formulas)
        if (f.name == n) return &f;
    return nullptr;
}

const Formula* GroupExplanation::find(std::string_view n) const {
    for (const Formula& f : formulas)
        if (f.name == n) return &f;
    return nullptr;
}

namespace {

int64_t product(const std::vector<FormulaTerm>& t) {
    int64_t p = 1;
    for (const FormulaTerm& x : t)
        p *= x.value;
    return p;
}

struct LoopView {
    const LayerSchedule& s;
    int lvl[4];
    explicit LoopView(const LayerSchedule& sched) : s(sched) {
        for (int k = 0; k < 4; ++k)
            lvl[size_t(s.order[size_t(k)])] = k + 1;
    }
    int sl(Arr a) const { return int(s.store[size_t(a)]); }
    int cl(Arr a) const { return int(s.compute[size_t(a)]); }
    bool lt(Arr a, Dim d) const { return lvl[size_t(d)] > sl(a); }
    bool folded(Arr a, Dim d) const { return lvl[size_t(d)] > sl(a) && lvl[size_t(d)] <= cl(a); }
    std::string inner(Dim d) const { return std::string(1, dimChar(d)) + "i"; }
    std::string slName(Arr a) const { return levelName(s.store[size_t(a)], s.order); }
    std::string clName(Arr a) const { return levelName(s.compute[size_t(a)], s.order); }
};

std::string D(Dim d) {
    return std::string("D_") + dimChar(d);
}
std::string T(Dim d) {
    return std::string("T_") + dimChar(d);
}

} // namespace

LayerExplanation explainLayer(const Network& net, const Hardware& hw, const Schedule& sched,
                              LayerId id) {
    LayerExplanation ex;
    ex.id = id;
    const LayerSchedule& s = sched.layers[size_t(id)];
    LayerDims d = layerDims(net, id);
    const LayerDims real = d;
    const int gi = sched.groupOf(id);
    int64_t dramIn = -1, dramW = -1;
    if (gi >= 0 && sched.groups[size_t(gi)].strategy == Strategy::recompute) {
        const GroupCost gc = convFusionGroup(net, hw, sched, sched.groups[size_t(gi)]);
        for (const LayerCost& lc : gc.layers)
            if (lc.id == id) {
                d = lc.dims;
                ex.fused = lc.fused;
                ex.productions = lc.productions;
                dramIn = lc.dram.input;
                dramW = lc.dram.weight;
            }
    } else if (gi >= 0) {
        ex.notes.push_back(std::string("The group uses the ") +
                           toString(sched.groups[size_t(gi)].strategy) +
                           " strategy; the ConvFusion terms below show the layer's own schedule.");
    }
    if (!isCompute(net.layer(id).type)) return ex;
    const bool fused = ex.fused;
    const CfLayerCost c = convFusionLayer(d, s, fused);
    const auto Tv = effectiveTiles(d, s, fused);
    const std::array<int64_t, 4> Dv{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    const LoopView L(s);
    if (fused)
        ex.notes.push_back("Fused into a successor: its output dims are the consumer's X tile (" +
                           std::to_string(d.Dx) + "×" + std::to_string(d.Dy) + "×" +
                           std::to_string(d.Dz) +
                           "), it runs P = " + std::to_string(ex.productions) +
                           " times, i is not tiled and Y never leaves the chip (§IV-E).");
    if (d.G > 1)
        ex.notes.push_back("Grouped layer: " + std::to_string(d.G) + " groups of " +
                           std::to_string(d.DiPerGroup()) + " → " + std::to_string(d.DzPerGroup()) +
                           " channels; D_z and D_i below are per group.");

    auto dimTerm = [&](Arr a, Dim dim, bool forBuffer) -> FormulaTerm {
        const std::string loop = L.inner(dim);
        if (!L.lt(a, dim))
            return {"1", 1,
                    "loop " + loop + " is at or above SL_" + arrName(a) + " (" + L.slName(a) +
                        "): one slice"};
        if (forBuffer && L.folded(a, dim))
            return {"1", 1,
                    "loop " + loop + " is folded (between CL_" + std::string(arrName(a)) + " = " +
                        L.clName(a) + " and SL_" + arrName(a) + " = " + L.slName(a) + ")"};
        return {T(dim), Tv[size_t(dim)],
                "loop " + loop + " is below SL_" + std::string(arrName(a)) + " (" + L.slName(a) +
                    "): one tile"};
    };
    auto transTerms = [&](Arr a) {
        std::vector<FormulaTerm> t;
        for (Dim dim : {Dim::x, Dim::y, Dim::z, Dim::i}) {
            if (fused && dim == Dim::i) continue;
            const std::string loop = L.inner(dim);
            if (L.lt(a, dim))
                t.push_back({"⌈" + D(dim) + "/" + T(dim) + "⌉",
                             ceilDiv(Dv[size_t(dim)], Tv[size_t(dim)]),
                             "loop " + loop + " is below SL_" + std::string(arrName(a)) +
                                 ": once per tile"});
            else
                t.push_back({D(dim), Dv[size_t(dim)],
                             "loop " + loop + " is at or above SL_" + std::string(arrName(a)) +
                                 ": every iteration reloads"});
        }
        return t;
    };
    auto add = [&](std::string name, std::string source, std::vector<FormulaTerm> terms,
                   int64_t value, std::string unit) {
        Formula f{std::move(name), std::move(source), std::move(terms), false,
                  value,           std::move(unit)};
        ex.formulas.push_back(std::move(f));
    };

    // Weights (ConvFusion §IV-B1, ConvFusion §IV-C1).
    if (d.weights) {
        std::vector<FormulaTerm> buf{{"D_m·D_n", d.Dm * d.Dn, "the kernel loops are never tiled"}};
        std::vector<FormulaTerm> vol = buf;
        if (fused) {
            buf.push_back({"D_i", Dv[3], "fused: all input channels before the activation"});
            vol.push_back(buf.back());
        }
        for (Dim dim : fused ? std::vector<Dim>{Dim::z} : std::vector<Dim>{Dim::z, Dim::i}) {
            buf.push_back(dimTerm(Arr::W, dim, true));
            vol.push_back(dimTerm(Arr::W, dim, false));
        }
        add("Buf_W", "ConvFusion §IV-B1", buf, c.buf_w, "elements");
        add("Vol_W", "ConvFusion §IV-C1", vol, c.vol_w, "elements");
        add("Trans_W", "ConvFusion §IV-C1", transTerms(Arr::W), c.trans_w, "transfers");
        std::vector<FormulaTerm> acc{{"Vol_W", c.vol_w, "elements per transfer"},
                                     {"Trans_W", c.trans_w, "transfers"}};
        if (d.G > 1) acc.push_back({"g", d.G, "groups"});
        add("Acc_W", "ConvFusion §IV-C", acc, c.acc_w, "elements");
    }

    // Inputs (ConvFusion §IV-B2, ConvFusion §IV-C2).
    auto chanTerm = [&](bool forBuffer) -> FormulaTerm {
        if (fused) return {"D_i", Dv[3], "fused: all input channels"};
        return dimTerm(Arr::X, Dim::i, forBuffer);
    };
    auto spatialTerm = [&](Dim dim, bool forBuffer) -> FormulaTerm {
        const bool isX = dim == Dim::x;
        const std::string k = isX ? "D_m" : "D_n";
        const std::string S = isX ? "S_x" : "S_y";
        const int64_t win = isX ? d.windowX(Tv[size_t(dim)]) : d.windowY(Tv[size_t(dim)]);
        const int64_t kappa = isX ? d.windowX(1) : d.windowY(1);
        const std::string loop = L.inner(dim);
        if (!L.lt(Arr::X, dim))
            return {k, kappa, "loop " + loop + " is at or above SL_X: one kernel extent"};
        if (forBuffer && L.folded(Arr::X, dim))
            return {k, kappa,
                    "loop " + loop + " is folded by CL_X = " + L.clName(Arr::X) +
                        ": a rotating kernel-wide buffer"};
        std::string why = "loop " + loop + " is below SL_X: a tile's window";
        const int64_t raw = d.rawWindow(Tv[size_t(dim)], isX ? d.Sx : d.Sy, isX ? d.Em : d.En,
                                        isX ? d.up_x : d.up_y);
        if (raw > win) why += ", clipped to the real input (padding is not moved)";
        return {"((" + T(dim) + "−1)·" + S + " + " + k + ")", win, why};
    };
    {
        std::vector<FormulaTerm> buf{chanTerm(true), spatialTerm(Dim::y, true),
                                     spatialTerm(Dim::x, true)};
        std::vector<FormulaTerm> vol{chanTerm(false), spatialTerm(Dim::y, false),
                                     spatialTerm(Dim::x, false)};
        if (d.n_inputs > 1) {
            buf.push_back(
                {"inputs", d.n_inputs, "one X array per input of the element-wise layer"});
            vol.push_back(buf.back());
        }
        add("Buf_X", "ConvFusion §IV-B2", buf, c.buf_x, "elements");
        add("Vol_X", "ConvFusion §IV-C2", vol, c.vol_x, "elements");
        add("Trans_X", "ConvFusion §IV-C2", transTerms(Arr::X), c.trans_x, "transfers");
        std::vector<FormulaTerm> acc{{"Vol_X", c.vol_x, "elements per transfer"},
                                     {"Trans_X", c.trans_x, "transfers"}};
        if (d.G > 1) acc.push_back({"g", d.G, "groups"});
        add("Acc_X", "ConvFusion §IV-C", acc, c.acc_x, "elements");
    }

    // Outputs (ConvFusion §IV-B3, ConvFusion §IV-C3).
    if (fused) {
        add("Buf_Y", "ConvFusion §IV-B3", {{"0", 0, "fused: Y is the consumer's X buffer"}}, 0,
            "elements");
    } else {
        std::vector<FormulaTerm> buf;
        for (Dim dim : {Dim::z, Dim::y, Dim::x}) {
            const std::string loop = L.inner(dim);
            if (!L.lt(Arr::Y, dim))
                buf.push_back({"1", 1, "loop " + loop + " is at or above SL_Y: one output"});
            else if (L.lvl[size_t(dim)] < L.lvl[size_t(Dim::i)])
                buf.push_back({"1", 1,
                               "loop " + loop +
                                   " is above ii: its outputs complete and leave (fold to one)"});
            else if (L.folded(Arr::Y, dim))
                buf.push_back({"1", 1, "loop " + loop + " is folded by CL_Y"});
            else
                buf.push_back({T(dim), Tv[size_t(dim)],
                               "loop " + loop + " is below SL_Y and ii: partial sums stay"});
        }
        add("Buf_Y", "ConvFusion §IV-B3", buf, c.buf_y, "elements");
        const int64_t iTiles = ceilDiv(Dv[3], Tv[3]);
        add("Acc_Y", "ConvFusion §IV-C3",
            {{"D_x·D_y·D_z", d.Dx * d.Dy * d.Dz, "every output"},
             {"(2·⌈D_i/T_i⌉ − 1)", 2 * iTiles - 1,
              iTiles > 1 ? "partial sums written and re-read per i tile" : "written once"}},
            c.accY(), "elements");
    }
    {
        std::vector<FormulaTerm> macs{
            {"D_x·D_y·D_z", d.Dx * d.Dy * d.Dz, "outputs"},
            {"D_i/g·D_m·D_n", d.DiPerGroup() * d.Dm * d.Dn, "MACs per output"}};
        int64_t value = product(macs);
        if (fused) {
            macs.push_back({"P", ex.productions, "productions of the tile (§IV-E)"});
            value *= ex.productions;
        }
        if (d.weights) add("MACs", "ConvFusion §IV-D", macs, value, "MACs");
    }

    // Reload factors over the compulsory traffic (each element once).
    ex.compulsory_x = real.Di * real.in_h * real.in_w * real.n_inputs;
    ex.compulsory_w = layerWeights(real);
    const int64_t accX = dramIn >= 0 ? dramIn : c.acc_x;
    const int64_t accW = dramW >= 0 ? dramW : c.acc_w;
    ex.reload_x = ex.compulsory_x > 0 ? double(accX) / double(ex.compulsory_x) : 0.0;
    ex.reload_w = ex.compulsory_w > 0 ? double(accW) / double(ex.compulsory_w) : 0.0;
    if (fused && dramIn == 0)
        ex.notes.push_back("Its inputs come from inside the group: no DRAM reads.");
    return ex;
}

GroupExplanation explainGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                              int groupIndex) {
    GroupExplanation ex;
    const FusionGroup& g = sched.groups[size_t(groupIndex)];
    auto name = [&](LayerId id) { return net.layer(id).name; };
    switch (g.strategy) {
    case Strategy::recompute: {
        const GroupCost gc = convFusionGroup(net, hw, sched, g);
        std::vector<FormulaTerm> macs, buffer;
        for (const LayerCost& lc : gc.layers) {
            if (!isCompute(net.layer(lc.id).type)) continue;
            const CfLayerCost c = convFusionLayer(lc.dims, sched.layers[size_t(lc.id)], lc.fused);
            if (lc.fused) {
                std::vector<FormulaTerm> p;
                for (LayerId s : net.successors(lc.id)) {
                    if (!std::binary_search(g.layers.begin(), g.layers.end(), s)) continue;
                    for (const LayerCost& cc : gc.layers)
                        if (cc.id == s) {
                            const CfLayerCost cs =
                                convFusionLayer(cc.dims, sched.layers[size_t(s)], cc.fused);
                            p.push_back({"Trans_X(" + name(s) + ")·P(" + name(s) + ")" +
                                             (cc.dims.G > 1 ? "·g" : ""),
                                         cs.trans_x * cc.productions * cc.dims.G,
                                         "tiles " + name(s) + " needs"});
                        }
                }
                Formula f{"P(" + name(lc.id) + ")", "ConvFusion §IV-E", p, true,
                          lc.productions,           "productions"};
                ex.formulas.push_back(std::move(f));
            }
            macs.push_back({"MACs(" + name(lc.id) + ")", lc.macs,
                            lc.recompute_macs > 0 ? "includes recompute" : "computed once"});
            buffer.push_back({"Buf_X+Buf_W(" + name(lc.id) + ")",
                              c.buf_x + (g.weights_resident ? lc.buf_w : c.buf_w),
                              "live together"});
            if (!lc.fused)
                buffer.push_back({"Buf_Y(" + name(lc.id) + ")", c.buf_y, "the segment's output"});
        }
        int64_t m = 0, b = 0;
        for (auto& t : macs)
            m += t.value;
        for (auto& t : buffer)
            b += t.value;
        ex.formulas.push_back({"MACs", "ConvFusion §IV-E", macs, true, m, "MACs"});
        ex.formulas.push_back({"Buffer", "ConvFusion §IV-E", buffer, true, b, "elements"});
        ex.notes.push_back(
            "Only the first layer reads X from DRAM, weights are fetched P times unless resident, "
            "only the last layer writes Y.");
        break;
    }
    case Strategy::reuse: {
        const GroupCost gc = flowFusionGroup(
            net, hw, sched, g,
            g.reuse_model == ReuseModelKind::alwani ? ReuseModel::alwani : ReuseModel::hwff);
        std::vector<FormulaTerm> buffer, traffic;
        for (const LayerCost& lc : gc.layers) {
            if (lc.buf_x)
                buffer.push_back(
                    {"In(" + name(lc.id) + ")", lc.buf_x, "input buffer (+ Eq. 8 reuse buffer)"});
            if (lc.buf_w)
                buffer.push_back({"W(" + name(lc.id) + ")", lc.buf_w, "the whole weight volume"});
            if (lc.buf_y)
                buffer.push_back({"Out(" + name(lc.id) + ")", lc.buf_y, "bottom output buffer"});
            if (lc.dram.input)
                traffic.push_back({"In_top·fetch(" + name(lc.id) + ")", lc.dram.input,
                                   "top input per output tile"});
            if (lc.dram.weight)
                traffic.push_back({"W(" + name(lc.id) + ")", lc.dram.weight, "every weight once"});
            if (lc.dram.output)
                traffic.push_back(
                    {"Out·write(" + name(lc.id) + ")", lc.dram.output, "bottom output"});
        }
        int64_t b = 0, t = 0;
        for (auto& x : buffer)
            b += x.value;
        for (auto& x : traffic)
            t += x.value;
        ex.formulas.push_back(
            {"Fusion buffer", "HW-Flow-Fusion Eqs. 5, 8", buffer, true, b, "elements"});
        ex.formulas.push_back({"Traffic", "HW-Flow-Fusion Eq. 6", traffic, true, t, "elements"});
        ex.notes.push_back(
            "Intermediate layers keep all channels (Tif = Nif, Tof = Nof); reuse buffers keep the "
            "overlap of adjacent tiles, so nothing is recomputed (Eq. 13).");
        break;
    }
    case Strategy::optimus: {
        const OptimusPlan p =
            optimusPlan(net, hw, g.layers, hw.buffer.bits(), g.out_tile ? g.out_tile->h : 0,
                        g.out_tile ? g.out_tile->w : 0);
        ex.formulas.push_back({"MemoryCost",
                               "Optimus Eq. 3",
                               {{"|ifmap|", p.ifmap, "the group's inputs, once"},
                                {"|ofmap|", p.ofmap, "the group's outputs, once"},
                                {p.weights_resident ? "Σ|param|" : "⌈O_h/t_h⌉·⌈O_w/t_w⌉·Σ|param|",
                                 (p.weights_resident ? 1 : p.subgroups) * p.weights,
                                 p.weights_resident ? "all weights fit with the fmaps: loaded once"
                                                    : "reloaded per sub-group"}},
                               true,
                               p.memory_cost,
                               "elements"});
        ex.formulas.push_back({"t_h",
                               "Optimus Eq. 4",
                               {{"t_h", p.t_h, "largest tile whose fmaps fit the buffer"}},
                               false,
                               p.t_h,
                               "rows"});
        ex.formulas.push_back({"fmap buffer",
                               "Optimus Eq. 4",
                               {{"Σ t_c·R_h·R_w", p.fmap_buffer, "fmaps of the group at t_h"}},
                               false,
                               p.fmap_buffer,
                               "elements"});
        if (!p.feasible)
            ex.notes.push_back("Eq. 4 has no solution: even the smallest tile does not fit.");
        break;
    }
    }
    return ex;
}

} // namespace lf
