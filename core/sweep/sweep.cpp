#include "sweep/sweep.h"

#include "models/evaluate.h"
#include "search/distribution.h"
#include "search/optimus_fuser.h"
#include "search/work_pool.h"
#include "util/format.h"

namespace lf {

namespace {

template <class T> std::vector<T> orOne(const std::vector<T>& v) {
    return v.empty() ? std::vector<T>{T{}} : v;
}

} // namespace

std::vector<SweepPoint> sweepPoints(const SweepSpec& spec, const SweepInputs& in) {
    std::vector<SweepPoint> out;
    for (size_t n = 0; n < in.networks.size(); ++n)
        for (size_t h = 0; h < in.hardware.size(); ++h)
            for (int64_t buffer : orOne(spec.buffer_bytes))
                for (int64_t cols : orOne(spec.pe_cols))
                    for (int64_t rows : orOne(spec.pe_rows))
                        for (int64_t batch : orOne(spec.batch))
                            for (Strategy s : spec.strategies)
                                out.push_back({n, h, buffer, cols, rows, batch, s});
    return out;
}

Hardware sweepHardware(const Hardware& base, const SweepPoint& p) {
    Hardware hw = base;
    if (p.buffer_bytes > 0) hw.buffer.bytes = p.buffer_bytes;
    if (p.pe_cols > 0) hw.pe_array.cols = int(p.pe_cols);
    if (p.pe_rows > 0) hw.pe_array.rows = int(p.pe_rows);
    if (p.batch > 0) hw.batch = int(p.batch);
    return hw;
}

std::string sweepCsvHeader() {
    return "network,hardware,buffer_bytes,pe_cols,pe_rows,batch,strategy,objective,"
           "dram_accesses,energy_pj,latency_cycles,buffer_peak_bytes,fits,fused_groups,groups\n";
}

std::string sweepCsvRow(const SweepSpec& spec, const SweepInputs& in, const SweepPoint& p) {
    const Network& net = in.networks[p.network];
    const Hardware hw = sweepHardware(in.hardware[p.hardware], p);
    // As `layerfuse-cli optimize --method optimus` chooses.
    OptimusFuserOptions fo;
    fo.cost = spec.objective == Objective::dram ? FuserCost::optimus : FuserCost::evaluate;
    fo.objective = spec.objective;
    fo.strategy = p.strategy;
    fo.threads = 1; // the points run in parallel instead
    const OptimusFuserResult r = optimusFuse(net, hw, fo);
    const Metrics m = evaluate(net, hw, r.schedule);
    std::string groups;
    int64_t fused = 0;
    for (const FusionGroup& g : r.schedule.groups) {
        if (g.layers.size() < 2) continue;
        ++fused;
        if (!groups.empty()) groups += ' ';
        for (size_t k = 0; k < g.layers.size(); ++k)
            groups += (k ? "+" : "") + net.layer(g.layers[k]).name;
    }
    std::string row = csvField(net.name()) + ',' + csvField(hw.name) + ',';
    for (int64_t v :
         {hw.buffer.bytes, int64_t(hw.pe_array.cols), int64_t(hw.pe_array.rows), int64_t(hw.batch)})
        row += std::to_string(v) + ',';
    row += std::string(toString(p.strategy)) + ',' + toString(spec.objective) + ',';
    row += std::to_string(m.totals.dram_accesses) + ',' + formatDouble(m.totals.energy.total()) +
           ',' + std::to_string(m.totals.latency_cycles) + ',' +
           std::to_string(m.totals.buffer_peak_bytes) + ',' + (m.totals.fits ? "true," : "false,") +
           std::to_string(fused) + ',' + csvField(groups) + '\n';
    return row;
}

std::vector<std::string> runSweep(const SweepSpec& spec, const SweepInputs& in, WorkPool* pool,
                                  Distribution* dist, const std::atomic<bool>* cancel) {
    const std::vector<SweepPoint> points = sweepPoints(spec, in);
    if (dist && dist->size() <= 1) dist = nullptr;
    std::vector<size_t> mine(points.size());
    for (size_t k = 0; k < mine.size(); ++k)
        mine[k] = k;
    if (dist) {
        std::vector<double> cost;
        for (const SweepPoint& p : points)
            cost.push_back(double(in.networks[p.network].size()));
        mine = assignedPieces(cost, dist->rank(), dist->size());
    }
    std::vector<std::string> rows(points.size());
    parallelFor(pool, mine.size(), [&](size_t m) {
        if (cancel && *cancel) return;
        rows[mine[m]] = sweepCsvRow(spec, in, points[mine[m]]);
    });
    if (!dist) return rows;
    std::vector<std::pair<size_t, std::string>> made;
    for (size_t k : mine)
        made.emplace_back(k, std::move(rows[k]));
    return dist->gather(points.size(), made);
}

} // namespace lf
