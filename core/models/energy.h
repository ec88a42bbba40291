// Energy — ConvFusion §VII (single-bank and banked SRAM fits, register-file level by the
// multi-level approximation of ConvFusion §VII-C) and HWFF Table 4;
// docs/models/convfusion.md.  E = MACs·e_mac + RF·e_rf + SRAM·e_sram + DRAM·e_dram.
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/dims.h"

#include <cstdint>

namespace lf {

// Energy of one SRAM access for a memory of `size_bits`:
// constant: pj_per_access; sqrt (ConvFusion §VII-A): a·√s + b; banked (ConvFusion §VII-B):
// E_sqrt(min(s, bank)) · (1 + f·log2⌈s/bank⌉) (log base not printed; read as 2,
// docs/model-notes.md).
double sramAccessPj(const BufferEnergy& e, double size_bits);

// Memory traffic is counted in words of act_bits: an element of b bits is b / act_bits words
// (a 32-bit partial sum is four accesses of an 8-bit-wide memory), docs/model-notes.md.
struct EnergyCounts {
    int64_t macs = 0;
    double dram = 0;    // DRAM traffic, words
    double sram_rf = 0; // SRAM↔RF traffic, words (with an RF level)
};

// DRAM traffic in words: inputs and outputs one each, weights weight_bits / act_bits,
// partial sums psum_bits / act_bits.
double trafficWords(const Traffic& t, const Precision& p);

// ConvFusion §VII-A: with no RF, SRAM = 4·MACs + DRAM words; with an RF, RF = 4·MACs and
// SRAM = DRAM words + SRAM↔RF words (models/rf_level.h). `sram_bits` sizes the SRAM for the
// sqrt/banked models (ConvFusion sizes it to the schedule's peak footprint).
Energy energyOf(const EnergyCounts& c, const Hardware& hw, double sram_bits);

} // namespace lf
