#include "io/exports/export_files.h"

#include <filesystem>
#include <fstream>

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
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        if (!f || !f.write(bytes.data(), std::streamsize(bytes.size())) || !f.flush())
            return Error(path, {}, "cannot write file");
        paths.push_back(path);
    }
    return paths;
}

} // namespace lf
