// Generated networks for the tests and benchmarks that need shapes no bundled example has
// (wide fan-outs, thousands of layers). Header-only and Qt-free, so the benchmarks use it
// too. Each returns network YAML text.
#pragma once

#include <string>

namespace lf::test {

// One 3×3 conv feeding `fanOut` 1×1 convs that a concat joins (the fan-out that makes the
// Optimus group space 2^fanOut at the conv).
inline std::string fanOutNetworkYaml(int fanOut) {
    std::string y = "format: layerfuse/network@1\nname: fanout" + std::to_string(fanOut) +
                    "\ninputs:\n  - {name: x, channels: 32, height: 28, width: 28}\nlayers:\n"
                    "  - {name: stem, type: conv, inputs: [x], out_channels: 64, kernel: 3, "
                    "padding: 1}\n";
    std::string cat = "  - {name: cat, type: concat, inputs: [";
    for (int k = 0; k < fanOut; ++k) {
        const std::string nm = "b" + std::to_string(k);
        y += "  - {name: " + nm + ", type: conv, inputs: [stem], out_channels: 16, kernel: 1}\n";
        cat += (k ? ", " : "") + nm;
    }
    return y + cat + "]}\n";
}

// A stack of `modules` inception-like modules: module k forks into 2 + (5k mod 8) branches
// (fan-out 2 to 9) of 1 to 4 convs (1×1 first, then 3×3), joined by a concat that feeds the
// next module. 173 modules give 2,026 layers and 173 concats.
inline std::string inceptionDagYaml(int modules) {
    std::string y = "format: layerfuse/network@1\nname: inception" + std::to_string(modules) +
                    "\ninputs:\n  - {name: x, channels: 3, height: 32, width: 32}\nlayers:\n"
                    "  - {name: stem, type: conv, inputs: [x], out_channels: 32, kernel: 3, "
                    "padding: 1}\n";
    std::string prev = "stem";
    for (int k = 0; k < modules; ++k) {
        const int branches = 2 + (k * 5) % 8;
        std::string cat = "  - {name: m" + std::to_string(k) + ", type: concat, inputs: [";
        for (int j = 0; j < branches; ++j) {
            const int len = 1 + ((k + j) % 5 == 0) * 2 + (k + j) % 2;
            std::string in = prev;
            for (int q = 0; q < len; ++q) {
                const std::string nm =
                    "m" + std::to_string(k) + "b" + std::to_string(j) + "c" + std::to_string(q);
                y += "  - {name: " + nm + ", type: conv, inputs: [" + in +
                     "], out_channels: 8, kernel: " + (q == 0 ? "1" : "3, padding: 1") + "}\n";
                in = nm;
            }
            cat += (j ? ", " : "") + in;
        }
        y += cat + "]}\n";
        prev = "m" + std::to_string(k);
    }
    return y;
}

// A chain of `n` convolutions alternating 3×3 and 1×1 on 32 channels at 56×56.
inline std::string chainYaml(int n) {
    std::string y = "format: layerfuse/network@1\nname: chain" + std::to_string(n) +
                    "\ninputs:\n  - {name: in, channels: 32, height: 56, width: 56}\nlayers:\n";
    std::string prev = "in";
    for (int k = 0; k < n; ++k) {
        const std::string name = "c" + std::to_string(k);
        y += "  - {name: " + name + ", type: conv, inputs: [" + prev +
             "], out_channels: 32, kernel: " + (k % 2 ? "1" : "3") +
             ", padding: " + (k % 2 ? "0" : "1") + "}\n";
        prev = name;
    }
    return y;
}

} // namespace lf::test
