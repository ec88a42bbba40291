#include "models/tso_latency.h"

#include "util/checked.h"

#include <algorithm>

namespace lf {

int64_t burstCount(const Transfer& t, int64_t burst_bytes) {
    const int64_t burstBits = std::max<int64_t>(1, burst_bytes) * 8;
    // Saturating: TSO's K×K weight blocks can exceed the per-layer figures of a layer with a
    // long 1-D kernel (K = max(D_m, D_n)).
    if (t.cols >= t.row_width) {
        // Full rows are contiguous: one run of rows·W elements per channel.
        return satMul(t.channels, ceilDiv(satMul(satMul(t.rows, t.row_width), t.bits), burstBits));
    }
    return satMul(satMul(t.channels, t.rows), ceilDiv(satMul(t.cols, t.bits), burstBits));
}

double transferCycles(const Transfer& t, const Hardware& hw, bool burst_aware) {
    if (t.count <= 0) return 0;
    const double bytes = double(t.channels) * double(t.rows) * double(t.cols) * t.bits / 8.0;
    double one = bytes / hw.dram.bandwidth_bytes_per_cycle; // TSO Alg. 4 lines 7-8 / 12-13
    if (burst_aware)
        one += double(burstCount(t, hw.dram.burst_bytes)) * hw.dram.cas_cycles; // l. 5-6, 9
    return one * double(t.count);
}

int64_t arrayComputeCycles(const LayerDims& d, LayerType type, const Dataflow& df, int px, int py,
                           int macs_per_pe, int64_t batch) {
    // Loop extents indexed by LoopDim: ox, oy, oc, ic, kx, ky, b.
    int64_t D[7];
    int64_t groups = d.G;
    D[size_t(LoopDim::ox)] = d.Dx;
    D[size_t(LoopDim::oy)] = d.Dy;
    D[size_t(LoopDim::oc)] = d.DzPerGroup();
    D[size_t(LoopDim::ic)] = d.DiPerGroup();
    D[size_t(LoopDim::kx)] = d.Dm;
    D[size_t(LoopDim::ky)] = d.Dn;
    D[size_t(LoopDim::b)] = std::max<int64_t>(1, batch);
    if (!d.weights) {
        // Pool / element-wise / resize: channels are independent, map them onto oc.
        D[size_t(LoopDim::oc)] = d.Dz;
        D[size_t(LoopDim::ic)] = std::max<int32_t>(1, d.n_inputs - 1);
        groups = 1;
    }
    if (type == LayerType::deconv) {
        // A transposed conv scatters every input pixel: iterate the input map.
        D[size_t(LoopDim::ox)] = d.in_w;
        D[size_t(LoopDim::oy)] = d.in_h;
    }
    bool mapped[7] = {false, false, false, false, false, false, false};
    // Per image at most the layer's MACs (exact); the batch can take it beyond: saturating.
    int64_t cycles = groups;
    auto axis = [&](const std::vector<LoopDim>& dims, int pes) {
        int64_t extent = 1;
        for (LoopDim l : dims)
            if (!mapped[size_t(l)]) {
                extent = satMul(extent, D[size_t(l)]);
                mapped[size_t(l)] = true;
            }
        const int64_t u = std::min<int64_t>(extent, std::max(1, pes));
        cycles = satMul(cycles, ceilDiv(extent, u));
    };
    axis(df.cols, px);
    axis(df.rows, py);
    for (size_t l = 0; l < 7; ++l)
        if (!mapped[l]) cycles = satMul(cycles, D[l]);
    return ceilDiv(cycles, std::max(1, macs_per_pe));
}

const char* toString(TlePartition p) {
    switch (p) {
    case TlePartition::ks:
        return "KS";
    case TlePartition::ks_ofm:
        return "KS&OFM";
    case TlePartition::ofm:
        return "OFM";
    }
    return "?";
}

const char* toString(TltSchedule s) {
    switch (s) {
    case TltSchedule::is:
        return "IS";
    case TltSchedule::os:
        return "OS";
    case TltSchedule::ws:
        return "WS";
    }
    return "?";
}

TsoConv tsoConv(const LayerDims& d) {
    TsoConv c;
    c.M = d.Dz;
    c.N = d.DiPerGroup();
    c.R = d.Dy;
    c.C = d.Dx;
    c.K = std::max(d.Dm, d.Dn);
    c.S = std::max(d.Sx, d.Sy);
    c.H = d.in_h;
    c.L = d.in_w;
    return c;
}

TleSlice tleSlicing(TlePartition p, const TsoConv& c, int tle) {
    tle = std::max(1, tle);
    TleSlice s;
    switch (p) {
    case TlePartition::ks: // TSO Alg. 2 lines 4-6
        s.filters = ceilDiv(c.M, tle);
        s.rows = c.R;
        break;
    case TlePartition::ks_ofm: { // lines 7-9
        const int64_t half = std::max(1, tle / 2);
        s.filters = ceilDiv(c.M, half);
        s.rows = ceilDiv(c.R, half);
        break;
    }
    case TlePartition::ofm: // lines 10-12
        s.filters = c.M;
        s.rows = ceilDiv(c.R, tle);
        break;
    }
    return s;
}

int64_t tsoTileH(const TsoConv& c, int64_t tr) {
    return std::min(c.H, (tr - 1) * c.S + c.K);
} // TSO Eq. 1
int64_t tsoTileL(const TsoConv& c, int64_t tc) {
    return std::min(c.L, (tc - 1) * c.S + c.K);
}

bool tsoTileFits(const TsoConv& c, const TsoTile& t, const CoresConfig& cores, int bytes) {
    if (cores.mb_bytes.size() < 3) return false;
    const int64_t in =
        satMul(satMul(t.tn, tsoTileH(c, t.tr)), tsoTileL(c, t.tc) * bytes); // TSO Eq. 2
    const int64_t w = satMul(satMul(t.tm, t.tn), satMul(c.K * c.K, bytes));
    const int64_t out = satMul(satMul(t.tm, t.tr), t.tc * bytes);
    return in <= cores.mb_bytes[0] && w <= cores.mb_bytes[1] && out <= cores.mb_bytes[2];
}

TsoAlphas tsoTransferCounts(TltSchedule s, const TsoConv& c, const TleSlice& slice,
                            const TsoTile& t, int tle) {
    // Saturating: the TLE count multiplies counts that are exact per image.
    const int64_t spatial =
        satMul(satMul(ceilDiv(slice.rows, t.tr), ceilDiv(c.C, t.tc)), ceilDiv(c.N, t.tn));
    const int64_t outs = satMul(ceilDiv(c.R, t.tr), ceilDiv(c.C, t.tc));
    TsoAlphas a;
    switch (s) {
    case TltSchedule::is: // TSO Eq. 3
        a.in = satMul(tle, spatial);
        a.w = a.in;
        a.out = outs;
        break;
    case TltSchedule::os: // TSO Eq. 4
        a.in = satMul(satMul(tle, spatial), ceilDiv(slice.filters, t.tm));
        a.w = a.in;
        a.out = satMul(outs, ceilDiv(c.M, t.tm));
        break;
    case TltSchedule::ws: // TSO Eq. 5
        a.in = satMul(satMul(tle, spatial), ceilDiv(slice.filters, t.tm));
        a.w = satMul(tle, ceilDiv(slice.filters, t.tm));
        a.out = satMul(outs, ceilDiv(c.M, t.tm));
        break;
    }
    return a;
}

double tsoMacCycles(const TsoConv& c, const TsoTile& t, int64_t macs_per_cycle, int cores) {
    const double perTile = double(t.tn) * double(t.tm) *
                           double(ceilDiv(satMul(t.tr * t.tc, c.K * c.K),
                                          std::max<int64_t>(1, macs_per_cycle))); // TSO Eq. 7
    const double tiles = double(ceilDiv(c.M, t.tm)) * double(ceilDiv(c.N, t.tn)) *
                         double(ceilDiv(c.R, t.tr)) * double(ceilDiv(c.C, t.tc));
    return tiles * perTile / double(std::max(1, cores)); // TSO Eq. 8
}

double tsoDramCycles(const TsoConv& c, const TsoTile& t, const TsoAlphas& a, const Hardware& hw,
                     bool burst_aware) {
    const int bits = hw.precision.act_bits;
    const Transfer in{TrafficKind::input, a.in, t.tn, tsoTileH(c, t.tr),
                      tsoTileL(c, t.tc),  c.L,  bits};
    const int64_t wBlock = satMul(satMul(t.tm, t.tn), c.K * c.K);
    const Transfer w{TrafficKind::weight, a.w, 1, 1, wBlock, wBlock, hw.precision.weight_bits};
    const Transfer out{TrafficKind::output, a.out, t.tm, t.tr, t.tc, c.C, bits};
    return transferCycles(in, hw, burst_aware) + transferCycles(w, hw, burst_aware) +
           transferCycles(out, hw, burst_aware); // TSO Eq. 9
}

} // namespace lf
