#include "search/explore_front.h"

#include "models/evaluate.h"
#include "util/format.h"

#include <sstream>

namespace lf {

std::vector<ExploreFrontRow> evaluateFront(const Network& net, const Hardware& hw,
                                           const ExploreResult& result,
                                           const SearchControl& control, double from) {
    std::vector<ExploreFrontRow> rows;
    rows.reserve(result.front.size());
    const size_t n = result.front.size();
    for (size_t k = 0; k < n; ++k) {
        if (control.cancelled()) break;
        const ExplorePoint& p = result.front[k];
        const Schedule s = result.schedule(net, hw, k);
        const Metrics m = evaluate(net, hw, s);
        ExploreFrontRow r;
        r.point = p;
        r.recompute_macs = m.totals.recompute_macs;
        r.energy_pj = m.totals.energy.total();
        r.latency_cycles = m.totals.latency_cycles;
        r.latency_s = m.totals.latency_s;
        r.groups = int(m.groups.size());
        for (const GroupMetrics& g : m.groups)
            r.fused_groups += g.layers.size() > 1;
        r.fits = p.buffer_bytes <= hw.buffer.bytes;
        rows.push_back(r);
        if ((k & 15) == 15 || k + 1 == n)
            control.report(from + (1 - from) * double(k + 1) / double(n),
                           "evaluating point " + std::to_string(k + 1) + " of " +
                               std::to_string(n));
    }
    return rows;
}

std::string frontCsv(const std::vector<ExploreFrontRow>& rows) {
    std::ostringstream csv;
    csv << "point,dram_accesses,buffer_bytes,macs,recompute_macs,energy_pj,latency_cycles,fits,"
           "groups\n";
    for (size_t k = 0; k < rows.size(); ++k) {
        const ExploreFrontRow& r = rows[k];
        csv << k << ',' << r.point.dram_accesses << ',' << r.point.buffer_bytes << ','
            << r.point.macs << ',' << r.recompute_macs << ',' << formatDouble(r.energy_pj) << ','
            << r.latency_cycles << ',' << (r.fits ? "true" : "false") << ',' << r.fused_groups
            << '\n';
    }
    return csv.str();
}

} // namespace lf
