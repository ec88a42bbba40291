// `layerfuse-cli reproduce [PAPER|all] [--format text|json|html] [-o DIR]` — the five papers'
// published figures recomputed beside the printed values (core/repro/repro.h). A progress
// line per paper goes to stderr. With -o DIR the report is written to DIR/reproduce.<ext>
// and every row's schedule to DIR/schedules/<row>.sched.yaml (inline hardware when the row
// changed the preset). The HTML holds the plots as inline SVG when this binary is built
// with the studio (Qt Charts, views/repro_plots); otherwise it says so.
#include "cli_output.h"
#include "commands.h"

#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "repro/repro.h"
#include "repro/repro_report.h"
#include "util/atomic_file.h"

#ifdef LAYERFUSE_REPRO_PLOTS
#include "repro_plots/repro_plots.h"
#endif

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

namespace lf::cli {

namespace {

// Row id → schedule file (relative to the report), for rows that can be opened.
std::map<std::string, std::string> writeSchedules(const std::vector<repro::PaperReport>& reports,
                                                  const std::filesystem::path& dir,
                                                  std::string& error) {
    std::map<std::string, std::string> files;
    std::error_code ec;
    std::filesystem::create_directories(dir / "schedules", ec);
    for (const auto& p : reports)
        for (const auto& r : p.rows) {
            if (!r.open) continue;
            auto t = repro::loadTarget(*r.open);
            if (!t) {
                error = r.id + ": " + t.error().toString();
                return {};
            }
            ScheduleWriteOptions wo;
            wo.inline_hardware = r.open->hw_changed.has_value();
            const std::string rel = "schedules/" + r.id + ".sched.yaml";
            const Status written = writeFileAtomically(
                (dir / rel).string(), writeScheduleYaml(t->network, t->hardware, t->schedule, wo));
            if (!written) {
                error = written.error().toString();
                return {};
            }
            files[r.id] = rel;
        }
    return files;
}

} // namespace

Runner addReproduceCommand(CLI::App& app) {
    struct Opts {
        std::string paper{"all"}, format{"text"}, out;
    };
    auto o = std::make_shared<Opts>();
    auto* sub = app.add_subcommand(
        "reproduce", "Recompute the five papers' published figures beside the printed values");
    sub->add_option("PAPER", o->paper, "convfusion, optimus, tso, stoutchinin, hwff or all")
        ->check(CLI::IsMember({"all", "convfusion", "optimus", "tso", "stoutchinin", "hwff"}))
        ->capture_default_str();
    sub->add_option("--format", o->format, "Report format")
        ->check(CLI::IsMember({"text", "json", "html"}))
        ->capture_default_str();
    sub->add_option("-o,--output", o->out,
                    "Directory for reproduce.<format> and the rows' schedules (default: the "
                    "report on standard output)");
    return [o]() {
        std::vector<repro::Paper> papers;
        if (o->paper == "all")
            papers.assign(repro::kAllPapers.begin(), repro::kAllPapers.end());
        else
            papers.push_back(*repro::paperFromString(o->paper));
        repro::ReproOptions ro;
        ro.progress = [](repro::Paper, bool done, const repro::PaperReport* r) {
            if (done) std::cerr << "reproduce: " << repro::summaryLine(*r) << std::endl;
        };
        const std::vector<repro::PaperReport> reports = repro::reproduce(papers, ro);

        std::map<std::string, std::string> schedules;
        std::filesystem::path dir;
        if (!o->out.empty()) {
            dir = o->out;
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            if (ec) {
                printError(o->out + ": " + ec.message());
                return int(kBadInput);
            }
            std::string error;
            schedules = writeSchedules(reports, dir, error);
            if (!error.empty()) {
                printError(error);
                return int(kBadInput);
            }
        }
        std::string text;
        if (o->format == "json") {
            text = repro::reportJson(reports, schedules).dump(1) + "\n";
        } else if (o->format == "html") {
            std::map<std::string, std::string> svgs;
            std::string note = "plots need a layerfuse-cli built with the studio (Qt Charts); "
                               "the plot data is in the JSON report";
#ifdef LAYERFUSE_REPRO_PLOTS
            svgs = repro::renderPlots(reports);
            note = "this plot could not be drawn";
#endif
            text = repro::reportHtml(reports, svgs, note, schedules);
        } else {
            text = repro::reportText(reports);
        }
        if (o->out.empty()) return writeOutput("-", text) ? int(kOk) : int(kBadInput);
        const auto file =
            dir / ("reproduce." + (o->format == "text" ? std::string("txt") : o->format));
        if (!writeOutput(file.string(), text)) return int(kBadInput);
        std::cerr << "reproduce: wrote " << file.string() << "\n";
        return int(kOk);
    };
}

} // namespace lf::cli
