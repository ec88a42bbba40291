#include "teaching/lesson_writer.h"

#include "bundled/bundled_files.h"
#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "io/schedule_yaml.h"
#include "io/yaml_support.h"
#include "metrics/units.h"
#include "models/evaluate.h"

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace lf {

using namespace yamlio;

namespace {

const char* opText(LessonTarget::Op op) {
    switch (op) {
    case LessonTarget::Op::le:
        return "<=";
    case LessonTarget::Op::lt:
        return "<";
    case LessonTarget::Op::ge:
        return ">=";
    case LessonTarget::Op::gt:
        return ">";
    case LessonTarget::Op::eq:
        return "==";
    }
    return "<=";
}

void emitBody(YAML::Emitter& out, const char* key, const Lesson& l, const Schedule& s) {
    out << YAML::Key << key << YAML::Value << YAML::BeginMap;
    ScheduleWriteOptions opt;
    opt.all_layers = true; // the exact schedule, whatever the defaults become
    emitScheduleBody(out, l.network, l.hardware, s, opt);
    out << YAML::EndMap;
}

// The smallest number of 3 significant digits not below v: a target the solution meets.
double roundUp3(double v) {
    if (v <= 0) return v;
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 2);
    return std::ceil(v / scale - 1e-9) * scale;
}

} // namespace

std::string writeLessonYaml(const Lesson& l) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "format" << YAML::Value << "layerfuse/lesson@1";
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, l.name);
    out << YAML::Key << "title" << YAML::Value;
    emitString(out, l.title);
    out << YAML::Key << "network" << YAML::Value;
    if (!l.network_ref.empty()) {
        emitString(out, l.network_ref);
    } else {
        out << YAML::BeginMap;
        emitNetworkBody(out, l.network);
        out << YAML::EndMap;
    }
    out << YAML::Key << "hardware" << YAML::Value;
    if (!l.hardware_ref.empty()) {
        emitString(out, l.hardware_ref);
    } else {
        out << YAML::BeginMap;
        emitHardwareBody(out, l.hardware);
        out << YAML::EndMap;
    }
    out << YAML::Key << "task" << YAML::Value;
    if (!l.task.empty() && l.task.back() == '\n')
        out << YAML::Literal << l.task; // a literal block ends with its newline
    else
        emitString(out, l.task);
    if (!l.hints.empty()) {
        out << YAML::Key << "hints" << YAML::Value << YAML::BeginSeq;
        for (const std::string& h : l.hints)
            emitString(out, h);
        out << YAML::EndSeq;
    }
    out << YAML::Key << "targets" << YAML::Value << YAML::BeginSeq;
    for (const LessonTarget& t : l.targets) {
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "metric" << YAML::Value << t.metric;
        out << YAML::Key << "scope" << YAML::Value;
        emitString(out, t.scope);
        out << YAML::Key << "op" << YAML::Value << YAML::DoubleQuoted << opText(t.op);
        out << YAML::Key << "value" << YAML::Value;
        emitDouble(out, t.value);
        out << YAML::Key << "label" << YAML::Value;
        emitString(out, t.label);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    emitBody(out, "start", l, l.start);
    emitBody(out, "solution", l, l.solution);
    out << YAML::EndMap;
    return finish(out);
}

std::vector<LessonTarget> targetsMetBy(const Metrics& m) {
    std::vector<LessonTarget> t;
    const double dram = roundUp3(double(m.totals.dram_accesses));
    t.push_back({"dram_accesses", "totals", LessonTarget::Op::le, dram,
                 "DRAM accesses ≤ " + humanCount(dram)});
    const double buffer = roundUp3(double(m.totals.buffer_peak_bytes));
    t.push_back({"buffer_bytes", "totals", LessonTarget::Op::le, buffer,
                 "Buffer peak ≤ " + humanBytes(buffer)});
    const double latency = roundUp3(double(m.totals.latency_cycles));
    t.push_back({"latency_cycles", "totals", LessonTarget::Op::le, latency,
                 "Latency ≤ " + humanCount(latency) + " cycles"});
    if (m.totals.fits)
        t.push_back({"fits", "totals", LessonTarget::Op::eq, 1, "Every group fits the buffer"});
    return t;
}

Lesson lessonFromDocument(std::string name, std::string title, std::string task,
                          const Network& network, const Hardware& hardware,
                          const Schedule& solution, std::vector<LessonTarget> targets) {
    Lesson l;
    l.name = std::move(name);
    l.title = std::move(title);
    l.task = std::move(task);
    l.network = network;
    l.hardware = hardware;
    for (const BundledFile& f : bundledFiles()) {
        // A bundled network of the same name (parsed, cheap) is built and compared.
        if (f.kind == BundledKind::network && l.network_ref.empty())
            if (auto spec = parseNetworkSpec(f.text, bundledFileLabel(f));
                spec && spec->name == network.name())
                if (auto n = loadBundledNetwork(f.name);
                    n && n->canonicalHash() == network.canonicalHash())
                    l.network_ref = f.name;
        if (f.kind == BundledKind::hardware && l.hardware_ref.empty())
            if (auto h = loadBundledHardware(f.name); h && *h == hardware) l.hardware_ref = f.name;
    }
    l.start = defaultSchedule(network, hardware);
    l.solution = solution;
    l.targets = std::move(targets);
    return l;
}

} // namespace lf
