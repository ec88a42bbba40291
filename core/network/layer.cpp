#include "network/layer.h"

#include <array>

namespace lf {

namespace {
constexpr std::array<std::string_view, 12> kTypeNames = {
    "input", "conv", "deconv", "fc",     "pool",   "global_pool",
    "add",   "mul",  "concat", "resize", "opaque", "reorg"};
}

std::string_view toString(LayerType t) {
    return kTypeNames[size_t(t)];
}

std::optional<LayerType> layerTypeFromString(std::string_view s) {
    for (size_t i = 0; i < kTypeNames.size(); ++i)
        if (kTypeNames[i] == s) return LayerType(i);
    return std::nullopt;
}

std::string_view toString(PoolMode m) {
    return m == PoolMode::max ? "max" : "avg";
}
std::string_view toString(ResizeMode m) {
    return m == ResizeMode::nearest ? "nearest" : "bilinear";
}

} // namespace lf
