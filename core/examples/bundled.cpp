#include "examples/bundled.h"

#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "io/zigzag_hardware_yaml.h"

#include <filesystem>

namespace lf {

namespace bundled_detail {
extern const BundledFile kFiles[];
extern const size_t kFileCount;
} // namespace bundled_detail

std::span<const BundledFile> bundledFiles() {
    return {bundled_detail::kFiles, bundled_detail::kFileCount};
}

const BundledFile* findBundled(BundledKind kind, std::string_view name) {
    for (const BundledFile& f : bundledFiles())
        if (f.kind == kind && name == f.name) return &f;
    return nullptr;
}

std::string bundledFileLabel(const BundledFile& f) {
    return std::string("bundled:") + f.path;
}

namespace {
std::string namesOf(BundledKind kind) {
    std::string s;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == kind) {
            if (!s.empty()) s += ", ";
            s += f.name;
        }
    return s;
}
} // namespace

Result<Network> loadBundledNetwork(std::string_view name) {
    const BundledFile* f = findBundled(BundledKind::network, name);
    if (!f)
        return Error("no bundled network named '" + std::string(name) +
                     "' (bundled: " + namesOf(BundledKind::network) + ")");
    return readNetworkYaml(f->text, bundledFileLabel(*f));
}

Result<Hardware> loadBundledHardware(std::string_view name) {
    const BundledFile* f = findBundled(BundledKind::hardware, name);
    if (!f)
        return Error("no bundled hardware named '" + std::string(name) +
                     "' (bundled: " + namesOf(BundledKind::hardware) + ")");
    return readHardwareYaml(f->text, bundledFileLabel(*f));
}

Result<Network> resolveNetwork(const std::string& arg) {
    return resolveNetwork(arg, OnnxImportOptions{});
}

Result<Network> resolveNetwork(const std::string& arg, const OnnxImportOptions& onnx,
                               OnnxImportReport* report) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(arg, ec))
        return isOnnxPath(arg) ? importOnnx(arg, onnx, report) : loadNetworkYamlFile(arg);
    if (findBundled(BundledKind::network, arg)) return loadBundledNetwork(arg);
    return Error(
        arg, {},
        "no such file, and no bundled network of that name (run `layerfuse-cli examples`)");
}

Result<Hardware> resolveHardware(const std::string& arg, std::vector<std::string>* notes) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(arg, ec)) {
        auto imported = importHardwareFile(arg);
        if (!imported) return imported.error();
        if (notes) *notes = std::move(imported->notes);
        return std::move(imported->hw);
    }
    if (findBundled(BundledKind::hardware, arg)) return loadBundledHardware(arg);
    return Error(
        arg, {},
        "no such file, and no bundled hardware of that name (run `layerfuse-cli examples`)");
}

} // namespace lf
