#include "io/project_yaml.h"

#include "bundled/bundled_files.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "io/schedule_yaml.h"
#include "io/yaml_support.h"
#include "models/evaluate.h"
#include "util/format.h"

#include <filesystem>

namespace lf {

using namespace yamlio;

namespace {

[[noreturn]] void failWith(const YAML::Node& at, const Error& e) {
    // An error from a referenced network file keeps its own FILE:LINE:COLUMN.
    fail(at, e.toString());
}

Network readNetworkRef(const YAML::Node& n, const std::string& file, Project& p) {
    requireMap(n, "network");
    if (n["format"]) {
        p.network_ref = NetworkRef::inline_network;
        auto net = buildNetwork(readNetworkSpecNode(n, file));
        if (!net) throw YamlInputError({net.error().line, net.error().column}, net.error().message);
        return *net;
    }
    checkKeys(n, {"bundled", "file", "sha256"});
    if (n["bundled"] && n["file"]) fail(n, "network: give either 'bundled' or 'file', not both");
    Result<Network> net = Error("");
    if (const YAML::Node b = n["bundled"]) {
        p.network_ref = NetworkRef::bundled;
        p.network_source = toString(b, "bundled");
        const BundledFile* bundled = findBundled(BundledKind::network, p.network_source);
        if (!bundled) fail(b, unknownBundledMessage(BundledKind::network, p.network_source));
        net = readNetworkYaml(bundled->text, bundledFileLabel(*bundled));
        if (!net) fail(b, net.error().message);
    } else if (const YAML::Node f = n["file"]) {
        p.network_ref = NetworkRef::file;
        p.network_source = toString(f, "file");
        std::filesystem::path path(p.network_source);
        if (path.is_relative()) path = std::filesystem::path(file).parent_path() / path;
        net = loadNetworkYamlFile(path.string());
        if (!net) failWith(f, net.error());
    } else {
        fail(n, "network needs an inline network document, 'bundled: NAME' or 'file: PATH'");
    }
    if (const YAML::Node h = n["sha256"]) {
        const std::string want = toString(h, "sha256");
        if (want != net->canonicalHash())
            fail(h, "the network " + quoteValue(p.network_source) +
                        " has changed since the project was saved (sha256 " +
                        net->canonicalHash().substr(0, 12) + "…, project expects " +
                        want.substr(0, 12) + "…)");
    }
    return *net;
}

ProjectViewState readView(const YAML::Node& n, const Network& net) {
    requireMap(n, "view");
    checkKeys(n, {"zoom", "center", "color_by", "selected_group", "selected_layers", "dock_state"});
    ProjectViewState v;
    v.zoom = getDouble(n, "zoom", 1.0, 1e-3, 1e3);
    if (const YAML::Node c = n["center"]) {
        requireSeq(c, "center");
        if (c.size() != 2) fail(c, "center must be [x, y]");
        v.center = std::make_pair(toDouble(c[0], "center x", -1e9, 1e9),
                                  toDouble(c[1], "center y", -1e9, 1e9));
    }
    v.color_by = getString(n, "color_by", "group");
    v.selected_group = getString(n, "selected_group", "");
    if (const YAML::Node sel = n["selected_layers"]) {
        requireSeq(sel, "selected_layers");
        for (const auto& name : sel) {
            std::string layer = toString(name, "layer name");
            if (net.find(layer) == kNoLayer)
                fail(name, "no layer named " + quoteValue(layer) + " in " + net.name());
            v.selected_layers.push_back(std::move(layer));
        }
    }
    v.dock_state = getString(n, "dock_state", "");
    return v;
}

Schedule readSchedule(const YAML::Node& n, const Network& net, const Hardware& hw) {
    requireMap(n, "schedule");
    checkKeys(n, {"groups", "layers", "explicit_layers"});
    ScheduleReadOptions opt;
    // A saved project always reopens: rule breaks are flagged in the studio, not refused here.
    opt.refuse_violations = false;
    Schedule s = readScheduleNode(n, net, hw, opt, nullptr);
    if (const YAML::Node e = n["explicit_layers"]) {
        requireSeq(e, "explicit_layers");
        std::fill(s.explicit_layer.begin(), s.explicit_layer.end(), char(0));
        for (const auto& name : e) {
            const LayerId id = net.find(toString(name, "layer name"));
            if (id == kNoLayer)
                fail(name, "no layer named " + quoteValue(name.Scalar()) + " in " + net.name());
            s.explicit_layer[size_t(id)] = 1;
        }
    }
    return s;
}

} // namespace

Result<Project> readProjectYaml(std::string_view text, const std::string& file) {
    auto doc = parse(text, file);
    if (!doc) return doc.error();
    const YAML::Node root = *doc;
    try {
        checkFormat(root, "project", 1);
        checkKeys(root, {"format", "network", "hardware", "schedule", "view"});
        Project p;
        p.network = readNetworkRef(req(root, "network"), file, p);
        const YAML::Node hw = req(root, "hardware");
        requireMap(hw, "hardware");
        p.hardware = readHardwareNode(hw);
        if (const YAML::Node s = root["schedule"])
            p.schedule = readSchedule(s, p.network, p.hardware);
        else
            p.schedule = defaultSchedule(p.network, p.hardware);
        if (const YAML::Node v = root["view"]) p.view = readView(v, p.network);
        return p;
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    } catch (const YAML::Exception& e) {
        return yamlError(file, e);
    }
}

Result<Project> loadProjectFile(const std::string& path) {
    auto text = readFile(path);
    if (!text) return text.error();
    return readProjectYaml(*text, path);
}

std::string writeProjectYaml(const Project& p) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "format" << YAML::Value << "layerfuse/project@1";
    out << YAML::Key << "network" << YAML::Value;
    if (p.network_ref == NetworkRef::inline_network) {
        out << YAML::BeginMap;
        emitNetworkBody(out, p.network);
        out << YAML::EndMap;
    } else {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << (p.network_ref == NetworkRef::bundled ? "bundled" : "file")
            << YAML::Value;
        emitString(out, p.network_source);
        out << YAML::Key << "sha256" << YAML::Value << p.network.canonicalHash();
        out << YAML::EndMap;
    }
    out << YAML::Key << "hardware" << YAML::Value << YAML::BeginMap;
    emitHardwareBody(out, p.hardware);
    out << YAML::EndMap;

    out << YAML::Key << "schedule" << YAML::Value << YAML::BeginMap;
    ScheduleWriteOptions opt;
    opt.all_layers = true;
    emitScheduleBody(out, p.network, p.hardware, p.schedule, opt);
    std::vector<LayerId> edited;
    for (LayerId id : p.network.computeIds())
        if (size_t(id) < p.schedule.explicit_layer.size() && p.schedule.explicit_layer[size_t(id)])
            edited.push_back(id);
    out << YAML::Key << "explicit_layers" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (LayerId id : edited)
        emitString(out, p.network.layer(id).name);
    out << YAML::EndSeq;
    out << YAML::EndMap;

    const ProjectViewState& v = p.view;
    out << YAML::Key << "view" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "zoom" << YAML::Value;
    emitDouble(out, v.zoom);
    if (v.center) {
        out << YAML::Key << "center" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        emitDouble(out, v.center->first);
        emitDouble(out, v.center->second);
        out << YAML::EndSeq;
    }
    out << YAML::Key << "color_by" << YAML::Value;
    emitString(out, v.color_by);
    if (!v.selected_group.empty()) {
        out << YAML::Key << "selected_group" << YAML::Value;
        emitString(out, v.selected_group);
    }
    if (!v.selected_layers.empty()) {
        out << YAML::Key << "selected_layers" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const std::string& name : v.selected_layers)
            emitString(out, name);
        out << YAML::EndSeq;
    }
    if (!v.dock_state.empty()) {
        out << YAML::Key << "dock_state" << YAML::Value;
        emitString(out, v.dock_state);
    }
    out << YAML::EndMap;
    out << YAML::EndMap;
    return finish(out);
}

} // namespace lf
