#include "io/onnx_report.h"

#include "network/dims.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace lf {

namespace {

constexpr OnnxNodeFate kFates[] = {OnnxNodeFate::layer,    OnnxNodeFate::folded,
                                   OnnxNodeFate::layout,   OnnxNodeFate::padding,
                                   OnnxNodeFate::constant, OnnxNodeFate::opaque};

std::map<std::string, int> layerKinds(const Network& net) {
    std::map<std::string, int> m;
    for (const Layer& l : net.layers())
        if (l.type != LayerType::input)
            ++m[l.type == LayerType::reorg ? l.op_type : std::string(toString(l.type))];
    return m;
}

int64_t totalMacs(const Network& net) {
    int64_t macs = 0;
    for (LayerId id : net.computeIds())
        macs += layerMacs(layerDims(net, id));
    return macs;
}

// "Relu 20, Clip 12 (relu6)" for the nodes of one fate.
std::string grouped(const OnnxImportReport& r, OnnxNodeFate fate) {
    std::map<std::string, std::pair<int, std::set<std::string>>> by;
    for (const auto& n : r.nodes)
        if (n.fate == fate) {
            auto& e = by[n.op_type];
            ++e.first;
            if (!n.detail.empty() && n.detail != n.op_type && e.second.size() < 4)
                e.second.insert(n.detail);
        }
    std::string s;
    for (const auto& [op, e] : by) {
        s += s.empty() ? "" : ", ";
        s += op + " " + std::to_string(e.first);
        if (e.second.empty()) continue;
        s += " (";
        bool firstDetail = true;
        for (const auto& d : e.second) {
            s += (firstDetail ? "" : "; ") + d;
            firstDetail = false;
        }
        s += ")";
    }
    return s.empty() ? "none" : s;
}

} // namespace

OnnxReportSummary summarize(const OnnxImportReport& report) {
    OnnxReportSummary s;
    for (const auto& n : report.nodes) {
        ++s.nodes;
        ++s.per_fate[size_t(n.fate)];
    }
    return s;
}

std::string onnxReportText(const OnnxImportReport& report, const std::string& file,
                           const Network* net) {
    const OnnxReportSummary sum = summarize(report);
    std::string s = "Import report for " + file + "\n";
    s += "  nodes: " + std::to_string(sum.nodes) + " (";
    for (size_t k = 0; k < std::size(kFates); ++k)
        s += (k ? ", " : "") + std::string(toString(kFates[k])) + " " +
             std::to_string(sum.per_fate[k]);
    s += ")\n";
    if (net) {
        s += "  network: " + std::to_string(net->size()) + " layers (";
        bool first = true;
        for (const auto& [kind, n] : layerKinds(*net)) {
            s += (first ? "" : ", ") + kind + " " + std::to_string(n);
            first = false;
        }
        s += "), " + std::to_string(totalMacs(*net)) + " MACs\n";
    }
    for (const auto& in : report.inputs)
        s += "  " + in + "\n";
    s += "  layers: " + grouped(report, OnnxNodeFate::layer) + "\n";
    s += "  folded into layers: " + grouped(report, OnnxNodeFate::folded) + "\n";
    s += "  layout only (NHWC views, flattening): " + grouped(report, OnnxNodeFate::layout) + "\n";
    s += "  padding merged into the next conv / pool: " + grouped(report, OnnxNodeFate::padding) +
         "\n";
    s += "  constants evaluated at import: " + grouped(report, OnnxNodeFate::constant) + "\n";
    s += "  opaque: " +
         (report.unsupported.empty() ? std::string("none")
                                     : std::to_string(report.unsupported.size())) +
         "\n";
    for (const auto& u : report.unsupported)
        s += "    " + u.op_type + " (node '" + u.node + "'" +
             (u.inputs.empty() ? "" : ", inputs " + u.inputs) + "): " + u.reason + "\n";
    for (const auto& w : report.warnings)
        s += "  warning: " + w + "\n";
    return s;
}

std::string onnxReportJson(const OnnxImportReport& report, const std::string& file,
                           const Network* net) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["file"] = file;
    const OnnxReportSummary sum = summarize(report);
    ordered_json counts = ordered_json::object();
    for (size_t k = 0; k < std::size(kFates); ++k)
        counts[std::string(toString(kFates[k]))] = sum.per_fate[k];
    j["nodes_total"] = sum.nodes;
    j["fates"] = counts;
    if (net) {
        j["network"] = net->name();
        j["layers_total"] = net->size();
        ordered_json kinds = ordered_json::object();
        for (const auto& [kind, n] : layerKinds(*net))
            kinds[kind] = n;
        j["layer_kinds"] = kinds;
        j["macs"] = totalMacs(*net);
    }
    j["inputs"] = report.inputs;
    ordered_json nodes = ordered_json::array();
    for (const auto& n : report.nodes) {
        ordered_json e;
        e["node"] = n.node;
        e["op"] = n.op_type;
        e["fate"] = std::string(toString(n.fate));
        if (!n.layer.empty()) e["layer"] = n.layer;
        if (!n.detail.empty()) e["detail"] = n.detail;
        nodes.push_back(std::move(e));
    }
    j["nodes"] = std::move(nodes);
    ordered_json un = ordered_json::array();
    for (const auto& u : report.unsupported)
        un.push_back(
            {{"op", u.op_type}, {"node", u.node}, {"inputs", u.inputs}, {"reason", u.reason}});
    j["unsupported"] = std::move(un);
    j["warnings"] = report.warnings;
    // Node names come from the file: replace invalid UTF-8 rather than throw.
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace lf
