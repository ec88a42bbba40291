// Network YAML (`*.net.yaml`, format layerfuse/network@1) — docs/INTERFACES.md.
#pragma once

#include "network/network.h"
#include "util/result.h"

#include <string>
#include <string_view>

namespace lf {

// Parses network YAML text; `file` names the source in error messages.
Result<NetworkSpec> parseNetworkSpec(std::string_view text, const std::string& file);
// Parse + build (canonicalize, sort, infer shapes).
Result<Network> readNetworkYaml(std::string_view text, const std::string& file);
Result<Network> loadNetworkYamlFile(const std::string& path);

// Canonical text of a network: inputs, then layers in topological order, defaults omitted.
// readNetworkYaml(writeNetworkYaml(n)) == n, and writing that again gives the same bytes.
std::string writeNetworkYaml(const Network& net);

}  // namespace lf
