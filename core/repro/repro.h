// The five papers reproduced: every published figure the models can recompute, as a row
// beside the paper's own number, and every front or curve a paper draws, as plot data.
//
// A row quotes the paper's value exactly as printed (table/figure and section), gives
// LayerFuse's value computed by the same models the studio uses, their ratio, and a status:
// `match` within the tolerance the row states (and says why), `close` within 25 %, else
// `differs` — with the reason in one sentence (an ambiguity read differently, a baseline or
// machine the paper does not specify, a number the paper gives only roughly). Rows whose
// network, hardware and schedule can be opened in the studio carry them (OpenTarget).
//
// Qt-free: the CLI writes the report (text, JSON, HTML); the studio computes it on a worker
// thread (reproduce() polls `cancel`) and opens a row's target (loadTarget()). The plots are
// drawn by the views library (views/repro_plots) from the Plot data.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "util/result.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lf::repro {

enum class Paper : uint8_t { convfusion, optimus, tso, stoutchinin, hwff };
inline constexpr std::array<Paper, 5> kAllPapers{Paper::convfusion, Paper::optimus, Paper::tso,
                                                 Paper::stoutchinin, Paper::hwff};
const char* paperKey(Paper p);   // "convfusion", "optimus", "tso", "stoutchinin", "hwff"
const char* paperName(Paper p);  // "ConvFusion", "Optimus", ...
const char* paperTitle(Paper p); // authors, title, venue
std::optional<Paper> paperFromString(std::string_view s);

enum class RowStatus : uint8_t { match, close, differs };
const char* toString(RowStatus s);

// How the paper states its value: equal to it (within a relative tolerance), an upper bound
// ("less than 1 %"), a lower bound, or an order of magnitude ("around 5x10^3" on a log axis:
// the tolerance is then a factor, e.g. 2 = between half and twice the value). A `timing` row
// puts a run time measured on this machine beside the paper's: never a match, since it
// depends on the machine and its load, not on the models.
enum class Relation : uint8_t { equal, at_most, at_least, within_factor, timing };

// What "Open in studio" loads for a row.
struct OpenTarget {
    std::string network;                // bundled network short name
    std::string hardware;               // bundled preset the row starts from
    std::optional<Hardware> hw_changed; // the preset as the row changed it, when it did
    std::string hw_change;              // what was changed, e.g. "buffer 1536 KiB"
    std::optional<Schedule> schedule;   // empty: the default schedule
    std::string schedule_note;          // what the schedule is, e.g. "Optimus DP scheme"
};

struct Row {
    std::string id; // stable key, e.g. "tso.fig1.bursts-a"
    Paper paper = Paper::convfusion;
    std::string where;      // "Fig. 1, §I"
    std::string measured;   // what is measured
    std::string paper_text; // the paper's value exactly as printed ("1024", "~60%")
    double paper_value = 0;
    double ours = 0;
    std::string unit; // "bursts", "%", "µs", ...
    Relation relation = Relation::equal;
    double tolerance = 0;      // relative (|ours/paper − 1| ≤ tolerance), or a factor
    std::string tolerance_why; // why that tolerance
    RowStatus status = RowStatus::differs;
    std::string note;  // the reason of a close/differs row (one sentence); may say more
    std::string setup; // network, hardware, bounds the computation used
    std::optional<OpenTarget> open;
    // ours / paper (ours itself when the paper's value is 0).
    double ratio() const { return paper_value != 0 ? ours / paper_value : ours; }
};

struct Series {
    std::string name;
    std::vector<std::pair<double, double>> points;
    bool from_paper = false; // the paper's published points (drawn as markers)
    bool line = false;       // a curve (else a scatter)
};

struct Plot {
    std::string id; // file-safe, e.g. "convfusion-fig6-l2net"
    Paper paper = Paper::convfusion;
    std::string where; // "Fig. 6b"
    std::string title, x_label, y_label;
    bool log_x = false, log_y = false;
    std::vector<Series> series;
    // A bar chart when set: the x of every point is an index into the categories.
    std::vector<std::string> categories;
    std::string note; // bounds of the computation, what the paper's points are
};

struct PaperReport {
    Paper paper = Paper::convfusion;
    std::vector<Row> rows;
    std::vector<Plot> plots;
    std::vector<std::string> not_reproduced; // published figures left out, each with why
    double seconds = 0;
};

struct ReproOptions {
    const std::atomic<bool>* cancel = nullptr;
    // Called on the calling thread when a paper starts (done = false) and when it is
    // finished (done = true, with its report).
    std::function<void(Paper, bool done, const PaperReport*)> progress;
};

// Recomputes the rows and plots of the given papers (in that order). An empty report list
// when cancelled.
std::vector<PaperReport> reproduce(const std::vector<Paper>& papers, const ReproOptions& opt = {});

// Status of a value against the paper's under a relation and tolerance (close: within 25 %,
// or within 1.25 times the factor of a within_factor row).
RowStatus classify(double paper, double ours, Relation rel, double tolerance);

// The network, hardware and schedule of a row's target, ready to open.
struct OpenedTarget {
    Network network;
    Hardware hardware;
    Schedule schedule;
};
Result<OpenedTarget> loadTarget(const OpenTarget& t);

} // namespace lf::repro
