// Network YAML (`*.net.yaml`, format layerfuse/network@1) — docs/file-formats.md.
#pragma once

#include "network/network.h"
#include "util/result.h"

#include <string>
#include <string_view>

namespace YAML {
class Node;
class Emitter;
} // namespace YAML

namespace lf {

// Parses network YAML text; `file` names the source in error messages.
Result<NetworkSpec> parseNetworkSpec(std::string_view text, const std::string& file);
// Parse + build (canonicalize, sort, infer shapes).
Result<Network> readNetworkYaml(std::string_view text, const std::string& file);
Result<Network> loadNetworkYamlFile(const std::string& path);

// Canonical text of a network: inputs, then layers in topological order, defaults omitted.
// readNetworkYaml(writeNetworkYaml(n)) == n, and writing that again gives the same bytes.
std::string writeNetworkYaml(const Network& net);

namespace yamlio {
// A whole network document held in a node (inline network blocks of project files); throws
// YamlInputError (io-internal). `file` names the source in the spec.
NetworkSpec readNetworkSpecNode(const YAML::Node& root, const std::string& file);
// The keys of the canonical network document (format, name, inputs, layers) into an open map.
void emitNetworkBody(YAML::Emitter& out, const Network& net);
} // namespace yamlio

} // namespace lf
