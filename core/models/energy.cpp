#include "models/energy.h"

#include <algorithm>
#include <cmath>

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

double trafficWords(const Traffic& t, const Precision& p) {
    const double act = std::max(1, p.act_bits);
    return double(t.input) + double(t.output) + double(t.weight) * p.weight_bits / act +
           double(t.psum) * p.psum_bits / act;
}

Energy energyOf(const EnergyCounts& c, const Hardware& hw, double sram_bits) {
    Energy e;
    e.mac = double(c.macs) * hw.mac_pj;
    e.dram = c.dram * hw.dram.energy_pj_per_word;
    const double eSram = sramAccessPj(hw.buffer.energy, sram_bits);
    if (hw.register_file.bytes_per_pe > 0) {
        e.rf = 4.0 * double(c.macs) * hw.register_file.pj_per_access;
        e.sram = (c.dram + c.sram_rf) * eSram;
    } else {
        e.sram = (4.0 * double(c.macs) + c.dram) * eSram;
    }
    return e;
}

} // namespace lf
