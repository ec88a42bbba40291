#include "util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace lf {

namespace {

Error failure(const std::string& path, const char* what, int err) {
    return Error(path, {}, std::string(what) + ": " + std::strerror(err));
}

bool writeAll(int fd, std::string_view bytes) {
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += size_t(n);
    }
    return true;
}

Status writeStream(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return failure(path, "cannot open", errno);
    if (!writeAll(fd, bytes)) {
        const int err = errno;
        ::close(fd);
        return failure(path, "cannot write", err);
    }
    if (::close(fd) != 0) return failure(path, "cannot write", errno);
    return Ok{};
}

mode_t newFileMode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

} // namespace

Status writeFileAtomically(const std::string& path, std::string_view bytes) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    if (target.filename().empty()) return Error(path, {}, "not a file name");
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat st {};
    mode_t mode = newFileMode();
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return Error(path, {}, "is a directory");
        // A device or a pipe (/dev/stdout, a FIFO) is written as a stream: renaming over it
        // would replace it.
        if (!S_ISREG(st.st_mode)) return writeStream(path, bytes);
        mode = st.st_mode & 07777;
    }
    std::string tmp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) return failure(path, "cannot create a file in its directory", errno);
    auto abandon = [&](const char* what, int err) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return failure(path, what, err);
    };
    if (!writeAll(fd, bytes)) return abandon("cannot write", errno);
    if (::fchmod(fd, mode) != 0) return abandon("cannot set permissions", errno);
    if (::fsync(fd) != 0) return abandon("cannot write", errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return failure(path, "cannot write", err);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return failure(path, "cannot replace", err);
    }
    return Ok{};
}

} // namespace lf
