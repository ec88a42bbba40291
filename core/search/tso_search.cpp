#include "search/tso_search.h"

#include "network/dims.h"
#include "util/checked.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace lf {

namespace {

// Sizes 1..limit at which ⌈a/T⌉ or ⌈b/T⌉ changes (the smallest size of each run of equal
// counts), or every size when `all`.
std::vector<int64_t> breakpoints(int64_t limit, int64_t a, int64_t b, bool all) {
    std::vector<int64_t> out;
    for (int64_t t = 1; t <= limit; ++t)
        if (all || t == 1 || ceilDiv(a, t) != ceilDiv(a, t - 1) ||
            ceilDiv(b, t) != ceilDiv(b, t - 1))
            out.push_back(t);
    return out;
}

int tltCount(const Hardware& hw) {
    return hw.cores ? std::max(1, hw.cores->tlt) : 1;
}
int tleCount(const Hardware& hw) {
    return hw.cores ? std::max(1, hw.cores->tle) : 1;
}

} // namespace

int64_t tsoMacsPerCore(const Hardware& hw) {
    return hw.macsPerCore(hw.peCount());
}

TsoLayerChoice tsoSlicingTime(const TsoConv& conv, const Hardware& hw, TlePartition p,
                              TltSchedule q, const TsoTile& t, bool burst_aware) {
    TsoLayerChoice c;
    c.partition = p;
    c.schedule = q;
    c.tile = t;
    const int tle = tleCount(hw), tlt = tltCount(hw);
    c.slice = tleSlicing(p, conv, tle);
    const int64_t K2 = conv.K * conv.K;
    if (hw.cores) { // TSO Eq. 2, with WS's W tile holding every channel of its filters
        const auto& mb = hw.cores->mb_bytes;
        const int64_t bytes = (hw.precision.act_bits + 7) / 8;
        const int64_t wbytes = (hw.precision.weight_bits + 7) / 8;
        const int64_t wTile = t.tm * (q == TltSchedule::ws ? conv.N : t.tn) * K2 * wbytes;
        c.fits = mb.size() >= 3 &&
                 t.tn * tsoTileH(conv, t.tr) * tsoTileL(conv, t.tc) * bytes <= mb[0] &&
                 wTile <= mb[1] && t.tm * t.tr * t.tc * bytes <= mb[2];
    }
    const TsoAlphas a = tsoTransferCounts(q, conv, c.slice, t, tle);     // TSO Eq. 3-5
    c.mac_cycles = tsoMacCycles(conv, t, tsoMacsPerCore(hw), tle * tlt); // TSO Eq. 7-8
    // TSO Eq. 9 with TSO Alg. 4 per tile (WS's W tile holds every channel).
    const Transfer in{
        TrafficKind::input,   a.in, t.tn, tsoTileH(conv, t.tr), tsoTileL(conv, t.tc), conv.L,
        hw.precision.act_bits};
    const int64_t wBlock = t.tm * (q == TltSchedule::ws ? conv.N : t.tn) * K2;
    const Transfer w{TrafficKind::weight, a.w, 1, 1, wBlock, wBlock, hw.precision.weight_bits};
    const Transfer out{TrafficKind::output, a.out, t.tm, t.tr, t.tc, conv.C, hw.precision.act_bits};
    c.dram_cycles = transferCycles(in, hw, burst_aware) + transferCycles(w, hw, burst_aware) +
                    transferCycles(out, hw, burst_aware);
    c.time_cycles = c.mac_cycles + c.dram_cycles; // TSO Eq. 6
    return c;
}

TsoLayerChoice tsoBestSlicing(const TsoConv& conv, const Hardware& hw,
                              const TsoSearchOptions& opt) {
    TsoLayerChoice best;
    best.time_cycles = std::numeric_limits<double>::infinity();
    if (!hw.cores) return best;
    const CoresConfig& cores = *hw.cores;
    const int tle = tleCount(hw), tlt = tltCount(hw);
    const int bytes = (hw.precision.act_bits + 7) / 8;
    const int wbytes = (hw.precision.weight_bits + 7) / 8;
    const int64_t mb0 = cores.mb_bytes.size() > 0 ? cores.mb_bytes[0] : 0;
    const int64_t mb1 = cores.mb_bytes.size() > 1 ? cores.mb_bytes[1] : 0;
    const int64_t mb2 = cores.mb_bytes.size() > 2 ? cores.mb_bytes[2] : 0;
    const int64_t K2 = conv.K * conv.K;
    const auto tcs = [&] {
        auto v = breakpoints(conv.C, conv.C, conv.C, opt.exhaustive);
        // The smallest T_C whose input columns span the whole row (contiguous bursts).
        for (int64_t t = 1; t <= conv.C; ++t)
            if (tsoTileL(conv, t) >= conv.L) {
                v.push_back(t);
                break;
            }
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v;
    }();
    const auto tns = breakpoints(conv.N, conv.N, conv.N, opt.exhaustive);
    for (TlePartition p :
         {TlePartition::ks, TlePartition::ks_ofm, TlePartition::ofm}) { // TSO Alg. 1 line 6
        if (opt.partition && *opt.partition != p) continue;
        const TleSlice slice = tleSlicing(p, conv, tle);   // line 8
        const int64_t share = ceilDiv(slice.filters, tlt); // filters of one TLT (GETFILTERS)
        const auto trs = breakpoints(slice.rows, slice.rows, conv.R, opt.exhaustive);
        for (TltSchedule q : {TltSchedule::is, TltSchedule::os, TltSchedule::ws}) { // line 10
            if (opt.schedule && *opt.schedule != q) continue;
            for (int64_t tr : trs)           // TSO Alg. 3 line 4
                for (int64_t tc : tcs)       // line 5
                    for (int64_t tn : tns) { // line 6
                        ++best.evaluated;
                        // Line 7, GETFILTERS with the fit of TSO Eq. 2.
                        const int64_t inBytes =
                            tn * tsoTileH(conv, tr) * tsoTileL(conv, tc) * bytes;
                        if (inBytes > mb0) continue;
                        const int64_t wPerFilter =
                            (q == TltSchedule::ws ? conv.N : tn) * K2 * wbytes;
                        const int64_t outPerFilter = tr * tc * bytes;
                        int64_t tm = std::min({share, mb1 / std::max<int64_t>(1, wPerFilter),
                                               mb2 / std::max<int64_t>(1, outPerFilter)});
                        if (tm < 1 || (q == TltSchedule::is && tm < share)) continue;
                        tm = ceilDiv(share,
                                     ceilDiv(share, tm)); // the same passes, filters spread evenly
                        const TsoLayerChoice c =
                            tsoSlicingTime(conv, hw, p, q, {tm, tn, tr, tc}, opt.burst_aware);
                        const double time = c.time_cycles;
                        if (time < best.time_cycles) { // TSO Alg. 3 line 12, TSO Alg. 1 line 13
                            const int64_t evaluated = best.evaluated;
                            best = c;
                            best.evaluated = evaluated;
                            best.fits = true; // the checks above are TSO Eq. 2
                        }
                    }
        }
    }
    return best;
}

TsoSearchResult tsoSearch(const Network& net, const Hardware& hw, const TsoSearchOptions& opt,
                          const SearchControl& control) {
    TsoSearchResult res;
    if (!hw.cores) return res;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<LayerId> convs;
    for (LayerId id : net.computeIds()) {
        const LayerType t = net.layer(id).type;
        if (t == LayerType::conv || t == LayerType::fc) convs.push_back(id);
    }
    for (size_t k = 0; k < convs.size(); ++k) {
        if (control.cancelled()) {
            res.cancelled = true;
            break;
        }
        TsoLayerChoice c = tsoBestSlicing(tsoConv(layerDims(net, convs[k])), hw, opt);
        c.id = convs[k];
        res.evaluated += c.evaluated;
        if (c.fits) res.total_cycles += c.time_cycles;
        res.layers.push_back(c);
        control.report(double(k + 1) / double(convs.size()), net.layer(convs[k]).name);
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

} // namespace lf
