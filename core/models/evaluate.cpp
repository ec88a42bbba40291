// The pipeline behind every figure: each group is costed by its strategy's model
// (convfusion_segment, flowfusion, optimus), then latency (tso_latency) and energy (energy)
// are derived the same way for all strategies (docs/models/README.md).
#include "models/evaluate.h"

#include "models/convfusion.h"
#include "models/convfusion_segment.h"
#include "models/energy.h"
#include "models/evaluate_detail.h"
#include "models/flowfusion.h"
#include "models/optimus.h"
#include "models/rf_level.h"
#include "models/tso_latency.h"
#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>

namespace lf {

namespace {

// PEs a layer runs on: its sub-array (spatial) or the whole array (temporal).
SubArray layerArray(const FusionGroup& g, const std::map<LayerId, SubArray>& subs,
                    const Hardware& hw, LayerId id) {
    if (g.partition.kind == PartitionKind::spatial) {
        auto it = subs.find(id);
        if (it != subs.end() && it->second.cols > 0 && it->second.rows > 0) return it->second;
    }
    return SubArray{0, 0, hw.pe_array.cols, hw.pe_array.rows};
}

// One PE's register file as the layer gets it (docs/model-notes.md, register files): every section
// whole when the layer has the array (or its sub-array) alone, its share of each section under
// temporal fusion.
RfCapacity layerRfCapacity(const FusionGroup& g, const Hardware& hw, LayerId id) {
    if (g.partition.kind == PartitionKind::spatial || g.layers.size() == 1)
        return rfCapacityPerPe(hw.register_file);
    const RfShare s = rfShareOf(g, id);
    return rfCapacityPerPe(hw.register_file, s.weight, s.input, s.psum);
}

// Bits to whole bytes; a saturated count stays saturated.
int64_t satBitsToBytes(int64_t bits) {
    return isSaturated(bits) ? kSaturated : bitsToBytes(bits);
}

bool anySaturated(const GroupMetrics& g) {
    for (int64_t v :
         {g.macs, g.recompute_macs, g.ops, g.dram.input, g.dram.weight, g.dram.output, g.dram.psum,
          g.dram_bytes, g.buffer_bytes, g.compute_cycles, g.memory_cycles, g.latency_cycles})
        if (isSaturated(v)) return true;
    return false;
}

} // namespace

namespace detail {

GroupCost strategyCost(const Network& net, const Hardware& hw, const Schedule& sched,
                       const FusionGroup& g) {
    switch (g.strategy) {
    case Strategy::recompute: {
        GroupCost c = convFusionGroup(net, hw, sched, g);
        c.weights_batch_reused = g.weights_resident;
        return c;
    }
    case Strategy::reuse: {
        GroupCost c = flowFusionGroup(net, hw, sched, g,
                                      g.reuse_model == ReuseModelKind::alwani ? ReuseModel::alwani
                                                                              : ReuseModel::hwff);
        c.weights_batch_reused = true; // Tb = B: weights stay for the whole batch
        return c;
    }
    case Strategy::optimus:
        return optimusGroup(net, hw, sched, g);
    }
    return {};
}

GroupEval evaluateGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                        const FusionGroup& g, const EvaluateOptions& opt) {
    GroupEval ev;
    GroupMetrics& gm = ev.gm;
    gm.name = g.name;
    gm.layers = g.layers;
    gm.strategy = g.strategy;
    gm.partition = g.partition.kind;
    for (const Violation& v : checkGroup(net, hw, g))
        gm.warnings.push_back(v.message);
    for (LayerId id : g.layers)
        if (isCompute(net.layer(id).type))
            for (const Violation& v : checkLayer(net, id, sched.layers[size_t(id)]))
                gm.warnings.push_back(net.layer(id).name + ": " + v.message);

    const GroupCost cost = strategyCost(net, hw, sched, g);
    for (const std::string& w : cost.warnings)
        gm.warnings.push_back(w);
    const int64_t B = std::max(1, hw.batch);
    const int64_t wScale = cost.weights_batch_reused ? 1 : B;
    const auto subs = g.partition.kind == PartitionKind::spatial ? effectiveSubarrays(g, hw)
                                                                 : std::map<LayerId, SubArray>{};
    std::vector<int64_t> cycles;
    double memCycles = 0;
    for (const LayerCost& lc : cost.layers) {
        const Layer& layer = net.layer(lc.id);
        if (!isCompute(layer.type)) {
            // Concat inside a group: only the outputs it writes count.
            Traffic t = lc.dram;
            t.output = satMul(t.output, B);
            gm.dram += t;
            for (const Transfer& tr : lc.transfers) {
                Transfer x = tr;
                x.count = satMul(x.count, B);
                memCycles += transferCycles(x, hw, opt.burst_aware);
            }
            continue;
        }
        const LayerDims d = layerDims(net, lc.id);
        LayerMetrics lm;
        lm.id = lc.id;
        lm.name = layer.name;
        lm.type = layer.type;
        lm.out_width = d.Dx;
        lm.out_height = d.Dy;
        lm.out_channels = d.Dz;
        lm.in_channels = d.Di;
        lm.kernel_width = d.Dm;
        lm.kernel_height = d.Dn;
        lm.stride_x = d.Sx;
        lm.stride_y = d.Sy;
        lm.groups = d.G;
        lm.weights = layerWeights(d);
        // Per image the figures are exact (network/figure_limits.h); the batch and the
        // recompute chains can take them beyond 64 bits: saturating from here on.
        lm.ops = satMul(layerOps(net, lc.id), B);
        lm.macs = satMul(lc.macs, B);
        lm.recompute_macs = satMul(lc.recompute_macs, B);
        lm.buf_x = lc.buf_x;
        lm.buf_y = lc.buf_y;
        lm.buf_w = lc.buf_w;
        lm.dram.input = satMul(lc.dram.input, B);
        lm.dram.output = satMul(lc.dram.output, B);
        lm.dram.psum = satMul(lc.dram.psum, B);
        lm.dram.weight = satMul(lc.dram.weight, wScale);
        double mem = 0;
        for (const Transfer& tr : lc.transfers) {
            Transfer x = tr;
            x.count = satMul(x.count, tr.kind == TrafficKind::weight ? wScale : B);
            mem += transferCycles(x, hw, opt.burst_aware);
        }
        lm.memory_cycles = satFromDouble(std::ceil(mem));
        memCycles += mem;

        // Compute (docs/models/README.md): the spatial array with the layer's PEs, or TSO's
        // multicore model.
        const SubArray a = layerArray(g, subs, hw, lc.id);
        const Dataflow& df = sched.layers[size_t(lc.id)].unroll
                                 ? *sched.layers[size_t(lc.id)].unroll
                                 : hw.pe_array.dataflow;
        const int64_t plain = layerMacs(d);
        int64_t c;
        int64_t pes;
        if (hw.cores && d.weights && layer.type != LayerType::deconv) {
            const TsoConv conv = tsoConv(d);
            const auto T = effectiveTiles(d, sched.layers[size_t(lc.id)], false);
            TsoTile t;
            t.tm = std::clamp<int64_t>(T[size_t(Dim::z)] * d.G, 1, conv.M);
            t.tn = T[size_t(Dim::i)];
            t.tr = T[size_t(Dim::y)];
            t.tc = T[size_t(Dim::x)];
            // The PE array of a multicore preset holds all cores' MAC units (its peak is the
            // chip's MAC roof); one TLT's #MACs of TSO Eq. 7 is that peak over the cores.
            const int cores = hw.cores->tle * hw.cores->tlt;
            const int64_t perCore = hw.macsPerCore(int64_t(a.cols) * a.rows);
            c = satMul(satFromDouble(std::ceil(tsoMacCycles(conv, t, perCore, cores))), B);
            pes = perCore * cores;
        } else {
            c = arrayComputeCycles(d, layer.type, df, a.cols, a.rows,
                                   hw.pe_array.macs_per_pe_per_cycle, B);
            pes = int64_t(a.cols) * a.rows * hw.pe_array.macs_per_pe_per_cycle;
        }
        if (plain > 0 && lc.macs > plain)
            c = satFromDouble(std::ceil(double(c) * double(lc.macs) / double(plain)));
        lm.compute_cycles = c;
        lm.pes = pes;
        lm.utilization = c > 0 && pes > 0 ? double(lm.macs) / (double(c) * double(pes)) : 0.0;

        // SRAM↔RF traffic (ConvFusion §VII-C): the register-file level of the layer's PEs, each
        // with the register file the partition gives it (models/rf_level.h).
        double sramRfWords = 0;
        if (hw.register_file.bytes_per_pe > 0 && d.weights) {
            const double recomputeFactor = plain > 0 ? double(lc.macs) / double(plain) : 1.0;
            const RfLevel rf =
                rfLevel(d, arrayUnroll(d, df, a.cols, a.rows, B), layerRfCapacity(g, hw, lc.id),
                        hw.precision, sched.layers[size_t(lc.id)].order);
            lm.sram_rf_traffic = satMul(satFromDouble(double(rf.traffic) * recomputeFactor), B);
            sramRfWords = rf.words * recomputeFactor * double(B);
        }
        EnergyCounts ec;
        ec.macs = lm.macs;
        ec.dram = trafficWords(lm.dram, hw.precision);
        ec.sram_rf = sramRfWords;
        ev.counts.push_back(ec);

        gm.macs = satAdd(gm.macs, lm.macs);
        gm.recompute_macs = satAdd(gm.recompute_macs, lm.recompute_macs);
        gm.ops = satAdd(gm.ops, lm.ops);
        gm.dram += lm.dram;
        cycles.push_back(c);
        ev.layers.push_back(std::move(lm));
    }
    // Group latency (docs/models/README.md): temporal or unfused = Σ layer compute; spatial = the
    // slowest layer (pipelined) + the first layer's fill (one of the group's tiles).
    int64_t compute = 0;
    if (g.partition.kind == PartitionKind::spatial && cycles.size() > 1) {
        compute = satAdd(*std::max_element(cycles.begin(), cycles.end()),
                         ceilDiv(cycles.front(), std::max<int64_t>(1, cost.tiles)));
    } else {
        for (int64_t c : cycles)
            compute = satAdd(compute, c);
    }
    gm.compute_cycles = compute;
    gm.memory_cycles = satFromDouble(std::ceil(memCycles));
    gm.latency_cycles = hw.overlap == OverlapMode::serial
                            ? satAdd(gm.compute_cycles, gm.memory_cycles)
                            : std::max(gm.compute_cycles, gm.memory_cycles);
    gm.bound = gm.compute_cycles >= gm.memory_cycles ? Bound::compute : Bound::memory;
    gm.dram_bytes = satBitsToBytes(satAdd(satAdd(satMul(gm.dram.input, hw.precision.act_bits),
                                                 satMul(gm.dram.output, hw.precision.act_bits)),
                                          satAdd(satMul(gm.dram.weight, hw.precision.weight_bits),
                                                 satMul(gm.dram.psum, hw.precision.psum_bits))));
    gm.buffer_bytes = satBitsToBytes(cost.buffer_bits);
    gm.fits = gm.buffer_bytes <= hw.buffer.bytes;
    gm.ctc = gm.dram_bytes > 0 ? double(gm.macs) / double(gm.dram_bytes) : 0.0;
    // Over the chip's MAC units, which with cores are all cores' (Hardware::peakMacsPerCycle).
    const double peak = double(hw.peakMacsPerCycle());
    gm.utilization =
        gm.compute_cycles > 0 ? double(gm.macs) / (double(gm.compute_cycles) * peak) : 0.0;
    gm.out_tile_h = cost.out_tile_h;
    gm.out_tile_w = cost.out_tile_w;
    if (anySaturated(gm))
        gm.warnings.push_back("figures beyond 2^63 (deep recompute or a large batch): shown as "
                              "9223372036854775807, not exact");
    ev.buffer_bits = cost.buffer_bits;
    return ev;
}

Metrics assemble(const Network& net, const Hardware& hw,
                 const std::vector<const GroupEval*>& groups) {
    Metrics m;
    m.network = net.name();
    m.hardware = hw.name;
    m.layer_index.assign(size_t(net.size()), -1);
    int64_t peakBits = 0;
    for (const GroupEval* ev : groups)
        peakBits = std::max(peakBits, ev->buffer_bits);
    Totals& t = m.totals;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
        const GroupEval& ev = *groups[gi];
        GroupMetrics gm = ev.gm;
        gm.energy = {};
        for (size_t k = 0; k < ev.layers.size(); ++k) {
            LayerMetrics lm = ev.layers[k];
            lm.group = int(gi);
            lm.energy = energyOf(ev.counts[k], hw, double(peakBits));
            gm.energy += lm.energy;
            m.layer_index[size_t(lm.id)] = int32_t(m.layers.size());
            m.layers.push_back(std::move(lm));
        }
        t.macs = satAdd(t.macs, gm.macs);
        t.recompute_macs = satAdd(t.recompute_macs, gm.recompute_macs);
        t.ops = satAdd(t.ops, gm.ops);
        t.dram += gm.dram;
        t.dram_bytes = satAdd(t.dram_bytes, gm.dram_bytes);
        t.buffer_peak_bytes = std::max(t.buffer_peak_bytes, gm.buffer_bytes);
        t.fits = t.fits && gm.fits;
        t.compute_cycles = satAdd(t.compute_cycles, gm.compute_cycles);
        t.memory_cycles = satAdd(t.memory_cycles, gm.memory_cycles);
        t.latency_cycles = satAdd(t.latency_cycles, gm.latency_cycles);
        t.energy += gm.energy;
        m.groups.push_back(std::move(gm));
    }
    // Layers in topological order regardless of group order.
    std::sort(m.layers.begin(), m.layers.end(),
              [](const LayerMetrics& a, const LayerMetrics& b) { return a.id < b.id; });
    for (size_t k = 0; k < m.layers.size(); ++k)
        m.layer_index[size_t(m.layers[k].id)] = int32_t(k);
    t.dram_accesses = t.dram.total();
    t.buffer_capacity_bytes = hw.buffer.bytes;
    t.saturated = std::any_of(m.groups.begin(), m.groups.end(), anySaturated);
    for (int64_t v : {t.macs, t.recompute_macs, t.ops, t.dram_accesses, t.dram_bytes,
                      t.compute_cycles, t.memory_cycles, t.latency_cycles})
        t.saturated = t.saturated || isSaturated(v);
    t.latency_s = double(t.latency_cycles) / (hw.frequency_mhz * 1e6);
    t.bound = t.compute_cycles >= t.memory_cycles ? Bound::compute : Bound::memory;
    t.ctc = t.dram_bytes > 0 ? double(t.macs) / double(t.dram_bytes) : 0.0;
    const double peak = double(hw.peakMacsPerCycle());
    t.utilization = t.compute_cycles > 0 ? double(t.macs) / (double(t.compute_cycles) * peak) : 0.0;
    return m;
}

} // namespace detail

Metrics evaluate(const Network& net, const Hardware& hw, const Schedule& sched,
                 const EvaluateOptions& opt) {
    std::vector<detail::GroupEval> evals;
    evals.reserve(sched.groups.size());
    for (const FusionGroup& g : sched.groups)
        evals.push_back(detail::evaluateGroup(net, hw, sched, g, opt));
    std::vector<const detail::GroupEval*> ptrs;
    ptrs.reserve(evals.size());
    for (const auto& e : evals)
        ptrs.push_back(&e);
    return detail::assemble(net, hw, ptrs);
}

} // namespace lf
