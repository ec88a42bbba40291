// Writing an export's files into a directory (the ZigZag and Stream exports write several
// files; the CLI and the studio call the same functions: writeZigZagExport,
// writeStreamExport).
#pragma once

#include "util/result.h"

#include <string>
#include <utility>
#include <vector>

namespace lf {

// What a directory export wrote: the paths in order, and what the files leave out or
// approximate (one sentence each, also in the files' headers) for the user to read.
struct WrittenExport {
    std::vector<std::string> paths;
    std::vector<std::string> notes;
};

// Creates `dir` when missing and writes each (file name, bytes) into it, replacing what is
// there. Returns the written paths in order; an error names the path that failed and
// stops there.
Result<std::vector<std::string>>
writeFilesToDirectory(const std::string& dir,
                      const std::vector<std::pair<std::string, std::string>>& files);

} // namespace lf
