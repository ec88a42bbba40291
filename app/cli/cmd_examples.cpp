#include "commands.h"

#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace lf::cli {

Runner addExamplesCommand(CLI::App& app) {
    auto* sub = app.add_subcommand("examples", "List the bundled networks and hardware presets");
    return [sub]() {
        (void)sub;
        // One column for the short names, as wide as the longest.
        int width = 0;
        for (const BundledFile& f : bundledFiles())
            if (f.kind == BundledKind::network || f.kind == BundledKind::hardware)
                width = std::max(width, int(std::strlen(f.name)));
        std::cout << "Networks (use the short name as NETWORK):\n";
        for (const BundledFile& f : bundledFiles()) {
            if (f.kind != BundledKind::network) continue;
            auto net = readNetworkYaml(f.text, bundledFileLabel(f));
            std::string desc = net ? net->description() : net.error().toString();
            char line[512];
            std::snprintf(line, sizeof line, "  %-*s %s%s\n", width, f.name, desc.c_str(),
                          f.name == kDefaultNetwork ? " [default]" : "");
            std::cout << line;
        }
        std::cout << "\nHardware presets (use the short name with --hardware):\n";
        for (const BundledFile& f : bundledFiles()) {
            if (f.kind != BundledKind::hardware) continue;
            auto hw = readHardwareYaml(f.text, bundledFileLabel(f));
            std::string desc = hw ? hw->description : hw.error().toString();
            char line[512];
            std::snprintf(line, sizeof line, "  %-*s %s%s\n", width, f.name, desc.c_str(),
                          f.name == kDefaultHardware ? " [default]" : "");
            std::cout << line;
        }
        return int(kOk);
    };
}

} // namespace lf::cli
