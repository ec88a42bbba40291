// What evaluate() reports for the points of an explored front (search/pareto.h), without
// building each point's schedule.
//
// A front point is a set of segments, each one fusion group of the point's schedule, and
// evaluate() costs every group on its own (its layers' schedules and the hardware) before
// adding them up; only the energy depends on the whole schedule, through the network's peak
// buffer that sizes the SRAM (ConvFusion §VII). So each (segment, segment point) is costed
// once — the group's latency, recompute and energy counts — and a row adds its groups'
// figures in evaluate's order (groups by first layer, layers in group order), which gives
// exactly evaluate()'s totals, energy bit for bit. Schedules are built only for the points
// asked for (ExploreResult::schedule).
#pragma once

#include "hardware/hardware.h"
#include "models/evaluate.h"
#include "network/network.h"
#include "search/pareto.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace lf {

class WorkPool;

// One front point with evaluate()'s figures for its schedule.
struct FrontRow {
    ExplorePoint point;         // DRAM accesses, buffer, MACs as the exploration found them
    int64_t recompute_macs = 0; // evaluate()'s totals for the point's schedule
    double energy_pj = 0;
    int64_t latency_cycles = 0;
    double latency_s = 0;
    int groups = 0;       // fusion groups of the schedule
    int fused_groups = 0; // of them, groups of more than one layer
    bool fits = false;    // the point's buffer fits the hardware's
};

class FrontRows {
  public:
    FrontRows(const Network& net, const Hardware& hw, const ExploreResult& result,
              const EvaluateOptions& opt = {});
    ~FrontRows();

    // Costs the groups the given front points use (those not costed yet), on `pool`: each
    // thread takes points and costs the groups no thread has claimed yet.
    void prepare(const std::vector<size_t>& points, WorkPool* pool = nullptr);
    // The row of front point k; prepare() must have covered k. Thread-safe.
    FrontRow row(size_t k) const;

  private:
    struct Group;
    const Network& net_;
    const Hardware& hw_;
    const ExploreResult& result_;
    EvaluateOptions opt_;
    Schedule base_; // the default schedule the groups are written into
    // Per segment, per point of its front: the group, once costed, and whether a thread has
    // claimed it.
    std::vector<std::vector<std::unique_ptr<Group>>> groups_;
    std::vector<std::unique_ptr<std::atomic<bool>[]>> claimed_;
};

} // namespace lf
