#include "io/exports/export_files.h"

#include "util/atomic_file.h"

#include <filesystem>

namespace lf {

Result<std::vector<std::string>>
writeFilesToDirectory(const std::string& dir,
                      const std::vector<std::pair<std::string, std::string>>& files) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec))
        return Error(dir, {},
                     "cannot create directory" + (ec ? ": " + ec.message() : std::string()));
    std::vector<std::string> paths;
    for (const auto& [name, bytes] : files) {
        const std::string path = (fs::path(dir) / name).string();
        if (Status st = writeFileAtomically(path, bytes); !st) return st.error();
        paths.push_back(path);
    }
    return paths;
}

} // namespace lf
