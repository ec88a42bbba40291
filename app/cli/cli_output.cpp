#include "cli_output.h"

#include "commands.h"

#include "util/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <streambuf>

namespace lf::cli {

namespace {

// Standard output written with write(2) through our own buffer, so that the first failure
// and its reason are kept (stdio drops both once its buffer is discarded).
class StdoutBuffer : public std::streambuf {
  public:
    StdoutBuffer() { setp(buf_, buf_ + sizeof buf_); }
    int error() const { return error_; }

  protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

  private:
    bool drain() {
        for (const char* p = pbase(); p < pptr() && error_ == 0;) {
            const ssize_t n = ::write(STDOUT_FILENO, p, size_t(pptr() - p));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                error_ = n < 0 ? errno : EIO;
            else
                p += n;
        }
        setp(buf_, buf_ + sizeof buf_); // after a failure, later output is dropped
        return error_ == 0;
    }
    char buf_[1 << 16];
    int error_ = 0;
};

StdoutBuffer* stdoutBuffer = nullptr; // reachable until exit: cout flushes it then

} // namespace

void installStdout() {
    // SIGPIPE would kill the process silently on a closed pipe; ignored, writes fail with
    // EPIPE and are reported like every other write error.
    std::signal(SIGPIPE, SIG_IGN);
    stdoutBuffer = new StdoutBuffer;
    std::cout.rdbuf(stdoutBuffer);
}

bool writeOutput(const std::string& path, std::string_view text) {
    if (path.empty() || path == "-") {
        std::cout << text;
        return flushStdout();
    }
    const Status s = writeFileAtomically(path, text);
    if (!s) printError(s.error().toString());
    return s.ok();
}

bool flushStdout() {
    static bool reported = false; // a lost write is reported once, however often we flush
    std::cout.flush();
    const int err = stdoutBuffer ? stdoutBuffer->error() : 0;
    if (err == 0 && std::cout) return !reported;
    if (!reported)
        printError(std::string("standard output: cannot write") +
                   (err ? std::string(": ") + std::strerror(err) : std::string()));
    reported = true;
    return false;
}

} // namespace lf::cli
