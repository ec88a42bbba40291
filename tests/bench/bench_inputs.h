// The benchmarks' inputs: bundled networks and the default hardware, or an exception naming
// what did not load (a benchmark cannot run without its input).
#pragma once

#include "examples/bundled.h"

#include <stdexcept>

namespace lf::bench {

inline Network load(const char* name) {
    auto r = loadBundledNetwork(name);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

inline Hardware hardware() {
    auto r = loadBundledHardware(kDefaultHardware);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

} // namespace lf::bench
