// Integer arithmetic that never wraps. Two families, for two jobs:
//
//  - Checked (CheckedInt, checkedMul/checkedAdd): exact arithmetic that notices overflow, for
//    validating what a file asks for before anything is computed from it (network load:
//    network/figure_limits.h). A file whose figures would not fit is refused there, so the
//    per-layer closed forms of core/models run on plain int64_t without checks.
//  - Saturating (satMul/satAdd/satFromDouble): for figures that grow with the schedule
//    rather than with the file — recompute chains (ConvFusion §IV-E P_k), batch scaling,
//    sums over a network, latency and energy accumulation. A result beyond kSaturated is
//    kSaturated: overflow shows as the largest value (and the group says so), never as a
//    wrapped negative number. Operands are non-negative counts.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
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

// An int64_t that remembers whether any operation on the way overflowed.
class CheckedInt {
  public:
    constexpr CheckedInt(int64_t v = 0) : v_(v) {}
    static constexpr CheckedInt overflowed() {
        CheckedInt c;
        c.ok_ = false;
        return c;
    }
    constexpr bool ok() const { return ok_; }
    // Meaningful only when ok().
    constexpr int64_t value() const { return v_; }
    // The value when ok(), else `fallback`.
    constexpr int64_t valueOr(int64_t fallback) const { return ok_ ? v_ : fallback; }

    friend CheckedInt operator*(CheckedInt a, CheckedInt b) {
        CheckedInt r;
        r.ok_ = a.ok_ && b.ok_ && !__builtin_mul_overflow(a.v_, b.v_, &r.v_);
        return r;
    }
    friend CheckedInt operator+(CheckedInt a, CheckedInt b) {
        CheckedInt r;
        r.ok_ = a.ok_ && b.ok_ && !__builtin_add_overflow(a.v_, b.v_, &r.v_);
        return r;
    }
    CheckedInt& operator*=(CheckedInt b) { return *this = *this * b; }
    CheckedInt& operator+=(CheckedInt b) { return *this = *this + b; }
    // Ordered with every overflowed value above every exact one.
    friend constexpr bool operator<=(CheckedInt a, int64_t limit) { return a.ok_ && a.v_ <= limit; }
    friend constexpr bool operator>(CheckedInt a, int64_t limit) { return !(a <= limit); }

  private:
    int64_t v_ = 0;
    bool ok_ = true;
};

// The saturated value: a figure that would exceed it is shown as it.
inline constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

inline bool isSaturated(int64_t v) {
    return v == kSaturated;
}

// a · b for a, b >= 0, at most kSaturated.
inline int64_t satMul(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

// a + b for a, b >= 0, at most kSaturated.
inline int64_t satAdd(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

// a / b for a >= 0, b > 0; a saturated a stays saturated (its true value is unknown).
inline int64_t satDiv(int64_t a, int64_t b) {
    return a == kSaturated ? kSaturated : a / b;
}

// A non-negative double as a count: below 0 → 0, at or beyond 2^63 (or NaN) → kSaturated.
// (Converting such a double with int64_t(x) is undefined behaviour.)
inline int64_t satFromDouble(double x) {
    if (!(x < 9.2233720368547758e18)) return kSaturated; // NaN or >= 2^63
    return x > 0 ? int64_t(x) : 0;
}

// ⌈a / b⌉ for a >= 0, b > 0 (counts). In unsigned arithmetic a + b − 1 cannot overflow (both
// are below 2^63), so it holds up to kSaturated, at the cost of (a + b − 1) / b in the closed
// forms' inner loops.
inline constexpr int64_t ceilDiv(int64_t a, int64_t b) {
    return int64_t((uint64_t(a) + uint64_t(b) - 1) / uint64_t(b));
}

} // namespace lf
