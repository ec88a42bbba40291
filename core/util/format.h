// Locale-independent number formatting (std::to_chars: shortest round trip).
#pragma once

#include <string>

namespace lf {
// Shortest text that reads back to exactly the same double; integers print without ".0".
std::string formatDouble(double v);
} // namespace lf
