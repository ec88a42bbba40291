// `layerfuse-cli explore` — the Pareto front of a network (ConvFusion §V-A;
// docs/models/convfusion.md, docs/cli.md): CSV of the front and, optionally, every point's
// schedule.
#include "cli_output.h"
#include "commands.h"
#include "onnx_options.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "metrics/units.h"
#include "models/evaluate.h"
#include "search/front_csv.h"
#include "search/front_rows.h"
#include "search/pareto.h"
#include "search/pareto_thin.h"
#include "search/work_pool.h"
#include "util/format.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace lf::cli {

std::function<void(double, const std::string&)> stderrProgress(const std::string& label) {
    if (!isatty(STDERR_FILENO)) return {};
    return [label](double fraction, const std::string& what) {
        std::fprintf(stderr, "\r%s: %3d%% %-40.40s", label.c_str(), int(fraction * 100.0 + 0.5),
                     what.c_str());
        if (fraction >= 1.0) std::fprintf(stderr, "\n");
        std::fflush(stderr);
    };
}

namespace {

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string seconds(double s) {
    return formatDouble(double(int64_t(s * 1000.0)) / 1000.0) + " s";
}

// Streams the CSV into `path` through a temporary file renamed at the end, so that a failed
// run never leaves a truncated front behind.
bool writeCsvFile(const std::string& path, FrontRows& rows, const std::vector<size_t>& points,
                  WorkPool& pool) {
    const std::string tmp = path + ".part";
    {
        std::ofstream f(tmp, std::ios::binary);
        if (!f || !writeFrontCsv(f, rows, points, &pool)) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    return !ec;
}

// Every point's schedule YAML, point-NNNN.sched.yaml; built and written on the pool.
bool saveSchedules(const std::string& dir, const Network& net, const Hardware& hw,
                   const ExploreResult& r, WorkPool& pool) {
    std::atomic<bool> ok{true};
    parallelFor(&pool, r.front.size(), [&](size_t k) {
        if (!ok) return;
        const Schedule s = r.schedule(net, hw, k);
        const Metrics m = evaluate(net, hw, s);
        ScheduleWriteOptions wo;
        wo.all_layers = true;
        wo.metrics = &m;
        char name[64];
        std::snprintf(name, sizeof name, "point-%04zu.sched.yaml", k);
        const std::string path = (std::filesystem::path(dir) / name).string();
        if (!writeOutput(path, writeScheduleYaml(net, hw, s, wo))) ok = false;
    });
    return ok;
}

} // namespace

Runner addExploreCommand(CLI::App& app) {
    struct Opts {
        std::string network, hardware{kDefaultHardware}, tiles{"divisors"}, csv, saveDir,
            strategy{"recompute"}, levels{"sound"};
        int depth = 3, threads = 0;
        int64_t maxBuffer = 0, maxPoints = 0, maxKept = ExploreOptions{}.max_kept_points;
        double timeLimit = 0;
        bool noRecompute = false, noResident = false;
        OnnxCliOptions onnx;
    };
    auto o = std::make_shared<Opts>();
    auto* sub = app.add_subcommand(
        "explore", "Pareto front of DRAM accesses, buffer and MACs (ConvFusion DSE)");
    sub->add_option("NETWORK", o->network, "Network: .net.yaml file or bundled name")->required();
    sub->add_option("--hardware", o->hardware,
                    "Hardware: .hw.yaml file, ZigZag accelerator YAML or bundled preset")
        ->capture_default_str();
    sub->add_option("--max-depth", o->depth, "Longest fused segment, in layers")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    sub->add_option("--tiles", o->tiles, "Tile sizes searched")
        ->check(CLI::IsMember({"divisors", "pow2", "all"}))
        ->capture_default_str();
    sub->add_option("--csv", o->csv, "Write the front as CSV to this file");
    sub->add_option("--save-schedules", o->saveDir,
                    "Write every front point's schedule YAML into this directory");
    sub->add_option("--max-points", o->maxPoints,
                    "Keep at most N points that cover the front best (epsilon-thinning; 0: all)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--strategy", o->strategy, "Fusion strategy of the segments")
        ->check(CLI::IsMember({"recompute", "reuse", "optimus"}))
        ->capture_default_str();
    sub->add_option("--levels", o->levels,
                    "Store/compute levels searched (sound: the folding the model sizes correctly)")
        ->check(CLI::IsMember({"sound", "legal"}))
        ->capture_default_str();
    sub->add_flag("--no-recompute", o->noRecompute, "Keep only schedules that recompute nothing");
    sub->add_flag("--no-resident-weights", o->noResident,
                  "Do not try keeping a segment's weights on chip");
    sub->add_option("--max-buffer", o->maxBuffer,
                    "Only schedules whose buffer fits this many bytes (0: any)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--threads", o->threads, "Worker threads (0: all cores)")
        ->check(CLI::NonNegativeNumber);
    sub->add_option("--max-kept-points", o->maxKept,
                    "Bound on the points the combination steps keep in all; steps over their "
                    "share are epsilon-thinned and the result says so (0: no bound)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    sub->add_option("--time-limit", o->timeLimit,
                    "Seconds after which longer segments are skipped and every later step "
                    "thinned (0: none)")
        ->check(CLI::NonNegativeNumber);
    addOnnxOptions(sub, o->onnx);
    return [o]() {
        const auto t0 = std::chrono::steady_clock::now();
        auto net = resolveNetworkArg(o->network, o->onnx);
        if (!net) {
            printError(net.error().toString());
            return int(kBadInput);
        }
        auto hw = resolveHardwareArg(o->hardware);
        if (!hw) {
            printError(hw.error().toString());
            return int(kBadInput);
        }
        ExploreOptions eo;
        eo.max_depth = o->depth;
        eo.tiles = *tileSetFromString(o->tiles);
        eo.levels = o->levels == "legal" ? LevelSpace::legal : LevelSpace::sound;
        eo.allow_recompute = !o->noRecompute;
        eo.try_resident_weights = !o->noResident;
        eo.strategy = *strategyFromString(o->strategy);
        eo.max_buffer_bytes = o->maxBuffer;
        eo.threads = o->threads;
        eo.max_kept_points = o->maxKept;
        eo.time_limit_s = o->timeLimit;
        eo.distribution = distribution();
        SearchControl control;
        if (writesResults()) control.progress = stderrProgress("exploring " + net->name());
        ExploreResult r = explore(*net, *hw, eo, control);
        if (r.worker) return int(kOk); // its segments went to the root
        if (r.cancelled) {
            printError("exploration cancelled");
            return int(kBadInput);
        }
        const double searchSeconds = since(t0);
        WorkPool pool(o->threads);
        const size_t found = r.front.size();
        double epsilon = 0;
        if (o->maxPoints > 0) epsilon = thinFront(r, size_t(o->maxPoints), &pool);
        if (!o->saveDir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(o->saveDir, ec);
            if (ec) {
                printError(o->saveDir + ": " + ec.message());
                return int(kBadInput);
            }
            if (!saveSchedules(o->saveDir, *net, *hw, r, pool)) return int(kBadInput);
        }
        std::vector<size_t> points(r.front.size());
        for (size_t k = 0; k < points.size(); ++k)
            points[k] = k;
        FrontRows rows(*net, *hw, r);
        if (!o->csv.empty()) {
            if (!writeCsvFile(o->csv, rows, points, pool)) {
                printError(o->csv + ": cannot write");
                return int(kBadInput);
            }
        } else if (!writeFrontCsv(std::cout, rows, points, &pool)) {
            printError("standard output: cannot write");
            return int(kBadInput);
        }
        std::cerr << net->name() << ": " << found << " Pareto points";
        if (r.front.size() < found)
            std::cerr << " (" << r.front.size() << " kept, each within "
                      << formatDouble(double(int64_t(epsilon * 1e6)) / 1e4) << " % of every point)";
        std::cerr << " from " << r.segments << " segments (" << r.segments_searched
                  << " searched), " << r.evaluations << " layer evaluations, " << r.combinations
                  << " combinations; search " << seconds(searchSeconds) << ", output "
                  << seconds(since(t0) - searchSeconds) << ", total " << seconds(since(t0)) << "\n";
        if (!r.limits.exact())
            std::cerr << "bounded: " << r.limits.thinned_steps << " combination steps thinned ("
                      << r.limits.dropped_points << " partial points dropped; every exact point "
                      << "within a factor " << formatDouble(r.limits.factor) << "), "
                      << r.limits.skipped_segments << " segments not searched\n";
        return int(kOk);
    };
}

} // namespace lf::cli
