#include "teaching/lesson.h"

#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "io/schedule_yaml.h"
#include "io/yaml_support.h"
#include "util/format.h"

#include <algorithm>
#include <cmath>

namespace lf {

using namespace yamlio;

const std::vector<std::string>& lessonMetricNames() {
    static const std::vector<std::string> names = {
        "dram_accesses",  "dram_input",     "dram_weight",
        "dram_output",    "dram_psum",      "dram_bytes",
        "buffer_bytes",   "buffer_x",       "buffer_y",
        "buffer_w",       "macs",           "recompute_macs",
        "latency_cycles", "compute_cycles", "memory_cycles",
        "energy_pj",      "utilization",    "fits"};
    return names;
}

namespace {

LessonTarget::Op parseOp(const YAML::Node& n) {
    const std::string s = toString(n, "op");
    if (s == "<=") return LessonTarget::Op::le;
    if (s == "<") return LessonTarget::Op::lt;
    if (s == ">=") return LessonTarget::Op::ge;
    if (s == ">") return LessonTarget::Op::gt;
    if (s == "==") return LessonTarget::Op::eq;
    fail(n, "op must be one of <=, <, >=, >, ==; got " + quoteValue(s));
}

} // namespace

Result<Lesson> readLessonYaml(std::string_view text, const std::string& file) {
    auto doc = parse(text, file);
    if (!doc) return doc.error();
    const YAML::Node root = *doc;
    try {
        checkFormat(root, "lesson", 1);
        checkKeys(root, {"format", "name", "title", "network", "hardware", "task", "hints",
                         "targets", "start", "solution"});
        Lesson l;
        l.name = toString(req(root, "name"), "name");
        l.title = toString(req(root, "title"), "title");
        l.task = toString(req(root, "task"), "task");
        if (const YAML::Node h = root["hints"]) {
            requireSeq(h, "hints");
            for (const auto& x : h)
                l.hints.push_back(toString(x, "hint"));
        }
        // A bundled name, or the whole document inline (a lesson saved from the studio on a
        // network or hardware of one's own).
        const YAML::Node netNode = req(root, "network");
        if (netNode.IsMap()) {
            auto net = buildNetwork(readNetworkSpecNode(netNode, file));
            if (!net)
                throw YamlInputError({net.error().line, net.error().column}, net.error().message);
            l.network = *net;
        } else {
            l.network_ref = toString(netNode, "network");
            auto net = loadBundledNetwork(l.network_ref);
            if (!net) fail(netNode, net.error().message);
            l.network = *net;
        }
        const YAML::Node hwNode = req(root, "hardware");
        if (hwNode.IsMap()) {
            l.hardware = readHardwareNode(hwNode);
        } else {
            l.hardware_ref = toString(hwNode, "hardware");
            auto hw = loadBundledHardware(l.hardware_ref);
            if (!hw) fail(hwNode, hw.error().message);
            l.hardware = *hw;
        }
        ScheduleReadOptions ro;
        ro.check_hash = true;
        ro.refuse_violations = true;
        auto body = [&](const char* key) {
            const YAML::Node n = root[key];
            if (!n)
                return readScheduleNode(YAML::Node(YAML::NodeType::Map), l.network, l.hardware, ro,
                                        nullptr);
            requireMap(n, key);
            checkKeys(n, {"groups", "layers"});
            return readScheduleNode(n, l.network, l.hardware, ro, nullptr);
        };
        l.start = body("start");
        l.solution = body("solution");
        const YAML::Node targets = req(root, "targets");
        requireSeq(targets, "targets");
        if (targets.size() == 0) fail(targets, "a lesson needs at least one target");
        for (const auto& t : targets) {
            requireMap(t, "a target");
            checkKeys(t, {"metric", "scope", "op", "value", "label"});
            LessonTarget lt;
            const YAML::Node m = req(t, "metric");
            lt.metric = toString(m, "metric");
            const auto& names = lessonMetricNames();
            if (std::find(names.begin(), names.end(), lt.metric) == names.end())
                fail(m, "unknown metric " + quoteValue(lt.metric));
            lt.scope = getString(t, "scope", "totals");
            if (lt.scope != "totals") {
                const auto colon = lt.scope.find(':');
                const std::string kind = lt.scope.substr(0, colon);
                if (colon == std::string::npos || (kind != "layer" && kind != "group"))
                    fail(t["scope"], "scope must be totals, layer:<name> or group:<layer name>");
                const std::string layer = lt.scope.substr(colon + 1);
                if (l.network.find(layer) == kNoLayer)
                    fail(t["scope"], "no layer named " + quoteValue(layer));
            }
            lt.op = t["op"] ? parseOp(t["op"]) : LessonTarget::Op::le;
            lt.value = toDouble(req(t, "value"), "value", -1e300, 1e300);
            lt.label = getString(t, "label", lt.metric + " of " + lt.scope);
            l.targets.push_back(std::move(lt));
        }
        return l;
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    } catch (const YAML::Exception& e) {
        return yamlError(file, e);
    }
}

namespace {

bool metricOf(const std::string& metric, const Traffic& dram, int64_t dramBytes, int64_t buffer,
              int64_t macs, int64_t recompute, int64_t latency, int64_t compute, int64_t memory,
              double energy, double util, bool fits, double& out) {
    if (metric == "dram_accesses")
        out = double(dram.total());
    else if (metric == "dram_input")
        out = double(dram.input);
    else if (metric == "dram_weight")
        out = double(dram.weight);
    else if (metric == "dram_output")
        out = double(dram.output);
    else if (metric == "dram_psum")
        out = double(dram.psum);
    else if (metric == "dram_bytes")
        out = double(dramBytes);
    else if (metric == "buffer_bytes")
        out = double(buffer);
    else if (metric == "macs")
        out = double(macs);
    else if (metric == "recompute_macs")
        out = double(recompute);
    else if (metric == "latency_cycles")
        out = double(latency);
    else if (metric == "compute_cycles")
        out = double(compute);
    else if (metric == "memory_cycles")
        out = double(memory);
    else if (metric == "energy_pj")
        out = energy;
    else if (metric == "utilization")
        out = util;
    else if (metric == "fits")
        out = fits ? 1 : 0;
    else
        return false;
    return true;
}

} // namespace

LessonStatus checkLesson(const Lesson& lesson, const Network& net, const Schedule& sched,
                         const Metrics& m) {
    LessonStatus st;
    st.met = true;
    for (const LessonTarget& t : lesson.targets) {
        TargetStatus ts;
        ts.target = t;
        bool ok = false;
        if (t.scope == "totals") {
            const Totals& x = m.totals;
            ok = metricOf(t.metric, x.dram, x.dram_bytes, x.buffer_peak_bytes, x.macs,
                          x.recompute_macs, x.latency_cycles, x.compute_cycles, x.memory_cycles,
                          x.energy.total(), x.utilization, x.fits, ts.actual);
        } else {
            const auto colon = t.scope.find(':');
            const std::string kind = t.scope.substr(0, colon);
            const LayerId id = net.find(t.scope.substr(colon + 1));
            if (kind == "layer" && id != kNoLayer) {
                if (const LayerMetrics* lm = m.layer(id)) {
                    if (t.metric == "buffer_x")
                        ts.actual = double(lm->buf_x), ok = true;
                    else if (t.metric == "buffer_y")
                        ts.actual = double(lm->buf_y), ok = true;
                    else if (t.metric == "buffer_w")
                        ts.actual = double(lm->buf_w), ok = true;
                    else
                        ok = metricOf(t.metric, lm->dram, 0, lm->buf_x + lm->buf_y + lm->buf_w,
                                      lm->macs, lm->recompute_macs,
                                      lm->compute_cycles + lm->memory_cycles, lm->compute_cycles,
                                      lm->memory_cycles, lm->energy.total(), lm->utilization, true,
                                      ts.actual);
                }
            } else if (kind == "group" && id != kNoLayer) {
                const int gi = sched.groupOf(id);
                if (gi >= 0 && size_t(gi) < m.groups.size()) {
                    const GroupMetrics& g = m.groups[size_t(gi)];
                    ok = metricOf(t.metric, g.dram, g.dram_bytes, g.buffer_bytes, g.macs,
                                  g.recompute_macs, g.latency_cycles, g.compute_cycles,
                                  g.memory_cycles, g.energy.total(), g.utilization, g.fits,
                                  ts.actual);
                }
            }
        }
        ts.found = ok;
        if (ok) {
            const double a = ts.actual, v = t.value;
            switch (t.op) {
            case LessonTarget::Op::le:
                ts.met = a <= v;
                break;
            case LessonTarget::Op::lt:
                ts.met = a < v;
                break;
            case LessonTarget::Op::ge:
                ts.met = a >= v;
                break;
            case LessonTarget::Op::gt:
                ts.met = a > v;
                break;
            case LessonTarget::Op::eq:
                ts.met = std::fabs(a - v) <= 1e-9 * std::max(1.0, std::fabs(v));
                break;
            }
        }
        st.met = st.met && ts.met;
        st.targets.push_back(std::move(ts));
    }
    return st;
}

} // namespace lf
