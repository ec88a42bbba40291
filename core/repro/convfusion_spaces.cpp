#include "repro/convfusion_spaces.h"

#include "models/convfusion.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "search/layer_space.h"
#include "search/pareto_filter.h"
#include "search/tile_optimizer.h"

#include <algorithm>
#include <stdexcept>

namespace lf::repro {

namespace {

bool regularConv(const Layer& l) {
    return l.type == LayerType::conv && l.groups == 1;
}

// The chains of regular convolutions (ConvFusion §V-A1 sequences restricted to them), by layer id.
std::vector<std::vector<LayerId>> convChains(const Network& net) {
    auto linked = [&](LayerId u, LayerId v) {
        return regularConv(net.layer(u)) && regularConv(net.layer(v)) &&
               net.successors(u).size() == 1 && net.successors(u).front() == v &&
               net.layer(v).inputs.size() == 1;
    };
    std::vector<std::vector<LayerId>> chains;
    for (LayerId v = 0; v < net.size(); ++v) {
        if (!regularConv(net.layer(v))) continue;
        const auto& in = net.layer(v).inputs;
        if (in.size() == 1 && linked(in.front(), v)) continue; // not a chain start
        std::vector<LayerId> chain{v};
        while (net.successors(chain.back()).size() == 1 &&
               linked(chain.back(), net.successors(chain.back()).front()))
            chain.push_back(net.successors(chain.back()).front());
        chains.push_back(std::move(chain));
    }
    return chains;
}

LayerSchedule fullTiles(const Network& net, LayerId id) {
    const LayerDims d = layerDims(net, id);
    LayerSchedule s;
    s.tile = {d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    return s; // every array stored and computed at the tile level: loaded once
}

// ConvFusion §VI space 1 for one layer: ConvFusion Code 1's order, no tiling, every legal level
// pair.
std::vector<std::array<int64_t, 2>> baselineLayerFront(const Network& net, const Hardware& hw,
                                                       LayerId id) {
    const LayerDims d = layerDims(net, id);
    const SingleLayerCoster coster(net, hw, id, std::nullopt, true);
    LayerSchedule s = fullTiles(net, id);
    s.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    std::vector<std::array<int64_t, 2>> pts; // (buffer bits, accesses)
    for (int sx = 0; sx < 5; ++sx)
        for (int sy = 0; sy < 5; ++sy)
            for (int sw = 0; sw < 5; ++sw)
                for (int cx = sx; cx < 5; ++cx)
                    for (int cy = sy; cy < 5; ++cy)
                        for (int cw = sw; cw < 5; ++cw) {
                            s.store = {Level(sx), Level(sy), Level(sw)};
                            s.compute = {Level(cx), Level(cy), Level(cw)};
                            if (!inLevelSpace(s, false, LevelSpace::sound) ||
                                !checkLayer(net, id, s).empty())
                                continue;
                            const CfLayerCost c = convFusionLayer(d, s, false);
                            const auto f =
                                coster.figures(c, effectiveTiles(d, s, false), s.order, false);
                            pts.push_back({f.buffer_bits, f.dram});
                        }
    std::vector<std::array<int64_t, 2>> front;
    for (uint32_t k : paretoIndices<2>(pts.size(), [&](size_t j) { return pts[j]; }))
        front.push_back(pts[k]);
    return front;
}

CfFront baselineFront(const Network& net, const Hardware& hw) {
    std::vector<std::array<int64_t, 2>> acc{{0, 0}};
    int64_t macs = 0;
    for (LayerId id : net.computeIds()) {
        macs += layerMacs(layerDims(net, id));
        const auto layer = baselineLayerFront(net, hw, id);
        std::vector<std::array<int64_t, 2>> cand;
        for (const auto& a : acc)
            for (const auto& b : layer)
                cand.push_back({std::max(a[0], b[0]), a[1] + b[1]});
        acc.clear();
        for (uint32_t k : paretoIndices<2>(cand.size(), [&](size_t j) { return cand[j]; }))
            acc.push_back(cand[k]);
    }
    CfFront f;
    f.space = CfSpace::baseline;
    const double bits = hw.precision.act_bits;
    for (const auto& p : acc)
        f.points.push_back({double(p[0]) / bits, double(p[1]), double(macs), -1});
    return f;
}

} // namespace

const char* toString(CfSpace s) {
    switch (s) {
    case CfSpace::baseline:
        return "Baseline";
    case CfSpace::tiling:
        return "Tiling & Reorder";
    case CfSpace::goetschalckx:
        return "Goetschalckx et al.";
    case CfSpace::fusion:
        return "Fusion & Recomputation";
    }
    return "?";
}

Network convolutionView(const Network& net, std::vector<std::vector<std::string>>* chains) {
    NetworkSpec spec;
    spec.name = net.name() + " (convolutions)";
    spec.description = "the regular convolutions of " + net.name() + " as independent chains";
    for (const auto& chain : convChains(net)) {
        InputSpec in;
        in.name = net.layer(chain.front()).name + ".input";
        in.shape = net.inputShape(chain.front());
        spec.inputs.push_back(in);
        std::string prev = in.name;
        std::vector<std::string> names;
        for (LayerId id : chain) {
            LayerSpec ls;
            ls.layer = net.layer(id);
            ls.layer.inputs.clear();
            ls.layer.operands.clear();
            ls.input_names = {prev};
            prev = ls.layer.name;
            names.push_back(prev);
            spec.layers.push_back(std::move(ls));
        }
        if (chains) chains->push_back(std::move(names));
    }
    auto built = buildNetwork(spec);
    if (!built) throw std::runtime_error("convolution view: " + built.error().toString());
    return std::move(*built);
}

CfFront exploreSpace(const Network& net, const Hardware& hw, CfSpace space, int max_depth,
                     TileSet tiles, const std::atomic<bool>* cancel) {
    if (space == CfSpace::baseline) return baselineFront(net, hw);
    ExploreOptions xo;
    xo.max_depth = space == CfSpace::tiling ? 1 : max_depth;
    xo.tiles = tiles;
    xo.allow_recompute = space == CfSpace::fusion;
    xo.try_resident_weights = true;
    SearchControl control;
    control.cancel = cancel;
    CfFront f;
    f.space = space;
    f.explored = explore(net, hw, xo, control);
    const double bytes = hw.precision.act_bits / 8.0;
    for (size_t k = 0; k < f.explored.front.size(); ++k) {
        const ExplorePoint& p = f.explored.front[k];
        f.points.push_back(
            {double(p.buffer_bytes) / bytes, double(p.dram_accesses), double(p.macs), int64_t(k)});
    }
    return f;
}

CfExtremes extremePoints(const Network& net, const Hardware& hw) {
    std::vector<std::vector<std::string>> chains;
    const Network view = convolutionView(net, &chains);
    auto scheduleOf = [&](const Network& n, bool fuse) {
        Schedule s = defaultSchedule(n, hw);
        for (LayerId id : n.computeIds()) {
            s.layers[size_t(id)] = fullTiles(n, id);
            s.explicit_layer[size_t(id)] = 1;
        }
        if (fuse) {
            s.groups.clear();
            for (const auto& chain : chains) {
                if (chain.size() < 2) continue;
                FusionGroup g;
                g.name = chain.front() + ".." + chain.back();
                for (const std::string& name : chain)
                    g.layers.push_back(n.find(name));
                std::sort(g.layers.begin(), g.layers.end());
                g.weights_resident = true;
                s.groups.push_back(std::move(g));
            }
        }
        normalize(s, n);
        return s;
    };
    CfExtremes e;
    e.tiling_min = evaluate(view, hw, scheduleOf(view, false)).totals.dram_accesses;
    e.fusion_min = evaluate(view, hw, scheduleOf(view, true)).totals.dram_accesses;
    e.fused = scheduleOf(net, true);
    return e;
}

} // namespace lf::repro
