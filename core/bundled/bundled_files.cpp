#include "bundled/bundled_files.h"

#include "util/format.h"

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

std::string unknownBundledMessage(BundledKind kind, std::string_view name) {
    static const char* const kinds[] = {"network", "hardware", "schedule", "lesson"};
    std::string names;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == kind) {
            if (!names.empty()) names += ", ";
            names += f.name;
        }
    return "no bundled " + std::string(kinds[int(kind)]) + " named " + quoteValue(name) +
           " (bundled: " + names + ")";
}

} // namespace lf
