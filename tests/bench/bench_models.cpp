// Benchmarks of the embedded models (issue 3): full evaluate of ResNet-50 and of a
// 1,000-layer chain with the default schedule, re-evaluation after one group edit, and
// single-layer closed-form evaluations per second (the inner loop of every search).
#include "bench_inputs.h"
#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "models/convfusion.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "synthetic_networks.h"

#include <benchmark/benchmark.h>

#include <stdexcept>
#include <string>

using namespace lf;
using lf::bench::hardware;
using lf::bench::load;

namespace {

Network chain(int n) {
    auto r = readNetworkYaml(test::chainYaml(n), "chain");
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

void BM_EvaluateResNet50(benchmark::State& st) {
    const Network net = load("resnet50");
    const Hardware hw = hardware();
    const Schedule s = defaultSchedule(net, hw);
    evaluate(net, hw, s); // warm the process-wide RF-level cache once
    for (auto _ : st)
        benchmark::DoNotOptimize(evaluate(net, hw, s));
}
BENCHMARK(BM_EvaluateResNet50)->Unit(benchmark::kMillisecond);

void BM_DefaultScheduleAndEvaluateResNet50(benchmark::State& st) {
    const Network net = load("resnet50");
    const Hardware hw = hardware();
    for (auto _ : st)
        benchmark::DoNotOptimize(evaluate(net, hw, defaultSchedule(net, hw)));
}
BENCHMARK(BM_DefaultScheduleAndEvaluateResNet50)->Unit(benchmark::kMillisecond);

void BM_EvaluateChain1000(benchmark::State& st) {
    const Network net = chain(1000);
    const Hardware hw = hardware();
    const Schedule s = defaultSchedule(net, hw);
    evaluate(net, hw, s);
    for (auto _ : st)
        benchmark::DoNotOptimize(evaluate(net, hw, s));
}
BENCHMARK(BM_EvaluateChain1000)->Unit(benchmark::kMillisecond);

void BM_ReevaluateOneGroupResNet50(benchmark::State& st) {
    const Network net = load("resnet50");
    const Hardware hw = hardware();
    Schedule s = defaultSchedule(net, hw);
    IncrementalEvaluator inc;
    inc.evaluate(net, hw, s);
    const LayerId id = net.computeIds()[10];
    const int64_t base = s.layers[size_t(id)].T(Dim::x);
    int64_t k = 0;
    for (auto _ : st) {
        // Alternate between many tile values so every iteration is a cache miss.
        s.layers[size_t(id)].tile[size_t(Dim::x)] = 1 + (base + ++k) % base;
        benchmark::DoNotOptimize(inc.evaluate(net, hw, s));
        if (inc.lastRecomputedGroups() > 1) st.SkipWithError("more than one group recomputed");
    }
}
BENCHMARK(BM_ReevaluateOneGroupResNet50)->Unit(benchmark::kMicrosecond);

void BM_ClosedFormSingleLayer(benchmark::State& st) {
    const Network net = load("resnet50");
    const LayerDims d = layerDims(net, net.find("layer2.0.conv2"));
    LayerSchedule s;
    s.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    s.store = {Level::l2, Level::l2, Level::tile};
    s.compute = {Level::l3, Level::l2, Level::tile};
    int64_t k = 0;
    for (auto _ : st) {
        s.tile = {1 + (k & 63), 1 + ((k >> 6) & 15), 1 + ((k >> 10) & 15), 1 + ((k >> 3) & 63)};
        ++k;
        benchmark::DoNotOptimize(convFusionLayer(d, s, false));
    }
    st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_ClosedFormSingleLayer);

} // namespace

BENCHMARK_MAIN();
