#include "sweep/sweep_yaml.h"

#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/yaml_support.h"

#include <filesystem>

namespace lf {

using namespace yamlio;

namespace {

std::vector<SweepSpec::Entry> entries(const TNode& n, const char* what) {
    requireSeq(n, what);
    if (n.size() == 0) fail(n, std::string(what) + ": at least one entry needed");
    std::vector<SweepSpec::Entry> out;
    for (size_t k = 0; k < n.size(); ++k)
        out.push_back({toString(n.item(k), what), n.item(k).pos()});
    return out;
}

std::vector<int64_t> values(const TNode& map, const char* key, int64_t hi) {
    const TNode n = map[key];
    if (!n) return {};
    return intList(n, key, 1, 4096, 1, hi);
}

// A name is a bundled file when one has that name; otherwise a path from the spec's folder.
std::string pathOf(const SweepSpec& spec, const std::string& name) {
    const std::filesystem::path p(name);
    if (p.is_absolute() || spec.file.empty()) return name;
    return (std::filesystem::path(spec.file).parent_path() / p).string();
}

Error at(const SweepSpec& spec, const SweepSpec::Entry& e, const Error& why) {
    return Error(spec.file, e.pos, e.name + ": " + why.toString());
}

} // namespace

Result<SweepSpec> readSweepYaml(std::string_view text, const std::string& file) {
    auto tree = parseTree(text, file);
    if (!tree) return tree.error();
    const TNode root = (*tree)->root();
    try {
        requireMap(root, "sweep");
        checkFormat(root, "sweep", 1);
        checkKeys(root,
                  {"format", "networks", "hardware", "parameters", "strategies", "objective"});
        SweepSpec s;
        s.file = file;
        s.networks = entries(req(root, "networks"), "networks");
        s.hardware = entries(req(root, "hardware"), "hardware");
        if (const TNode p = root["parameters"]) {
            requireMap(p, "parameters");
            checkKeys(p, {"buffer_bytes", "pe_cols", "pe_rows", "batch"});
            s.buffer_bytes = values(p, "buffer_bytes", int64_t(1) << 40);
            s.pe_cols = values(p, "pe_cols", 1 << 16);
            s.pe_rows = values(p, "pe_rows", 1 << 16);
            s.batch = values(p, "batch", 1 << 16);
        }
        if (const TNode st = root["strategies"]) {
            requireSeq(st, "strategies");
            if (st.size() == 0) fail(st, "strategies: at least one entry needed");
            s.strategies.clear();
            for (size_t k = 0; k < st.size(); ++k) {
                const auto v = strategyFromString(toString(st.item(k), "strategy"));
                if (!v) fail(st.item(k), "strategy: expected recompute, reuse or optimus");
                s.strategies.push_back(*v);
            }
        }
        if (const TNode o = root["objective"]) {
            const auto v = objectiveFromString(toString(o, "objective"));
            if (!v) fail(o, "objective: expected dram, energy, latency or edp");
            s.objective = *v;
        }
        return s;
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    }
}

Result<SweepSpec> loadSweepYamlFile(const std::string& path) {
    auto text = readFile(path);
    if (!text) return text.error();
    return readSweepYaml(*text, path);
}

Result<SweepInputs> loadSweepInputs(const SweepSpec& spec) {
    SweepInputs in;
    for (const auto& e : spec.networks) {
        auto net = findBundled(BundledKind::network, e.name) ? loadBundledNetwork(e.name)
                                                             : resolveNetwork(pathOf(spec, e.name));
        if (!net) return at(spec, e, net.error());
        in.networks.push_back(std::move(*net));
    }
    for (const auto& e : spec.hardware) {
        auto hw = findBundled(BundledKind::hardware, e.name)
                      ? loadBundledHardware(e.name)
                      : loadHardwareYamlFile(pathOf(spec, e.name));
        if (!hw) return at(spec, e, hw.error());
        in.hardware.push_back(std::move(*hw));
    }
    return in;
}

} // namespace lf
