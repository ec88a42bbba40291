// Where the commands' results go. Files are written whole or not at all (a temporary file in
// the same directory, renamed: util/atomic_file.h); standard output is flushed and checked,
// so a full disk or a closed pipe is an error (exit 1 with a message), not a silent success.
#pragma once

#include <string>
#include <string_view>

namespace lf::cli {

// Writes `text` to the file `path`, or to standard output when `path` is empty or "-".
// Prints why and returns false when it could not.
bool writeOutput(const std::string& path, std::string_view text);

// Flushes standard output; prints why and returns false when anything written to it was
// lost (the process then exits 1).
bool flushStdout();

// Sends std::cout through a buffer that keeps the first write error and its reason, and
// ignores SIGPIPE (which would kill the process silently on a closed pipe): call first.
void installStdout();

} // namespace lf::cli
