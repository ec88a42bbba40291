// Helpers of the export tests (Timeloop, ZigZag, Stream, ONNX): the bundled networks, a
// layer's dims recomputed from its own fields (not through the exporters' code path), and
// small YAML accessors.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lf::test {

// Every bundled network, by short name.
const std::vector<const char*>& bundledNetworkNames();

// The layer named `name` (throws when there is none).
LayerId layerIdOf(const Network& net, const char* name);

// Our dims of a layer from its own fields: output width/height/channels, input channels,
// kernel, groups, strides (fc and global pools: the kernel spans the input).
struct HandDims {
    int64_t ox, oy, k, c, fx, fy, g, sx, sy;
};
HandDims handDims(const Network& net, LayerId id);

// A YAML sequence of scalars as strings.
std::vector<std::string> yamlStrings(const YAML::Node& seq);

// The bundled L2Net worked-example schedule (docs/models/convfusion.md) on `hw`.
Schedule workedExampleSchedule(const Network& net, const Hardware& hw);
// A schedule read from text that must be valid.
Schedule scheduleFromText(const std::string& text, const Network& net, const Hardware& hw);

} // namespace lf::test
