// The shared, immutable state behind a Network (internal to core/network).
#pragma once

#include "network/network.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lf {

struct Network::Data {
    std::string name;
    std::string description;
    std::vector<Layer> layers;
    std::vector<std::vector<LayerId>> succ;
    std::vector<LayerId> input_ids;
    std::vector<LayerId> compute_ids;
    // Names of folded layers, which resolve to the layer that carries them (the keys of
    // by_name view into layers[].name and into this; neither changes after the build).
    std::vector<std::string> folded_names;
    std::unordered_map<std::string_view, LayerId> by_name;
    std::string hash;
};

} // namespace lf
