// The CSV of an explored front — the columns of `layerfuse-cli explore --csv`
// (docs/cli.md): point, dram_accesses, buffer_bytes, macs, recompute_macs,
// energy_pj, latency_cycles, fits, groups (the fused groups). One writer for every caller.
//
// Rows are streamed: points are costed (search/front_rows.h) and formatted in blocks on the
// pool's threads and written in order as the blocks complete, so memory stays bounded and a
// 200,000-point front is written in well under a second.
#pragma once

#include "search/explore_front.h" // frontCsvHeader()
#include "search/front_rows.h"

#include <atomic>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace lf {

class WorkPool;

// One row, numbered `index`, appended to `out` (with the line break).
void appendFrontCsvRow(std::string& out, size_t index, const FrontRow& row);

// Writes the header and the rows of front points `points` (numbered 0, 1, … in that order).
// Returns false when the stream failed or `cancel` became true.
bool writeFrontCsv(std::ostream& out, FrontRows& rows, const std::vector<size_t>& points,
                   WorkPool* pool = nullptr, const std::atomic<bool>* cancel = nullptr);

} // namespace lf
