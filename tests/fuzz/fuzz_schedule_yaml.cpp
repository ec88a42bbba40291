// libFuzzer target: the schedule YAML reader (io/schedule_yaml.h) for L2Net and ResNet-18 on
// their presets, then the evaluation of what it read. A schedule that loads evaluates to
// figures that are never negative.
#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "models/evaluate.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

struct Target {
    lf::Network net;
    lf::Hardware hw;
};

const Target& target(size_t k) {
    static const Target targets[] = {
        {*lf::loadBundledNetwork("l2net"), *lf::loadBundledHardware("hwff-config-1")},
        {*lf::loadBundledNetwork("resnet18"), *lf::loadBundledHardware("optimus-default")}};
    return targets[k % 2];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const Target& t = target(data[0]);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    lf::ScheduleReadOptions ro;
    ro.check_hash = (data[0] & 2) == 0;
    const auto sf = lf::readScheduleYaml(text, "fuzz.sched.yaml", t.net, t.hw, ro);
    if (!sf) {
        if (sf.error().message.empty()) std::abort();
        return 0;
    }
    const lf::Hardware& hw = sf->hardware ? *sf->hardware : t.hw;
    const lf::Metrics m = lf::evaluate(t.net, hw, sf->schedule);
    if (m.totals.macs < 0 || m.totals.dram_accesses < 0 || m.totals.latency_cycles < 0 ||
        !(m.totals.energy.total() >= 0))
        std::abort();
    return 0;
}
