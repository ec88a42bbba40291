#include "search/search_report.h"

#include "util/format.h"

#include <sys/resource.h>

#include <algorithm>

namespace lf {

namespace {

std::string count(int64_t n) {
    return n == std::numeric_limits<int64_t>::max() ? std::string("more than 9.2e18")
                                                    : std::to_string(n);
}

} // namespace

int64_t peakResidentBytes() {
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
    return int64_t(u.ru_maxrss) * 1024; // kilobytes on Linux
}

nlohmann::ordered_json optimusReportJson(const Network& net, const OptimusFuserOptions& opt,
                                         const OptimusFuserResult& r) {
    nlohmann::ordered_json j;
    j["method"] = "optimus";
    j["network"] = net.name();
    j["seconds"] = r.seconds;
    j["operators"] = r.operators;
    j["groups_evaluated"] = r.groups_evaluated;
    j["groups_deferred"] = r.groups_deferred;
    j["deferred_costed"] = r.deferred_costed;
    j["groups_inherited"] = r.groups_inherited;
    j["costed_from_records"] = r.costed_from_records;
    j["groups_in_scheme"] = r.groups.size();
    j["largest_vertex_share"] = r.largest_vertex_share;
    j["subproblems"] = r.subproblems;
    j["dp_steps"] = r.dp_steps;
    j["complete"] = r.complete;
    nlohmann::ordered_json b;
    b["memory_budget_bytes"] = opt.memory_budget_bytes;
    b["max_groups"] = r.max_groups;
    b["max_groups_per_vertex"] = opt.max_groups_per_vertex;
    b["max_subproblems"] = r.max_subproblems;
    b["max_dp_steps"] = opt.max_dp_steps;
    j["bounds"] = std::move(b);
    nlohmann::ordered_json n;
    nlohmann::ordered_json limited = nlohmann::ordered_json::array();
    for (const OptimusVertexLimit& l : r.limited_vertices)
        limited.push_back({{"layer", net.layer(l.vertex).name},
                           {"max_group_size", l.max_size},
                           {"larger_groups_not_formed_at_least", l.not_formed}});
    n["limited_vertices"] = std::move(limited);
    n["groups_not_formed_at_least"] = r.groups_not_formed;
    n["subproblems_unsearched"] = r.subproblems_unsearched;
    j["not_explored"] = std::move(n);
    j["peak_resident_bytes"] = peakResidentBytes();
    return j;
}

nlohmann::ordered_json dseReportJson(const DseOptimizeOptions& opt, const DseOptimizeResult& r) {
    nlohmann::ordered_json j;
    j["method"] = "dse";
    j["seconds"] = r.seconds;
    j["max_depth"] = opt.max_depth;
    j["depth_searched"] = r.depth_searched;
    j["segments"] = r.segments;
    j["distinct_segments"] = r.distinct_segments;
    j["evaluations"] = r.evaluations;
    j["fits"] = r.fits;
    j["complete"] = r.complete();
    j["bounds"] = {{"evaluation_budget", opt.evaluation_budget}};
    j["not_explored"] = {{"segments_not_searched", r.segments_not_searched}};
    j["peak_resident_bytes"] = peakResidentBytes();
    return j;
}

std::string optimusNotExplored(const Network& net, const OptimusFuserResult& r) {
    if (r.complete) return {};
    std::string s = "not explored:";
    if (!r.limited_vertices.empty()) {
        // The widest fan-out of those limited, as the example.
        const OptimusVertexLimit& first = *std::max_element(
            r.limited_vertices.begin(), r.limited_vertices.end(),
            [&](const OptimusVertexLimit& a, const OptimusVertexLimit& b) {
                return net.successors(a.vertex).size() < net.successors(b.vertex).size();
            });
        s += " groups limited in size at " + std::to_string(r.limited_vertices.size()) +
             " fan-out layer(s) (e.g. at most " + std::to_string(first.max_size) + " layers at " +
             quoteValue(net.layer(first.vertex).name) + "), at least " +
             count(r.groups_not_formed) + " larger groups not formed";
    }
    if (r.subproblems_unsearched > 0) {
        if (!r.limited_vertices.empty()) s += ";";
        s += " " + std::to_string(r.subproblems_unsearched) +
             " sub-problems past the DP's bounds left unfused";
    }
    return s;
}

std::string dseNotExplored(const DseOptimizeOptions& opt, const DseOptimizeResult& r) {
    if (r.complete()) return {};
    return "not explored: " + std::to_string(r.segments_not_searched) + " segments of " +
           std::to_string(r.depth_searched + 1) + " to " + std::to_string(opt.max_depth) +
           " layers (past the budget of " + std::to_string(opt.evaluation_budget) + " evaluations)";
}

} // namespace lf
