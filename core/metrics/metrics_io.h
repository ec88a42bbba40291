// Metrics as JSON (docs/cli.md `evaluate --format json`), CSV and a text table.
#pragma once

#include "metrics/metrics.h"
#include "metrics/units.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lf {

nlohmann::ordered_json metricsToJson(const Metrics& m);
std::string metricsToJsonText(const Metrics& m, int indent = 2);
// One row per layer plus one per group and a total row; header first.
std::string metricsToCsv(const Metrics& m);
// Human-readable summary table (units of metrics/units.h).
std::string metricsToTable(const Metrics& m);

} // namespace lf
