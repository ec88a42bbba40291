// "Why this number": every figure of a layer and a group broken into the terms of the
// formula that produced it, with the reason each loop contributes what it does and the
// equation it comes from (ConvFusion §IV for layers; HWFF Eq. 5, 6, 8 and
// Optimus Eq. 3, 4 for groups under those strategies).
//
// The terms are computed by the same rules as the models, independently written, and a
// test checks that the products equal the models' values for every schedule.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

struct FormulaTerm {
    std::string symbol; // e.g. "T_i", "D_n", "((T_x−1)·S_x + D_m)", "⌈D_y/T_y⌉"
    int64_t value = 0;
    std::string why; // e.g. "loop yi is below the store level of X: one tile"
};

struct Formula {
    std::string name;               // "Buf_X"
    std::string source;             // "ConvFusion §IV-B2"
    std::vector<FormulaTerm> terms; // multiplied (or summed when `sum` is set)
    bool sum = false;
    int64_t value = 0; // the model's value
    std::string unit;  // "elements", "transfers", "MACs"
    // "Buf_X = T_i · D_n · ((T_x−1)·S_x + D_m) = 4 · 3 · 6 = 72"
    std::string text() const;
};

struct LayerExplanation {
    LayerId id = kNoLayer;
    bool fused = false;      // evaluated as a producer inside a recompute segment
    int64_t productions = 1; // P_k of ConvFusion §IV-E
    std::vector<Formula> formulas;
    // DRAM reload factors over the compulsory minimum (each element moved once).
    double reload_x = 0, reload_w = 0;
    int64_t compulsory_x = 0, compulsory_w = 0;
    std::vector<std::string> notes;
    const Formula* find(std::string_view name) const;
};

// The ConvFusion breakdown of a layer as the evaluation of its group sees it (substituted
// dims and productions when it is a fused producer under `recompute`).
LayerExplanation explainLayer(const Network& net, const Hardware& hw, const Schedule& sched,
                              LayerId id);

struct GroupExplanation {
    std::vector<Formula> formulas;
    std::vector<std::string> notes;
    const Formula* find(std::string_view name) const;
};

// The strategy-level formulas of a group: recompute (P_k per layer, segment MACs and
// traffic), reuse (HWFF Eq. 5 fusion buffer, HWFF Eq. 8 reuse buffers, HWFF Eq. 6 traffic), optimus
// (Optimus Eq. 3 memory cost, Optimus Eq. 4 tile).
GroupExplanation explainGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                              int groupIndex);

} // namespace lf
