#include "schedule/schedule.h"

#include "network/dag.h"
#include "network/dims.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lf {

char dimChar(Dim d) {
    return "zyxi"[size_t(d)];
}

std::optional<Dim> dimFromChar(char c) {
    switch (c) {
    case 'z':
        return Dim::z;
    case 'y':
        return Dim::y;
    case 'x':
        return Dim::x;
    case 'i':
        return Dim::i;
    default:
        return std::nullopt;
    }
}

const char* arrName(Arr a) {
    return a == Arr::X ? "X" : a == Arr::Y ? "Y" : "W";
}

std::string levelName(Level l, const std::array<Dim, 4>& order) {
    if (l == Level::tile) return "tile";
    return std::string(1, dimChar(order[size_t(l) - 1])) + "i";
}

std::optional<Level> parseLevel(std::string_view s, const std::array<Dim, 4>& order) {
    if (s == "tile") return Level::tile;
    if (s.size() == 2 && s[0] == 'l' && s[1] >= '1' && s[1] <= '4') return Level(s[1] - '0');
    if (s.size() == 2 && s[1] == 'i') {
        auto d = dimFromChar(s[0]);
        if (!d) return std::nullopt;
        for (size_t k = 0; k < 4; ++k)
            if (order[k] == *d) return Level(k + 1);
    }
    return std::nullopt;
}

const char* toString(Strategy s) {
    switch (s) {
    case Strategy::recompute:
        return "recompute";
    case Strategy::reuse:
        return "reuse";
    case Strategy::optimus:
        return "optimus";
    }
    return "?";
}

std::optional<Strategy> strategyFromString(std::string_view s) {
    if (s == "recompute") return Strategy::recompute;
    if (s == "reuse") return Strategy::reuse;
    if (s == "optimus") return Strategy::optimus;
    return std::nullopt;
}

int Schedule::groupOf(LayerId id) const {
    for (size_t g = 0; g < groups.size(); ++g)
        if (std::binary_search(groups[g].layers.begin(), groups[g].layers.end(), id)) return int(g);
    return -1;
}

std::vector<int> Schedule::groupIndexByLayer(int layer_count) const {
    std::vector<int> out(size_t(std::max(0, layer_count)), -1);
    // Ascending group order with "first group wins" matches groupOf for a layer listed twice.
    for (size_t g = groups.size(); g-- > 0;)
        for (LayerId id : groups[g].layers)
            if (id >= 0 && id < layer_count) out[size_t(id)] = int(g);
    return out;
}

RfShare rfShareOf(const FusionGroup& g, LayerId id) {
    auto it = g.partition.rf_share.find(id);
    if (it != g.partition.rf_share.end()) return it->second;
    const double n = double(std::max<size_t>(1, g.layers.size()));
    return RfShare{1.0 / n, 1.0 / n, 1.0 / n};
}

namespace {

// `n` equal column strips of `free` (remainder to the last strip); row strips when the
// region has fewer columns than strips.
void giveStrips(std::map<LayerId, SubArray>& out, const std::vector<LayerId>& layers,
                SubArray free) {
    const int n = int(layers.size());
    const bool byCols = free.cols >= n || free.cols >= free.rows;
    const int len = byCols ? free.cols : free.rows;
    int at = 0;
    for (int k = 0; k < n; ++k) {
        int w = std::max(1, len / n);
        if (k == n - 1) w = std::max(1, len - at);
        if (at >= len) at = len - 1, w = 1;
        out[layers[size_t(k)]] = byCols ? SubArray{free.col + at, free.row, w, free.rows}
                                        : SubArray{free.col, free.row + at, free.cols, w};
        at += w;
    }
}

} // namespace

std::map<LayerId, SubArray> effectiveSubarrays(const FusionGroup& g, const Hardware& hw) {
    std::map<LayerId, SubArray> out = g.partition.subarrays;
    std::vector<LayerId> missing;
    for (LayerId id : g.layers)
        if (!out.count(id)) missing.push_back(id);
    if (missing.empty()) return out;
    const int cols = hw.pe_array.cols, rows = hw.pe_array.rows;
    if (out.empty()) {
        giveStrips(out, missing, SubArray{0, 0, cols, rows});
        return out;
    }
    // Some given, some not (docs/file-formats.md): the layers left out share what is left —
    // the columns right of every given sub-array or the rows below them, whichever is
    // larger — as equal strips. With nothing left they get no PEs (checkGroup says so).
    int right = 0, below = 0;
    for (const auto& [id, s] : out) {
        right = std::max(right, s.col + s.cols);
        below = std::max(below, s.row + s.rows);
    }
    const int64_t areaRight = int64_t(std::max(0, cols - right)) * rows;
    const int64_t areaBelow = int64_t(std::max(0, rows - below)) * cols;
    if (areaRight == 0 && areaBelow == 0) {
        for (LayerId id : missing)
            out[id] = SubArray{0, 0, 0, 0};
        return out;
    }
    giveStrips(out, missing,
               areaRight >= areaBelow ? SubArray{right, 0, cols - right, rows}
                                      : SubArray{0, below, cols, rows - below});
    return out;
}

void normalize(Schedule& s, const Network& net) {
    const size_t n = size_t(net.size());
    if (s.layers.size() < n) s.layers.resize(n);
    if (s.explicit_layer.size() < n) s.explicit_layer.resize(n, 0);
    std::vector<char> covered(n, 0);
    for (auto& g : s.groups) {
        std::sort(g.layers.begin(), g.layers.end());
        g.layers.erase(std::unique(g.layers.begin(), g.layers.end()), g.layers.end());
        for (LayerId id : g.layers)
            if (id >= 0 && size_t(id) < n) covered[size_t(id)] = 1;
    }
    s.groups.erase(std::remove_if(s.groups.begin(), s.groups.end(),
                                  [](const FusionGroup& g) { return g.layers.empty(); }),
                   s.groups.end());
    for (LayerId id : net.computeIds())
        if (!covered[size_t(id)]) {
            FusionGroup g;
            g.name = net.layer(id).name;
            g.layers = {id};
            s.groups.push_back(std::move(g));
        }
    std::stable_sort(s.groups.begin(), s.groups.end(),
                     [](const FusionGroup& a, const FusionGroup& b) {
                         return a.layers.front() < b.layers.front();
                     });
}

bool isImplicitGroup(const FusionGroup& g, const Network& net) {
    return g.layers.size() == 1 && g.name == net.layer(g.layers[0]).name &&
           g.strategy == Strategy::recompute && g.reuse_model == ReuseModelKind::hwff &&
           !g.out_tile && !g.weights_resident && g.partition == Partition{};
}

// --- constraints ----------------------------------------------------------------------------

std::vector<Violation> checkLayer(const Network& net, LayerId id, const LayerSchedule& s) {
    std::vector<Violation> v;
    const Layer& l = net.layer(id);
    const std::string where = "layer " + l.name;
    const LayerDims d = layerDims(net, id);
    // Order: a permutation of z, y, x, i.
    {
        std::set<Dim> seen(s.order.begin(), s.order.end());
        if (seen.size() != 4)
            v.push_back({where, "loop order must be a permutation of z, y, x, i"});
    }
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    for (Dim dim : kAllDims) {
        const int64_t t = s.T(dim);
        const int64_t lim = D[size_t(dim)];
        if (t < 1 || t > lim)
            v.push_back(
                {where, std::string("tile T") + dimChar(dim) + " = " + std::to_string(t) +
                            " must be between 1 and D" + dimChar(dim) + " = " +
                            std::to_string(lim) +
                            (d.G > 1 && (dim == Dim::z || dim == Dim::i) ? " (per group)" : "")});
    }
    for (Arr a : kAllArrs) {
        if (size_t(s.SL(a)) > 4 || size_t(s.CL(a)) > 4) {
            v.push_back(
                {where, std::string("store/compute level of ") + arrName(a) + " is out of range"});
            continue;
        }
        if (s.CL(a) < s.SL(a))
            v.push_back({where, std::string("compute level of ") + arrName(a) + " (" +
                                    levelName(s.CL(a), s.order) + ") is above its store level (" +
                                    levelName(s.SL(a), s.order) + ")"});
    }
    for (Arr a : {Arr::X, Arr::W})
        if (s.SL(Arr::Y) < s.SL(a))
            v.push_back({where, std::string("store level of Y (") +
                                    levelName(s.SL(Arr::Y), s.order) +
                                    ") is above the store level of " + arrName(a) + " (" +
                                    levelName(s.SL(a), s.order) + ")"});
    return v;
}

std::vector<Violation> checkGroup(const Network& net, const Hardware& hw, const FusionGroup& g) {
    std::vector<Violation> v;
    const std::string where = "group " + g.name;
    if (g.layers.empty()) {
        v.push_back({where, "group has no layers"});
        return v;
    }
    for (LayerId id : g.layers) {
        if (id < 0 || id >= net.size()) {
            v.push_back({where, "group names a layer that does not exist"});
            return v;
        }
        const LayerType t = net.layer(id).type;
        if (!isCompute(t) && !(t == LayerType::concat && g.layers.size() > 1))
            v.push_back({where, "layer " + net.layer(id).name + " (" + std::string(toString(t)) +
                                    ") cannot be scheduled"});
        if (t == LayerType::opaque && g.layers.size() > 1)
            v.push_back({where, "layer " + net.layer(id).name +
                                    " is an unsupported operator and cannot be fused"});
    }
    if (g.layers.size() > 1) {
        if (!isWeaklyConnected(net, g.layers))
            v.push_back(
                {where, "the layers are not connected (a group must be one connected piece)"});
        LayerId via = kNoLayer;
        if (fusingCreatesCycle(net, g.layers, &via))
            v.push_back(
                {where,
                 "fusing creates a cycle: a path leaves the group and re-enters it through " +
                     net.layer(via).name});
    }
    const Partition& p = g.partition;
    if (p.kind == PartitionKind::spatial) {
        const auto subs = effectiveSubarrays(g, hw);
        std::vector<std::pair<LayerId, SubArray>> list(subs.begin(), subs.end());
        for (const auto& [id, s] : list) {
            if (!std::binary_search(g.layers.begin(), g.layers.end(), id)) {
                v.push_back({where, "sub-array given for a layer outside the group"});
                continue;
            }
            const std::string ln = net.layer(id).name;
            if (s.cols < 1 || s.rows < 1) {
                v.push_back({where, g.partition.subarrays.count(id)
                                        ? "sub-array of " + ln + " is empty"
                                        : "no PEs left for " + ln +
                                              ": the given sub-arrays cover the PE array"});
                continue;
            }
            if (s.col < 0 || s.row < 0 || s.col + s.cols > hw.pe_array.cols ||
                s.row + s.rows > hw.pe_array.rows)
                v.push_back({where, "sub-array of " + ln + " (" + std::to_string(s.cols) + "x" +
                                        std::to_string(s.rows) + " at " + std::to_string(s.col) +
                                        "," + std::to_string(s.row) + ") lies outside the " +
                                        std::to_string(hw.pe_array.cols) + "x" +
                                        std::to_string(hw.pe_array.rows) + " PE array"});
        }
        for (size_t a = 0; a < list.size(); ++a)
            for (size_t b = a + 1; b < list.size(); ++b) {
                const SubArray& x = list[a].second;
                const SubArray& y = list[b].second;
                const bool overlap = x.col < y.col + y.cols && y.col < x.col + x.cols &&
                                     x.row < y.row + y.rows && y.row < x.row + x.rows;
                if (overlap)
                    v.push_back({where, "sub-arrays of " + net.layer(list[a].first).name + " and " +
                                            net.layer(list[b].first).name + " overlap"});
            }
    } else {
        double w = 0, in = 0, ps = 0;
        for (LayerId id : g.layers) {
            const RfShare r = rfShareOf(g, id);
            if (r.weight < 0 || r.input < 0 || r.psum < 0 || r.weight > 1 || r.input > 1 ||
                r.psum > 1)
                v.push_back(
                    {where, "RF share of " + net.layer(id).name + " must be between 0 and 1"});
            w += r.weight;
            in += r.input;
            ps += r.psum;
        }
        for (const auto& [id, share] : g.partition.rf_share)
            if (!std::binary_search(g.layers.begin(), g.layers.end(), id))
                v.push_back({where, "RF share given for a layer outside the group"});
        auto pct = [](double f) { return std::to_string(int(std::lround(f * 100))) + " %"; };
        constexpr double eps = 1e-9;
        if (w > 1 + eps)
            v.push_back({where, "weight RF shares sum to " + pct(w) + " (over 100 %)"});
        if (in > 1 + eps)
            v.push_back({where, "input RF shares sum to " + pct(in) + " (over 100 %)"});
        if (ps > 1 + eps)
            v.push_back({where, "psum RF shares sum to " + pct(ps) + " (over 100 %)"});
    }
    if (g.out_tile && (g.out_tile->h < 1 || g.out_tile->w < 1))
        v.push_back({where, "output tile must be at least 1x1"});
    if (g.out_tile) {
        const Layer& last = net.layer(g.layers.back());
        if (g.out_tile->h > last.out.h || g.out_tile->w > last.out.w)
            v.push_back({where, "output tile " + std::to_string(g.out_tile->h) + "x" +
                                    std::to_string(g.out_tile->w) + " exceeds the output " +
                                    std::to_string(last.out.h) + "x" + std::to_string(last.out.w)});
    }
    return v;
}

std::vector<Violation> checkSchedule(const Network& net, const Hardware& hw, const Schedule& s) {
    std::vector<Violation> v;
    std::vector<int> owner(size_t(net.size()), -1);
    for (size_t gi = 0; gi < s.groups.size(); ++gi) {
        const FusionGroup& g = s.groups[gi];
        auto gv = checkGroup(net, hw, g);
        v.insert(v.end(), gv.begin(), gv.end());
        for (LayerId id : g.layers) {
            if (id < 0 || id >= net.size()) continue;
            if (owner[size_t(id)] >= 0)
                v.push_back({"group " + g.name, "layer " + net.layer(id).name +
                                                    " is also in group " +
                                                    s.groups[size_t(owner[size_t(id)])].name});
            owner[size_t(id)] = int(gi);
        }
    }
    std::set<std::string> names;
    for (const auto& g : s.groups)
        if (!names.insert(g.name).second) v.push_back({"group " + g.name, "duplicate group name"});
    for (LayerId id : net.computeIds())
        if (size_t(id) < s.layers.size()) {
            auto lv = checkLayer(net, id, s.layers[size_t(id)]);
            v.insert(v.end(), lv.begin(), lv.end());
        }
    return v;
}

} // namespace lf
