// Benchmarks of the automatic scheduling (issue 5), medians of repeated runs:
//  - Optimus DP fuser on VGG16, ResNet-50, ResNet-152, GoogLeNet, SqueezeNet 1.0 with the
//    paper's default accelerator (optimus-default, Optimus Table 2), groups evaluated and run
//    time next to Optimus Table 5 (bottom-up, i7-6700): 171/0.48, 3510/2.73, 24250/5.01,
//    50436/27.89, 1057/2.19 ms. `full` forms every candidate group as the paper counts them;
//    the default prunes groups that hold a hopeless part (same scheme, fewer groups).
//  - The same DP for GoogLeNet with every bundled hardware preset.
//  - The Optimus coster alone over every group the DP forms for GoogLeNet on the paper's
//    accelerator, the coster before its passes were fused (tests/support) next to the current
//    one.
//  - ConvFusion exploration: L3Net exhaustive (all tiles), VGG16 and ResNet-50 (depth ≤ 3,
//    divisor tiles), with layer evaluations per second over all threads.
//  - The single-layer evaluator's inner loop, one thread.
//  - TSO slicing of ResNet-50 on the NMP preset.
#include "bench_inputs.h"
#include "examples/bundled.h"
#include "models/convfusion.h"
#include "network/dims.h"
#include "reference_optimus_coster.h"
#include "search/optimus_coster.h"
#include "search/optimus_fuser.h"
#include "search/optimus_groups.h"
#include "search/pareto.h"
#include "search/tile_enumerator.h"
#include "search/tso_search.h"
#include "util/allocator.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace lf;
using lf::bench::load;

namespace {

// Minor page faults of the process so far: each is the first write to a page the process had
// not touched (or had given back), about a microsecond and a half on a virtual machine.
double minorFaults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_minflt);
}

Hardware hardware(const char* name) {
    auto r = loadBundledHardware(name);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

struct Table5 {
    const char* net;
    int64_t groups;
    double bottomUpMs;
};
constexpr Table5 kTable5[] = {{"vgg16", 171, 0.48},
                              {"resnet50", 3510, 2.73},
                              {"resnet152", 24250, 5.01},
                              {"googlenet", 50436, 27.89},
                              {"squeezenet1.0", 1057, 2.19}};

void optimusDp(benchmark::State& st, bool online, bool full) {
    const Table5& t = kTable5[st.range(0)];
    const Network net = load(t.net);
    const Hardware hw = hardware("optimus-default");
    OptimusFuserOptions opt;
    opt.online = online;
    opt.prune_hopeless = !full;
    opt.threads = int(st.range(1));
    // Optimus counts VGG's 13 conv and 5 pool operators, not its fc layers.
    if (std::string(t.net) == "vgg16") opt.fusible = {LayerType::conv, LayerType::pool};
    const OptimusLookupTable table = buildOptimusLookupTable(net, hw, opt.fusible);
    opt.table = &table;
    OptimusFuserResult r;
    const double faults = minorFaults();
    for (auto _ : st) {
        r = optimusFuse(net, hw, opt);
        // The DP alone, as Optimus Table 5 (not the schedule built after).
        st.SetIterationTime(r.seconds);
    }
    st.counters["page_faults"] =
        benchmark::Counter(minorFaults() - faults, benchmark::Counter::kAvgIterations);
    st.SetLabel(std::string(t.net) + (st.range(1) == 0   ? ""
                                      : st.range(1) == 1 ? " (1 thread)"
                                                         : " (2 threads)"));
    st.counters["operators"] = r.operators;
    st.counters["groups_evaluated"] = double(r.groups_evaluated);
    st.counters["groups_costed"] = double(r.groupsCosted());
    st.counters["from_records"] = double(r.costed_from_records);
    st.counters["paper_groups"] = double(t.groups);
    st.counters["paper_ms"] = t.bottomUpMs;
    st.counters["groups_in_scheme"] = double(r.groups.size());
}

void BM_OptimusDp(benchmark::State& st) {
    optimusDp(st, false, false);
}
void BM_OptimusDpFull(benchmark::State& st) {
    optimusDp(st, false, true);
}
void BM_OptimusDpOnline(benchmark::State& st) {
    optimusDp(st, true, false);
}
BENCHMARK(BM_OptimusDp)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {0, 1, 2}})
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(7)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_OptimusDpFull)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {0}})
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_OptimusDpOnline)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {0}})
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(7)
    ->ReportAggregatesOnly(true);

// The coster alone, before and now (arg), on the groups the DP forms for GoogLeNet on the
// paper's accelerator (collected once, then costed in the same order every iteration).
void BM_OptimusCoster(benchmark::State& st) {
    const Network net = load("googlenet");
    const Hardware hw = hardware("optimus-default");
    const int64_t capBits = hw.buffer.bytes * 8;
    OptimusGroupRules rules;
    rules.vertex.assign(size_t(net.size()), 0);
    for (LayerId id = 0; id < net.size(); ++id)
        rules.vertex[size_t(id)] = net.layer(id).type != LayerType::input;
    rules.capacity_bits = capBits;
    std::vector<std::vector<LayerId>> groups;
    OptimusCoster collect(net, hw, capBits);
    collect.setJoinable(rules.vertex);
    const OptimusGroupSpace space(net, rules,
                                  [&](const std::vector<LayerId>& m, int, double, bool) {
                                      groups.push_back(m);
                                      const OptimusCoster::Cost c = collect.cost(m);
                                      OptimusGroupClass k;
                                      k.hopeless = c.hopeless;
                                      k.lower_bound_bits = c.lower_bound_bits;
                                      if (c.feasible) k.cost = double(c.memory_cost);
                                      return k;
                                  });
    const bool now = st.range(0) == 1;
    OptimusCoster current(net, hw, capBits);
    test::ReferenceOptimusCoster before(net, hw, capBits);
    current.setJoinable(rules.vertex);
    before.setJoinable(rules.vertex);
    int64_t sum = 0;
    for (auto _ : st)
        for (const auto& m : groups)
            sum += now ? current.cost(m).memory_cost : before.cost(m).memory_cost;
    benchmark::DoNotOptimize(sum);
    st.SetItemsProcessed(int64_t(groups.size()) * st.iterations());
    st.SetLabel(std::string("googlenet, ") + std::to_string(groups.size()) + " groups, " +
                (now ? "now" : "before"));
}
BENCHMARK(BM_OptimusCoster)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

// GoogLeNet, Table 5's largest group space, with every bundled hardware preset (the buffer
// sets how many groups are valid and how many sub-problems the DP meets).
std::vector<const char*> hardwarePresets() {
    std::vector<const char*> names;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == BundledKind::hardware) names.push_back(f.name);
    return names;
}

void BM_OptimusDpPresets(benchmark::State& st) {
    const char* preset = hardwarePresets()[size_t(st.range(0))];
    const Network net = load("googlenet");
    const Hardware hw = hardware(preset);
    OptimusFuserResult r;
    const double faults = minorFaults();
    for (auto _ : st) {
        r = optimusFuse(net, hw, OptimusFuserOptions{});
        st.SetIterationTime(r.seconds); // the DP alone, as Optimus Table 5
    }
    st.counters["page_faults"] =
        benchmark::Counter(minorFaults() - faults, benchmark::Counter::kAvgIterations);
    st.SetLabel(std::string("googlenet on ") + preset);
    st.counters["groups_evaluated"] = double(r.groups_evaluated);
    st.counters["groups_costed"] = double(r.groupsCosted());
    st.counters["from_records"] = double(r.costed_from_records);
    st.counters["subproblems"] = double(r.subproblems);
    st.counters["dp_steps"] = double(r.dp_steps);
    st.counters["form_ms"] = r.form_seconds * 1e3;
}
BENCHMARK(BM_OptimusDpPresets)
    ->Apply([](benchmark::internal::Benchmark* b) {
        for (size_t i = 0; i < hardwarePresets().size(); ++i)
            b->Arg(int64_t(i));
    })
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

void explore(benchmark::State& st, const char* name, TileSet tiles) {
    const Network net = load(name);
    const Hardware hw = hardware(kDefaultHardware.data());
    ExploreOptions opt;
    opt.max_depth = 3;
    opt.tiles = tiles;
    ExploreResult r;
    for (auto _ : st) {
        r = explore(net, hw, opt);
        st.SetIterationTime(r.seconds);
    }
    st.counters["front_points"] = double(r.front.size());
    st.counters["segments"] = double(r.segments);
    st.counters["layer_evaluations"] = double(r.evaluations);
    st.counters["evaluations_per_s"] = double(r.evaluations) / r.seconds;
    st.counters["combinations"] = double(r.combinations);
}

void BM_ExploreL3NetExhaustive(benchmark::State& st) {
    explore(st, "l3net", TileSet::all);
}
void BM_ExploreVgg16(benchmark::State& st) {
    explore(st, "vgg16", TileSet::divisors);
}
void BM_ExploreResNet50(benchmark::State& st) {
    explore(st, "resnet50", TileSet::divisors);
}
BENCHMARK(BM_ExploreL3NetExhaustive)
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_ExploreVgg16)
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_ExploreResNet50)
    ->UseManualTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

// The inner loop of every search: every structure × tile vector of a layer through the
// closed form, one core, in three ways measured side by side: the batched closed form the
// searches use (search/closed_form_batch.h), the per-schedule FastLayer::eval of the previous
// enumerator, and the scalar reference convFusionLayer (one LayerSchedule per visit). The
// visitor reads what the searches read (buffers, accesses, Trans_X, the demanded extents).
enum class Kernel { batched, perSchedule, scalar };

template <class Visit>
void previousEnumerator(const FastLayer& fl, const std::vector<LevelStructure>& list, TileSet set,
                        int64_t& evals, Visit visit) {
    const std::array<std::vector<TileValue>, 4> cand{
        fl.candidates(Dim::z, set), fl.candidates(Dim::y, set), fl.candidates(Dim::x, set),
        fl.candidates(Dim::i, set)};
    for (size_t si = 0; si < list.size(); ++si) {
        const LevelStructure& s = list[si];
        auto span = [&](Dim d) {
            const auto& c = cand[size_t(d)];
            return (s.relevant & dimBit(d)) ? std::pair{c.data(), c.data() + c.size()}
                                            : std::pair{&c.back(), &c.back() + 1};
        };
        const auto [z0, z1] = span(Dim::z);
        const auto [y0, y1] = span(Dim::y);
        const auto [x0, x1] = span(Dim::x);
        const auto [i0, i1] = span(Dim::i);
        for (auto z = z0; z != z1; ++z)
            for (auto y = y0; y != y1; ++y)
                for (auto x = x0; x != x1; ++x)
                    for (auto i = i0; i != i1; ++i) {
                        ++evals;
                        visit(si, *z, *y, *x, *i);
                    }
    }
}

void BM_LayerEvaluations(benchmark::State& st) {
    const auto kernel = Kernel(st.range(0));
    const Network net = load("resnet50");
    const LayerDims d = layerDims(net, net.find("layer2.0.conv2"));
    const FastLayer fl(d, false);
    const auto& list = levelStructures(false, LevelSpace::sound);
    const TileEnumerator en(fl, TileSet::divisors);
    int64_t evals = 0, sink = 0;
    auto use = [&](const CfLayerCost& c) {
        sink += c.buf_x + c.buf_w + c.buf_y + c.acc_x + c.acc_w + c.acc_y_psum + c.trans_x +
                c.ext_x + c.ext_y + c.ext_c;
        return c.buf_x;
    };
    for (auto _ : st) {
        switch (kernel) {
        case Kernel::batched:
            en.run(list, INT64_MAX, nullptr, evals,
                   [&](size_t, const TileValue&, const TileValue&, const TileValue&,
                       const TileValue&, const CfLayerCost& c) { return use(c); });
            break;
        case Kernel::perSchedule:
            previousEnumerator(
                fl, list, TileSet::divisors, evals,
                [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                    const TileValue& i) { return use(fl.eval(list[si], z, y, x, i)); });
            break;
        case Kernel::scalar:
            previousEnumerator(
                fl, list, TileSet::divisors, evals,
                [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                    const TileValue& i) {
                    return use(convFusionLayer(d, list[si].schedule({z.t, y.t, x.t, i.t}), false));
                });
            break;
        }
    }
    benchmark::DoNotOptimize(sink);
    st.SetItemsProcessed(evals);
    st.SetLabel(kernel == Kernel::batched       ? "batched closed form"
                : kernel == Kernel::perSchedule ? "per schedule (previous)"
                                                : "scalar reference convFusionLayer");
}
BENCHMARK(BM_LayerEvaluations)
    ->DenseRange(0, 2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

void BM_TsoSearchResNet50(benchmark::State& st) {
    const Network net = load("resnet50");
    const Hardware hw = hardware("tso-nmp");
    TsoSearchResult r;
    for (auto _ : st)
        r = tsoSearch(net, hw);
    st.counters["convs"] = double(r.layers.size());
    st.counters["tiles_costed"] = double(r.evaluated);
}
BENCHMARK(BM_TsoSearchResNet50)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

} // namespace

// As the executables run (util/allocator.h), so that the figures are theirs.
int main(int argc, char** argv) {
    lf::keepFreedMemory();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
