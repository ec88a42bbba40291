// A sweep (`layerfuse-cli sweep`, sweep/sweep_yaml.h): every network × hardware × hardware value
// × group strategy of a spec through the Optimus DP fuser (Optimus Alg. 1) with the spec's
// objective — what `layerfuse-cli optimize` does for one point — and one CSV row per point:
// the objective values of the chosen scheme and its fused groups.
#pragma once

#include "sweep/sweep_yaml.h"

#include <atomic>
#include <string>
#include <vector>

namespace lf {

class Distribution;
class WorkPool;

struct SweepPoint {
    size_t network = 0, hardware = 0;                              // indices into SweepInputs
    int64_t buffer_bytes = 0, pe_cols = 0, pe_rows = 0, batch = 0; // 0: the hardware's own
    Strategy strategy = Strategy::optimus;
};

// Networks outermost, then hardware, buffer, columns, rows, batch, strategy.
std::vector<SweepPoint> sweepPoints(const SweepSpec& spec, const SweepInputs& in);
// The point's hardware: the preset with the point's values.
Hardware sweepHardware(const Hardware& base, const SweepPoint& p);

std::string sweepCsvHeader(); // with the line break
// Runs one point; its row with the line break.
std::string sweepCsvRow(const SweepSpec& spec, const SweepInputs& in, const SweepPoint& p);

// Every point's row, in point order: this process's share (search/distribution.h, by network
// size) on the pool's threads; with a distribution the root returns all rows, the others none.
// Rows of points not run because `cancel` became true are empty.
std::vector<std::string> runSweep(const SweepSpec& spec, const SweepInputs& in, WorkPool* pool,
                                  Distribution* dist = nullptr,
                                  const std::atomic<bool>* cancel = nullptr);

} // namespace lf
