// The canonical hash of a network's structure (Network::canonicalHash).
#pragma once

#include "network/layer.h"

#include <string>
#include <vector>

namespace lf {

// SHA-256 (hex) of a canonical text of the layers, sorted by name so that the order a file
// lists them in does not matter. Covers names, types, inputs in order (repeats included),
// output shapes and every shape-affecting parameter; not the network's name, description,
// folded ops or source positions.
std::string canonicalHash(const std::vector<Layer>& layers);

} // namespace lf
