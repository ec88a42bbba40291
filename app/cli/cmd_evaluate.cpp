#include "commands.h"
#include "onnx_options.h"

#include "examples/bundled.h"
#include "metrics/metrics_io.h"
#include "models/evaluate.h"

#include <iostream>

namespace lf::cli {

Runner addEvaluateCommand(CLI::App& app) {
    struct Opts {
        std::string network, hardware{kDefaultHardware}, schedule, format{"table"};
        bool byName = false, noburst = false;
        OnnxCliOptions onnx;
    };
    auto o = std::make_shared<Opts>();
    auto* sub =
        app.add_subcommand("evaluate", "Evaluate a schedule of a network on a hardware config");
    sub->add_option("NETWORK", o->network, "Network: .net.yaml file or bundled name")->required();
    auto* hwOpt = sub->add_option("--hardware", o->hardware,
                                  "Hardware: .hw.yaml file, ZigZag accelerator YAML or bundled "
                                  "preset (default: the schedule's, else " +
                                      std::string(kDefaultHardware) + ")");
    sub->add_option("--schedule", o->schedule,
                    "Schedule: .sched.yaml file (default: the default schedule)");
    sub->add_option("--format", o->format, "Output format")
        ->check(CLI::IsMember({"json", "table", "csv"}))
        ->capture_default_str();
    sub->add_flag("--apply-by-name", o->byName,
                  "Apply a schedule made for another network to the layers whose names match");
    sub->add_flag("--noburst", o->noburst, "DRAM time from bytes/bandwidth only (TSO-noburst)");
    addOnnxOptions(sub, o->onnx);
    return [o, hwOpt]() {
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
        Hardware hardware = *hw;
        Schedule sched;
        if (!o->schedule.empty()) {
            auto read = readScheduleArg(o->schedule, *net, hardware, hwOpt->count() > 0, o->byName);
            if (!read) return int(kBadInput);
            sched = std::move(*read);
        } else {
            sched = defaultSchedule(*net, hardware);
        }
        EvaluateOptions eo;
        eo.burst_aware = !o->noburst;
        const Metrics m = evaluate(*net, hardware, sched, eo);
        if (o->format == "json")
            std::cout << metricsToJsonText(m);
        else if (o->format == "csv")
            std::cout << metricsToCsv(m);
        else
            std::cout << metricsToTable(m);
        return int(kOk);
    };
}

} // namespace lf::cli
