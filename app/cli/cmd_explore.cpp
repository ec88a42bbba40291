// `layerfuse-cli explore` — the Pareto front of a network (ConvFusion §V-A;
// docs/models/convfusion.md, docs/cli.md): CSV of the front and, optionally, every point's
// schedule.
#include "commands.h"
#include "onnx_options.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "metrics/units.h"
#include "models/evaluate.h"
#include "search/explore_front.h"
#include "search/pareto.h"
#include "util/format.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

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

bool writeFile(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    return bool(f);
}

} // namespace

Runner addExploreCommand(CLI::App& app) {
    struct Opts {
        std::string network, hardware{kDefaultHardware}, tiles{"divisors"}, csv, saveDir,
            strategy{"recompute"}, levels{"sound"};
        int depth = 3, threads = 0;
        int64_t maxBuffer = 0;
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
    addOnnxOptions(sub, o->onnx);
    return [o]() {
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
        SearchControl control;
        control.progress = stderrProgress("exploring " + net->name());
        const ExploreResult r = explore(*net, *hw, eo, control);
        if (r.cancelled) {
            printError("exploration cancelled");
            return int(kBadInput);
        }
        if (!o->saveDir.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(o->saveDir, ec);
            if (ec) {
                printError(o->saveDir + ": " + ec.message());
                return int(kBadInput);
            }
        }
        std::ostringstream csv;
        csv << frontCsvHeader();
        for (size_t k = 0; k < r.front.size(); ++k) {
            const Schedule s = r.schedule(*net, *hw, k);
            const Metrics m = evaluate(*net, *hw, s);
            csv << frontCsvRow(k, frontRow(r.front[k], m, *hw));
            if (!o->saveDir.empty()) {
                ScheduleWriteOptions wo;
                wo.all_layers = true;
                wo.metrics = &m;
                char name[64];
                std::snprintf(name, sizeof name, "point-%04zu.sched.yaml", k);
                const std::string path = (std::filesystem::path(o->saveDir) / name).string();
                if (!writeFile(path, writeScheduleYaml(*net, *hw, s, wo))) {
                    printError(path + ": cannot write");
                    return int(kBadInput);
                }
            }
        }
        if (!o->csv.empty()) {
            if (!writeFile(o->csv, csv.str())) {
                printError(o->csv + ": cannot write");
                return int(kBadInput);
            }
        } else {
            std::cout << csv.str();
        }
        std::cerr << net->name() << ": " << r.front.size() << " Pareto points from " << r.segments
                  << " segments, " << r.evaluations << " layer evaluations, " << r.combinations
                  << " combinations, " << formatDouble(double(int64_t(r.seconds * 1000.0)) / 1000.0)
                  << " s\n";
        return int(kOk);
    };
}

} // namespace lf::cli
