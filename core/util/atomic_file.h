// Writing a whole file so that it is never seen half-written: the bytes go to a temporary
// file in the same directory, which is flushed to disk and renamed over the target (rename is
// atomic within a file system). On any error — full disk, no permission, a directory in the
// way — the target is untouched, the temporary file removed, and the error says why.
#pragma once

#include "util/result.h"

#include <string>
#include <string_view>

namespace lf {

// Replaces `path` with `bytes`. A new file gets the permissions of a file the process would
// create (0666 minus the umask); a replaced file keeps its own. A path that names a device or
// a pipe is written to as a stream (nothing to replace there).
Status writeFileAtomically(const std::string& path, std::string_view bytes);

} // namespace lf
