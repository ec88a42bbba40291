// The value a search minimizes (search_types.h Objective), from the three figures it is
// made of. One definition for the tile optimizer, the Optimus DP, `layerfuse-cli optimize`
// and the studio's automation: DRAM accesses, energy in pJ, latency in cycles, or
// energy × latency (EDP).
#pragma once

#include "metrics/metrics.h"
#include "search/search_types.h"

namespace lf {

inline double objectiveValue(Objective o, double dramAccesses, double energyPj,
                             double latencyCycles) {
    switch (o) {
    case Objective::dram:
        return dramAccesses;
    case Objective::energy:
        return energyPj;
    case Objective::latency:
        return latencyCycles;
    case Objective::edp:
        return energyPj * latencyCycles;
    }
    return 0;
}

// Whether the objective needs the energy (costing it is the expensive part).
inline bool objectiveNeedsEnergy(Objective o) {
    return o == Objective::energy || o == Objective::edp;
}

// The objective of a whole evaluated network.
inline double objectiveValue(const Metrics& m, Objective o) {
    return objectiveValue(o, double(m.totals.dram_accesses), m.totals.energy.total(),
                          double(m.totals.latency_cycles));
}

} // namespace lf
