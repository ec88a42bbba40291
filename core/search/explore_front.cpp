#include "search/explore_front.h"

#include "models/evaluate.h"
#include "util/format.h"

namespace lf {

ExploreFrontRow frontRow(const ExplorePoint& point, const Metrics& m, const Hardware& hw) {
    ExploreFrontRow r;
    r.point = point;
    r.recompute_macs = m.totals.recompute_macs;
    r.energy_pj = m.totals.energy.total();
    r.latency_cycles = m.totals.latency_cycles;
    r.latency_s = m.totals.latency_s;
    r.groups = int(m.groups.size());
    for (const GroupMetrics& g : m.groups)
        r.fused_groups += g.layers.size() > 1;
    r.fits = point.buffer_bytes <= hw.buffer.bytes;
    return r;
}

std::vector<ExploreFrontRow> evaluateFront(const Network& net, const Hardware& hw,
                                           const ExploreResult& result,
                                           const SearchControl& control, double from) {
    std::vector<ExploreFrontRow> rows;
    rows.reserve(result.front.size());
    const size_t n = result.front.size();
    for (size_t k = 0; k < n; ++k) {
        if (control.cancelled()) break;
        const Schedule s = result.schedule(net, hw, k);
        rows.push_back(frontRow(result.front[k], evaluate(net, hw, s), hw));
        if ((k & 15) == 15 || k + 1 == n)
            control.report(from + (1 - from) * double(k + 1) / double(n),
                           "evaluating point " + std::to_string(k + 1) + " of " +
                               std::to_string(n));
    }
    return rows;
}

std::string frontCsvHeader() {
    return "point,dram_accesses,buffer_bytes,macs,recompute_macs,energy_pj,latency_cycles,fits,"
           "groups\n";
}

std::string frontCsvRow(size_t point, const ExploreFrontRow& r) {
    return std::to_string(point) + ',' + std::to_string(r.point.dram_accesses) + ',' +
           std::to_string(r.point.buffer_bytes) + ',' + std::to_string(r.point.macs) + ',' +
           std::to_string(r.recompute_macs) + ',' + formatDouble(r.energy_pj) + ',' +
           std::to_string(r.latency_cycles) + ',' + (r.fits ? "true" : "false") + ',' +
           std::to_string(r.fused_groups) + '\n';
}

std::string frontCsv(const std::vector<ExploreFrontRow>& rows) {
    std::string csv = frontCsvHeader();
    for (size_t k = 0; k < rows.size(); ++k)
        csv += frontCsvRow(k, rows[k]);
    return csv;
}

} // namespace lf
