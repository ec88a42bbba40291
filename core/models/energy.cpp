#include "models/energy.h"

#include "models/convfusion.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

namespace lf {

double sramAccessPj(const BufferEnergy& e, double size_bits) {
    switch (e.model) {
    case SramEnergyModel::constant:
        return e.pj_per_access;
    case SramEnergyModel::sqrt:
        return e.a * std::sqrt(std::max(0.0, size_bits)) + e.b; // ConvFusion §VII-A
    case SramEnergyModel::banked: {                             // ConvFusion §VII-B
        const double s = std::max(1.0, size_bits);
        const double banks = std::ceil(s / e.bank_bits);
        const double single = e.a * std::sqrt(std::min(s, e.bank_bits)) + e.b;
        return single * (1.0 + e.bank_factor * std::log2(banks));
    }
    }
    return e.pj_per_access;
}

namespace {

int64_t searchRfTraffic(const LayerDims& d, int64_t capacity_bits, const Precision& p) {
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    std::array<std::vector<int64_t>, 4> cand;
    for (size_t k = 0; k < 4; ++k) {
        for (int64_t t = 1; t < D[k]; t *= 2)
            cand[k].push_back(t);
        cand[k].push_back(D[k]);
    }
    int64_t best = -1;
    LayerSchedule s;
    s.store = {Level::tile, Level::tile, Level::tile};
    s.compute = s.store;
    const std::array<std::array<Dim, 4>, 2> orders{
        {{Dim::z, Dim::y, Dim::x, Dim::i}, {Dim::i, Dim::z, Dim::y, Dim::x}}};
    for (const auto& order : orders) {
        s.order = order;
        // Footprints grow with every tile: stop a loop at the first tile that overflows
        // (branch and bound on capacity, docs/models/convfusion.md).
        for (int64_t tz : cand[0]) {
            bool anyZ = false;
            for (int64_t ty : cand[1]) {
                bool anyY = false;
                for (int64_t tx : cand[2]) {
                    bool anyX = false;
                    for (int64_t ti : cand[3]) {
                        s.tile = {tz, ty, tx, ti};
                        const CfLayerCost c = convFusionLayer(d, s, false);
                        const int64_t bits =
                            c.buf_x * p.act_bits + c.buf_w * p.weight_bits + c.buf_y * p.psum_bits;
                        if (bits > capacity_bits) break;
                        anyX = true;
                        const int64_t traffic = c.acc_x + c.acc_w + c.accY();
                        if (best < 0 || traffic < best) best = traffic;
                    }
                    if (!anyX) break;
                    anyY = true;
                }
                if (!anyY) break;
                anyZ = true;
            }
            if (!anyZ) break;
        }
    }
    if (best < 0) {
        // Nothing fits: every operand moves per use, i.e. the unit-tile schedule (the smallest
        // footprint of each order). Taking the worse order keeps the result an upper bound of
        // every schedule that fits a larger capacity, so the traffic never grows with capacity.
        s.tile = {1, 1, 1, 1};
        for (const auto& order : orders) {
            s.order = order;
            const CfLayerCost c = convFusionLayer(d, s, false);
            best = std::max(best, c.acc_x + c.acc_w + c.accY());
        }
    }
    return best;
}

} // namespace

int64_t rfLevelTraffic(const LayerDims& d, int64_t capacity_bits, const Precision& p) {
    if (!d.weights) return 0;
    using Key = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t, int64_t, int, int, int, int>;
    static std::mutex mu;
    static std::map<Key, int64_t> cache;
    const Key key{d.Dx,       d.Dy,          d.Dz,        d.Di,         d.Dm,   d.Dn,
                  d.Sx,       d.Sy,          d.G,         d.in_w,       d.in_h, capacity_bits,
                  p.act_bits, p.weight_bits, p.psum_bits, int(d.window)};
    {
        std::lock_guard<std::mutex> lock(mu);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    const int64_t v = searchRfTraffic(d, capacity_bits, p);
    std::lock_guard<std::mutex> lock(mu);
    if (cache.size() > 100000) cache.clear();
    cache.emplace(key, v);
    return v;
}

Energy energyOf(const EnergyCounts& c, const Hardware& hw, double sram_bits) {
    Energy e;
    e.mac = double(c.macs) * hw.mac_pj;
    e.dram = double(c.dram) * hw.dram.energy_pj_per_word;
    const double eSram = sramAccessPj(hw.buffer.energy, sram_bits);
    if (hw.register_file.bytes_per_pe > 0) {
        e.rf = 4.0 * double(c.macs) * hw.register_file.pj_per_access;
        e.sram = double(c.dram + c.sram_rf) * eSram;
    } else {
        e.sram = double(4 * c.macs + c.dram) * eSram;
    }
    return e;
}

} // namespace lf
