// Result<T>: a value or an Error that says where in which file what went wrong.
// Errors at the I/O boundary are values; no exception crosses into the views.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace lf {

// A position in a source file; line and column are 1-based, 0 means "unknown".
struct SourcePos {
    int line = 0;
    int column = 0;
    friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

struct Error {
    std::string file; // may be empty for in-memory text
    int line = 0;     // 1-based, 0 = unknown
    int column = 0;   // 1-based, 0 = unknown
    std::string message;

    Error() = default;
    explicit Error(std::string msg) : message(std::move(msg)) {}
    Error(std::string f, SourcePos p, std::string msg)
        : file(std::move(f)), line(p.line), column(p.column), message(std::move(msg)) {}

    // "FILE:LINE:COLUMN: message" (parts that are unknown are left out).
    std::string toString() const;
};

template <class T> class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T* operator->() { return &std::get<0>(v_); }
    const T* operator->() const { return &std::get<0>(v_); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(v_); }

  private:
    std::variant<T, Error> v_;
};

// Result<void>
struct Ok {};
using Status = Result<Ok>;

} // namespace lf
