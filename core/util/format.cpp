#include "util/format.h"

#include <charconv>
#include <cmath>

namespace lf {

std::string formatDouble(double v) {
    if (std::isnan(v)) return ".nan";
    if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

std::string quoteValue(std::string_view value, size_t max) {
    size_t cut = value.size();
    if (cut > max) {
        cut = max;
        // Back up to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
        while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80)
            --cut;
    }
    std::string out;
    out.reserve(cut + 40);
    out += '\'';
    for (size_t i = 0; i < cut; ++i) {
        const auto c = static_cast<unsigned char>(value[i]);
        out += c < 0x20 || c == 0x7f ? '?' : char(c);
    }
    if (cut < value.size())
        out += "…' (" + std::to_string(value.size()) + " bytes)";
    else
        out += '\'';
    return out;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace lf
