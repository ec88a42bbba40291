#include "metrics/units.h"

#include <charconv>
#include <cmath>
#include <string>

namespace lf {

std::string fixedText(double v, int digits) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits);
    return std::string(buf, r.ptr);
}

namespace {

std::string scaled(double v, const char* const* units, int n, double step) {
    int u = 0;
    double a = std::fabs(v);
    while (u + 1 < n && a >= step) {
        a /= step;
        v /= step;
        ++u;
    }
    const int prec = u == 0 ? (std::fabs(v) == std::floor(std::fabs(v)) ? 0 : 2)
                            : (std::fabs(v) < 10    ? 2
                               : std::fabs(v) < 100 ? 1
                                                    : 0);
    return fixedText(v, prec) + " " + units[u];
}

} // namespace

std::string humanBytes(double bytes) {
    static const char* const u[] = {"B", "KB", "MB", "GB", "TB"};
    return scaled(bytes, u, 5, 1024);
}

std::string humanCount(double n) {
    static const char* const u[] = {"", "K", "M", "G", "T"};
    std::string s = scaled(n, u, 5, 1000);
    if (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

std::string humanEnergy(double pj) {
    static const char* const u[] = {"pJ", "nJ", "µJ", "mJ", "J"};
    return scaled(pj, u, 5, 1000);
}

std::string humanTime(double s) {
    if (s == 0) return "0 s";
    if (s < 1e-6) return fixedText(s * 1e9, s * 1e9 < 10 ? 2 : 1) + " ns";
    if (s < 1e-3) return fixedText(s * 1e6, s * 1e6 < 10 ? 2 : 1) + " µs";
    if (s < 1) return fixedText(s * 1e3, s * 1e3 < 10 ? 2 : 1) + " ms";
    return fixedText(s, 2) + " s";
}

std::string humanEdp(double v) {
    static const std::string unit = " pJ·cycles";
    if (!std::isfinite(v)) return (std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf") + unit;
    if (std::fabs(v) < 1e4) return fixedText(std::round(v), 0) + unit;
    // "8.31e+16" -> "8.31e16": the mantissa rounds in to_chars (9.996e16 gives 1.00e+17).
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 2);
    std::string s(buf, r.ptr);
    const size_t e = s.find('e');
    const int exponent = std::stoi(s.substr(e + 1)); // >= 4 here
    return s.substr(0, e) + "e" + std::to_string(exponent) + unit;
}

} // namespace lf
