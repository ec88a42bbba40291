#include "edits/schedule_edits.h"

#include "models/evaluate.h"
#include "network/dims.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace lf {

namespace {

bool contains(const std::vector<LayerId>& sorted, LayerId id) {
    return std::binary_search(sorted.begin(), sorted.end(), id);
}

// Layers a group may hold: compute layers, and concats joining fused branches.
bool fusable(const Network& net, LayerId id) {
    const LayerType t = net.layer(id).type;
    return isCompute(t) || t == LayerType::concat;
}

// A group made of `layers` with the settings of `like` (when given) minus its partition,
// which names layers and is reset whenever the membership changes. A single layer becomes
// the implicit singleton group named after it.
FusionGroup makeGroup(const Network& net, std::vector<LayerId> layers, const FusionGroup* like,
                      const std::string& name) {
    FusionGroup g;
    std::sort(layers.begin(), layers.end());
    g.layers = std::move(layers);
    if (g.layers.size() == 1) {
        g.name = net.layer(g.layers[0]).name;
        return g;
    }
    if (like) {
        g.strategy = like->strategy;
        g.weights_resident = like->weights_resident;
        g.partition.kind = like->partition.kind;
        if (!like->layers.empty() && like->layers.back() == g.layers.back())
            g.out_tile = like->out_tile;
    }
    g.name = name; // empty: a fresh name is assigned later
    return g;
}

struct Plan {
    std::set<LayerId> removeLayers; // taken out of their current groups
    std::set<int> removeGroups; // dropped whole (their layers become singletons unless re-added)
    std::vector<FusionGroup> add;
    std::string focus; // name of the group to focus ("" = first added)
};

ScheduleEdit apply(const Network& net, const Hardware& hw, const Schedule& base, Plan plan) {
    ScheduleEdit r;
    Schedule out = base;
    out.groups.clear();
    std::vector<size_t> changed; // indices into out.groups
    for (size_t gi = 0; gi < base.groups.size(); ++gi) {
        if (plan.removeGroups.count(int(gi))) continue;
        const FusionGroup& g = base.groups[gi];
        std::vector<LayerId> rest;
        for (LayerId id : g.layers)
            if (!plan.removeLayers.count(id)) rest.push_back(id);
        if (rest.size() == g.layers.size()) {
            out.groups.push_back(g);
            continue;
        }
        if (rest.empty()) continue;
        const auto pieces = connectedPieces(net, rest);
        for (size_t k = 0; k < pieces.size(); ++k) {
            out.groups.push_back(makeGroup(net, pieces[k], &g, k == 0 ? g.name : std::string()));
            changed.push_back(out.groups.size() - 1);
        }
    }
    for (FusionGroup& g : plan.add) {
        out.groups.push_back(std::move(g));
        changed.push_back(out.groups.size() - 1);
    }
    std::vector<std::string> changedNames;
    for (size_t idx : changed) {
        FusionGroup& g = out.groups[idx];
        if (g.name.empty()) g.name = freshGroupName(net, out);
        changedNames.push_back(g.name);
    }
    if (plan.focus.empty() && !plan.add.empty()) plan.focus = out.groups[changed.back()].name;
    normalize(out, net);

    for (const FusionGroup& g : out.groups) {
        if (std::find(changedNames.begin(), changedNames.end(), g.name) == changedNames.end())
            continue;
        const auto v = checkGroup(net, hw, g);
        if (!v.empty()) {
            // A group the refused edit would have created has no name the user knows yet:
            // name its layers instead.
            const bool existed =
                std::any_of(base.groups.begin(), base.groups.end(),
                            [&](const FusionGroup& b) { return b.name == g.name; });
            std::string where = v.front().where;
            if (!existed) {
                where = "fusing";
                for (size_t k = 0; k < g.layers.size(); ++k)
                    where += (k ? ", " : " ") + net.layer(g.layers[k]).name;
            }
            r.reason = where + ": " + v.front().message;
            return r;
        }
    }
    for (const FusionGroup& g : out.groups)
        if (g.layers.size() > 1 &&
            std::find(changedNames.begin(), changedNames.end(), g.name) != changedNames.end())
            fitFusedConsumers(net, hw, out, g);
    r.ok = true;
    r.schedule = std::move(out);
    r.focus_group = plan.focus;
    return r;
}

ScheduleEdit refuse(std::string reason) {
    ScheduleEdit r;
    r.reason = std::move(reason);
    return r;
}

} // namespace

std::vector<std::vector<LayerId>> connectedPieces(const Network& net, std::vector<LayerId> layers) {
    std::sort(layers.begin(), layers.end());
    layers.erase(std::unique(layers.begin(), layers.end()), layers.end());
    std::vector<size_t> parent(layers.size());
    std::iota(parent.begin(), parent.end(), size_t(0));
    auto find = [&](size_t x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    };
    auto indexOf = [&](LayerId id) {
        auto it = std::lower_bound(layers.begin(), layers.end(), id);
        return it != layers.end() && *it == id ? size_t(it - layers.begin()) : layers.size();
    };
    for (size_t k = 0; k < layers.size(); ++k)
        for (LayerId p : net.layer(layers[k]).inputs)
            if (size_t j = indexOf(p); j < layers.size()) parent[find(k)] = find(j);
    std::vector<std::vector<LayerId>> pieces;
    std::vector<int> pieceOf(layers.size(), -1);
    for (size_t k = 0; k < layers.size(); ++k) {
        const size_t root = find(k);
        if (pieceOf[root] < 0) {
            pieceOf[root] = int(pieces.size());
            pieces.emplace_back();
        }
        pieces[size_t(pieceOf[root])].push_back(layers[k]);
    }
    return pieces;
}

std::string freshGroupName(const Network& net, const Schedule& s) {
    std::set<std::string> used;
    for (const FusionGroup& g : s.groups)
        used.insert(g.name);
    for (int k = 0;; ++k) {
        std::string name = "g" + std::to_string(k);
        if (!used.count(name) && net.find(name) == kNoLayer) return name;
    }
}

std::vector<LayerId> fitFusedConsumers(const Network& net, const Hardware& hw, Schedule& s,
                                       const FusionGroup& g) {
    std::vector<LayerId> changed;
    for (LayerId id : g.layers) {
        if (!isCompute(net.layer(id).type) || size_t(id) >= s.layers.size()) continue;
        const auto& ins = net.layer(id).inputs;
        const bool fedInside =
            std::any_of(ins.begin(), ins.end(), [&](LayerId p) { return contains(g.layers, p); });
        if (!fedInside) continue;
        const int64_t di = layerDims(net, id).DiPerGroup();
        LayerSchedule& ls = s.layers[size_t(id)];
        const LayerSchedule before = ls;
        ls.tile[size_t(Dim::i)] = di;
        if (!checkLayer(net, id, ls).empty()) {
            ls = defaultLayerSchedule(net, hw, id);
            ls.tile[size_t(Dim::i)] = di;
        }
        if (!(ls == before)) {
            if (s.explicit_layer.size() <= size_t(id))
                s.explicit_layer.resize(size_t(net.size()), 0);
            s.explicit_layer[size_t(id)] = 1;
            changed.push_back(id);
        }
    }
    return changed;
}

ScheduleEdit fuseLayers(const Network& net, const Hardware& hw, const Schedule& s,
                        std::vector<LayerId> layers) {
    std::sort(layers.begin(), layers.end());
    layers.erase(std::unique(layers.begin(), layers.end()), layers.end());
    std::erase_if(layers,
                  [&](LayerId id) { return id < 0 || id >= net.size() || !fusable(net, id); });
    if (layers.size() < 2) return refuse("select at least two layers that compute to fuse them");
    for (const FusionGroup& g : s.groups)
        if (g.layers == layers) return refuse("these layers already form group " + g.name);
    // The largest fused group the selection swallows lends its name and settings.
    const FusionGroup* like = nullptr;
    for (const FusionGroup& g : s.groups)
        if (g.layers.size() > 1 && (!like || g.layers.size() > like->layers.size()) &&
            std::includes(layers.begin(), layers.end(), g.layers.begin(), g.layers.end()))
            like = &g;
    Plan plan;
    plan.removeLayers.insert(layers.begin(), layers.end());
    FusionGroup fused = makeGroup(net, layers, like, like ? like->name : std::string());
    if (like) // the lending group is replaced, so its name is free again
        for (size_t gi = 0; gi < s.groups.size(); ++gi)
            if (&s.groups[gi] == like) plan.removeGroups.insert(int(gi));
    plan.add.push_back(std::move(fused));
    return apply(net, hw, s, std::move(plan));
}

ScheduleEdit splitGroupAt(const Network& net, const Hardware& hw, const Schedule& s, LayerId at) {
    const int gi = at >= 0 && at < net.size() ? s.groupOf(at) : -1;
    if (gi < 0) return refuse("the layer is in no group");
    const FusionGroup& g = s.groups[size_t(gi)];
    if (g.layers.size() < 2) return refuse(net.layer(at).name + " is not fused with other layers");
    if (g.layers.front() == at)
        return refuse(net.layer(at).name + " is the first layer of group " + g.name +
                      ": split at a later layer");
    std::vector<LayerId> before, after;
    for (LayerId id : g.layers)
        (id < at ? before : after).push_back(id);
    Plan plan;
    plan.removeGroups.insert(gi);
    bool first = true;
    for (const auto& piece : connectedPieces(net, before)) {
        plan.add.push_back(makeGroup(net, piece, &g, first ? g.name : std::string()));
        first = false;
    }
    for (const auto& piece : connectedPieces(net, after))
        plan.add.push_back(makeGroup(net, piece, &g, {}));
    plan.focus = g.name;
    return apply(net, hw, s, std::move(plan));
}

ScheduleEdit ungroup(const Network& net, const Hardware& hw, const Schedule& s, int gi) {
    if (gi < 0 || size_t(gi) >= s.groups.size()) return refuse("no such group");
    if (s.groups[size_t(gi)].layers.size() < 2)
        return refuse("group " + s.groups[size_t(gi)].name + " holds a single layer");
    Plan plan;
    plan.removeGroups.insert(gi);
    return apply(net, hw, s, std::move(plan));
}

ScheduleEdit mergeGroups(const Network& net, const Hardware& hw, const Schedule& s,
                         std::vector<int> indices) {
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::erase_if(indices, [&](int gi) { return gi < 0 || size_t(gi) >= s.groups.size(); });
    if (indices.size() < 2) return refuse("select layers of at least two groups to merge them");
    std::vector<LayerId> layers;
    for (int gi : indices) {
        const auto& l = s.groups[size_t(gi)].layers;
        layers.insert(layers.end(), l.begin(), l.end());
    }
    // The first fused group (else the first group) lends its name and settings.
    const FusionGroup* like = &s.groups[size_t(indices.front())];
    for (int gi : indices)
        if (s.groups[size_t(gi)].layers.size() > 1) {
            like = &s.groups[size_t(gi)];
            break;
        }
    Plan plan;
    plan.removeGroups.insert(indices.begin(), indices.end());
    plan.add.push_back(
        makeGroup(net, layers, like, like->layers.size() > 1 ? like->name : std::string()));
    return apply(net, hw, s, std::move(plan));
}

ScheduleEdit moveLayerToGroup(const Network& net, const Hardware& hw, const Schedule& s,
                              LayerId layer, int target) {
    if (layer < 0 || layer >= net.size() || !fusable(net, layer))
        return refuse("this layer cannot be fused");
    if (target < 0 || size_t(target) >= s.groups.size()) return refuse("no such group");
    const FusionGroup& t = s.groups[size_t(target)];
    if (contains(t.layers, layer))
        return refuse(net.layer(layer).name + " is already in group " + t.name);
    std::vector<LayerId> layers = t.layers;
    layers.push_back(layer);
    const bool fused = t.layers.size() > 1;
    Plan plan;
    plan.removeLayers.insert(layer);
    plan.removeGroups.insert(target);
    plan.add.push_back(
        makeGroup(net, layers, fused ? &t : nullptr, fused ? t.name : std::string()));
    return apply(net, hw, s, std::move(plan));
}

} // namespace lf
