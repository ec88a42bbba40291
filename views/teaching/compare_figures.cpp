#include "teaching/compare_figures.h"

#include "teaching/teaching_style.h"

#include <QCoreApplication>

namespace lf::teaching {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("lf::CompareView", s);
}

QString bytes(double v, const Hardware&) {
    return formatBytes(v);
}
QString count(double v, const Hardware&) {
    return exactCount(int64_t(v));
}
QString cycles(double v, const Hardware& hw) {
    return formatCycles(v, hw.frequency_mhz);
}
QString energy(double v, const Hardware&) {
    return formatEnergy(v);
}
QString ratio(double v, const Hardware&) {
    return formatRatio(v);
}
QString percent(double v, const Hardware&) {
    return formatPercent(v);
}
QString yesNo(double v, const Hardware&) {
    return v != 0 ? tr("yes") : tr("no");
}

} // namespace

const std::vector<Figure<Totals>>& totalsFigures() {
    static const std::vector<Figure<Totals>> figures{
        {"dram_bytes", tr("DRAM traffic"), Better::lower,
         [](const Totals& t) { return double(t.dram_bytes); }, bytes},
        {"dram_accesses", tr("DRAM accesses (elements)"), Better::lower,
         [](const Totals& t) { return double(t.dram_accesses); }, count},
        {"dram_input", tr("  inputs"), Better::lower,
         [](const Totals& t) { return double(t.dram.input); }, count},
        {"dram_weight", tr("  weights"), Better::lower,
         [](const Totals& t) { return double(t.dram.weight); }, count},
        {"dram_output", tr("  outputs"), Better::lower,
         [](const Totals& t) { return double(t.dram.output); }, count},
        {"dram_psum", tr("  partial sums"), Better::lower,
         [](const Totals& t) { return double(t.dram.psum); }, count},
        {"buffer_peak", tr("On-chip buffer (peak)"), Better::lower,
         [](const Totals& t) { return double(t.buffer_peak_bytes); }, bytes},
        {"fits", tr("Fits the buffer"), Better::higher,
         [](const Totals& t) { return t.fits ? 1.0 : 0.0; }, yesNo},
        {"macs", tr("MACs"), Better::lower, [](const Totals& t) { return double(t.macs); }, count},
        {"recompute_macs", tr("  of which recompute"), Better::lower,
         [](const Totals& t) { return double(t.recompute_macs); }, count},
        {"latency", tr("Latency"), Better::lower,
         [](const Totals& t) { return double(t.latency_cycles); }, cycles},
        {"energy", tr("Energy"), Better::lower, [](const Totals& t) { return t.energy.total(); },
         energy},
        {"ctc", tr("CTC (MACs per DRAM byte)"), Better::higher,
         [](const Totals& t) { return t.ctc; }, ratio},
        {"utilization", tr("PE utilization"), Better::higher,
         [](const Totals& t) { return t.utilization; }, percent},
    };
    return figures;
}

const std::vector<Figure<GroupMetrics>>& groupFigures() {
    using G = GroupMetrics;
    static const std::vector<Figure<G>> figures{
        {"dram_bytes", tr("DRAM traffic"), Better::lower,
         [](const G& g) { return double(g.dram_bytes); }, bytes},
        {"dram_input", tr("  inputs (elements)"), Better::lower,
         [](const G& g) { return double(g.dram.input); }, count},
        {"dram_weight", tr("  weights (elements)"), Better::lower,
         [](const G& g) { return double(g.dram.weight); }, count},
        {"dram_output", tr("  outputs (elements)"), Better::lower,
         [](const G& g) { return double(g.dram.output); }, count},
        {"buffer", tr("On-chip buffer"), Better::lower,
         [](const G& g) { return double(g.buffer_bytes); }, bytes},
        {"fits", tr("Fits the buffer"), Better::higher,
         [](const G& g) { return g.fits ? 1.0 : 0.0; }, yesNo},
        {"macs", tr("MACs"), Better::lower, [](const G& g) { return double(g.macs); }, count},
        {"recompute_macs", tr("  of which recompute"), Better::lower,
         [](const G& g) { return double(g.recompute_macs); }, count},
        {"latency", tr("Latency"), Better::lower,
         [](const G& g) { return double(g.latency_cycles); }, cycles},
        {"energy", tr("Energy"), Better::lower, [](const G& g) { return g.energy.total(); },
         energy},
        {"ctc", tr("CTC (MACs per DRAM byte)"), Better::higher, [](const G& g) { return g.ctc; },
         ratio},
        {"utilization", tr("PE utilization"), Better::higher,
         [](const G& g) { return g.utilization; }, percent},
    };
    return figures;
}

} // namespace lf::teaching
