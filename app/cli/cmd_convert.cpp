#include "cli_output.h"
#include "commands.h"
#include "onnx_options.h"

#include "io/network_yaml.h"

namespace lf::cli {

Runner addConvertCommand(CLI::App& app) {
    auto* sub = app.add_subcommand(
        "convert", "Convert a network (YAML, ONNX or bundled name) to canonical network YAML");
    auto in = std::make_shared<std::string>();
    auto out = std::make_shared<std::string>();
    auto onnx = std::make_shared<OnnxCliOptions>();
    sub->add_option("IN", *in, "Input network: .net.yaml or .onnx file, or bundled name")
        ->required();
    sub->add_option("OUT", *out, "Output .net.yaml file ('-' for standard output)")->required();
    addOnnxOptions(sub, *onnx);
    return [in, out, onnx]() {
        auto net = resolveNetworkArg(*in, *onnx);
        if (!net) {
            printError(net.error().toString());
            return int(kBadInput);
        }
        return writeOutput(*out, writeNetworkYaml(*net)) ? int(kOk) : int(kBadInput);
    };
}

} // namespace lf::cli
