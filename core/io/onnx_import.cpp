#include "io/onnx_import.h"

#include "io/onnx/onnx_translator.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <filesystem>
#include <fstream>

namespace lf {

namespace {

// Protobuf refuses messages of 2 GB and more; larger models keep weights in external files.
constexpr uint64_t kMaxOnnxBytes = uint64_t(INT_MAX);
constexpr int64_t kMinOpset = 7, kMaxOpset = 18;
constexpr int64_t kMaxIrVersion = 12;

Result<std::string> readBinaryFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return Error(path, {},
                     std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) return Error(path, {}, "cannot read the file: " + ec.message());
    if (size > kMaxOnnxBytes)
        return Error(path, {},
                     "the file has " + std::to_string(size) +
                         " bytes; ONNX files of 2 GB and more exceed the protobuf limit "
                         "(store the weights as external data)");
    std::ifstream f(path, std::ios::binary);
    if (!f) return Error(path, {}, "cannot open the file");
    std::string bytes(size_t(size), '\0');
    if (!f.read(bytes.data(), std::streamsize(size)))
        return Error(path, {}, "cannot read the file");
    return bytes;
}

// Binary ONNX starts with protobuf tags (control bytes); text files do not.
bool looksLikeText(std::string_view bytes) {
    const size_t n = std::min<size_t>(bytes.size(), 64);
    for (size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c < 0x09 || (c > 0x0d && c < 0x20)) return false;
    }
    return n > 0;
}

// Parses and sanity-checks a model; returns its default-domain opset.
Result<int> parseModel(std::string_view bytes, const std::string& file, onnx::ModelProto& model) {
    if (bytes.empty()) return Error(file, {}, "the file is empty, not an ONNX model");
    if (bytes.size() > kMaxOnnxBytes)
        return Error(file, {}, "the model exceeds the 2 GB protobuf limit");
    const std::string textHint =
        looksLikeText(bytes)
            ? " (this looks like a text file; ONNX models are binary protobuf files)"
            : "";
    if (!model.ParseFromArray(bytes.data(), int(bytes.size())))
        return Error(file, {},
                     "not a valid ONNX model: the protobuf data is truncated or corrupt" +
                         textHint);
    if (!model.has_graph() || model.ir_version() <= 0)
        return Error(file, {}, "not an ONNX model: it has no graph or IR version" + textHint);
    if (model.ir_version() > kMaxIrVersion)
        return Error(file, {},
                     "ONNX IR version " + std::to_string(model.ir_version()) +
                         " is newer than supported (at most " + std::to_string(kMaxIrVersion) +
                         ")");
    int64_t opset = -1;
    for (const auto& o : model.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") opset = std::max(opset, o.version());
    if (opset < 0) return Error(file, {}, "the model declares no opset of the default ONNX domain");
    if (opset < kMinOpset || opset > kMaxOpset)
        return Error(file, {},
                     "opset " + std::to_string(opset) + " is not supported (opsets " +
                         std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + " are)");
    return int(opset);
}

Status checkOptions(const OnnxImportOptions& o, const std::string& file) {
    const auto& s = o.input_shape;
    if (s.empty()) return Ok{};
    if (s.size() != 3 && s.size() != 4)
        return Error(file, {}, "the input shape needs 3 (C,H,W) or 4 (N,C,H,W) values");
    for (size_t k = 0; k < s.size(); ++k) {
        const bool spatial = k + 2 >= s.size();
        const int64_t hi = spatial ? NetworkLimits::kMaxExtent : NetworkLimits::kMaxChannels;
        if (s[k] < 1 || s[k] > hi)
            return Error(file, {},
                         "input shape value " + std::to_string(s[k]) + " is outside 1.." +
                             std::to_string(hi));
    }
    return Ok{};
}

std::string fileStem(const std::string& file) {
    std::string stem = std::filesystem::path(file).filename().string();
    if (isOnnxPath(stem)) stem.resize(stem.size() - 5);
    return onnx_import::readableName(stem);
}

} // namespace

bool isOnnxPath(std::string_view path) {
    if (path.size() < 5) return false;
    std::string ext(path.substr(path.size() - 5));
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".onnx";
}

Result<NetworkSpec> onnxToNetworkSpec(std::string_view bytes, const std::string& file,
                                      const OnnxImportOptions& options, OnnxImportReport* report) {
    if (report) *report = {};
    if (auto ok = checkOptions(options, file); !ok) return ok.error();
    try {
        onnx::ModelProto model;
        auto opset = parseModel(bytes, file, model);
        if (!opset) return opset.error();
        onnx_import::Translator translator(model, *opset, file, options, report);
        auto spec = translator.run();
        if (!spec) return spec.error();
        const std::string graphName = spec->name;
        spec->name = fileStem(file);
        if (spec->name.empty())
            spec->name = graphName.empty() ? std::string("onnx-model") : graphName;
        if (!graphName.empty() && graphName != spec->name)
            spec->description += ", graph '" + graphName + "'";
        return spec;
    } catch (const std::bad_alloc&) {
        return Error(file, {}, "out of memory while reading the model");
    } catch (const std::exception& e) {
        return Error(file, {}, std::string("cannot import the model: ") + e.what());
    }
}

Result<Network> importOnnxBytes(std::string_view bytes, const std::string& file,
                                const OnnxImportOptions& options, OnnxImportReport* report) {
    auto spec = onnxToNetworkSpec(bytes, file, options, report);
    if (!spec) return spec.error();
    return buildNetwork(*spec);
}

Result<Network> importOnnx(const std::string& path, const OnnxImportOptions& options,
                           OnnxImportReport* report) {
    if (report) *report = {};
    auto bytes = readBinaryFile(path);
    if (!bytes) return bytes.error();
    return importOnnxBytes(*bytes, path, options, report);
}

Result<OnnxModelInfo> inspectOnnxBytes(std::string_view bytes, const std::string& file) {
    onnx::ModelProto model;
    auto opset = parseModel(bytes, file, model);
    if (!opset) return opset.error();
    OnnxModelInfo info;
    info.ir_version = model.ir_version();
    info.opset = *opset;
    info.producer =
        onnx_import::readableName(model.producer_name() + " " + model.producer_version());
    info.graph_name = onnx_import::readableName(model.graph().name());
    std::vector<std::string> inits;
    for (const auto& i : model.graph().initializer())
        inits.push_back(i.name());
    std::sort(inits.begin(), inits.end());
    for (const auto& in : model.graph().input()) {
        if (std::binary_search(inits.begin(), inits.end(), in.name())) continue;
        OnnxInputInfo ii;
        ii.name = onnx_import::readableName(in.name());
        if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
            const auto& shape = in.type().tensor_type().shape();
            for (int k = 0; k < shape.dim_size() && k < onnx_import::kMaxRank; ++k) {
                const auto& d = shape.dim(k);
                const bool known = d.has_dim_value() && d.dim_value() > 0;
                ii.dims.push_back(known ? d.dim_value() : -1);
                ii.dim_names.push_back(known ? std::string()
                                             : onnx_import::readableName(d.dim_param()));
                // A dynamic batch is fine (the IR's batch is implicit); others need a shape.
                if (!known && k > 0) info.has_dynamic_input = true;
            }
        }
        info.inputs.push_back(std::move(ii));
    }
    return info;
}

Result<OnnxModelInfo> inspectOnnx(const std::string& path) {
    auto bytes = readBinaryFile(path);
    if (!bytes) return bytes.error();
    return inspectOnnxBytes(*bytes, path);
}

Result<std::vector<int64_t>> parseOnnxInputShape(std::string_view text) {
    std::vector<int64_t> dims;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find_first_of(",xX", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view part = text.substr(pos, end - pos);
        while (!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        int64_t v = 0;
        auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || p != part.data() + part.size() || v < 1)
            return Error("input shape '" + std::string(text) + "': '" + std::string(part) +
                         "' is not a positive integer (expected C,H,W or N,C,H,W)");
        dims.push_back(v);
        if (dims.size() > 4) break;
        pos = end + 1;
    }
    if (dims.size() != 3 && dims.size() != 4)
        return Error("input shape '" + std::string(text) +
                     "' needs 3 (C,H,W) or 4 (N,C,H,W) values");
    return dims;
}

} // namespace lf
