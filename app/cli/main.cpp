// layerfuse-cli: LayerFuse's engine without a display (docs/cli.md).
#include "commands.h"

int main(int argc, char** argv) {
    return lf::cli::runCli(argc, argv, "layerfuse-cli");
}
