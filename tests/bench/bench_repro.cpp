// Reproducing the five papers (core/repro, `layerfuse-cli reproduce all`): the time of each
// paper's rows and plots and of all five together (target: under 60 s on the 2-core
// development machine). Plots are data here; drawing them is the views library's job.
#include "repro/repro.h"

#include <benchmark/benchmark.h>

using namespace lf::repro;

namespace {

void reproducePapers(benchmark::State& st, std::vector<Paper> papers) {
    size_t rows = 0, plots = 0;
    for (auto _ : st) {
        const auto reports = reproduce(papers);
        rows = plots = 0;
        for (const auto& r : reports) {
            rows += r.rows.size();
            plots += r.plots.size();
        }
    }
    st.counters["rows"] = double(rows);
    st.counters["plots"] = double(plots);
}

void BM_ReproduceAll(benchmark::State& st) {
    reproducePapers(st, {kAllPapers.begin(), kAllPapers.end()});
}
void BM_ReproducePaper(benchmark::State& st) {
    const Paper p = kAllPapers[size_t(st.range(0))];
    st.SetLabel(paperName(p));
    reproducePapers(st, {p});
}

} // namespace

BENCHMARK(BM_ReproduceAll)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();
BENCHMARK(BM_ReproducePaper)
    ->DenseRange(0, 4)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();

BENCHMARK_MAIN();
