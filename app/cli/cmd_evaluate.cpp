#include "commands.h"

#include "examples/bundled.h"
#include "metrics/metrics_io.h"
#include "models/evaluate.h"

#include <iostream>

namespace lf::cli {

Runner addEvaluateCommand(CLI::App& app) {
    struct Opts {
        std::string network, hardware{kDefaultHardware}, schedule, format{"table"};
    };
    auto o = std::make_shared<Opts>();
    auto* sub = app.add_subcommand("evaluate", "Evaluate a schedule of a network on a hardware config");
    sub->add_option("NETWORK", o->network, "Network: .net.yaml file or bundled name")->required();
    sub->add_option("--hardware", o->hardware, "Hardware: .hw.yaml file or bundled preset")
        ->capture_default_str();
    sub->add_option("--schedule", o->schedule, "Schedule: .sched.yaml file (default: the default schedule)");
    sub->add_option("--format", o->format, "Output format")
        ->check(CLI::IsMember({"json", "table", "csv"}))
        ->capture_default_str();
    return [o]() {
        auto net = resolveNetwork(o->network);
        if (!net) {
            printError(net.error().toString());
            return int(kBadInput);
        }
        auto hw = resolveHardware(o->hardware);
        if (!hw) {
            printError(hw.error().toString());
            return int(kBadInput);
        }
        Schedule sched = defaultSchedule(*net, *hw);
        const Metrics m = evaluate(*net, *hw, sched);
        if (o->format == "json") std::cout << metricsToJsonText(m);
        else if (o->format == "csv") std::cout << metricsToCsv(m);
        else std::cout << metricsToTable(m);
        return int(kOk);
    };
}

}  // namespace lf::cli
