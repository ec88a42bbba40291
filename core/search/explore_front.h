// The explored network front with what evaluate() reports for each point's schedule: the
// rows the Explore dialog shows and the CSV that it and `layerfuse-cli explore --csv` write
// (columns in docs/cli.md).
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "search/pareto.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lf {

struct ExploreFrontRow {
    ExplorePoint point;         // DRAM accesses, buffer, MACs as the exploration found them
    int64_t recompute_macs = 0; // from evaluate() of the point's schedule
    double energy_pj = 0;
    int64_t latency_cycles = 0;
    double latency_s = 0;
    int groups = 0;       // fusion groups of the schedule
    int fused_groups = 0; // of them, groups of more than one layer
    bool fits = false;    // the point's buffer fits the hardware's
};

// The row of one front point from the metrics of its schedule.
ExploreFrontRow frontRow(const ExplorePoint& point, const Metrics& metrics, const Hardware& hw);

// Evaluates the schedule of every front point, reporting progress from `from` to 1 of the
// control's range; stops early (fewer rows) when the control is cancelled.
std::vector<ExploreFrontRow> evaluateFront(const Network& net, const Hardware& hw,
                                           const ExploreResult& result,
                                           const SearchControl& control = {}, double from = 0);

// point,dram_accesses,buffer_bytes,macs,recompute_macs,energy_pj,latency_cycles,fits,groups
// (groups = fused groups), one row per front point; each line ends with '\n'.
std::string frontCsvHeader();
std::string frontCsvRow(size_t point, const ExploreFrontRow& row);
std::string frontCsv(const std::vector<ExploreFrontRow>& rows);

} // namespace lf
