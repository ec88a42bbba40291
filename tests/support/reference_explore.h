// The network exploration as it was before it became parallel and batched (search/pareto.h,
// segment_search.h): one thread, an archive per demand that compares every new point with the
// kept ones, FastLayer::eval per schedule, every candidate pair of a combination step formed and
// Pareto-filtered at once. Kept unchanged as the exact reference the fast search must equal —
// the same front and, of equal points, the same schedules.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "search/pareto.h"

#include <array>
#include <cstdint>
#include <vector>

namespace lf::test {

struct ReferencePoint {
    std::array<int64_t, 3> cost; // DRAM accesses, buffer bytes, MACs
    // The point's segments: layers, each layer's schedule, weights resident.
    struct Part {
        std::vector<LayerId> layers;
        std::vector<LayerSchedule> schedules;
        bool resident = false;
    };
    std::vector<Part> parts; // by first layer
};

// The front of the recompute strategy in the order of ExploreResult::front.
std::vector<ReferencePoint> referenceExplore(const Network& net, const Hardware& hw,
                                             const ExploreOptions& opt);

// The same points as an ExploreResult's front, for comparison.
std::vector<ReferencePoint> referencePointsOf(const ExploreResult& r);

} // namespace lf::test
