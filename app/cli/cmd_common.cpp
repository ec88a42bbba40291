#include "commands.h"

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

} // namespace lf::cli
