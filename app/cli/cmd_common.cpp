#include "commands.h"

#include <iostream>

namespace lf::cli {

void printError(const std::string& msg) {
    std::cerr << msg << '\n';
}

} // namespace lf::cli
