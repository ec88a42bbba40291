#include "teaching/unchanged_figures.h"

#include "models/convfusion.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>

namespace lf {

bool sameFigures(const Metrics& a, const Metrics& b) {
    auto sameGroup = [](const GroupMetrics& x, const GroupMetrics& y) {
        return x.macs == y.macs && x.recompute_macs == y.recompute_macs && x.dram == y.dram &&
               x.buffer_bytes == y.buffer_bytes && x.latency_cycles == y.latency_cycles &&
               x.energy == y.energy;
    };
    const Totals &s = a.totals, &t = b.totals;
    if (s.macs != t.macs || s.recompute_macs != t.recompute_macs || s.dram != t.dram ||
        s.buffer_peak_bytes != t.buffer_peak_bytes || s.latency_cycles != t.latency_cycles ||
        !(s.energy == t.energy) || a.groups.size() != b.groups.size())
        return false;
    for (size_t g = 0; g < a.groups.size(); ++g)
        if (!sameGroup(a.groups[g], b.groups[g])) return false;
    return true;
}

namespace {

std::string dimName(Dim d) {
    return std::string(1, dimChar(d));
}

// Iterations of each outer tile loop of a layer: ⌈D/T⌉ with the tiles the model uses
// (ConvFusion Code 2; a fused producer's T_i is D_i, ConvFusion §IV-E).
std::array<int64_t, 4> loopTrips(const Network& net, const Schedule& s, LayerId id) {
    const LayerDims d = layerDims(net, id);
    const int gi = s.groupOf(id);
    const bool fused = gi >= 0 && s.groups[size_t(gi)].layers.size() > 1 &&
                       s.groups[size_t(gi)].layers.back() != id;
    const auto T = effectiveTiles(d, s.layers[size_t(id)], fused);
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    std::array<int64_t, 4> trips{};
    for (size_t k = 0; k < 4; ++k)
        trips[k] = ceilDiv(std::max<int64_t>(1, D[k]), std::max<int64_t>(1, T[k]));
    return trips;
}

std::string orderReason(const Network& net, const Schedule& after, LayerId id) {
    const int gi = after.groupOf(id);
    const FusionGroup* g = gi >= 0 ? &after.groups[size_t(gi)] : nullptr;
    const bool fusedGroup = g && g->layers.size() > 1;
    if (fusedGroup && g->strategy == Strategy::optimus)
        return "Its group runs under optimus: the cost follows Optimus Eq. 3 and Optimus Eq. 4, in "
               "which "
               "no layer's loop order appears.";
    if (fusedGroup && g->strategy == Strategy::reuse)
        return "Its group runs under reuse: HWFF Eq. 1-3 fix the order (output reuse, partial "
               "sums stay on chip), so the layer's loop order does not enter.";
    const auto trips = loopTrips(net, after, id);
    std::vector<Dim> moving;
    for (Dim d : kAllDims)
        if (trips[size_t(d)] > 1) moving.push_back(d);
    if (moving.empty())
        return "Every loop runs once: the tiles are the full dimensions, so the order cannot "
               "change reuse.";
    if (moving.size() == 1)
        return "Only the " + dimName(moving.front()) + " loop runs more than once (" +
               std::to_string(trips[size_t(moving.front())]) +
               " times); the loops that run once cannot change reuse, wherever they are.";
    return {};
}

std::string tileReason(const Schedule& after, LayerId id) {
    const int gi = after.groupOf(id);
    if (gi < 0) return {};
    const FusionGroup& g = after.groups[size_t(gi)];
    if (g.layers.size() < 2) return {};
    if (g.strategy == Strategy::optimus)
        return g.out_tile ? "Its group runs under optimus with a fixed output tile: the layers' "
                            "tiles follow from it (Optimus §5.2), not from their own settings."
                          : "Its group runs under optimus: the output tile is chosen by "
                            "Optimus Eq. 4 and the layers' tiles follow from it, not from their "
                            "own settings.";
    if (g.strategy == Strategy::reuse && (g.out_tile || id != g.layers.back()))
        return "Its group runs under reuse: only the group's output tile counts (HWFF Eq. 4 "
               "traces it back), and each layer keeps whole channels (HWFF Eq. 5).";
    return {};
}

} // namespace

std::string whyUnchanged(const Network& net, const Schedule& before, const Schedule& after) {
    if (before.layers.size() != after.layers.size()) return {};
    if (before.groups != after.groups) {
        if (before.groups.size() != after.groups.size()) return {};
        for (size_t k = 0; k < before.groups.size(); ++k) {
            const FusionGroup &a = before.groups[k], &b = after.groups[k];
            if (a == b) continue;
            FusionGroup tileOnly = a;
            tileOnly.out_tile = b.out_tile;
            if (tileOnly == b && b.strategy == Strategy::recompute)
                return "The output tile applies to reuse and optimus groups; under recompute the "
                       "last layer's own tiles set it (ConvFusion §IV-E).";
            FusionGroup residentOnly = a;
            residentOnly.weights_resident = b.weights_resident;
            if (residentOnly == b && b.strategy == Strategy::reuse)
                return "Under reuse every weight is loaded once anyway (HWFF Eq. 6), so keeping "
                       "them on chip changes nothing.";
        }
        return {};
    }
    LayerId edited = kNoLayer;
    for (size_t id = 0; id < after.layers.size(); ++id)
        if (!(before.layers[id] == after.layers[id])) {
            if (edited != kNoLayer) return {}; // more than one layer changed
            edited = LayerId(id);
        }
    if (edited == kNoLayer || !isCompute(net.layer(edited).type)) return {};
    const LayerSchedule &a = before.layers[size_t(edited)], &b = after.layers[size_t(edited)];
    LayerSchedule onlyOrder = a;
    onlyOrder.order = b.order;
    if (onlyOrder == b) return orderReason(net, after, edited);
    LayerSchedule onlyTiles = a;
    onlyTiles.tile = b.tile;
    if (onlyTiles == b) return tileReason(after, edited);
    return {};
}

} // namespace lf
