// Locale-independent number formatting (std::to_chars: shortest round trip), and values
// from files as error messages show them; CSV fields.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace lf {
// Shortest text that reads back to exactly the same double; integers print without ".0".
std::string formatDouble(double v);

// A value read from a file (or given on a command line) as a message shows it: in single
// quotes, control characters as '?', and cut after `max` bytes (on a UTF-8 character
// boundary) with "…" and the full length, so that a megabyte-long value never makes a
// megabyte-long message. Every reader quotes values through this.
std::string quoteValue(std::string_view value, size_t max = 64);
// Whether `text` is well-formed UTF-8 (RFC 3629: shortest forms, no surrogates, at most
// U+10FFFF).
bool isValidUtf8(std::string_view text);
// A CSV field (RFC 4180): quoted, quotes doubled, when it holds a comma, a quote or a line break.
std::string csvField(const std::string& s);
} // namespace lf
