#include "io/schedule_yaml.h"

#include "io/hardware_yaml.h"
#include "io/yaml_support.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "util/format.h"

#include <algorithm>

namespace lf {

using namespace yamlio;

namespace {

constexpr int64_t kMaxTile = int64_t(1) << 24;

LayerId resolveLayer(const Network& net, const YAML::Node& n, const std::string& what,
                     const ScheduleReadOptions& opt, std::vector<std::string>* skipped) {
    const std::string name = toString(n, what);
    const LayerId id = net.find(name);
    if (id == kNoLayer || net.layer(id).name != name) {
        if (!opt.check_hash) {
            if (skipped) skipped->push_back(name);
            return kNoLayer;
        }
        fail(n, "no layer named " + quoteValue(name) + " in network " + net.name());
    }
    return id;
}

RfShare readRfShare(const YAML::Node& n) {
    if (n.IsScalar()) {
        const double v = toDouble(n, "rf_share", 0, 1);
        return RfShare{v, v, v};
    }
    requireMap(n, "rf_share entry");
    checkKeys(n, {"weight", "input", "psum"});
    RfShare r;
    r.weight = getDouble(n, "weight", 0, 0, 1);
    r.input = getDouble(n, "input", 0, 0, 1);
    r.psum = getDouble(n, "psum", 0, 0, 1);
    return r;
}

void readPartition(const YAML::Node& n, const Network& net, FusionGroup& g,
                   const ScheduleReadOptions& opt, std::vector<std::string>* skipped) {
    requireMap(n, "partition");
    checkKeys(n, {"kind", "rf_share", "subarrays"});
    const std::string kind = getString(n, "kind", "temporal");
    if (kind == "temporal")
        g.partition.kind = PartitionKind::temporal;
    else if (kind == "spatial")
        g.partition.kind = PartitionKind::spatial;
    else
        fail(n["kind"], "partition kind must be temporal or spatial, got " + quoteValue(kind));
    if (const YAML::Node rs = n["rf_share"]) {
        if (g.partition.kind != PartitionKind::temporal)
            fail(rs, "rf_share belongs to a temporal partition");
        requireMap(rs, "rf_share");
        for (const auto& kv : rs) {
            const LayerId id = resolveLayer(net, kv.first, "layer name", opt, skipped);
            if (id == kNoLayer) continue;
            g.partition.rf_share[id] = readRfShare(kv.second);
        }
    }
    if (const YAML::Node sa = n["subarrays"]) {
        if (g.partition.kind != PartitionKind::spatial)
            fail(sa, "subarrays belong to a spatial partition");
        requireMap(sa, "subarrays");
        for (const auto& kv : sa) {
            const LayerId id = resolveLayer(net, kv.first, "layer name", opt, skipped);
            if (id == kNoLayer) continue;
            const YAML::Node s = kv.second;
            requireMap(s, "sub-array");
            checkKeys(s, {"col", "row", "cols", "rows"});
            SubArray a;
            a.col = int(toInt(req(s, "col"), "col", 0, 1 << 16));
            a.row = int(toInt(req(s, "row"), "row", 0, 1 << 16));
            a.cols = int(toInt(req(s, "cols"), "cols", 1, 1 << 16));
            a.rows = int(toInt(req(s, "rows"), "rows", 1, 1 << 16));
            g.partition.subarrays[id] = a;
        }
    }
}

void readLayerSchedule(const YAML::Node& n, LayerSchedule& s) {
    requireMap(n, "layer schedule");
    checkKeys(n, {"order", "tiles", "store", "compute", "unroll"});
    if (const YAML::Node o = n["order"]) {
        requireSeq(o, "order");
        if (o.size() != 4) fail(o, "order must list the four dims z, y, x, i");
        std::array<Dim, 4> order{};
        std::array<bool, 4> seen{};
        for (size_t k = 0; k < 4; ++k) {
            const std::string d = toString(o[k], "order entry");
            auto dim = d.size() == 1 ? dimFromChar(d[0]) : std::nullopt;
            if (!dim) fail(o[k], "unknown loop dim " + quoteValue(d) + " (expected z, y, x or i)");
            if (seen[size_t(*dim)])
                fail(o[k], "loop dim " + quoteValue(d) + " appears twice in the order");
            seen[size_t(*dim)] = true;
            order[k] = *dim;
        }
        s.order = order;
    }
    if (const YAML::Node t = n["tiles"]) {
        requireMap(t, "tiles");
        checkKeys(t, {"z", "y", "x", "i"});
        for (Dim d : kAllDims) {
            const char key[2] = {dimChar(d), 0};
            s.tile[size_t(d)] = getInt(t, key, s.tile[size_t(d)], 1, kMaxTile);
        }
    }
    auto levels = [&](const char* key, std::array<Level, 3>& out) {
        const YAML::Node m = n[key];
        if (!m) return;
        requireMap(m, key);
        checkKeys(m, {"X", "Y", "W"});
        for (Arr a : kAllArrs) {
            const YAML::Node v = m[arrName(a)];
            if (!v) continue;
            const std::string name = toString(v, "level");
            auto l = parseLevel(name, s.order);
            if (!l)
                fail(v, "unknown level " + quoteValue(name) +
                            " (expected tile, l1..l4 or an inner loop: " +
                            levelName(Level::l1, s.order) + ", " + levelName(Level::l2, s.order) +
                            ", " + levelName(Level::l3, s.order) + ", " +
                            levelName(Level::l4, s.order) + ")");
            out[size_t(a)] = *l;
        }
    };
    levels("store", s.store);
    levels("compute", s.compute);
    if (const YAML::Node u = n["unroll"]) {
        const std::string df = toString(u, "unroll");
        auto parsed = parseDataflow(df);
        if (!parsed) fail(u, "unroll " + quoteValue(df) + " is not a dataflow like \"ox|oc\"");
        s.unroll = *parsed;
    }
}

} // namespace

Schedule yamlio::readScheduleNode(const YAML::Node& root, const Network& net, const Hardware& hw,
                                  const ScheduleReadOptions& opt,
                                  std::vector<std::string>* skipped) {
    Schedule s = defaultSchedule(net, hw);
    s.groups.clear();
    std::vector<int> owner(size_t(net.size()), -1);
    std::vector<YAML::Node> groupNodes;
    if (const YAML::Node groups = root["groups"]) {
        requireSeq(groups, "groups");
        for (const auto& gn : groups) {
            requireMap(gn, "a group");
            checkKeys(gn, {"name", "layers", "strategy", "reuse_model", "out_tile", "partition",
                           "weights_resident"});
            FusionGroup g;
            g.name = toString(req(gn, "name"), "name");
            for (const FusionGroup& other : s.groups)
                if (other.name == g.name)
                    fail(gn["name"], "duplicate group name " + quoteValue(g.name));
            const YAML::Node ls = req(gn, "layers");
            requireSeq(ls, "layers");
            for (const auto& ln : ls) {
                const LayerId id = resolveLayer(net, ln, "layer name", opt, skipped);
                if (id == kNoLayer) continue;
                if (!isCompute(net.layer(id).type) && net.layer(id).type != LayerType::concat)
                    fail(ln, "layer " + quoteValue(net.layer(id).name) + " (" +
                                 std::string(toString(net.layer(id).type)) +
                                 ") cannot be in a group");
                if (owner[size_t(id)] >= 0)
                    fail(ln, "layer " + quoteValue(net.layer(id).name) + " is already in group " +
                                 quoteValue(s.groups[size_t(owner[size_t(id)])].name));
                owner[size_t(id)] = int(s.groups.size());
                g.layers.push_back(id);
            }
            if (g.layers.empty()) {
                if (!opt.check_hash) continue;
                fail(ls, "group " + quoteValue(g.name) + " has no layers");
            }
            const std::string strat = getString(gn, "strategy", "recompute");
            auto st = strategyFromString(strat);
            if (!st)
                fail(gn["strategy"],
                     "strategy must be recompute, reuse or optimus, got " + quoteValue(strat));
            g.strategy = *st;
            const std::string rm = getString(gn, "reuse_model", "hwff");
            if (rm == "hwff")
                g.reuse_model = ReuseModelKind::hwff;
            else if (rm == "alwani")
                g.reuse_model = ReuseModelKind::alwani;
            else
                fail(gn["reuse_model"],
                     "reuse_model must be hwff or alwani, got " + quoteValue(rm));
            if (const YAML::Node ot = gn["out_tile"]) {
                requireMap(ot, "out_tile");
                checkKeys(ot, {"h", "w"});
                g.out_tile = OutputTile{toInt(req(ot, "h"), "h", 1, kMaxTile),
                                        toInt(req(ot, "w"), "w", 1, kMaxTile)};
            }
            g.weights_resident = getBool(gn, "weights_resident", false);
            std::sort(g.layers.begin(), g.layers.end());
            if (const YAML::Node p = gn["partition"]) readPartition(p, net, g, opt, skipped);
            s.groups.push_back(std::move(g));
            groupNodes.push_back(gn);
        }
    }
    std::vector<YAML::Node> layerNodes(size_t(net.size()));
    if (const YAML::Node layers = root["layers"]) {
        requireMap(layers, "layers");
        for (const auto& kv : layers) {
            const LayerId id = resolveLayer(net, kv.first, "layer name", opt, skipped);
            if (id == kNoLayer) continue;
            if (!isCompute(net.layer(id).type))
                fail(kv.first, "layer " + quoteValue(net.layer(id).name) +
                                   " does not compute and has no schedule");
            readLayerSchedule(kv.second, s.layers[size_t(id)]);
            s.explicit_layer[size_t(id)] = 1;
            layerNodes[size_t(id)] = kv.second;
        }
    }
    if (opt.refuse_violations) {
        for (size_t gi = 0; gi < s.groups.size(); ++gi) {
            auto v = checkGroup(net, hw, s.groups[gi]);
            if (!v.empty())
                fail(groupNodes[gi],
                     "group " + quoteValue(s.groups[gi].name) + ": " + v.front().message);
        }
        for (LayerId id : net.computeIds()) {
            auto v = checkLayer(net, id, s.layers[size_t(id)]);
            if (v.empty()) continue;
            const YAML::Node at = layerNodes[size_t(id)] ? layerNodes[size_t(id)] : root;
            fail(at, "layer " + quoteValue(net.layer(id).name) + ": " + v.front().message);
        }
    }
    normalize(s, net);
    return s;
}

Result<ScheduleFile> readScheduleYaml(std::string_view text, const std::string& file,
                                      const Network& net, const Hardware& hw,
                                      const ScheduleReadOptions& opt) {
    auto doc = parse(text, file);
    if (!doc) return doc.error();
    const YAML::Node root = *doc;
    try {
        checkFormat(root, "schedule", 1);
        checkKeys(root, {"format", "network", "hardware", "groups", "layers", "metrics"});
        ScheduleFile out;
        if (const YAML::Node n = root["network"]) {
            requireMap(n, "network");
            checkKeys(n, {"name", "sha256"});
            out.network_name = getString(n, "name", "");
            out.network_sha256 = getString(n, "sha256", "");
            if (opt.check_hash && !out.network_sha256.empty() &&
                out.network_sha256 != net.canonicalHash())
                fail(n["sha256"],
                     "this schedule was made for another network (" +
                         (out.network_name.empty() ? std::string("unnamed") : out.network_name) +
                         ", sha256 " + out.network_sha256.substr(0, 12) + "…) than " + net.name() +
                         " (sha256 " + net.canonicalHash().substr(0, 12) +
                         "…); apply it by layer names to use the layers that match");
        }
        const Hardware* useHw = &hw;
        if (const YAML::Node h = root["hardware"]) {
            requireMap(h, "hardware");
            if (h.size() == 1 && h["name"]) {
                out.hardware_name = toString(h["name"], "name");
                out.hardware_name_pos = posOf(h["name"]);
            } else {
                out.hardware = readHardwareNode(h);
                out.hardware_name = out.hardware->name;
                useHw = &*out.hardware;
            }
        }
        out.schedule = readScheduleNode(root, net, *useHw, opt, &out.skipped);
        return out;
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    } catch (const YAML::Exception& e) {
        return yamlError(file, e);
    }
}

Result<ScheduleFile> loadScheduleYamlFile(const std::string& path, const Network& net,
                                          const Hardware& hw, const ScheduleReadOptions& opt) {
    auto text = readFile(path);
    if (!text) return text.error();
    return readScheduleYaml(*text, path, net, hw, opt);
}

namespace {

void emitLevels(YAML::Emitter& out, const char* key, const std::array<Level, 3>& l,
                const std::array<Dim, 4>& order) {
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (Arr a : kAllArrs)
        out << YAML::Key << arrName(a) << YAML::Value << levelName(l[size_t(a)], order);
    out << YAML::EndMap;
}

void emitMetrics(YAML::Emitter& out, const Metrics& m) {
    const Totals& t = m.totals;
    out << YAML::Key << "metrics" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "dram_accesses" << YAML::Value << intText(t.dram_accesses);
    out << YAML::Key << "dram_bytes" << YAML::Value << intText(t.dram_bytes);
    out << YAML::Key << "dram" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "input" << YAML::Value << intText(t.dram.input);
    out << YAML::Key << "weight" << YAML::Value << intText(t.dram.weight);
    out << YAML::Key << "output" << YAML::Value << intText(t.dram.output);
    out << YAML::Key << "psum" << YAML::Value << intText(t.dram.psum) << YAML::EndMap;
    out << YAML::Key << "macs" << YAML::Value << intText(t.macs);
    out << YAML::Key << "recompute_macs" << YAML::Value << intText(t.recompute_macs);
    out << YAML::Key << "buffer_peak_bytes" << YAML::Value << intText(t.buffer_peak_bytes);
    out << YAML::Key << "fits" << YAML::Value << t.fits;
    out << YAML::Key << "latency_cycles" << YAML::Value << intText(t.latency_cycles);
    out << YAML::Key << "energy_pj" << YAML::Value;
    emitDouble(out, t.energy.total());
    out << YAML::EndMap;
}

} // namespace

void yamlio::emitScheduleBody(YAML::Emitter& out, const Network& net, const Hardware& hw,
                              const Schedule& s, const ScheduleWriteOptions& opt) {
    std::vector<const FusionGroup*> explicitGroups;
    for (const FusionGroup& g : s.groups)
        if (!isImplicitGroup(g, net)) explicitGroups.push_back(&g);
    if (!explicitGroups.empty()) {
        out << YAML::Key << "groups" << YAML::Value << YAML::BeginSeq;
        for (const FusionGroup* g : explicitGroups) {
            out << YAML::BeginMap;
            out << YAML::Key << "name" << YAML::Value;
            emitString(out, g->name);
            out << YAML::Key << "layers" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (LayerId id : g->layers)
                emitString(out, net.layer(id).name);
            out << YAML::EndSeq;
            out << YAML::Key << "strategy" << YAML::Value << toString(g->strategy);
            if (g->reuse_model == ReuseModelKind::alwani)
                out << YAML::Key << "reuse_model" << YAML::Value << "alwani";
            if (g->out_tile)
                out << YAML::Key << "out_tile" << YAML::Value << YAML::Flow << YAML::BeginMap
                    << YAML::Key << "h" << YAML::Value << intText(g->out_tile->h) << YAML::Key
                    << "w" << YAML::Value << intText(g->out_tile->w) << YAML::EndMap;
            const Partition& p = g->partition;
            out << YAML::Key << "partition" << YAML::Value << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "kind" << YAML::Value
                << (p.kind == PartitionKind::temporal ? "temporal" : "spatial");
            if (p.kind == PartitionKind::temporal && !p.rf_share.empty()) {
                out << YAML::Key << "rf_share" << YAML::Value << YAML::Flow << YAML::BeginMap;
                for (const auto& [id, r] : p.rf_share) {
                    out << YAML::Key;
                    emitString(out, net.layer(id).name);
                    out << YAML::Value;
                    if (r.weight == r.input && r.input == r.psum) {
                        emitDouble(out, r.weight);
                    } else {
                        out << YAML::Flow << YAML::BeginMap << YAML::Key << "weight" << YAML::Value;
                        emitDouble(out, r.weight);
                        out << YAML::Key << "input" << YAML::Value;
                        emitDouble(out, r.input);
                        out << YAML::Key << "psum" << YAML::Value;
                        emitDouble(out, r.psum);
                        out << YAML::EndMap;
                    }
                }
                out << YAML::EndMap;
            }
            if (p.kind == PartitionKind::spatial && !p.subarrays.empty()) {
                out << YAML::Key << "subarrays" << YAML::Value << YAML::Flow << YAML::BeginMap;
                for (const auto& [id, a] : p.subarrays) {
                    out << YAML::Key;
                    emitString(out, net.layer(id).name);
                    out << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "col"
                        << YAML::Value << intText(a.col) << YAML::Key << "row" << YAML::Value
                        << intText(a.row) << YAML::Key << "cols" << YAML::Value << intText(a.cols)
                        << YAML::Key << "rows" << YAML::Value << intText(a.rows) << YAML::EndMap;
                }
                out << YAML::EndMap;
            }
            out << YAML::EndMap;
            out << YAML::Key << "weights_resident" << YAML::Value << g->weights_resident;
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    bool any = false;
    for (LayerId id : net.computeIds()) {
        const bool write = opt.all_layers ||
                           (size_t(id) < s.explicit_layer.size() && s.explicit_layer[size_t(id)]);
        if (!write) continue;
        if (!any) {
            out << YAML::Key << "layers" << YAML::Value << YAML::BeginMap;
            any = true;
        }
        const LayerSchedule& ls = s.layers[size_t(id)];
        out << YAML::Key;
        emitString(out, net.layer(id).name);
        out << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "order" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (Dim d : ls.order)
            out << std::string(1, dimChar(d));
        out << YAML::EndSeq;
        out << YAML::Key << "tiles" << YAML::Value << YAML::Flow << YAML::BeginMap;
        for (Dim d : kAllDims)
            out << YAML::Key << std::string(1, dimChar(d)) << YAML::Value << intText(ls.T(d));
        out << YAML::EndMap;
        emitLevels(out, "store", ls.store, ls.order);
        emitLevels(out, "compute", ls.compute, ls.order);
        if (ls.unroll)
            out << YAML::Key << "unroll" << YAML::Value << YAML::DoubleQuoted
                << toString(*ls.unroll);
        out << YAML::EndMap;
    }
    if (any) out << YAML::EndMap;
    (void)hw;
}

std::string writeScheduleYaml(const Network& net, const Hardware& hw, const Schedule& s,
                              const ScheduleWriteOptions& opt) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "format" << YAML::Value << "layerfuse/schedule@1";
    out << YAML::Key << "network" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, net.name());
    out << YAML::Key << "sha256" << YAML::Value << net.canonicalHash() << YAML::EndMap;
    out << YAML::Key << "hardware" << YAML::Value;
    if (opt.inline_hardware) {
        out << YAML::BeginMap;
        emitHardwareBody(out, hw);
        out << YAML::EndMap;
    } else {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value;
        emitString(out, hw.name);
        out << YAML::EndMap;
    }
    emitScheduleBody(out, net, hw, s, opt);
    if (opt.metrics) emitMetrics(out, *opt.metrics);
    out << YAML::EndMap;
    return finish(out);
}

} // namespace lf
