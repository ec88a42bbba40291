#include "onnx_options.h"

#include "commands.h"

#include "examples/bundled.h"
#include "io/onnx_import.h"

namespace lf::cli {

void addOnnxOptions(CLI::App* sub, OnnxCliOptions& o) {
    sub->add_option("--input-shape", o.input_shape,
                    "ONNX models: input shape C,H,W or N,C,H,W (needed for dynamic dimensions)");
    sub->add_flag(
        "--allow-unsupported", o.allow_unsupported,
        "ONNX models: load operators without a layer equivalent as opaque pass-through layers");
}

Result<Network> resolveNetworkArg(const std::string& arg, const OnnxCliOptions& o,
                                  OnnxImportReport* out) {
    OnnxImportOptions opts;
    opts.allow_opaque = o.allow_unsupported;
    if (!o.input_shape.empty()) {
        auto shape = parseOnnxInputShape(o.input_shape);
        if (!shape) return Error("--input-shape: " + shape.error().message);
        opts.input_shape = *shape;
    }
    OnnxImportReport report;
    auto net = resolveNetwork(arg, opts, &report);
    for (const std::string& w : report.warnings)
        printError(arg + ": warning: " + w);
    if (out) *out = report;
    if (!net && !report.unsupported.empty() && !o.allow_unsupported) {
        Error e = net.error();
        e.message += "\n(pass --allow-unsupported to load them as opaque layers)";
        return e;
    }
    return net;
}

} // namespace lf::cli
