// Figures in human units, the same text in the CLI's table and everywhere in the studio:
// "1.25 MB", "36.9 K", "2.10 µJ", "61.5 µs". Locale-independent (std::to_chars), no JSON.
#pragma once

#include <string>

namespace lf {

std::string humanBytes(double bytes); // B, KB, MB, GB, TB (steps of 1024)
std::string humanCount(double n);     // K, M, G, T (steps of 1000)
std::string humanEnergy(double pj);   // pJ, nJ, µJ, mJ, J
std::string humanTime(double seconds);
// Energy-delay product (pJ x cycles), one reading everywhere: three significant figures in
// scientific notation from 10^4 on ("8.31e16 pJ·cycles"), the plain number below
// ("512 pJ·cycles"), so that values of different schedules compare by their exponents.
std::string humanEdp(double pjCycles);
// Fixed-point text with `digits` decimals that ignores LC_NUMERIC.
std::string fixedText(double v, int digits);

} // namespace lf
