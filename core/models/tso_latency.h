// Latency — Sousa et al., "Efficient Tensor Slicing for Multicore NPUs using Memory Burst
// Modeling" TSO §IV-B..E for the multicore NPU and the burst-aware DRAM time
// (TSO Alg. 4, TSO Eq. 9), and the spatial-array compute model of docs/models/README.md.
#pragma once

#include "hardware/hardware.h"
#include "models/group_cost.h"
#include "network/dims.h"

#include <cstdint>

namespace lf {

// --- DRAM time (TSO Alg. 4, TSO Eq. 9) ------------------------------------------------------

// Bursts of ONE transfer of box `t` (docs/models/tso.md): per channel ⌈rows·W·bytes/BURST⌉ when
// the box spans full rows (cols == row width: rows are contiguous), else
// rows·⌈cols·bytes/BURST⌉; a weight block is one contiguous run.
int64_t burstCount(const Transfer& t, int64_t burst_bytes);
// Cycles of all `t.count` transfers: burst mode bursts·CAS + bytes/BW, else bytes/BW.
double transferCycles(const Transfer& t, const Hardware& hw, bool burst_aware);

// --- Spatial-array compute (docs/models/README.md) -------------------------------------------

// Cycles of one evaluation of a layer on a px × py (sub-)array: Π_d ⌈D_d/U_d⌉ over the loop
// dims with U = min(D_axis, PEs of the axis) for the dims the dataflow maps on columns and
// rows (a product of dims shares its axis) and 1 otherwise; × groups × batch; ÷ MACs/PE/cycle.
// Layers without weights (pool, element-wise, resize) map channels onto the oc dim.
int64_t arrayComputeCycles(const LayerDims& d, LayerType type, const Dataflow& df, int px, int py,
                           int macs_per_pe, int64_t batch);

// --- Multicore NPU (TSO) --------------------------------------------------------------------

enum class TlePartition : uint8_t { ks, ks_ofm, ofm }; // TSO Alg. 2
enum class TltSchedule : uint8_t { is, os, ws };       // TSO §IV-D
const char* toString(TlePartition p);
const char* toString(TltSchedule s);

// A conv in TSO's notation (TSO Fig. 2): M filters, N channels, R × C output, K kernel, S stride,
// H × L input.
struct TsoConv {
    int64_t M = 1, N = 1, R = 1, C = 1, K = 1, S = 1, H = 1, L = 1;
};
TsoConv tsoConv(const LayerDims& d);

struct TleSlice {
    int64_t rows = 1;    // TLE_R
    int64_t filters = 1; // TLE_W
};
// TSO Alg. 2 (TLESlicing).
TleSlice tleSlicing(TlePartition p, const TsoConv& c, int tle);

struct TsoTile {
    int64_t tm = 1, tn = 1, tr = 1, tc = 1; // T_M filters, T_N channels, T_R × T_C outputs
};
// TSO Eq. 1 input extents of an output tile.
int64_t tsoTileH(const TsoConv& c, int64_t tr);
int64_t tsoTileL(const TsoConv& c, int64_t tc);
// TSO Eq. 2: the IN, W and OUT tiles fit MB0, MB1 and MB2.
bool tsoTileFits(const TsoConv& c, const TsoTile& t, const CoresConfig& cores, int bytes);

struct TsoAlphas {
    int64_t in = 0, w = 0, out = 0;
};
// TSO Eq. 3 (IS), 4 (OS), 5 (WS).
TsoAlphas tsoTransferCounts(TltSchedule s, const TsoConv& c, const TleSlice& slice,
                            const TsoTile& t, int tle);
// TSO Eq. 7-8 in cycles: T_leMAC = T_N·T_M·⌈T_R·T_C·K²/#MACs⌉ and T_MAC = 1/#cores ·
// ⌈M/T_M⌉⌈N/T_N⌉⌈R/T_R⌉⌈C/T_C⌉·T_leMAC (#cores = TLE × TLT; the paper prints #TLTs).
double tsoMacCycles(const TsoConv& c, const TsoTile& t, int64_t macs_per_cycle, int cores);
// TSO Eq. 9: α_in·t(IN) + α_w·t(W) + α_out·t(OUT), each t from TSO Alg. 4.
double tsoDramCycles(const TsoConv& c, const TsoTile& t, const TsoAlphas& a, const Hardware& hw,
                     bool burst_aware);

} // namespace lf
