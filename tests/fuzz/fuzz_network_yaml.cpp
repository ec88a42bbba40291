// libFuzzer target: the network YAML reader (io/network_yaml.h) on arbitrary bytes. Every
// input must load or be refused with FILE:LINE:COLUMN; a network that loads writes back and
// reads again to the same canonical hash. tests/fuzz/README.md says how to run it.
#include "io/network_yaml.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto net = lf::readNetworkYaml(text, "fuzz.net.yaml");
    if (!net) {
        if (net.error().message.empty()) std::abort(); // every refusal says why
        return 0;
    }
    const auto again = lf::readNetworkYaml(lf::writeNetworkYaml(*net), "again.net.yaml");
    if (!again || again->canonicalHash() != net->canonicalHash()) std::abort();
    return 0;
}
