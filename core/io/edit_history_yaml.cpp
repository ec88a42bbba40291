#include "io/edit_history_yaml.h"

#include "io/hardware_yaml.h"
#include "io/schedule_yaml.h"
#include "io/yaml_support.h"

namespace lf {

using namespace yamlio;

namespace {

// Steps a history may hold: the studio keeps at most 1,000 undo steps.
constexpr int64_t kMaxSteps = 100'000;

// The schedule's groups, the layers whose schedule differs from `before` (all when null) and
// the names of its explicit layers.
void emitSchedule(YAML::Emitter& out, const Network& net, const Hardware& hw, const Schedule& s,
                  const Schedule* before) {
    Schedule written = s;
    for (LayerId id : net.computeIds()) {
        const size_t k = size_t(id);
        written.explicit_layer[k] =
            char(!before || k >= before->layers.size() || !(before->layers[k] == s.layers[k]));
    }
    out << YAML::BeginMap;
    emitScheduleBody(out, net, hw, written, {});
    out << YAML::Key << "explicit_layers" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (LayerId id : net.computeIds())
        if (size_t(id) < s.explicit_layer.size() && s.explicit_layer[size_t(id)])
            emitString(out, net.layer(id).name);
    out << YAML::EndSeq << YAML::EndMap;
}

// Reads what emitSchedule wrote: the layers it names replace those of `before` (when given).
Schedule readSchedule(const YAML::Node& n, const Network& net, const Hardware& hw,
                      const Schedule* before) {
    requireMap(n, "schedule");
    checkKeys(n, {"groups", "layers", "explicit_layers"});
    ScheduleReadOptions opt;
    opt.refuse_violations = false; // as saved projects: the studio flags rule breaks itself
    const Schedule read = readScheduleNode(n, net, hw, opt, nullptr);
    Schedule s = before ? *before : read;
    s.groups = read.groups;
    for (LayerId id : net.computeIds())
        if (read.explicit_layer[size_t(id)]) s.layers[size_t(id)] = read.layers[size_t(id)];
    std::fill(s.explicit_layer.begin(), s.explicit_layer.end(), char(0));
    const YAML::Node names = req(n, "explicit_layers");
    requireSeq(names, "explicit_layers");
    for (const auto& name : names) {
        const LayerId id = net.find(toString(name, "layer name"));
        if (id == kNoLayer) fail(name, "no layer named '" + name.Scalar() + "' in " + net.name());
        s.explicit_layer[size_t(id)] = 1;
    }
    return s;
}

void emitHardware(YAML::Emitter& out, const Hardware& hw) {
    out << YAML::BeginMap;
    emitHardwareBody(out, hw);
    out << YAML::EndMap;
}

Hardware readHardware(const YAML::Node& n) {
    requireMap(n, "hardware");
    return readHardwareNode(n);
}

} // namespace

std::pair<Hardware, Schedule> historyStateAt(const EditHistory& h, int count) {
    std::pair<Hardware, Schedule> state{h.base_hardware, h.base_schedule};
    for (int k = 0; k < count && size_t(k) < h.steps.size(); ++k) {
        if (h.steps[size_t(k)].hardware) state.first = *h.steps[size_t(k)].hardware;
        if (h.steps[size_t(k)].schedule) state.second = *h.steps[size_t(k)].schedule;
    }
    return state;
}

std::string writeEditHistoryYaml(const Network& net, const EditHistory& h) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "format" << YAML::Value << "layerfuse/history@1";
    out << YAML::Key << "network" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, net.name());
    out << YAML::Key << "sha256" << YAML::Value << net.canonicalHash() << YAML::EndMap;
    out << YAML::Key << "index" << YAML::Value << intText(h.index);
    out << YAML::Key << "clean" << YAML::Value << intText(h.clean);
    out << YAML::Key << "base" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "hardware" << YAML::Value;
    emitHardware(out, h.base_hardware);
    out << YAML::Key << "schedule" << YAML::Value;
    emitSchedule(out, net, h.base_hardware, h.base_schedule, nullptr);
    out << YAML::EndMap;
    out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
    const Hardware* hw = &h.base_hardware;
    const Schedule* schedule = &h.base_schedule;
    for (const EditStep& step : h.steps) {
        out << YAML::BeginMap << YAML::Key << "text" << YAML::Value;
        emitString(out, step.text);
        if (step.hardware) {
            hw = step.hardware.get();
            out << YAML::Key << "hardware" << YAML::Value;
            emitHardware(out, *hw);
        }
        if (step.schedule) {
            out << YAML::Key << "schedule" << YAML::Value;
            emitSchedule(out, net, *hw, *step.schedule, schedule);
            schedule = step.schedule.get();
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
    return finish(out);
}

Result<EditHistory> readEditHistoryYaml(std::string_view text, const std::string& file,
                                        const Network& net) {
    auto doc = parse(text, file);
    if (!doc) return doc.error();
    const YAML::Node root = *doc;
    try {
        checkFormat(root, "history", 1);
        checkKeys(root, {"format", "network", "index", "clean", "base", "steps"});
        const YAML::Node netNode = req(root, "network");
        requireMap(netNode, "network");
        const YAML::Node hash = req(netNode, "sha256");
        if (toString(hash, "sha256") != net.canonicalHash())
            fail(hash, "this history belongs to another network than " + net.name());
        EditHistory h;
        const YAML::Node base = req(root, "base");
        requireMap(base, "base");
        checkKeys(base, {"hardware", "schedule"});
        h.base_hardware = readHardware(req(base, "hardware"));
        h.base_schedule = readSchedule(req(base, "schedule"), net, h.base_hardware, nullptr);
        const YAML::Node steps = req(root, "steps");
        requireSeq(steps, "steps");
        if (int64_t(steps.size()) > kMaxSteps) fail(steps, "more edits than a history holds");
        auto hw = std::make_shared<const Hardware>(h.base_hardware);
        auto schedule = std::make_shared<const Schedule>(h.base_schedule);
        for (const auto& sn : steps) {
            requireMap(sn, "a step");
            checkKeys(sn, {"text", "hardware", "schedule"});
            EditStep step;
            step.text = toString(req(sn, "text"), "text");
            if (const YAML::Node hn = sn["hardware"])
                hw = step.hardware = std::make_shared<const Hardware>(readHardware(hn));
            if (const YAML::Node s = sn["schedule"])
                schedule = step.schedule =
                    std::make_shared<const Schedule>(readSchedule(s, net, *hw, schedule.get()));
            if (!step.hardware && !step.schedule)
                fail(sn, "a step changes the hardware or schedule");
            h.steps.push_back(std::move(step));
        }
        const int64_t count = int64_t(h.steps.size());
        h.index = int(getInt(root, "index", 0, 0, count));
        h.clean = int(getInt(root, "clean", -1, -1, count));
        return h;
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    } catch (const YAML::Exception& e) {
        return yamlError(file, e);
    }
}

} // namespace lf
