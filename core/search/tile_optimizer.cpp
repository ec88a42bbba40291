#include "search/tile_optimizer.h"

#include "models/energy.h"
#include "models/evaluate_detail.h"
#include "models/rf_level.h"
#include "models/tso_latency.h"
#include "network/dims.h"
#include "search/layer_space.h"
#include "search/objective.h"
#include "search/pareto.h"
#include "search/segment_search.h"
#include "search/tile_enumerator.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lf {

double groupObjectiveValue(const detail::GroupEval& ev, const Hardware& hw, Objective o) {
    double e = 0;
    if (objectiveNeedsEnergy(o))
        for (const EnergyCounts& c : ev.counts)
            e += energyOf(c, hw, double(ev.buffer_bits)).total();
    return objectiveValue(o, double(ev.gm.dram.total()), e, double(ev.gm.latency_cycles));
}

// --- SingleLayerCoster ---------------------------------------------------------------------

SingleLayerCoster::SingleLayerCoster(const Network& net, const Hardware& hw, LayerId id,
                                     const std::optional<Dataflow>& unroll, bool burst_aware)
    : hw_(hw), d_(layerDims(net, id)), type_(net.layer(id).type), burst_(burst_aware) {
    B_ = std::max(1, hw.batch);
    nInputs_ = int64_t(net.layer(id).inputs.size());
    plainMacs_ = layerMacs(d_);
    tsoCompute_ = hw.cores && d_.weights && type_ != LayerType::deconv;
    if (!tsoCompute_) {
        const Dataflow& df = unroll ? *unroll : hw.pe_array.dataflow;
        compute_ = arrayComputeCycles(d_, type_, df, hw.pe_array.cols, hw.pe_array.rows,
                                      hw.pe_array.macs_per_pe_per_cycle, B_);
    }
    if (hw.register_file.bytes_per_pe > 0 && d_.weights) {
        const Dataflow& df = unroll ? *unroll : hw.pe_array.dataflow;
        rf_ = true;
        unroll_ = arrayUnroll(d_, df, hw.pe_array.cols, hw.pe_array.rows, B_);
    }
}

double SingleLayerCoster::rfWords(const std::array<Dim, 4>& order) const {
    if (!rf_) return 0;
    auto it = rfByOrder_.find(order);
    if (it != rfByOrder_.end()) return it->second;
    const double w =
        rfLevel(d_, unroll_, rfCapacityPerPe(hw_.register_file), hw_.precision, order).words *
        double(B_);
    rfByOrder_.emplace(order, w);
    return w;
}

SingleLayerCoster::Figures SingleLayerCoster::figures(const CfLayerCost& c,
                                                      const std::array<int64_t, 4>& T,
                                                      const std::array<Dim, 4>& order,
                                                      bool full) const {
    // As convFusionGroup + evaluateGroup for a group of one (models/convfusion_segment.cpp,
    // models/evaluate.cpp): every input comes from DRAM, Y is written with its partial sums.
    const Precision& p = hw_.precision;
    Figures f;
    const int64_t perArray = c.vol_x / std::max(1, d_.n_inputs);
    const int64_t inCount = c.trans_x * d_.G;
    const int64_t input = perArray * inCount * nInputs_;
    // Exact per image (network/figure_limits.h); the batch can take it beyond 2^63.
    f.dram = satMul(B_, input + c.acc_y_out + c.acc_y_psum + c.acc_w);
    f.buffer_bits = c.buf_x * p.act_bits + c.buf_w * p.weight_bits + c.buf_y * p.psum_bits;
    if (!full) return f;
    const int64_t tz = T[size_t(Dim::z)], ty = T[size_t(Dim::y)], tx = T[size_t(Dim::x)];
    double mem = 0;
    for (int64_t k = 0; k < nInputs_; ++k)
        mem += transferCycles({TrafficKind::input, satMul(inCount, B_), c.ext_c, c.ext_y, c.ext_x,
                               d_.in_w, p.act_bits},
                              hw_, burst_);
    if (d_.weights)
        mem += transferCycles({TrafficKind::weight, satMul(c.trans_w * d_.G, B_), 1, 1, c.vol_w,
                               c.vol_w, p.weight_bits},
                              hw_, burst_);
    const int64_t tiles =
        d_.G * ceilDiv(d_.DzPerGroup(), tz) * ceilDiv(d_.Dy, ty) * ceilDiv(d_.Dx, tx);
    if (c.acc_y_out > 0)
        mem += transferCycles(
            {TrafficKind::output, satMul(tiles, B_), tz, ty, tx, d_.Dx, p.act_bits}, hw_, burst_);
    if (c.acc_y_psum > 0) {
        const int64_t iTiles = ceilDiv(d_.DiPerGroup(), T[size_t(Dim::i)]);
        mem += transferCycles({TrafficKind::psum, satMul(tiles * 2 * (iTiles - 1), B_), tz, ty, tx,
                               d_.Dx, p.psum_bits},
                              hw_, burst_);
    }
    int64_t compute = compute_;
    if (tsoCompute_) {
        const TsoConv conv = tsoConv(d_);
        TsoTile t;
        t.tm = std::clamp<int64_t>(tz * d_.G, 1, conv.M);
        t.tn = T[size_t(Dim::i)];
        t.tr = ty;
        t.tc = tx;
        // The PE array holds every core's MAC units (models/evaluate.cpp, TSO Eq. 7).
        const int cores = hw_.cores->tle * hw_.cores->tlt;
        compute = satMul(
            satFromDouble(std::ceil(tsoMacCycles(conv, t, hw_.macsPerCore(hw_.peCount()), cores))),
            B_);
    }
    const int64_t memory = satFromDouble(std::ceil(mem));
    f.latency_cycles =
        hw_.overlap == OverlapMode::serial ? satAdd(compute, memory) : std::max(compute, memory);
    EnergyCounts ec;
    ec.macs = satMul(plainMacs_, B_);
    const double act = std::max(1, p.act_bits);
    ec.dram = double(B_) * (double(input + c.acc_y_out) + double(c.acc_y_psum) * p.psum_bits / act +
                            double(c.acc_w) * p.weight_bits / act);
    ec.sram_rf = rfWords(order);
    f.energy_pj = energyOf(ec, hw_, double(f.buffer_bits)).total();
    return f;
}

double SingleLayerCoster::objective(const Figures& f, Objective o) const {
    return objectiveValue(o, double(f.dram), f.energy_pj, double(f.latency_cycles));
}

// --- single layer --------------------------------------------------------------------------

LayerTileResult optimizeLayerTiles(const Network& net, const Hardware& hw, LayerId id,
                                   const TileSearchOptions& opt, const SearchControl& control) {
    LayerTileResult res;
    const int64_t capBits = (opt.capacity_bytes >= 0 ? opt.capacity_bytes : hw.buffer.bytes) * 8;
    const SingleLayerCoster coster(net, hw, id, std::nullopt, opt.burst_aware);
    const FastLayer fl(coster.dims(), false);
    const auto& list = levelStructures(false, opt.levels, !coster.dims().weights);
    const TileEnumerator en(fl, opt.tiles);
    const bool full = opt.objective != Objective::dram;
    double best = std::numeric_limits<double>::infinity();
    int64_t bestBits = INT64_MAX, smallestBits = INT64_MAX;
    LayerSchedule smallest;
    auto consider = [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                        const TileValue& i, const CfLayerCost& c) {
        const std::array<int64_t, 4> T{z.t, y.t, x.t, i.t};
        const auto f = coster.figures(c, T, list[si].order, full);
        if (f.buffer_bits > capBits) {
            if (f.buffer_bits < smallestBits) {
                smallestBits = f.buffer_bits;
                smallest = list[si].schedule(T);
            }
            return f.buffer_bits;
        }
        const double v = coster.objective(f, opt.objective);
        if (v < best || (v == best && f.buffer_bits < bestBits)) {
            best = v;
            bestBits = f.buffer_bits;
            res.schedule = list[si].schedule(T);
            res.dram_accesses = f.dram;
            res.buffer_bytes = bitsToBytes(f.buffer_bits);
            res.fits = true;
        }
        return f.buffer_bits;
    };
    res.cancelled = !en.run(list, capBits, control.cancel, res.evaluations, consider);
    if (!res.fits && !res.cancelled) {
        // Nothing fits: the smallest footprint found is the best there is.
        res.schedule = smallest;
        const LayerDims& d = coster.dims();
        const CfLayerCost c = convFusionLayer(d, smallest, false);
        const auto f = coster.figures(c, effectiveTiles(d, smallest, false), smallest.order, true);
        res.dram_accesses = f.dram;
        res.buffer_bytes = bitsToBytes(f.buffer_bits);
        best = coster.objective(f, opt.objective);
    }
    res.objective = best;
    return res;
}

// --- groups --------------------------------------------------------------------------------

namespace {

bool isChain(const Network& net, const std::vector<LayerId>& layers) {
    for (LayerId v : layers)
        if (!isCompute(net.layer(v).type)) return false;
    for (size_t k = 0; k + 1 < layers.size(); ++k) {
        const auto& succ = net.successors(layers[k]);
        if (succ.size() != 1 || succ[0] != layers[k + 1] ||
            net.layer(layers[k + 1]).inputs.size() != 1)
            return false;
    }
    return true;
}

// Structures of the coordinate descent: orders with i innermost, X and W at one level,
// no folding — a small, always-sound subset.
std::vector<LayerSchedule> descentShapes() {
    std::vector<LayerSchedule> out;
    std::array<Dim, 3> o{Dim::z, Dim::y, Dim::x};
    std::sort(o.begin(), o.end());
    do {
        for (int sl = 0; sl <= 3; ++sl) {
            LayerSchedule s;
            s.order = {o[0], o[1], o[2], Dim::i};
            s.store = {Level(sl), Level(4), Level(sl)};
            s.compute = s.store;
            out.push_back(s);
        }
    } while (std::next_permutation(o.begin(), o.end()));
    return out;
}

} // namespace

GroupTileResult optimizeGroupTiles(const Network& net, const Hardware& hw, const Schedule& sched,
                                   const FusionGroup& group, const TileSearchOptions& opt,
                                   const SearchControl& control) {
    GroupTileResult res;
    res.group = group;
    const int64_t capBytes = opt.capacity_bytes >= 0 ? opt.capacity_bytes : hw.buffer.bytes;
    Hardware evalHw = hw;
    evalHw.buffer.bytes = capBytes;
    EvaluateOptions eo;
    eo.burst_aware = opt.burst_aware;
    std::vector<LayerId> compute;
    for (LayerId v : group.layers)
        if (isCompute(net.layer(v).type)) compute.push_back(v);
    if (compute.empty()) return res;

    if (group.strategy == Strategy::recompute && group.layers.size() == 1 &&
        !group.weights_resident) {
        const LayerTileResult r = optimizeLayerTiles(net, hw, compute[0], opt, control);
        LayerSchedule s = r.schedule;
        s.unroll = sched.layers[size_t(compute[0])].unroll;
        res.layers.push_back({compute[0], s});
        res.objective = r.objective;
        res.fits = r.fits;
        res.evaluations = r.evaluations;
        res.cancelled = r.cancelled;
        return res;
    }

    Schedule work = sched;
    const std::atomic<bool>* cancel = control.cancel;
    auto score = [&](const FusionGroup& g) {
        const detail::GroupEval ev = detail::evaluateGroup(net, evalHw, work, g, eo);
        ++res.evaluations;
        // Counts past int64 (absurdly small tiles deep in a group) wrap: such a schedule loses.
        if (ev.gm.dram.total() < 0 || ev.gm.macs < 0)
            return std::pair{std::numeric_limits<double>::infinity(), false};
        return std::pair{groupObjectiveValue(ev, evalHw, opt.objective), ev.gm.fits};
    };

    if (group.strategy != Strategy::recompute || isChain(net, group.layers)) {
        SegmentFront front;
        if (group.strategy == Strategy::recompute) {
            SegmentSearchOptions so;
            so.tiles = opt.tiles;
            so.levels = opt.levels;
            so.max_buffer_bits = capBytes * 8;
            front = searchSegment(net, hw, group.layers, so, cancel);
        } else {
            ExploreOptions eopt;
            eopt.tiles = opt.tiles;
            eopt.max_buffer_bytes = capBytes;
            front = searchSegmentByModel(net, hw, group.layers, group.strategy, eopt, cancel);
        }
        res.evaluations += front.evaluations;
        res.cancelled = front.cancelled;
        double best = std::numeric_limits<double>::infinity();
        for (const SegmentPoint& p : front.points) {
            if (control.cancelled()) {
                res.cancelled = true;
                break;
            }
            double v = double(p.dram);
            FusionGroup g = group;
            g.weights_resident = p.weights_resident;
            g.out_tile = p.out_tile;
            if (opt.objective != Objective::dram) {
                for (size_t k = 0; k < group.layers.size(); ++k)
                    work.layers[size_t(group.layers[k])] = p.layers[k];
                v = score(g).first;
            }
            if (v < best) {
                best = v;
                res.group = g;
                res.layers.clear();
                for (size_t k = 0; k < group.layers.size(); ++k) {
                    LayerSchedule s = p.layers[k];
                    s.unroll = sched.layers[size_t(group.layers[k])].unroll;
                    res.layers.push_back({group.layers[k], s});
                }
                res.objective = v;
                res.fits = true;
            }
        }
        return res;
    }

    // A recompute group that is not a chain: one round of coordinate descent from whole-layer
    // tiles (one production of every producer per output tile).
    const auto shapes = descentShapes();
    for (LayerId v : compute) {
        const LayerDims d = layerDims(net, v);
        LayerSchedule s = shapes.front();
        s.tile = {d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
        s.unroll = work.layers[size_t(v)].unroll;
        work.layers[size_t(v)] = s;
    }
    auto [best, fits] = score(group);
    res.fits = fits;
    for (size_t k = compute.size(); k-- > 0 && !res.cancelled;) {
        const LayerId v = compute[k];
        const LayerDims d = layerDims(net, v);
        LayerSchedule keep = work.layers[size_t(v)];
        for (const LayerSchedule& shape : shapes) {
            if (control.cancelled()) {
                res.cancelled = true;
                break;
            }
            for (int64_t ty : tileCandidates(d.Dy, TileSet::pow2))
                for (int64_t tx : tileCandidates(d.Dx, TileSet::pow2)) {
                    LayerSchedule s = shape;
                    s.tile = {d.DzPerGroup(), ty, tx, d.DiPerGroup()};
                    s.unroll = keep.unroll;
                    work.layers[size_t(v)] = s;
                    const auto [val, ok] = score(group);
                    if ((ok && !res.fits) || (ok == res.fits && val < best)) {
                        best = val;
                        res.fits = ok;
                        keep = s;
                    }
                }
        }
        work.layers[size_t(v)] = keep;
    }
    for (LayerId v : compute)
        res.layers.push_back({v, work.layers[size_t(v)]});
    res.objective = best;
    return res;
}

ScheduleTileResult optimizeScheduleTiles(const Network& net, const Hardware& hw,
                                         const Schedule& sched, const TileSearchOptions& opt,
                                         const SearchControl& control) {
    ScheduleTileResult res;
    res.schedule = sched;
    const size_t n = sched.groups.size();
    for (size_t gi = 0; gi < n; ++gi) {
        const GroupTileResult r =
            optimizeGroupTiles(net, hw, res.schedule, sched.groups[gi], opt, control);
        res.evaluations += r.evaluations;
        if (r.cancelled) {
            res.cancelled = true;
            break;
        }
        for (const auto& [id, s] : r.layers) {
            res.schedule.layers[size_t(id)] = s;
            res.schedule.explicit_layer[size_t(id)] = 1;
        }
        res.schedule.groups[gi].weights_resident = r.group.weights_resident;
        res.schedule.groups[gi].out_tile = r.group.out_tile;
        control.report(double(gi + 1) / double(std::max<size_t>(1, n)), sched.groups[gi].name);
    }
    return res;
}

} // namespace lf
