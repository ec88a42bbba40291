// `layerfuse-cli export`: a schedule's metrics (CSV, JSON) or its mapping for other tools —
// per-layer Timeloop problem + mapping files, ZigZag's workload / accelerator / mapping,
// Stream's ONNX workload / mapping / accelerator (docs/exports.md).
#include "cli_output.h"
#include "commands.h"
#include "onnx_options.h"

#include "examples/bundled.h"
#include "io/exports/export_files.h"
#include "io/exports/stream_export.h"
#include "io/exports/timeloop_export.h"
#include "io/exports/zigzag_export.h"
#include "io/schedule_yaml.h"
#include "metrics/metrics_io.h"
#include "models/evaluate.h"

#include <filesystem>
#include <iostream>
#include <optional>

namespace lf::cli {

namespace {

struct ExportOpts {
    std::string network, hardware{kDefaultHardware}, schedule, format, output, layer;
    bool byName = false, noburst = false;
    OnnxCliOptions onnx;
};

struct Loaded {
    Network net;
    Hardware hw;
    Schedule sched;
};

// Network, hardware and schedule as `evaluate` resolves them: without --hardware, the
// hardware a schedule names (or holds) is used. Prints the error and returns nothing on
// bad input.
std::optional<Loaded> load(const ExportOpts& o, bool hardwareGiven) {
    auto net = resolveNetworkArg(o.network, o.onnx);
    if (!net) {
        printError(net.error().toString());
        return std::nullopt;
    }
    auto hw = resolveHardwareArg(o.hardware);
    if (!hw) {
        printError(hw.error().toString());
        return std::nullopt;
    }
    Loaded l{std::move(*net), std::move(*hw), {}};
    if (o.schedule.empty()) {
        l.sched = defaultSchedule(l.net, l.hw);
        return l;
    }
    auto read = readScheduleArg(o.schedule, l.net, l.hw, hardwareGiven, o.byName);
    if (!read) return std::nullopt;
    l.sched = std::move(*read);
    return l;
}

// Text to -o FILE, or standard output when no file is given or it is '-'.
int emit(const std::string& output, const std::string& text) {
    return writeOutput(output, text) ? kOk : kBadInput;
}

// Prints the notes and each written path (or the error) and returns the exit code.
int printWritten(const Result<WrittenExport>& written) {
    if (!written) {
        printError(written.error().toString());
        return kBadInput;
    }
    for (const std::string& n : written->notes)
        std::cerr << "note: " << n << '\n';
    for (const std::string& p : written->paths)
        std::cout << p << '\n';
    return kOk;
}

int exportTimeloopFiles(const ExportOpts& o, const Loaded& l) {
    namespace fs = std::filesystem;
    if (!o.layer.empty()) {
        const LayerId id = l.net.find(o.layer);
        if (id == kNoLayer || l.net.layer(id).name != o.layer) {
            printError("--layer: no layer named '" + o.layer + "' in " + l.net.name());
            return kBadInput;
        }
        auto text = exportTimeloopLayer(l.net, l.hw, l.sched, id);
        if (!text) {
            printError(text.error().toString());
            return kBadInput;
        }
        std::error_code ec;
        if (!o.output.empty() && fs::is_directory(o.output, ec)) {
            for (const TimeloopFile& f : exportTimeloop(l.net, l.hw, l.sched).files)
                if (f.layer == id) {
                    const std::string path = (fs::path(o.output) / f.file_name).string();
                    if (!writeOutput(path, f.text)) return kBadInput;
                    std::cout << path << '\n';
                }
            return kOk;
        }
        return emit(o.output, *text);
    }
    const TimeloopExport e = exportTimeloop(l.net, l.hw, l.sched);
    int others = 0;
    for (const TimeloopSkip& s : e.skipped) {
        const LayerType t = l.net.layer(s.layer).type;
        if (t == LayerType::conv || t == LayerType::fc)
            std::cerr << "note: " << l.net.layer(s.layer).name << " not exported: " << s.reason
                      << '\n';
        else
            ++others;
    }
    if (others > 0)
        std::cerr << "note: " << others << " layer(s) that are not conv or fc not exported\n";
    if (e.files.empty()) {
        printError(l.net.name() +
                   ": no conv or fc layer is alone in its group; nothing to export to Timeloop");
        return kBadInput;
    }
    std::error_code ec;
    fs::create_directories(o.output, ec);
    if (ec || !fs::is_directory(o.output)) {
        printError(o.output + ": cannot create directory" +
                   (ec ? ": " + ec.message() : std::string()));
        return kBadInput;
    }
    for (const TimeloopFile& f : e.files) {
        const std::string path = (fs::path(o.output) / f.file_name).string();
        if (!writeOutput(path, f.text)) return kBadInput;
        std::cout << path << '\n';
    }
    return kOk;
}

} // namespace

Runner addExportCommand(CLI::App& app) {
    auto o = std::make_shared<ExportOpts>();
    auto* sub = app.add_subcommand(
        "export",
        "Export a schedule's metrics (csv, json) or its mapping for Timeloop, ZigZag or Stream");
    sub->add_option("NETWORK", o->network, "Network: .net.yaml or .onnx file, or bundled name")
        ->required();
    auto* hwOpt = sub->add_option("--hardware", o->hardware,
                                  "Hardware: .hw.yaml file, ZigZag accelerator YAML or bundled "
                                  "preset (default: the schedule's, else " +
                                      std::string(kDefaultHardware) + ")");
    sub->add_option("--schedule", o->schedule,
                    "Schedule: .sched.yaml file (default: the default schedule)");
    sub->add_option(
           "--format", o->format,
           "timeloop: one problem+mapping file per unfused conv/fc layer; zigzag: "
           "workload.yaml, accelerator.yaml, mapping.yaml; stream: workload.onnx, mapping.yaml, "
           "accelerator.yaml; csv, json: the metrics as `evaluate` prints them")
        ->required()
        ->check(CLI::IsMember({"timeloop", "zigzag", "stream", "csv", "json"}));
    sub->add_option(
        "-o,--output", o->output,
        "Output file ('-' or none: standard output); a directory for zigzag, stream and "
        "timeloop without --layer");
    sub->add_option("--layer", o->layer, "timeloop: export only this layer");
    sub->add_flag("--apply-by-name", o->byName,
                  "Apply a schedule made for another network to the layers whose names match");
    sub->add_flag("--noburst", o->noburst,
                  "csv, json: DRAM time from bytes/bandwidth only (TSO-noburst)");
    addOnnxOptions(sub, o->onnx);
    return [o, hwOpt]() {
        if (!o->layer.empty() && o->format != "timeloop") {
            printError("--layer applies to --format timeloop only");
            return int(kUsage);
        }
        if (o->format == "zigzag" && (o->output.empty() || o->output == "-")) {
            printError("--format zigzag writes workload.yaml, accelerator.yaml and mapping.yaml: "
                       "give -o DIR");
            return int(kUsage);
        }
        if (o->format == "stream" && (o->output.empty() || o->output == "-")) {
            printError("--format stream writes workload.onnx, mapping.yaml and accelerator.yaml: "
                       "give -o DIR");
            return int(kUsage);
        }
        if (o->format == "timeloop" && o->layer.empty() &&
            (o->output.empty() || o->output == "-")) {
            printError("--format timeloop writes one file per layer: give -o DIR (or --layer NAME "
                       "for one layer)");
            return int(kUsage);
        }
        auto loaded = load(*o, hwOpt->count() > 0);
        if (!loaded) return int(kBadInput);
        if (o->format == "timeloop") return exportTimeloopFiles(*o, *loaded);
        if (o->format == "zigzag")
            return printWritten(
                writeZigZagExport(o->output, loaded->net, loaded->hw, loaded->sched));
        if (o->format == "stream")
            return printWritten(
                writeStreamExport(o->output, loaded->net, loaded->hw, loaded->sched));
        EvaluateOptions eo;
        eo.burst_aware = !o->noburst;
        const Metrics m = evaluate(loaded->net, loaded->hw, loaded->sched, eo);
        return emit(o->output, o->format == "json" ? metricsToJsonText(m) : metricsToCsv(m));
    };
}

} // namespace lf::cli
