#include "commands.h"

#include "examples/bundled.h"
#include "search/distribution.h"

#include <iostream>

namespace lf::cli {

namespace {
Distribution* gDistribution = nullptr;
}

void setDistribution(Distribution* d) {
    gDistribution = d;
}

Distribution* distribution() {
    return gDistribution;
}

bool writesResults() {
    return !gDistribution || gDistribution->rank() == 0;
}

void printError(const std::string& msg) {
    std::cerr << msg << '\n';
}

Result<Hardware> resolveHardwareArg(const std::string& arg) {
    std::vector<std::string> notes;
    auto hw = resolveHardware(arg, &notes);
    for (const std::string& n : notes)
        std::cerr << "note: " << arg << ": " << n << '\n';
    return hw;
}

} // namespace lf::cli
