// Hardware configuration (docs/models/README.md "Hardware", docs/file-formats.md hardware YAML).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lf {

// Loop dimensions a dataflow may map onto PE columns / rows (docs/models/README.md).
enum class LoopDim : uint8_t { ox, oy, oc, ic, kx, ky, b };

// Which loop dims are unrolled over PE columns (A) and rows (B), e.g. "ox|oc" or
// "ky*oy|ic*oc" (a product of dims shares one axis).
struct Dataflow {
    std::vector<LoopDim> cols;
    std::vector<LoopDim> rows;
    friend bool operator==(const Dataflow&, const Dataflow&) = default;
};

std::optional<Dataflow> parseDataflow(std::string_view s);
std::string toString(const Dataflow& d);

// Bits and bytes. The models size buffers and transfers in bits (every array has its own
// precision); bytes appear at the edges (capacities, files, the studio), rounded up.
constexpr int64_t bytesToBits(int64_t bytes) {
    return bytes * 8;
}
constexpr int64_t bitsToBytes(int64_t bits) {
    return bits / 8 + (bits % 8 > 0); // (bits + 7) / 8 would overflow near 2^63
}
// Bytes of `elements` values of `bits` each, not rounded (a figure to show or compare).
constexpr double elementBytes(double elements, int bits) {
    return elements * double(bits) / 8.0;
}

enum class SramEnergyModel : uint8_t {
    constant, // pj_per_access
    sqrt,     // ConvFusion §VII-A: a·sqrt(bits) + b
    banked,   // ConvFusion §VII-B: E_sqrt(min(s, bank_bits))·(1 + f·log2 ceil(s/bank_bits))
};

enum class OverlapMode : uint8_t { serial, overlapped };

struct Precision {
    int act_bits = 16;
    int weight_bits = 16;
    int psum_bits = 32;
    friend bool operator==(const Precision&, const Precision&) = default;
};

struct DramConfig {
    double bandwidth_bytes_per_cycle = 16;
    int64_t burst_bytes = 64;
    double cas_cycles = 0;
    double energy_pj_per_word = 1120.0;
    friend bool operator==(const DramConfig&, const DramConfig&) = default;
};

struct BufferEnergy {
    SramEnergyModel model = SramEnergyModel::constant;
    double pj_per_access = 0; // constant model
    double a = 0.012;         // sqrt / banked: a·sqrt(bits) + b   (ConvFusion fit, 40 nm)
    double b = 4.61;
    double bank_bits = 16e4; // banked
    double bank_factor = 3.05e-3;
    friend bool operator==(const BufferEnergy&, const BufferEnergy&) = default;
};

struct BufferConfig {
    int64_t bytes = 512 * 1024;
    int banks = 1;
    BufferEnergy energy;
    int64_t bits() const { return bytesToBits(bytes); }
    friend bool operator==(const BufferConfig&, const BufferConfig&) = default;
};

struct PeArrayConfig {
    int cols = 16;
    int rows = 16;
    int macs_per_pe_per_cycle = 1;
    Dataflow dataflow{{LoopDim::ox}, {LoopDim::oc}};
    friend bool operator==(const PeArrayConfig&, const PeArrayConfig&) = default;
};

struct RegisterFileConfig {
    int64_t bytes_per_pe = 0;                // 0 = no register file level
    int64_t weight = 0, input = 0, psum = 0; // bytes per PE of each section
    double pj_per_access = 0;
    friend bool operator==(const RegisterFileConfig&, const RegisterFileConfig&) = default;
};

// TSO-style multicore NPU: TLE tensor-level engines × TLT cores each, every
// TLT with three local memories MB0/MB1/MB2.
struct CoresConfig {
    int tle = 1;
    int tlt = 1;
    std::vector<int64_t> mb_bytes{8192, 8192, 8192};
    friend bool operator==(const CoresConfig&, const CoresConfig&) = default;
};

struct Hardware {
    std::string name = "default";
    std::string description;
    double frequency_mhz = 200;
    int batch = 1;
    Precision precision;
    DramConfig dram;
    BufferConfig buffer;
    PeArrayConfig pe_array;
    RegisterFileConfig register_file;
    double mac_pj = 1.0;
    OverlapMode overlap = OverlapMode::serial;
    std::optional<CoresConfig> cores;

    int64_t peCount() const { return int64_t(pe_array.cols) * pe_array.rows; }
    // MACs per cycle of one TSO core (TLE × TLT of them) running on `pes` PEs of the array:
    // the array of a multicore preset holds every core's MAC units, so a core gets its
    // share of their MACs, and at least one (TSO Eq. 7's #MACs).
    int64_t macsPerCore(int64_t pes) const;
    // The chip's peak MACs per cycle: the array's, or all cores' when there are cores (more
    // than the array's when there are more cores than MAC units). Utilization divides by it.
    int64_t peakMacsPerCycle() const;
    friend bool operator==(const Hardware&, const Hardware&) = default;
};

// Checks a hardware config for values the models cannot use; returns one message per
// problem (empty when valid).
std::vector<std::string> validate(const Hardware& hw);

} // namespace lf
