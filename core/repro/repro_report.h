// The reproduction report as text, JSON and HTML (core/repro/repro.h). Qt-free: the HTML
// takes the plots as ready SVG documents (drawn by views/repro_plots when the studio is
// built) and says so when there are none.
#pragma once

#include "repro/repro.h"

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace lf::repro {

// Counts of the rows by status.
struct StatusCounts {
    int match = 0, close = 0, differs = 0;
    int total() const { return match + close + differs; }
};
StatusCounts countStatuses(const std::vector<Row>& rows);
StatusCounts countStatuses(const std::vector<PaperReport>& reports);

// The paper's value with its unit, and ours formatted to the paper's precision.
std::string paperValueText(const Row& r);
std::string oursText(const Row& r);

// One line per paper: "ConvFusion: 12 rows (8 match, 2 close, 2 differ), 3.4 s".
std::string summaryLine(const PaperReport& r);

// Aligned text table, one block per paper.
std::string reportText(const std::vector<PaperReport>& reports);

// JSON document (fields: papers[paper, name, title, seconds, rows[...], plots[...],
// not_reproduced[...]], summary). `schedule_files` maps row ids to schedule files written
// next to the report (-o DIR), listed under each row's "open".
nlohmann::json reportJson(const std::vector<PaperReport>& reports,
                          const std::map<std::string, std::string>& schedule_files = {});

// Self-contained HTML: the rows per paper and every plot from `plot_svgs` (by plot id: an SVG
// document, inlined, or a data: URL of a PNG); `plots_note` is shown when a plot has no image
// (e.g. layerfuse-cli built without the studio).
std::string reportHtml(const std::vector<PaperReport>& reports,
                       const std::map<std::string, std::string>& plot_svgs,
                       const std::string& plots_note,
                       const std::map<std::string, std::string>& schedule_files = {});

} // namespace lf::repro
