#include "commands.h"
#include "onnx_options.h"

#include "io/network_yaml.h"
#include "io/onnx_export.h"
#include "io/onnx_import.h"

#include <fstream>
#include <iostream>

namespace lf::cli {

Runner addConvertCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "convert", "Convert a network (YAML, ONNX or bundled name) to canonical network YAML, or "
                   "to ONNX when OUT ends in .onnx");
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto onnx = std::make_shared<OnnxCliOptions>();
    sub->add_option("IN", *in, "Input network: .net.yaml or .onnx file, or bundled name")
        ->required();
    sub->add_option("OUT", *out, "Output .net.yaml file ('-' for standard output) or .onnx file")
        ->required();
    addOnnxOptions(sub, *onnx);
    return [in, out, onnx]() {
        auto net = resolveNetworkArg(*in, *onnx);
        if (!net) {
            printError(net.error().toString());
            return int(kBadInput);
        }
        if (isOnnxPath(*out)) {
            OnnxExportReport report;
            if (Status st = saveOnnxModel(*out, *net, {}, &report); !st) {
                printError(st.error().toString());
                return int(kBadInput);
            }
            for (const std::string& n : report.notes)
                std::cerr << "note: " << n << '\n';
            return int(kOk);
        }
        const std::string text = writeNetworkYaml(*net);
        if (*out == "-") {
            std::cout << text;
            return int(kOk);
        }
        std::ofstream f(*out, std::ios::binary | std::ios::trunc);
        if (!f || !(f << text) || !f.flush()) {
            printError(*out + ": cannot write file");
            return int(kBadInput);
        }
        return int(kOk);
    };
}

} // namespace lf::cli
