#include "teaching/loop_nest.h"

#include "models/convfusion.h"
#include "models/convfusion_segment.h"
#include "models/flowfusion.h"
#include "models/optimus.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <functional>

namespace lf {

std::string LoopNest::text() const {
    std::string out;
    for (const CodeLine& l : lines) {
        std::string line(size_t(l.indent) * 2, ' ');
        line += l.code;
        if (!l.comment.empty()) {
            if (!l.code.empty()) line += "  ";
            line += l.comment;
        }
        out += line;
        out += '\n';
    }
    return out;
}

namespace {

std::string n2s(int64_t v) {
    return std::to_string(v);
}
std::string loopVar(Dim d, const char* suffix) {
    return std::string(1, dimChar(d)) + suffix;
}

struct Emitter {
    const Network& net;
    const Schedule& sched;
    std::vector<CodeLine>& out;

    void line(CodeLine::Kind k, int indent, std::string code, std::string comment = {},
              LayerId layer = kNoLayer, int array = -1, int64_t volume = 0) {
        CodeLine l;
        l.kind = k;
        l.indent = indent;
        l.code = std::move(code);
        l.comment = comment.empty() ? std::string() : "// " + comment;
        l.layer = layer;
        l.array = array;
        l.volume = volume;
        out.push_back(std::move(l));
    }
    void loop(CodeLine::LoopKind lk, int indent, std::string code, std::string comment,
              LayerId layer, int dim) {
        CodeLine l;
        l.kind = CodeLine::Kind::loop;
        l.loop = lk;
        l.indent = indent;
        l.code = std::move(code);
        l.comment = comment.empty() ? std::string() : "// " + comment;
        l.layer = layer;
        l.dim = dim;
        out.push_back(std::move(l));
    }

    // One layer's ConvFusion Code 2 nest. `produce` (may be empty) emits the inline production of
    // an in-group producer at the X store level and returns true when it did.
    // `sfx` tells the loop variables of inlined producers apart from their consumer's
    // (zo1, yi1, ... one level down).
    void layer(LayerId id, const LayerDims& d, const LayerSchedule& s, bool fused,
               int64_t productions, int indent,
               const std::function<bool(LayerId consumer, int indent)>& produce,
               const std::string& sfx = "") {
        const Layer& L = net.layer(id);
        const CfLayerCost c = convFusionLayer(d, s, fused);
        const auto T = effectiveTiles(d, s, fused);
        const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
        const std::string yName = fused ? "X_" + L.name : "Y";
        std::string head = L.name + ": " + yName + "[" + n2s(d.Dz) + "][" + n2s(d.Dy) + "][" +
                           n2s(d.Dx) + "] from X[" + n2s(d.Di) + "][…][…], kernel " + n2s(d.Dn) +
                           "×" + n2s(d.Dm) + ", stride " + n2s(d.Sy);
        if (d.G > 1) head += ", " + n2s(d.G) + " groups (loops below are per group)";
        if (fused) head += " — fused: runs " + n2s(productions) + "× over its consumer's tile";
        line(CodeLine::Kind::comment, indent, "", head, id);
        int ind = indent;
        if (d.G > 1) {
            loop(CodeLine::LoopKind::outer, ind, "for (int g = 0; g < " + n2s(d.G) + "; g++) {",
                 "groups", id, -1);
            ++ind;
        }
        // Outer tile loops (zo, yo, xo, io in the schedule's order).
        for (int k = 0; k < 4; ++k) {
            const Dim dim = s.order[size_t(k)];
            const std::string v = loopVar(dim, "o") + sfx;
            std::string comment = k == 0 ? "outer tile loops" : "";
            if (T[size_t(dim)] >= D[size_t(dim)])
                comment += std::string(comment.empty() ? "" : "; ") + "runs once";
            loop(CodeLine::LoopKind::outer, ind,
                 "for (int " + v + " = 0; " + v + " < " + n2s(D[size_t(dim)]) + "; " + v +
                     " += " + n2s(T[size_t(dim)]) + ") {",
                 comment, id, int(dim));
            ++ind;
        }
        const int base = ind;
        auto place = [&](int level, int at) {
            for (Arr a : kAllArrs) {
                const int sl = int(s.store[size_t(a)]), cl = int(s.compute[size_t(a)]);
                const std::string lv = levelName(s.store[size_t(a)], s.order);
                if (a == Arr::W && !d.weights) continue;
                if (a == Arr::Y && fused) {
                    if (sl == level)
                        line(CodeLine::Kind::comment, at, "",
                             "Y is the consumer's X buffer (fused)", id, int(a));
                    continue;
                }
                if (sl == level) {
                    const int64_t buf = a == Arr::X ? c.buf_x : a == Arr::W ? c.buf_w : c.buf_y;
                    std::string why = "SL_" + std::string(arrName(a)) + " = " + lv;
                    if (cl != sl)
                        why += ", folded to CL_" + std::string(arrName(a)) + " = " +
                               levelName(s.compute[size_t(a)], s.order);
                    line(CodeLine::Kind::alloc, at,
                         "alloc " + std::string(arrName(a)) + "[" + n2s(buf) + "];",
                         why + ": Buf_" + arrName(a) + " = " + n2s(buf), id, int(a), buf);
                }
                if (a == Arr::Y) continue;
                if (cl == level) {
                    if (a == Arr::X && produce && produce(id, at)) continue;
                    const int64_t vol = a == Arr::X ? c.vol_x : c.vol_w;
                    const int64_t trans = a == Arr::X ? c.trans_x : c.trans_w;
                    std::string code = a == Arr::X ? "load X[" + n2s(c.ext_c) + "][" +
                                                         n2s(c.ext_y) + "][" + n2s(c.ext_x) + "];"
                                                   : "load W[" + n2s(vol) + "];";
                    std::string comment =
                        cl == sl
                            ? "Vol_" + std::string(arrName(a)) + " = " + n2s(vol) + ", Trans_" +
                                  arrName(a) + " = " + n2s(trans)
                            : "new elements each iteration (rotating buffer); Vol_" +
                                  std::string(arrName(a)) + " = " + n2s(vol) + " per SL iteration";
                    if (cl != sl) code = "load new " + std::string(arrName(a)) + " slice;";
                    line(CodeLine::Kind::load, at, code, comment, id, int(a), vol);
                }
            }
        };
        place(0, ind);
        for (int k = 0; k < 4; ++k) {
            const Dim dim = s.order[size_t(k)];
            const std::string v = loopVar(dim, "i") + sfx, o = loopVar(dim, "o") + sfx;
            loop(CodeLine::LoopKind::inner, ind,
                 "for (int " + v + " = " + o + "; " + v + " < " + o + " + " + n2s(T[size_t(dim)]) +
                     "; " + v + "++) {",
                 k == 0 ? "inner tile loops" : "", id, int(dim));
            ++ind;
            place(k + 1, ind);
        }
        const std::string n = "n" + sfx, m = "m" + sfx, zi = "zi" + sfx, yi = "yi" + sfx,
                          xi = "xi" + sfx, ii = "ii" + sfx;
        loop(CodeLine::LoopKind::kernel, ind,
             "for (int " + n + " = 0; " + n + " < " + n2s(d.Dn) + "; " + n + "++)", "kernel loops",
             id, 4);
        loop(CodeLine::LoopKind::kernel, ind + 1,
             "for (int " + m + " = 0; " + m + " < " + n2s(d.Dm) + "; " + m + "++)", "", id, 5);
        const std::string w = d.weights ? " * W[" + zi + "][" + ii + "][" + n + "][" + m + "]" : "";
        line(CodeLine::Kind::compute, ind + 2,
             yName + "[" + zi + "][" + yi + "][" + xi + "] += X[" + ii + "][" + yi + "*" +
                 n2s(d.Sy) + "+" + n + "][" + xi + "*" + n2s(d.Sx) + "+" + m + "]" + w + ";",
             "MACs = " + n2s(fused ? c.macs * productions : c.macs), id);
        // Close the inner loops; outputs leave after the SL_Y iteration.
        const int slY = int(s.store[size_t(Arr::Y)]);
        for (int k = 4; k >= 1; --k) {
            --ind;
            if (!fused && slY == k) storeY(id, c, ind + 1);
            line(CodeLine::Kind::close, ind, "}", "", id);
        }
        if (!fused && slY == 0) storeY(id, c, base);
        for (int k = 0; k < 4 + (d.G > 1 ? 1 : 0); ++k) {
            --ind;
            line(CodeLine::Kind::close, ind, "}", "", id);
        }
    }

    void storeY(LayerId id, const CfLayerCost& c, int at) {
        std::string comment = "outputs leave when complete: Acc_Y = " + n2s(c.accY());
        if (c.acc_y_psum > 0)
            comment +=
                " (" + n2s(c.acc_y_psum) + " are partial sums written and re-read per i tile)";
        line(CodeLine::Kind::store, at, "store Y;", comment, id, int(Arr::Y), c.buf_y);
    }
};

} // namespace

LoopNest layerLoopNest(const Network& net, const Hardware&, const Schedule& sched, LayerId id) {
    LoopNest nest;
    if (!isCompute(net.layer(id).type)) return nest;
    Emitter e{net, sched, nest.lines};
    e.layer(id, layerDims(net, id), sched.layers[size_t(id)], false, 1, 0, {});
    return nest;
}

LoopNest groupLoopNest(const Network& net, const Hardware& hw, const Schedule& sched,
                       int groupIndex) {
    LoopNest nest;
    const FusionGroup& g = sched.groups[size_t(groupIndex)];
    Emitter e{net, sched, nest.lines};
    auto inGroup = [&](LayerId v) {
        return std::binary_search(g.layers.begin(), g.layers.end(), v);
    };
    auto name = [&](LayerId v) { return net.layer(v).name; };
    switch (g.strategy) {
    case Strategy::recompute: {
        const GroupCost gc = convFusionGroup(net, hw, sched, g);
        auto costOf = [&](LayerId v) -> const LayerCost* {
            for (const LayerCost& lc : gc.layers)
                if (lc.id == v) return &lc;
            return nullptr;
        };
        e.line(CodeLine::Kind::comment, 0, "",
               "group " + g.name + ": ConvFusion Code 3 — producers inlined, recomputed per tile");
        int depth = 0;
        std::function<bool(LayerId, int)> produce = [&](LayerId consumer, int indent) {
            bool any = false;
            for (LayerId p : net.layer(consumer).inputs) {
                if (!inGroup(p)) {
                    continue;
                }
                any = true;
                // Concat inside the group is transparent: produce its inputs.
                std::vector<LayerId> makers{p};
                if (net.layer(p).type == LayerType::concat) {
                    makers.clear();
                    for (LayerId q : net.layer(p).inputs)
                        if (inGroup(q)) makers.push_back(q);
                }
                for (LayerId m : makers) {
                    const LayerCost* lc = costOf(m);
                    if (!lc) continue;
                    e.line(CodeLine::Kind::comment, indent, "",
                           "inline production of " + name(m) + " (its output is " + name(consumer) +
                               "'s X tile)",
                           m);
                    ++depth;
                    e.layer(m, lc->dims, sched.layers[size_t(m)], true, lc->productions, indent,
                            produce, std::to_string(depth));
                    --depth;
                }
            }
            // Inputs from outside the group still come from DRAM.
            bool outside = false;
            for (LayerId p : net.layer(consumer).inputs)
                outside = outside || !inGroup(p);
            return any && !outside;
        };
        for (const LayerCost& lc : gc.layers)
            if (!lc.fused && isCompute(net.layer(lc.id).type))
                e.layer(lc.id, lc.dims, sched.layers[size_t(lc.id)], false, 1, 0, produce);
        break;
    }
    case Strategy::reuse: {
        const GroupCost gc = flowFusionGroup(
            net, hw, sched, g,
            g.reuse_model == ReuseModelKind::alwani ? ReuseModel::alwani : ReuseModel::hwff);
        e.line(CodeLine::Kind::comment, 0, "",
               "group " + g.name +
                   ": HW-Flow-Fusion pipeline — zero recompute with reuse buffers (Eqs. 4-8)");
        for (const LayerCost& lc : gc.layers)
            if (lc.buf_w)
                e.line(CodeLine::Kind::load, 0,
                       "load W_" + name(lc.id) + "[" + n2s(lc.buf_w) + "];",
                       "every weight once (Eq. 6)", lc.id, int(Arr::W), lc.buf_w);
        e.loop(CodeLine::LoopKind::tile, 0, "for (int t = 0; t < " + n2s(gc.tiles) + "; t++) {",
               "output tiles of " + n2s(gc.out_tile_h) + "×" + n2s(gc.out_tile_w) +
                   " (Eq. 2 with Tif = Nif, Tof = Nof)",
               kNoLayer, -1);
        for (const LayerCost& lc : gc.layers) {
            if (!isCompute(net.layer(lc.id).type)) continue;
            const int64_t fetch = std::max<int64_t>(1, gc.tiles);
            if (lc.dram.input)
                e.line(CodeLine::Kind::load, 1,
                       "load X_" + name(lc.id) + "[" + n2s(lc.dram.input / fetch) + "];",
                       "top input tile incl. its halo (Eq. 6: Input_top per fetch)", lc.id,
                       int(Arr::X), lc.dram.input / fetch);
            bool intermediate = false;
            for (LayerId p : net.layer(lc.id).inputs)
                intermediate = intermediate || inGroup(p);
            e.line(CodeLine::Kind::compute, 1, "compute " + name(lc.id) + " new unique tile;",
                   std::string(intermediate ? "reads the overlap kept in its reuse buffer (Eq. 8); "
                                            : "") +
                       "multi-tiling computes each output once (Eqs. 10-13)",
                   lc.id);
            if (lc.dram.output)
                e.line(CodeLine::Kind::store, 1,
                       "store Y_" + name(lc.id) + "[" + n2s(lc.dram.output / fetch) + "];",
                       "bottom output tile (Eq. 6: Output_bottom per write)", lc.id, int(Arr::Y),
                       lc.dram.output / fetch);
        }
        e.line(CodeLine::Kind::close, 0, "}");
        break;
    }
    case Strategy::optimus: {
        const OptimusPlan p =
            optimusPlan(net, hw, g.layers, hw.buffer.bits(), g.out_tile ? g.out_tile->h : 0,
                        g.out_tile ? g.out_tile->w : 0);
        e.line(CodeLine::Kind::comment, 0, "",
               "group " + g.name + ": Optimus sub-groups of t_h = " + n2s(p.t_h) +
                   " output rows (Eq. 4), line buffers; ISOA operators recompute overlap");
        if (p.weights_resident)
            e.line(CodeLine::Kind::load, 0, "load params[" + n2s(p.weights) + "];",
                   "all parameters fit: loaded once (Eq. 3)", kNoLayer, int(Arr::W), p.weights);
        e.loop(CodeLine::LoopKind::tile, 0,
               "for (int sub = 0; sub < " + n2s(p.subgroups) + "; sub++) {",
               "⌈O_h/t_h⌉·⌈O_w/t_w⌉ sub-groups", kNoLayer, -1);
        if (!p.weights_resident)
            e.line(CodeLine::Kind::load, 1, "load params[" + n2s(p.weights) + "];",
                   "reloaded per sub-group (Eq. 3)", kNoLayer, int(Arr::W), p.weights);
        for (size_t k = 0; k < g.layers.size(); ++k) {
            const LayerId v = g.layers[k];
            e.line(
                CodeLine::Kind::compute, 1, "compute " + name(v) + " (t_c = " + n2s(p.tc[k]) + ");",
                p.isoa[k]
                    ? "ISOA: invoked as soon as T_c channels are ready; overlapping rows recomputed"
                    : "line buffer keeps the overlapping rows",
                v);
        }
        e.line(CodeLine::Kind::store, 1, "store ofmap rows;", "|ofmap| once in total (Eq. 3)",
               kNoLayer, int(Arr::Y), 0);
        e.line(CodeLine::Kind::close, 0, "}");
        break;
    }
    }
    return nest;
}

} // namespace lf
