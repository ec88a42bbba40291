#include "repro/repro.h"

#include "examples/bundled.h"
#include "models/evaluate.h"
#include "repro/repro_detail.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace lf::repro {

const char* paperKey(Paper p) {
    switch (p) {
    case Paper::convfusion:
        return "convfusion";
    case Paper::optimus:
        return "optimus";
    case Paper::tso:
        return "tso";
    case Paper::stoutchinin:
        return "stoutchinin";
    case Paper::hwff:
        return "hwff";
    }
    return "?";
}

const char* paperName(Paper p) {
    switch (p) {
    case Paper::convfusion:
        return "ConvFusion";
    case Paper::optimus:
        return "Optimus";
    case Paper::tso:
        return "TSO";
    case Paper::stoutchinin:
        return "Stoutchinin";
    case Paper::hwff:
        return "HW-Flow-Fusion";
    }
    return "?";
}

const char* paperTitle(Paper p) {
    switch (p) {
    case Paper::convfusion:
        return "Waeijen, Sioutas, Peemen, Lindwer, Corporaal: ConvFusion: A Model for Layer "
               "Fusion in Convolutional Neural Networks. IEEE Access 9, 2021";
    case Paper::optimus:
        return "Cai, Wang, Zhang: Optimus: An Operator Fusion Framework for Deep Neural "
               "Networks. ACM TECS 22(1), 2022";
    case Paper::tso:
        return "Sousa, Jung, Kwak, Frank, Araujo: Efficient Tensor Slicing for Multicore NPUs "
               "using Memory Burst Modeling";
    case Paper::stoutchinin:
        return "Stoutchinin, Conti, Benini: Optimally Scheduling CNN Convolutions for "
               "Efficient Memory Access";
    case Paper::hwff:
        return "Valpreda et al.: HW-Flow-Fusion: Inter-Layer Scheduling for Convolutional "
               "Neural Network Accelerators with Dataflow Architectures. Electronics 11, 2022";
    }
    return "?";
}

std::optional<Paper> paperFromString(std::string_view s) {
    for (Paper p : kAllPapers)
        if (s == paperKey(p)) return p;
    return std::nullopt;
}

const char* toString(RowStatus s) {
    switch (s) {
    case RowStatus::match:
        return "match";
    case RowStatus::close:
        return "close";
    case RowStatus::differs:
        return "differs";
    }
    return "?";
}

RowStatus classify(double paper, double ours, Relation rel, double tolerance) {
    if (!std::isfinite(ours) || rel == Relation::timing) return RowStatus::differs;
    if (rel == Relation::within_factor) {
        if (paper <= 0 || ours <= 0) return RowStatus::differs;
        const double r = std::max(ours / paper, paper / ours);
        return r <= tolerance          ? RowStatus::match
               : r <= 1.25 * tolerance ? RowStatus::close
                                       : RowStatus::differs;
    }
    const double dev = paper != 0 ? ours / paper - 1 : ours;
    bool match = std::fabs(dev) <= tolerance + 1e-12;
    if (rel == Relation::at_most) match = match || ours <= paper;
    if (rel == Relation::at_least) match = match || ours >= paper;
    if (match) return RowStatus::match;
    return std::fabs(dev) <= 0.25 ? RowStatus::close : RowStatus::differs;
}

namespace detail {

Row makeRow(Paper paper, RowSpec s) {
    Row r;
    r.id = std::move(s.id);
    r.paper = paper;
    r.where = std::move(s.where);
    r.measured = std::move(s.measured);
    r.paper_text = std::move(s.paper_text);
    r.paper_value = s.paper;
    r.ours = s.ours;
    r.unit = std::move(s.unit);
    r.relation = s.relation;
    r.tolerance = s.tolerance;
    r.tolerance_why = std::move(s.tolerance_why);
    r.status = classify(s.paper, s.ours, s.relation, s.tolerance);
    if (r.status != RowStatus::match) r.note = std::move(s.deviation);
    r.setup = std::move(s.setup);
    r.open = std::move(s.open);
    return r;
}

Network bundledNet(const char* name) {
    auto n = loadBundledNetwork(name);
    if (!n)
        throw std::runtime_error("bundled network " + std::string(name) + ": " +
                                 n.error().toString());
    return std::move(*n);
}

Hardware bundledHw(const char* name) {
    auto h = loadBundledHardware(name);
    if (!h)
        throw std::runtime_error("bundled hardware " + std::string(name) + ": " +
                                 h.error().toString());
    return std::move(*h);
}

bool cancelled(const ReproOptions& opt) {
    return opt.cancel && opt.cancel->load(std::memory_order_relaxed);
}

std::string num(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

} // namespace detail

std::vector<PaperReport> reproduce(const std::vector<Paper>& papers, const ReproOptions& opt) {
    std::vector<PaperReport> out;
    for (Paper p : papers) {
        if (detail::cancelled(opt)) return {};
        if (opt.progress) opt.progress(p, false, nullptr);
        const auto t0 = std::chrono::steady_clock::now();
        PaperReport r;
        switch (p) {
        case Paper::convfusion:
            r = detail::reproduceConvFusion(opt);
            break;
        case Paper::optimus:
            r = detail::reproduceOptimus(opt);
            break;
        case Paper::tso:
            r = detail::reproduceTso(opt);
            break;
        case Paper::stoutchinin:
            r = detail::reproduceStoutchinin(opt);
            break;
        case Paper::hwff:
            r = detail::reproduceHwff(opt);
            break;
        }
        if (detail::cancelled(opt)) return {};
        r.paper = p;
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.push_back(std::move(r));
        if (opt.progress) opt.progress(p, true, &out.back());
    }
    return out;
}

Result<OpenedTarget> loadTarget(const OpenTarget& t) {
    auto net = loadBundledNetwork(t.network);
    if (!net) return net.error();
    OpenedTarget o;
    o.network = std::move(*net);
    if (t.hw_changed) {
        o.hardware = *t.hw_changed;
    } else {
        auto hw = loadBundledHardware(t.hardware);
        if (!hw) return hw.error();
        o.hardware = std::move(*hw);
    }
    o.schedule = t.schedule ? *t.schedule : defaultSchedule(o.network, o.hardware);
    normalize(o.schedule, o.network);
    return o;
}

} // namespace lf::repro
