// Studio states for the tests of views/ and app/ (header-only: only they see views/): a
// network on a hardware preset with a schedule and the metrics evaluate() gives it, as the
// Evaluator would publish them.
#pragma once

#include "models/evaluate.h"
#include "studio_state.h"
#include "test_support.h"

#include <memory>

namespace lf::test {

inline StudioState evaluatedState(const Network& net, const Hardware& hw, Schedule schedule) {
    StudioState s;
    s.network = net;
    s.hardware = hw;
    normalize(schedule, net);
    s.schedule = std::move(schedule);
    s.metrics = std::make_shared<const Metrics>(evaluate(s.network, s.hardware, s.schedule));
    return s;
}

// A bundled network on a bundled preset with its default schedule.
inline StudioState defaultState(const char* network, const char* hardware = "hwff-config-1") {
    const Network net = bundledNetwork(network);
    const Hardware hw = bundledHardware(hardware);
    return evaluatedState(net, hw, defaultSchedule(net, hw));
}

// The worked example of docs/models/convfusion.md on convfusion-40nm: L2Net's conv2 with
// order z, y, x, i, every tile 4, X and Y stored and computed at yi, W at the tile level.
inline StudioState workedExampleState() {
    const Network net = bundledNetwork("l2net");
    const Hardware hw = bundledHardware("convfusion-40nm");
    Schedule s = defaultSchedule(net, hw);
    LayerSchedule& ls = s.layers[size_t(net.find("conv2"))];
    ls.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    ls.tile = {4, 4, 4, 4};
    ls.store = {Level::l2, Level::l2, Level::tile}; // X, Y at yi; W at the tile
    ls.compute = ls.store;
    return evaluatedState(net, hw, std::move(s));
}

// L3Net (22×22×3 → conv1 20×20×4 → conv2 18×18×4 → conv3 16×16×4, all 3×3 stride 1) with
// its three convolutions in one group "all" under `strategy`, output tile 4 × 4.
inline StudioState l3netFusedState(Strategy strategy, const char* hardware) {
    const Network net = bundledNetwork("l3net");
    const Hardware hw = bundledHardware(hardware);
    Schedule s = defaultSchedule(net, hw);
    const auto ids = net.computeIds();
    FusionGroup g;
    g.name = "all";
    g.layers = {ids[0], ids[1], ids[2]};
    g.strategy = strategy;
    g.out_tile = OutputTile{4, 4};
    s.groups = {g};
    return evaluatedState(net, hw, std::move(s));
}

// The selection of one layer, by name.
inline StudioSelection layerSelection(const StudioState& s, const char* name) {
    StudioSelection sel;
    sel.layers = {s.network.find(name)};
    return sel;
}

} // namespace lf::test
