// `layerfuse-cli optimize` — a schedule chosen automatically (docs/cli.md): the
// Optimus DP fuser (Optimus Alg. 1) or the ConvFusion exploration under the buffer
// (ConvFusion §V-A), written as schedule YAML that `evaluate --schedule` reads back.
#include "cli_output.h"
#include "commands.h"
#include "onnx_options.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "metrics/units.h"
#include "models/evaluate.h"
#include "search/dse_optimize.h"
#include "search/objective.h"
#include "search/optimus_fuser.h"
#include "search/search_report.h"
#include "search/tile_optimizer.h"
#include "util/format.h"

#include <iostream>

namespace lf::cli {

Runner addOptimizeCommand(CLI::App& app) {
    struct Opts {
        std::string network, hardware{kDefaultHardware}, objective{"dram"}, method{"optimus"}, out,
            strategy, tiles{"divisors"}, report;
        int depth = 3;
        bool online = false, noburst = false;
        OnnxCliOptions onnx;
    };
    auto o = std::make_shared<Opts>();
    auto* sub = app.add_subcommand(
        "optimize", "Choose fusion groups and tiles automatically; write the schedule");
    sub->add_option("NETWORK", o->network, "Network: .net.yaml file or bundled name")->required();
    sub->add_option("--hardware", o->hardware,
                    "Hardware: .hw.yaml file, ZigZag accelerator YAML or bundled preset")
        ->capture_default_str();
    sub->add_option("--objective", o->objective, "What to minimize")
        ->check(CLI::IsMember({"dram", "energy", "latency", "edp"}))
        ->capture_default_str();
    sub->add_option(
           "--method", o->method,
           "optimus: Optimus DP fuser (Alg. 1); dse: ConvFusion exploration under the buffer")
        ->check(CLI::IsMember({"optimus", "dse"}))
        ->capture_default_str();
    sub->add_option("-o,--output", o->out,
                    "Write the schedule YAML here (default: standard output)");
    sub->add_option("--strategy", o->strategy,
                    "Strategy of the fused groups (default: optimus for --method optimus, "
                    "recompute for dse)")
        ->check(CLI::IsMember({"recompute", "reuse", "optimus"}));
    sub->add_flag("--online", o->online,
                  "Optimus on-line variant (Sec. 6): fan-out rule and group-size limit");
    sub->add_option("--max-depth", o->depth, "dse: longest fused segment")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    sub->add_option("--tiles", o->tiles, "dse: tile sizes searched")
        ->check(CLI::IsMember({"divisors", "pow2", "all"}))
        ->capture_default_str();
    sub->add_flag("--noburst", o->noburst, "Latency from bytes/bandwidth only (TSO-noburst)");
    sub->add_option("--report", o->report,
                    "Write what the search did and what its bounds left out as JSON here");
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
        const Objective objective = *objectiveFromString(o->objective);
        EvaluateOptions eo;
        eo.burst_aware = !o->noburst;
        SearchControl control;
        control.progress = stderrProgress("optimizing " + net->name());
        Schedule sched;
        nlohmann::ordered_json report;
        if (o->method == "optimus") {
            OptimusFuserOptions fo;
            fo.cost = objective == Objective::dram ? FuserCost::optimus : FuserCost::evaluate;
            fo.objective = objective;
            fo.strategy =
                o->strategy.empty() ? Strategy::optimus : *strategyFromString(o->strategy);
            fo.online = o->online;
            const OptimusFuserResult r = optimusFuse(*net, *hw, fo, control);
            if (r.cancelled) {
                printError("optimization cancelled");
                return int(kBadInput);
            }
            std::cerr << net->name() << ": " << r.schedule.groups.size()
                      << " groups; Optimus DP: " << r.groups.size() << " groups, "
                      << r.groups_evaluated << " candidate groups (" << r.groupsCosted()
                      << " costed) in " << formatDouble(double(int64_t(r.seconds * 1e6)) / 1e3)
                      << " ms\n";
            if (!r.complete)
                std::cerr << net->name() << ": " << optimusNotExplored(*net, r) << '\n';
            report = optimusReportJson(*net, fo, r);
            sched = r.schedule;
        } else {
            DseOptimizeOptions xo;
            xo.max_depth = o->depth;
            xo.tiles = *tileSetFromString(o->tiles);
            xo.strategy =
                o->strategy.empty() ? Strategy::recompute : *strategyFromString(o->strategy);
            xo.objective = objective;
            const DseOptimizeResult r = optimizeByExploration(*net, *hw, xo, control);
            if (r.cancelled) {
                printError("optimization cancelled");
                return int(kBadInput);
            }
            if (!r.fits) {
                printError(net->name() + ": no schedule fits the " +
                           std::to_string(hw->buffer.bytes) + "-byte buffer");
                return int(kBadInput);
            }
            std::cerr << net->name() << ": best of the segments of up to " << r.depth_searched
                      << " layers (" << r.distinct_segments << " distinct of " << r.segments << ", "
                      << r.evaluations << " evaluations), "
                      << formatDouble(double(int64_t(r.seconds * 1000.0)) / 1000.0) << " s\n";
            if (!r.complete()) std::cerr << net->name() << ": " << dseNotExplored(xo, r) << '\n';
            report = dseReportJson(xo, r);
            sched = r.schedule;
        }
        if (!o->report.empty()) {
            report["network"] = net->name();
            report["hardware"] = hw->name;
            if (!writeOutput(o->report, report.dump(2) + "\n")) return int(kBadInput);
        }
        const Metrics m = evaluate(*net, *hw, sched, eo);
        ScheduleWriteOptions wo;
        wo.all_layers = true;
        wo.metrics = &m;
        const std::string yaml = writeScheduleYaml(*net, *hw, sched, wo);
        if (!writeOutput(o->out, yaml)) return int(kBadInput);
        if (!o->out.empty()) {
            const Metrics base = evaluate(*net, *hw, defaultSchedule(*net, *hw), eo);
            std::cout << "DRAM accesses  " << m.totals.dram_accesses << " (default schedule "
                      << base.totals.dram_accesses << ")\n"
                      << "energy         " << humanEnergy(m.totals.energy.total()) << " (default "
                      << humanEnergy(base.totals.energy.total()) << ")\n"
                      << "latency        " << m.totals.latency_cycles << " cycles (default "
                      << base.totals.latency_cycles << ")\n"
                      << "energy × delay " << humanEdp(objectiveValue(m, Objective::edp))
                      << " (default " << humanEdp(objectiveValue(base, Objective::edp)) << ")\n"
                      << "buffer peak    " << humanBytes(double(m.totals.buffer_peak_bytes))
                      << " of " << humanBytes(double(hw->buffer.bytes))
                      << (m.totals.fits ? "" : " (does not fit)") << "\n";
        }
        return int(kOk);
    };
}

} // namespace lf::cli
