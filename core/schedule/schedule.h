// Schedule IR — what the user edits (docs/models/README.md).
//
// Per layer (ConvFusion Table 2): loop order of the four tiled dims {z, y, x, i}, tile
// sizes, store and compute levels of X, Y, W chosen from {tile, l1, l2, l3, l4} where
// `tile` is the innermost outer tile loop (one iteration = one whole tile, ConvFusion Code 2 line
// 5) and l1..l4 are the inner tile loops from outermost to innermost.
// Per fusion group: its layers, strategy, output tile, weight residency and the hardware
// partition between its layers (spatial sub-arrays or temporal register-file shares).
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lf {

// The four tiled loop dimensions (ConvFusion §III-B): output channel z, output row y,
// output column x, input channel i.
enum class Dim : uint8_t { z = 0, y = 1, x = 2, i = 3 };
// Store/compute level: 0 = tile (innermost outer loop), 1..4 = inner loops l1..l4.
enum class Level : uint8_t { tile = 0, l1 = 1, l2 = 2, l3 = 3, l4 = 4 };
// The three arrays of a layer.
enum class Arr : uint8_t { X = 0, Y = 1, W = 2 };

inline constexpr std::array<Dim, 4> kAllDims{Dim::z, Dim::y, Dim::x, Dim::i};
inline constexpr std::array<Arr, 3> kAllArrs{Arr::X, Arr::Y, Arr::W};

char dimChar(Dim d); // 'z', 'y', 'x', 'i'
std::optional<Dim> dimFromChar(char c);
const char* arrName(Arr a);                                      // "X", "Y", "W"
std::string levelName(Level l, const std::array<Dim, 4>& order); // "tile" or "zi", "yi", ...
// Parses "tile", "l1".."l4" or an inner-loop name ("zi", "yi", "xi", "ii") for `order`.
std::optional<Level> parseLevel(std::string_view s, const std::array<Dim, 4>& order);

struct LayerSchedule {
    std::array<Dim, 4> order{Dim::z, Dim::y, Dim::x, Dim::i};            // outermost -> innermost
    std::array<int64_t, 4> tile{1, 1, 1, 1};                             // indexed by Dim
    std::array<Level, 3> store{Level::tile, Level::tile, Level::tile};   // indexed by Arr
    std::array<Level, 3> compute{Level::tile, Level::tile, Level::tile}; // indexed by Arr
    // Spatial unrolling; empty = the hardware's dataflow.
    std::optional<Dataflow> unroll;

    int64_t T(Dim d) const { return tile[size_t(d)]; }
    Level SL(Arr a) const { return store[size_t(a)]; }
    Level CL(Arr a) const { return compute[size_t(a)]; }
    // Position of a dim in the order (0 = outermost).
    int pos(Dim d) const {
        for (int k = 0; k < 4; ++k)
            if (order[size_t(k)] == d) return k;
        return -1;
    }
    friend bool operator==(const LayerSchedule&, const LayerSchedule&) = default;
};

enum class Strategy : uint8_t { recompute, reuse, optimus };
const char* toString(Strategy s);
std::optional<Strategy> strategyFromString(std::string_view s);

// Reuse-buffer model of the `reuse` strategy: HW-Flow-Fusion's (HWFF Eq. 8) or the Alwani
// baseline that also keeps the sequential overlap (HWFF Eq. 9).
enum class ReuseModelKind : uint8_t { hwff, alwani };

enum class PartitionKind : uint8_t { temporal, spatial };

struct SubArray {
    int col = 0, row = 0, cols = 0, rows = 0;
    friend bool operator==(const SubArray&, const SubArray&) = default;
};

// Fractions (0..1] of each register-file section of every PE given to one layer.
struct RfShare {
    double weight = 1, input = 1, psum = 1;
    friend bool operator==(const RfShare&, const RfShare&) = default;
};

struct Partition {
    PartitionKind kind = PartitionKind::temporal;
    std::map<LayerId, RfShare> rf_share;   // temporal; missing layers get 1/N
    std::map<LayerId, SubArray> subarrays; // spatial; missing layers: see defaultSubarrays
    friend bool operator==(const Partition&, const Partition&) = default;
};

struct OutputTile {
    int64_t h = 1, w = 1;
    friend bool operator==(const OutputTile&, const OutputTile&) = default;
};

struct FusionGroup {
    std::string name;
    std::vector<LayerId> layers; // sorted ascending (topological)
    Strategy strategy = Strategy::recompute;
    ReuseModelKind reuse_model = ReuseModelKind::hwff;
    // Output tile of the group's last layer for `reuse` and `optimus`; empty = derived
    // (reuse: the last layer's Ty x Tx; optimus: the Optimus Eq. 4 scheduler's maximum t_h).
    std::optional<OutputTile> out_tile;
    bool weights_resident = false;
    Partition partition;
    friend bool operator==(const FusionGroup&, const FusionGroup&) = default;
};

struct Schedule {
    // Every compute layer is in exactly one group (see normalize()).
    std::vector<FusionGroup> groups;
    // Indexed by LayerId (entries of non-compute layers are unused).
    std::vector<LayerSchedule> layers;
    // Layers whose schedule was written in a file or edited (written back on export).
    std::vector<char> explicit_layer;

    int groupOf(LayerId id) const; // index into groups, -1 if none
    // groupOf for every layer id in [0, layer_count) at once, in O(layers + group members):
    // for callers that visit every layer (groupOf is a search over the groups).
    std::vector<int> groupIndexByLayer(int layer_count) const;
    friend bool operator==(const Schedule&, const Schedule&) = default;
};

// Effective RF share of a layer in a temporal partition (1/N when not set).
RfShare rfShareOf(const FusionGroup& g, LayerId id);
// Sub-arrays of a spatial partition, completed for layers without one: with none given,
// the array split into equal column strips (as the paper's first enumerated partition);
// with some given, what they leave (the columns right of them or the rows below them) split
// into equal strips, or an empty sub-array when they leave nothing.
std::map<LayerId, SubArray> effectiveSubarrays(const FusionGroup& g, const Hardware& hw);

// Adds a singleton group (named after the layer) for every compute layer not in a group,
// sorts each group's layers and orders groups topologically by their first layer.
void normalize(Schedule& s, const Network& net);

// Whether a group is a singleton created by normalize() with every setting at its default
// (such groups are not written to schedule files).
bool isImplicitGroup(const FusionGroup& g, const Network& net);

// --- constraints --------------------------------------------------------------------------

struct Violation {
    std::string where;   // "layer conv2", "group g0"
    std::string message; // the constraint and the values that break it
};

// Per-layer constraints (ConvFusion §III-C and docs/models/README.md): 1 <= T <= D per dim (per
// group for grouped convs), CL at or below SL for each array, SL_Y at or below SL_X and SL_W.
std::vector<Violation> checkLayer(const Network& net, LayerId id, const LayerSchedule& s);
// Group constraints: non-empty, compute layers only, each layer in one group, weakly
// connected and cycle-free (Optimus ISValid), partition fits the array and RF shares sum
// to at most 100 % per section, opaque layers never fused.
std::vector<Violation> checkGroup(const Network& net, const Hardware& hw, const FusionGroup& g);
std::vector<Violation> checkSchedule(const Network& net, const Hardware& hw, const Schedule& s);

} // namespace lf
