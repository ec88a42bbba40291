#include "repro/repro_report.h"

#include "repro/repro_detail.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lf::repro {

using detail::num;

StatusCounts countStatuses(const std::vector<Row>& rows) {
    StatusCounts c;
    for (const Row& r : rows) {
        if (r.status == RowStatus::match) ++c.match;
        if (r.status == RowStatus::close) ++c.close;
        if (r.status == RowStatus::differs) ++c.differs;
    }
    return c;
}

StatusCounts countStatuses(const std::vector<PaperReport>& reports) {
    StatusCounts c;
    for (const PaperReport& p : reports) {
        const StatusCounts k = countStatuses(p.rows);
        c.match += k.match;
        c.close += k.close;
        c.differs += k.differs;
    }
    return c;
}

namespace {

std::string withUnit(const std::string& v, const std::string& unit) {
    if (unit.empty()) return v;
    if (unit == "%") return v + "%";
    return v + " " + unit;
}

// Significant digits of the paper's printed value (at least 3 for ours).
int digitsOf(double paper) {
    if (paper == 0) return 3;
    const double a = std::fabs(paper);
    if (std::floor(a) == a && a >= 100) return std::max(3, int(std::log10(a)) + 1);
    return 4;
}

const char* relationName(Relation r) {
    switch (r) {
    case Relation::equal:
        return "equal";
    case Relation::at_most:
        return "at_most";
    case Relation::at_least:
        return "at_least";
    case Relation::within_factor:
        return "within_factor";
    case Relation::timing:
        return "timing";
    }
    return "?";
}

std::string pad(const std::string& s, size_t w) {
    // Width in code points, so that "µ" and "×" count once.
    size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n + 2 > w ? s + "  " : s + std::string(w - n, ' ');
}

} // namespace

std::string paperValueText(const Row& r) {
    return r.paper_text;
}

std::string oursText(const Row& r) {
    return withUnit(num(r.ours, digitsOf(r.paper_value)), r.unit);
}

std::string summaryLine(const PaperReport& r) {
    const StatusCounts c = countStatuses(r.rows);
    std::ostringstream s;
    s << paperName(r.paper) << ": " << c.total() << " rows (" << c.match << " match, " << c.close
      << " close, " << c.differs << " differ), " << r.plots.size() << " plots, "
      << num(r.seconds, 3) << " s";
    return s.str();
}

std::string reportText(const std::vector<PaperReport>& reports) {
    std::ostringstream out;
    for (const PaperReport& p : reports) {
        out << paperName(p.paper) << " — " << paperTitle(p.paper) << "\n"
            << summaryLine(p) << "\n\n";
        size_t wWhere = 5, wPaper = 5, wOurs = 4;
        for (const Row& r : p.rows) {
            wWhere = std::max(wWhere, r.where.size());
            wPaper = std::max(wPaper, paperValueText(r).size());
            wOurs = std::max(wOurs, oursText(r).size());
        }
        wWhere = std::min<size_t>(wWhere, 28);
        wPaper = std::min<size_t>(wPaper, 30);
        out << "  " << pad("status", 9) << pad("where", wWhere + 2) << pad("paper", wPaper + 2)
            << pad("ours", wOurs + 2) << pad("ratio", 8) << "measured\n";
        for (const Row& r : p.rows) {
            out << "  " << pad(toString(r.status), 9) << pad(r.where, wWhere + 2)
                << pad(paperValueText(r), wPaper + 2) << pad(oursText(r), wOurs + 2)
                << pad(num(r.ratio(), 3), 8) << r.measured << "\n";
            if (!r.note.empty()) out << "  " << std::string(9, ' ') << "why: " << r.note << "\n";
        }
        for (const std::string& s : p.not_reproduced)
            out << "  not reproduced: " << s << "\n";
        out << "\n";
    }
    const StatusCounts c = countStatuses(reports);
    out << "Total: " << c.total() << " rows, " << c.match << " match, " << c.close << " close, "
        << c.differs << " differ\n";
    return out.str();
}

nlohmann::json reportJson(const std::vector<PaperReport>& reports,
                          const std::map<std::string, std::string>& schedule_files) {
    nlohmann::json papers = nlohmann::json::array();
    for (const PaperReport& p : reports) {
        nlohmann::json rows = nlohmann::json::array();
        for (const Row& r : p.rows) {
            nlohmann::json j{{"id", r.id},
                             {"where", r.where},
                             {"measured", r.measured},
                             {"paper_text", r.paper_text},
                             {"paper_value", r.paper_value},
                             {"ours", r.ours},
                             {"unit", r.unit},
                             {"ratio", r.ratio()},
                             {"relation", relationName(r.relation)},
                             {"tolerance", r.tolerance},
                             {"tolerance_why", r.tolerance_why},
                             {"status", toString(r.status)},
                             {"note", r.note},
                             {"setup", r.setup}};
            if (r.open) {
                nlohmann::json o{{"network", r.open->network},
                                 {"hardware", r.open->hardware},
                                 {"hardware_change", r.open->hw_change},
                                 {"schedule", r.open->schedule_note}};
                if (auto it = schedule_files.find(r.id); it != schedule_files.end())
                    o["schedule_file"] = it->second;
                j["open"] = std::move(o);
            }
            rows.push_back(std::move(j));
        }
        nlohmann::json plots = nlohmann::json::array();
        for (const Plot& pl : p.plots) {
            nlohmann::json series = nlohmann::json::array();
            for (const Series& s : pl.series) {
                nlohmann::json pts = nlohmann::json::array();
                for (const auto& [x, y] : s.points)
                    pts.push_back({x, y});
                series.push_back({{"name", s.name},
                                  {"from_paper", s.from_paper},
                                  {"line", s.line},
                                  {"points", std::move(pts)}});
            }
            plots.push_back({{"id", pl.id},
                             {"where", pl.where},
                             {"title", pl.title},
                             {"x_label", pl.x_label},
                             {"y_label", pl.y_label},
                             {"log_x", pl.log_x},
                             {"log_y", pl.log_y},
                             {"note", pl.note},
                             {"series", std::move(series)}});
        }
        const StatusCounts c = countStatuses(p.rows);
        papers.push_back(
            {{"paper", paperKey(p.paper)},
             {"name", paperName(p.paper)},
             {"title", paperTitle(p.paper)},
             {"seconds", p.seconds},
             {"counts", {{"match", c.match}, {"close", c.close}, {"differs", c.differs}}},
             {"rows", std::move(rows)},
             {"plots", std::move(plots)},
             {"not_reproduced", p.not_reproduced}});
    }
    const StatusCounts c = countStatuses(reports);
    return {
        {"format", "layerfuse/reproduce@1"},
        {"papers", std::move(papers)},
        {"summary",
         {{"rows", c.total()}, {"match", c.match}, {"close", c.close}, {"differs", c.differs}}}};
}

} // namespace lf::repro
