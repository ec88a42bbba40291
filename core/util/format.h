// Locale-independent number formatting (std::to_chars: shortest round trip); CSV fields.
#pragma once

#include <string>

namespace lf {
// Shortest text that reads back to exactly the same double; integers print without ".0".
std::string formatDouble(double v);
// A CSV field (RFC 4180): quoted, quotes doubled, when it holds a comma, a quote or a line break.
std::string csvField(const std::string& s);
} // namespace lf
