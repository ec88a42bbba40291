#include "examples/bundled.h"

#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "io/zigzag_hardware_yaml.h"
#include "util/format.h"

#include <filesystem>

namespace lf {

Result<Network> loadBundledNetwork(std::string_view name) {
    const BundledFile* f = findBundled(BundledKind::network, name);
    if (!f) return Error(unknownBundledMessage(BundledKind::network, name));
    return readNetworkYaml(f->text, bundledFileLabel(*f));
}

Result<Hardware> loadBundledHardware(std::string_view name) {
    const BundledFile* f = findBundled(BundledKind::hardware, name);
    if (!f) return Error(unknownBundledMessage(BundledKind::hardware, name));
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

Result<Hardware> resolveScheduleHardware(const std::string& name, SourcePos name_pos,
                                         const std::string& schedule_file,
                                         std::vector<std::string>* notes) {
    if (findBundled(BundledKind::hardware, name)) return loadBundledHardware(name);
    namespace fs = std::filesystem;
    const fs::path rel(name);
    if (name.empty() || rel.is_absolute() || rel.has_root_name())
        return Error(schedule_file, name_pos,
                     "hardware " + quoteValue(name) +
                         " is not a bundled preset; a hardware file must be named by a path "
                         "relative to the schedule file");
    const fs::path path = fs::path(schedule_file).parent_path() / rel;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return Error(schedule_file, name_pos,
                     "hardware " + quoteValue(name) +
                         " is neither a bundled preset (run `layerfuse-cli examples`) nor a "
                         "hardware file next to the schedule (" +
                         quoteValue(path.string(), 200) + ")");
    auto imported = importHardwareFile(path.string());
    if (!imported) return imported.error();
    if (notes) *notes = std::move(imported->notes);
    return std::move(imported->hw);
}

} // namespace lf
