// Overflow-checked integer arithmetic for sizes coming from untrusted files.
#pragma once

#include <cstdint>
#include <optional>

namespace lf {

inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
    return r;
}

inline int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

} // namespace lf
