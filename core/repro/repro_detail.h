// Internals shared by the per-paper reproductions (core/repro/repro_*.cpp).
#pragma once

#include "repro/repro.h"

#include <string>

namespace lf::repro::detail {

// The values of one row; status and ratio follow from them (makeRow).
struct RowSpec {
    std::string id{}, where{}, measured{}, paper_text{};
    double paper = 0, ours = 0;
    std::string unit{};
    Relation relation = Relation::equal;
    double tolerance = 0;
    std::string tolerance_why{};
    std::string deviation{}; // why a close/differs row is not a match (one sentence)
    std::string setup{};
    std::optional<OpenTarget> open{};
};

Row makeRow(Paper paper, RowSpec spec);

// Bundled examples the reproductions rely on (they always load; a failure is a bug).
Network bundledNet(const char* name);
Hardware bundledHw(const char* name);

bool cancelled(const ReproOptions& opt);

// One reproduction per paper.
PaperReport reproduceConvFusion(const ReproOptions& opt);
PaperReport reproduceOptimus(const ReproOptions& opt);
PaperReport reproduceTso(const ReproOptions& opt);
PaperReport reproduceStoutchinin(const ReproOptions& opt);
PaperReport reproduceHwff(const ReproOptions& opt);

// Shortest decimal text of a value with `digits` significant digits ("0.0123", "1.2e+06").
std::string num(double v, int digits = 4);

} // namespace lf::repro::detail
