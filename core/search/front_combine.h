// The combination step of the network exploration (ConvFusion §V-A steps 3-4;
// docs/models/convfusion.md): the front of a union of pairwise combinations A ⊕ B, where DRAM
// accesses and MACs add and the buffer is the larger of the two, in parallel.
//
// Only the pairs sumMaxFrontPairs visits are formed (search/pareto_filter.h). Their walk is
// cut into runs of fixed length; each run is costed and reduced to its own front on a worker
// thread, and the runs' fronts are merged: cut into chunks of the buffer range, each
// filtered on a thread of its own, then checked against the earlier chunks' staircase. The
// result is the front of all those pairs, and of equal pairs the first in walk order (inputs
// in order) — exactly what one thread walking every pair would keep, whatever the number of
// threads.
#pragma once

#include "search/pareto_filter.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace lf {

class WorkPool;

struct CombineInput {
    const std::vector<FrontCost>* a = nullptr;
    const std::vector<FrontCost>* b = nullptr;
    // orderByBits(*a) and orderByBits(*b) when the caller has them (else made here).
    const std::vector<uint32_t>* a_order = nullptr;
    const std::vector<uint32_t>* b_order = nullptr;
};

struct CombinedPoint {
    FrontCost cost;
    uint32_t input = 0, a = 0, b = 0; // which input and which of its A and B points
};

// The front of ∪ over inputs of A ⊕ B, in lexicographic order of (accesses, buffer, MACs).
// Pairs whose sums overflow 64 bits are skipped. `pairs` (optional) receives the number of
// pairs costed. Returns early (with what it has) when `cancel` becomes true. `bitsOrder`
// (optional) receives orderByBits() of the result, which the combination knows without a sort.
std::vector<CombinedPoint> combineFronts(const std::vector<CombineInput>& inputs, WorkPool* pool,
                                         int64_t* pairs = nullptr,
                                         const std::atomic<bool>* cancel = nullptr,
                                         std::vector<uint32_t>* bitsOrder = nullptr);

} // namespace lf
