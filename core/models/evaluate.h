// core::evaluate — network + hardware + schedule -> Metrics (docs/models/README.md).
//
// Pure functions. The Evaluator keeps a by-value cache of group results so that, after an
// edit that changes one group, only that group is recomputed.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <memory>

namespace lf {

struct EvaluateOptions {
    // Latency: use the TSO burst-aware DRAM model (true) or bytes/bandwidth only.
    bool burst_aware = true;
};

// Evaluates a schedule. The schedule must be normalized (normalize()); invalid groups are
// still evaluated and carry warnings.
Metrics evaluate(const Network& net, const Hardware& hw, const Schedule& sched,
                 const EvaluateOptions& opt = {});

// The default schedule (docs/models/README.md, docs/file-formats.md): every compute layer its own
// group, tiles chosen greedily to fit the buffer.
Schedule defaultSchedule(const Network& net, const Hardware& hw);
// Default schedule of one layer when it is alone in its group.
LayerSchedule defaultLayerSchedule(const Network& net, const Hardware& hw, LayerId id);

// Incremental evaluation with a cache keyed by each group's value (its layers' dims and
// schedules, its settings and the hardware). Not thread-safe: one Evaluator per thread.
class IncrementalEvaluator {
  public:
    IncrementalEvaluator();
    ~IncrementalEvaluator();
    Metrics evaluate(const Network& net, const Hardware& hw, const Schedule& sched,
                     const EvaluateOptions& opt = {});
    // Groups recomputed by the last call (the rest came from the cache).
    int lastRecomputedGroups() const;
    void clear();

  private:
    struct Cache;
    std::unique_ptr<Cache> cache_;
};

} // namespace lf
