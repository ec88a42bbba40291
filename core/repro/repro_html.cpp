// The reproduction report as one self-contained HTML page (repro_report.h).
#include "repro/repro_detail.h"
#include "repro/repro_report.h"

#include <sstream>

namespace lf::repro {

using detail::num;

namespace {

std::string esc(const std::string& s) {
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            o += "&amp;";
            break;
        case '<':
            o += "&lt;";
            break;
        case '>':
            o += "&gt;";
            break;
        case '"':
            o += "&quot;";
            break;
        default:
            o += c;
        }
    }
    return o;
}

// An SVG document without its XML prolog, to sit inside the page.
std::string inlineSvg(const std::string& svg) {
    const size_t at = svg.find("<svg");
    return at == std::string::npos ? svg : svg.substr(at);
}

const char* kStyle = R"(<style>
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 110em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; width: 100%; }
th, td { border: 1px solid #ddd; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; white-space: nowrap; }
.match { background: #e3f4e1; } .close { background: #fbf3d5; } .differs { background: #f8e0dc; }
.small { color: #666; font-size: 0.85em; }
figure { display: inline-block; margin: 1em 1em 1em 0; vertical-align: top; max-width: 46em; }
figcaption { font-size: 0.85em; color: #444; }
</style>
)";

} // namespace

std::string reportHtml(const std::vector<PaperReport>& reports,
                       const std::map<std::string, std::string>& plot_svgs,
                       const std::string& plots_note,
                       const std::map<std::string, std::string>& schedule_files) {
    std::ostringstream h;
    const StatusCounts all = countStatuses(reports);
    h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>LayerFuse: the papers reproduced</title>\n"
      << kStyle << "</head>\n<body>\n<h1>The papers reproduced</h1>\n"
      << "<p>Every published figure LayerFuse's models recompute, beside the paper's own value. "
      << "<b>match</b>: within the tolerance the row states; <b>close</b>: within 25 %; "
      << "<b>differs</b>: the row says why. " << all.total() << " rows: " << all.match << " match, "
      << all.close << " close, " << all.differs << " differ.</p>\n";
    h << "<ul>\n";
    for (const PaperReport& p : reports)
        h << "<li><a href=\"#" << paperKey(p.paper) << "\">" << esc(summaryLine(p))
          << "</a></li>\n";
    h << "</ul>\n";
    for (const PaperReport& p : reports) {
        h << "<h2 id=\"" << paperKey(p.paper) << "\">" << esc(paperName(p.paper)) << "</h2>\n"
          << "<p class=\"small\">" << esc(paperTitle(p.paper)) << "</p>\n"
          << "<table>\n<tr><th>where</th><th>measured</th><th>paper</th><th>LayerFuse</th>"
          << "<th>ratio</th><th>status</th><th>tolerance / reason</th><th>setup</th></tr>\n";
        for (const Row& r : p.rows) {
            h << "<tr class=\"" << toString(r.status) << "\" id=\"" << esc(r.id) << "\">"
              << "<td>" << esc(r.where) << "</td><td>" << esc(r.measured) << "</td>"
              << "<td class=\"num\">" << esc(paperValueText(r)) << "</td>"
              << "<td class=\"num\">" << esc(oursText(r)) << "</td>"
              << "<td class=\"num\">" << num(r.ratio(), 3) << "</td>"
              << "<td>" << toString(r.status) << "</td><td>";
            if (r.status == RowStatus::match)
                h << esc(r.tolerance_why);
            else
                h << esc(r.note)
                  << "<br><span class=\"small\">match tolerance: " << esc(r.tolerance_why)
                  << "</span>";
            h << "</td><td class=\"small\">" << esc(r.setup);
            if (r.open) {
                h << "<br>open: " << esc(r.open->network) << " on " << esc(r.open->hardware);
                if (!r.open->hw_change.empty()) h << " (" << esc(r.open->hw_change) << ")";
                if (!r.open->schedule_note.empty()) h << ", " << esc(r.open->schedule_note);
                if (auto it = schedule_files.find(r.id); it != schedule_files.end())
                    h << " — <a href=\"" << esc(it->second) << "\">schedule</a>";
            }
            h << "</td></tr>\n";
        }
        h << "</table>\n";
        if (!p.not_reproduced.empty()) {
            h << "<p class=\"small\">Not reproduced:</p>\n<ul class=\"small\">\n";
            for (const std::string& s : p.not_reproduced)
                h << "<li>" << esc(s) << "</li>\n";
            h << "</ul>\n";
        }
        for (const Plot& pl : p.plots) {
            h << "<figure id=\"" << esc(pl.id) << "\">\n";
            if (auto it = plot_svgs.find(pl.id); it != plot_svgs.end()) {
                if (it->second.rfind("data:image/", 0) == 0)
                    h << "<img width=\"760\" alt=\"" << esc(pl.title) << "\" src=\"" << it->second
                      << "\">\n";
                else
                    h << inlineSvg(it->second) << "\n";
            } else
                h << "<p class=\"small\">[" << esc(plots_note) << "]</p>\n";
            h << "<figcaption><b>" << esc(pl.where) << "</b>: " << esc(pl.title);
            if (!pl.note.empty()) h << "<br>" << esc(pl.note);
            h << "</figcaption>\n</figure>\n";
        }
    }
    h << "</body>\n</html>\n";
    return h.str();
}

} // namespace lf::repro
