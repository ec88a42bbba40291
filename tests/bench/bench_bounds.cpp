// Benchmarks of the bounded searches (issue 17; docs/model-notes.md "Optimus DP bounds",
// "Bounded DSE"): the Optimus DP on one conv feeding 30 1×1 convs joined by a concat and on a
// generated 2,026-layer DAG of 173 inception-like modules (fan-out ≤ 9), and `optimize
// --method dse` on a 5,000-layer chain. Each reports what the bounds left out and the peak
// resident memory of the process so far (the benchmarks run in this order, smallest first).
#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "search/dse_optimize.h"
#include "search/optimus_fuser.h"
#include "search/search_report.h"
#include "synthetic_networks.h"

#include <benchmark/benchmark.h>

#include <stdexcept>

using namespace lf;

namespace {

Network fromYaml(const std::string& yaml) {
    auto r = readNetworkYaml(yaml, "generated");
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

Hardware hardware(const char* name) {
    auto r = loadBundledHardware(name);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

void optimusBounded(benchmark::State& st, const Network& net, const Hardware& hw) {
    OptimusFuserResult r;
    for (auto _ : st) {
        r = optimusFuse(net, hw, {});
        st.SetIterationTime(r.seconds);
    }
    st.counters["layers"] = double(net.size());
    st.counters["groups_evaluated"] = double(r.groups_evaluated);
    st.counters["limited_layers"] = double(r.limited_vertices.size());
    st.counters["subproblems"] = double(r.subproblems);
    st.counters["subproblems_unsearched"] = double(r.subproblems_unsearched);
    st.counters["complete"] = r.complete;
    st.counters["peak_rss_mb"] = double(peakResidentBytes()) / double(1 << 20);
}

void BM_OptimusDpFanOut30(benchmark::State& st) {
    optimusBounded(st, fromYaml(test::fanOutNetworkYaml(30)), hardware("optimus-default"));
}
void BM_OptimusDpInception2000(benchmark::State& st) {
    optimusBounded(st, fromYaml(test::inceptionDagYaml(173)), hardware("hwff-config-1"));
}
BENCHMARK(BM_OptimusDpFanOut30)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_OptimusDpInception2000)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

void BM_OptimizeDseChain5000(benchmark::State& st) {
    const Network net = fromYaml(test::chainYaml(5000));
    const Hardware hw = hardware(kDefaultHardware.data());
    DseOptimizeResult r;
    for (auto _ : st) {
        r = optimizeByExploration(net, hw, {});
        st.SetIterationTime(r.seconds);
    }
    st.counters["depth_searched"] = r.depth_searched;
    st.counters["distinct_segments"] = double(r.distinct_segments);
    st.counters["evaluations"] = double(r.evaluations);
    st.counters["complete"] = r.complete();
    st.counters["peak_rss_mb"] = double(peakResidentBytes()) / double(1 << 20);
}
BENCHMARK(BM_OptimizeDseChain5000)
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

} // namespace

BENCHMARK_MAIN();
