// The loop dimensions a layer presents to the cost models (docs/models/README.md table):
// ConvFusion's D_x, D_y, D_z, D_i, D_m, D_n, S_x, S_y plus groups and the real input extent
// (padding is generated on chip and never moved, so every input window is clipped to it).
#pragma once

#include "network/network.h"

#include <algorithm>
#include <cstdint>

namespace lf {

// How an output window maps back to an input window along x / y.
enum class WindowKind : uint8_t {
    conv,     // (T-1)*S + E
    deconv,   // transposed conv: ceil((T-1+E)/S) input rows feed T output rows
    upsample, // resize by integer factor u: ceil(T/u) (+1 for bilinear)
};

struct LayerDims {
    int64_t Dx = 1, Dy = 1, Dz = 1, Di = 1; // output w, h, channels; input channels (all groups)
    int64_t Dm = 1, Dn = 1;                 // kernel taps in x (width) and y (height)
    int64_t Sx = 1, Sy = 1;                 // strides
    int64_t Em = 1, En = 1;                 // kernel extents with dilation
    int64_t G = 1;                          // groups: Di/G inputs feed Dz/G outputs
    int64_t in_w = 1, in_h = 1;             // real input extent (window clip)
    int32_t n_inputs = 1;                   // X arrays (element-wise layers: one per input)
    bool weights = true;                    // has a W array
    bool bilinear = false;
    WindowKind window = WindowKind::conv;
    int64_t up_x = 1, up_y = 1; // resize factor

    int64_t DiPerGroup() const { return Di / G; }
    int64_t DzPerGroup() const { return Dz / G; }

    // Input extent needed for T consecutive outputs along x / y, clipped to the input.
    int64_t windowX(int64_t T) const { return std::min(rawWindow(T, Sx, Em, up_x), in_w); }
    int64_t windowY(int64_t T) const { return std::min(rawWindow(T, Sy, En, up_y), in_h); }

    int64_t rawWindow(int64_t T, int64_t S, int64_t E, int64_t up) const {
        switch (window) {
        case WindowKind::conv:
            return (T - 1) * S + E;
        case WindowKind::deconv:
            return (T - 1 + E + S - 1) / S;
        case WindowKind::upsample:
            return (T + up - 1) / up + (bilinear ? 1 : 0);
        }
        return T;
    }
    friend bool operator==(const LayerDims&, const LayerDims&) = default;
};

LayerDims layerDims(const Network& net, LayerId id);

// Multiply-accumulates of one evaluation of the layer (0 for layers without weights).
int64_t layerMacs(const LayerDims& d);
// Other arithmetic (pool compares/adds, element-wise ops), reported as `ops`.
int64_t layerOps(const Network& net, LayerId id);
// Weight elements of the layer.
int64_t layerWeights(const LayerDims& d);

} // namespace lf
