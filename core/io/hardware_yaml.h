// Hardware YAML (`*.hw.yaml`, format layerfuse/hardware@1) — docs/file-formats.md.
#pragma once

#include "hardware/hardware.h"
#include "util/result.h"

#include <string>
#include <string_view>

namespace YAML {
class Node;
class Emitter;
} // namespace YAML

namespace lf {
namespace yamlio {
class TNode;
}

Result<Hardware> readHardwareYaml(std::string_view text, const std::string& file);
Result<Hardware> loadHardwareYamlFile(const std::string& path);
// Canonical text; reading it back gives an equal Hardware, writing that the same bytes.
std::string writeHardwareYaml(const Hardware& hw);

namespace yamlio {
// The body of a hardware document (without `format:`), for inline blocks in schedule and
// project files. Throws YamlInputError (io-internal).
Hardware readHardwareNode(const YAML::Node& map);
Hardware readHardwareNode(const TNode& map);
void emitHardwareBody(YAML::Emitter& out, const Hardware& hw);
} // namespace yamlio

} // namespace lf
