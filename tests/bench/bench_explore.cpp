// Benchmarks of the network exploration as `layerfuse-cli explore` runs it (issue 18), medians:
//  - the whole command without argument parsing — explore(), then every front point's row
//    (search/front_rows.h) streamed as CSV to a discarding stream — on VGG16 (depth 4) and
//    DMCNN-VD at full HD (depths 3 and 4), divisor tiles, with 1 and 2 threads side by side;
//  - the exploration before this version (tests/support/reference_explore: one thread, an
//    archive per demand, every pair formed) next to the current one, one thread each;
//  - the CSV of DMCNN-VD's 216,877-point front (depth 2), and the previous way of making a
//    row — a schedule and an evaluate() per point — on its first 2,000 points;
// with the process's CPU time and peak memory (getrusage) as counters.
#include "reference_explore.h"

#include "bench_inputs.h"
#include "examples/bundled.h"
#include "models/evaluate.h"
#include "search/front_csv.h"
#include "search/front_rows.h"
#include "search/pareto.h"
#include "search/work_pool.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>
#include <ostream>
#include <stdexcept>
#include <streambuf>

using namespace lf;
using lf::bench::hardware;
using lf::bench::load;

namespace {

double peakMegabytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

// Counts the bytes written and drops them.
class NullBuffer : public std::streambuf {
  public:
    int64_t bytes = 0;

  protected:
    std::streamsize xsputn(const char*, std::streamsize n) override {
        bytes += n;
        return n;
    }
    int overflow(int c) override {
        ++bytes;
        return c;
    }
};

struct Case {
    const char* net;
    int depth;
};
constexpr Case kCases[] = {{"vgg16", 4}, {"dmcnn-vd", 3}, {"dmcnn-vd", 4}};

// explore + CSV of every point, as the CLI without parsing; args: case, threads.
void BM_ExploreCommand(benchmark::State& st) {
    const Case& c = kCases[st.range(0)];
    const int threads = int(st.range(1));
    const Network net = load(c.net);
    const Hardware hw = hardware();
    ExploreOptions opt;
    opt.max_depth = c.depth;
    opt.threads = threads;
    size_t points = 0;
    int64_t bytes = 0;
    for (auto _ : st) {
        const ExploreResult r = explore(net, hw, opt);
        WorkPool pool(threads);
        std::vector<size_t> all(r.front.size());
        for (size_t k = 0; k < all.size(); ++k)
            all[k] = k;
        FrontRows rows(net, hw, r);
        NullBuffer sink;
        std::ostream out(&sink);
        writeFrontCsv(out, rows, all, &pool);
        points = r.front.size();
        bytes = sink.bytes;
    }
    st.SetLabel(std::string(c.net) + " depth " + std::to_string(c.depth) + ", " +
                std::to_string(threads) + (threads == 1 ? " thread" : " threads"));
    st.counters["front_points"] = double(points);
    st.counters["csv_bytes"] = double(bytes);
    st.counters["peak_MB"] = peakMegabytes();
}
BENCHMARK(BM_ExploreCommand)
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Args({2, 2})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->UseRealTime()
    ->ReportAggregatesOnly(true);

// The exploration before and now, one thread, the same options; args: case (0: VGG16 depth 3,
// 1: DMCNN-VD depth 2), version (0: before, 1: now).
void BM_ExploreBeforeAndNow(benchmark::State& st) {
    const Case c = st.range(0) == 0 ? Case{"vgg16", 3} : Case{"dmcnn-vd", 2};
    const bool now = st.range(1) == 1;
    const Network net = load(c.net);
    const Hardware hw = hardware();
    ExploreOptions opt;
    opt.max_depth = c.depth;
    opt.threads = 1;
    size_t points = 0;
    for (auto _ : st)
        points =
            now ? explore(net, hw, opt).front.size() : test::referenceExplore(net, hw, opt).size();
    st.SetLabel(std::string(c.net) + " depth " + std::to_string(c.depth) +
                (now ? ", now" : ", before"));
    st.counters["front_points"] = double(points);
}
BENCHMARK(BM_ExploreBeforeAndNow)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->ReportAggregatesOnly(true);

// The CSV of a 216,877-point front: rows and text, 1 or 2 threads (arg).
void BM_FrontCsv(benchmark::State& st) {
    const Network net = load("dmcnn-vd");
    const Hardware hw = hardware();
    ExploreOptions opt;
    opt.max_depth = 2;
    const ExploreResult r = explore(net, hw, opt);
    std::vector<size_t> all(r.front.size());
    for (size_t k = 0; k < all.size(); ++k)
        all[k] = k;
    WorkPool pool(int(st.range(0)));
    for (auto _ : st) {
        FrontRows rows(net, hw, r);
        NullBuffer sink;
        std::ostream out(&sink);
        writeFrontCsv(out, rows, all, &pool);
    }
    st.SetLabel(std::to_string(r.front.size()) + " points, " + std::to_string(st.range(0)) +
                (st.range(0) == 1 ? " thread" : " threads"));
    st.counters["front_points"] = double(r.front.size());
}
BENCHMARK(BM_FrontCsv)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(5)
    ->UseRealTime()
    ->ReportAggregatesOnly(true);

// The previous row: the point's schedule and evaluate(), per point (the first 2,000 points of
// the same front); the counter gives the time per point.
void BM_FrontRowBySchedule(benchmark::State& st) {
    const Network net = load("dmcnn-vd");
    const Hardware hw = hardware();
    ExploreOptions opt;
    opt.max_depth = 2;
    const ExploreResult r = explore(net, hw, opt);
    const size_t n = std::min<size_t>(2000, r.front.size());
    double sink = 0;
    for (auto _ : st)
        for (size_t k = 0; k < n; ++k)
            sink += evaluate(net, hw, r.schedule(net, hw, k)).totals.energy.total();
    benchmark::DoNotOptimize(sink);
    st.SetItemsProcessed(int64_t(n) * st.iterations());
    st.counters["front_points"] = double(r.front.size());
}
BENCHMARK(BM_FrontRowBySchedule)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->UseRealTime()
    ->ReportAggregatesOnly(true);

} // namespace

BENCHMARK_MAIN();
