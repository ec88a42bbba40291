// layerfuse-cli: LayerFuse's engine without a display (docs/cli.md).
#include "commands.h"

#include "util/allocator.h"

int main(int argc, char** argv) {
    lf::keepFreedMemory();
    return lf::cli::runCli(argc, argv, "layerfuse-cli");
}
