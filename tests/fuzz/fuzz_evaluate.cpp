// libFuzzer target: read → default schedule → evaluate (and the Optimus DP on small
// networks) on arbitrary network YAML, on the hardware the first byte picks. Whatever loads
// gives figures that are never negative or NaN, within the DP's bounds.
#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "models/evaluate.h"
#include "search/optimus_fuser.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

const lf::Hardware& hardware(uint8_t pick) {
    static const lf::Hardware presets[] = {
        *lf::loadBundledHardware("hwff-config-1"), *lf::loadBundledHardware("optimus-default"),
        *lf::loadBundledHardware("tso-nmp"), *lf::loadBundledHardware("convfusion-40nm-banked")};
    return presets[pick % 4];
}

void check(const lf::Metrics& m) {
    const lf::Totals& t = m.totals;
    if (t.macs < 0 || t.dram_accesses < 0 || t.dram_bytes < 0 || t.buffer_peak_bytes < 0 ||
        t.latency_cycles < 0 || !std::isfinite(t.energy.total()) || t.energy.total() < 0 ||
        !std::isfinite(t.utilization) || t.utilization < 0)
        std::abort();
    for (const lf::GroupMetrics& g : m.groups)
        if (g.macs < 0 || g.dram.total() < 0 || g.buffer_bytes < 0 || g.latency_cycles < 0)
            std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const lf::Hardware& hw = hardware(data[0]);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const auto net = lf::readNetworkYaml(text, "fuzz.net.yaml");
    if (!net) return 0;
    check(lf::evaluate(*net, hw, lf::defaultSchedule(*net, hw)));
    if (net->size() <= 40 && (data[0] & 4)) {
        lf::OptimusFuserOptions opt;
        opt.memory_budget_bytes = 64 << 20;
        opt.max_groups_per_vertex = 1024;
        const lf::OptimusFuserResult r = lf::optimusFuse(*net, hw, opt);
        if (!(r.cost >= 0)) std::abort();
        check(lf::evaluate(*net, hw, r.schedule));
    }
    return 0;
}
