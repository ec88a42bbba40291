#include "cli_output.h"
#include "commands.h"
#include "onnx_options.h"

#include "io/network_yaml.h"
#include "io/onnx_export.h"
#include "io/onnx_import.h"
#include "io/onnx_report.h"

#include <iostream>

namespace lf::cli {

Runner addConvertCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "convert", "Convert a network (YAML, ONNX or bundled name) to canonical network YAML, or "
                   "to ONNX when OUT ends in .onnx");
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto onnx = std::make_shared<OnnxCliOptions>();
    auto report = std::make_shared<bool>(false);
    auto format = std::make_shared<std::string>("text");
    sub->add_option("IN", *in, "Input network: .net.yaml or .onnx file, or bundled name")
        ->required();
    sub->add_option("OUT", *out, "Output .net.yaml file ('-' for standard output) or .onnx file")
        ->required();
    addOnnxOptions(sub, *onnx);
    sub->add_flag("--report", *report,
                  "ONNX models: list what became of every node (layers, folded operators, "
                  "layout-only nodes, merged padding, constants, opaque nodes and why); on "
                  "standard output, or on standard error when OUT is '-'");
    sub->add_option("--format", *format, "Format of the --report: text or json")
        ->check(CLI::IsMember({"text", "json"}));
    return [in, out, onnx, report, format]() {
        OnnxImportReport rep;
        auto net = resolveNetworkArg(*in, *onnx, &rep);
        auto printReport = [&](const Network* n) {
            if (!*report || !isOnnxPath(*in)) return;
            const std::string r =
                *format == "json" ? onnxReportJson(rep, *in, n) : onnxReportText(rep, *in, n);
            (*out == "-" || !n ? std::cerr : std::cout) << r;
        };
        if (!net) {
            printReport(nullptr);
            printError(net.error().toString());
            return int(kBadInput);
        }
        if (isOnnxPath(*out)) {
            OnnxExportReport written;
            if (Status st = saveOnnxModel(*out, *net, {}, &written); !st) {
                printError(st.error().toString());
                return int(kBadInput);
            }
            for (const std::string& n : written.notes)
                std::cerr << "note: " << n << '\n';
            printReport(&*net);
            return int(kOk);
        }
        if (!writeOutput(*out, writeNetworkYaml(*net))) return int(kBadInput);
        printReport(&*net);
        return int(kOk);
    };
}

} // namespace lf::cli
