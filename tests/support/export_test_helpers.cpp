#include "export_test_helpers.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"

#include <stdexcept>

namespace lf::test {

const std::vector<const char*>& bundledNetworkNames() {
    static const std::vector<const char*> names = [] {
        std::vector<const char*> v;
        for (const BundledFile& f : bundledFiles())
            if (f.kind == BundledKind::network) v.push_back(f.name);
        return v;
    }();
    return names;
}

LayerId layerIdOf(const Network& net, const char* name) {
    const LayerId id = net.find(name);
    if (id == kNoLayer) throw std::runtime_error(net.name() + ": no layer " + name);
    return id;
}

HandDims handDims(const Network& net, LayerId id) {
    const Layer& l = net.layer(id);
    const Shape in = net.layer(l.inputs.front()).out;
    HandDims d{l.out.w, l.out.h, l.out.c, in.c, l.kernel_w, l.kernel_h, 1, l.stride_w, l.stride_h};
    switch (l.type) {
    case LayerType::conv:
        d.g = l.groups;
        break;
    case LayerType::fc:
    case LayerType::global_pool:
        d.fx = in.w; // the kernel spans the input
        d.fy = in.h;
        d.sx = d.sy = 1;
        break;
    default:
        break;
    }
    return d;
}

std::vector<std::string> yamlStrings(const YAML::Node& seq) {
    std::vector<std::string> v;
    for (const auto& e : seq)
        v.push_back(e.as<std::string>());
    return v;
}

Schedule workedExampleSchedule(const Network& net, const Hardware& hw) {
    const BundledFile* f = findBundled(BundledKind::schedule, "l2net-worked-example");
    if (!f) throw std::runtime_error("no bundled schedule l2net-worked-example");
    auto s = readScheduleYaml(f->text, f->path, net, hw);
    if (!s) throw std::runtime_error(s.error().toString());
    return s->schedule;
}

Schedule scheduleFromText(const std::string& text, const Network& net, const Hardware& hw) {
    auto s = readScheduleYaml(text, "test.sched.yaml", net, hw);
    if (!s) throw std::runtime_error(s.error().toString());
    return s->schedule;
}

} // namespace lf::test
