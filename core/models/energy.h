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

// SRAM↔RF traffic of a layer (elements): the minimum single-layer traffic of the ConvFusion §IV
// model over schedules whose footprint fits `capacity_bits` (ConvFusion §VII-C: "the best schedule
// available for that size is used to model the accesses to that level"). Searched over power-of-two
// and full tiles with every array stored at the tile level and i innermost or outermost;
// when nothing fits, every operand moves per use (the unit-tile schedule, the worse of the two
// orders), so the traffic never grows with the capacity. Cached process-wide by value.
int64_t rfLevelTraffic(const LayerDims& d, int64_t capacity_bits, const Precision& p);

struct EnergyCounts {
    int64_t macs = 0;
    int64_t dram = 0;    // DRAM accesses (elements)
    int64_t sram_rf = 0; // SRAM↔RF traffic (with an RF level)
};

// ConvFusion §VII-A: with no RF, SRAM = 4·MACs + DRAM accesses; with an RF, RF = 4·MACs and
// SRAM = DRAM accesses + SRAM↔RF traffic. `sram_bits` sizes the SRAM for the sqrt/banked
// models (ConvFusion sizes it to the schedule's peak footprint).
Energy energyOf(const EnergyCounts& c, const Hardware& hw, double sram_bits);

} // namespace lf
