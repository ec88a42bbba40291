#include "hardware/hardware.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace lf {

namespace {
constexpr std::array<std::string_view, 7> kDimNames = {"ox", "oy", "oc", "ic", "kx", "ky", "b"};

std::optional<std::vector<LoopDim>> parseAxis(std::string_view s) {
    std::vector<LoopDim> out;
    for (;;) {
        const size_t star = s.find('*');
        std::string_view tok = s.substr(0, star);
        while (!tok.empty() && tok.front() == ' ')
            tok.remove_prefix(1);
        while (!tok.empty() && tok.back() == ' ')
            tok.remove_suffix(1);
        bool found = false;
        for (size_t i = 0; i < kDimNames.size(); ++i)
            if (kDimNames[i] == tok) {
                out.push_back(LoopDim(i));
                found = true;
            }
        if (!found) return std::nullopt;
        if (star == std::string_view::npos) break;
        s.remove_prefix(star + 1);
    }
    if (out.empty()) return std::nullopt;
    return out;
}
} // namespace

std::optional<Dataflow> parseDataflow(std::string_view s) {
    const size_t bar = s.find('|');
    if (bar == std::string_view::npos) return std::nullopt;
    auto a = parseAxis(s.substr(0, bar));
    auto b = parseAxis(s.substr(bar + 1));
    if (!a || !b) return std::nullopt;
    // Every dim at most once over both axes ("ox|ox" and "ox*ox|oc" are not dataflows).
    std::vector<LoopDim> all = *a;
    all.insert(all.end(), b->begin(), b->end());
    std::sort(all.begin(), all.end());
    if (std::adjacent_find(all.begin(), all.end()) != all.end()) return std::nullopt;
    return Dataflow{*a, *b};
}

std::string toString(const Dataflow& d) {
    auto axis = [](const std::vector<LoopDim>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) s += '*';
            s += kDimNames[size_t(v[i])];
        }
        return s;
    };
    return axis(d.cols) + "|" + axis(d.rows);
}

int64_t Hardware::macsPerCore(int64_t pes) const {
    const int64_t n = cores ? int64_t(std::max(1, cores->tle)) * std::max(1, cores->tlt) : 1;
    return std::max<int64_t>(1, int64_t(pe_array.macs_per_pe_per_cycle) * pes / n);
}

int64_t Hardware::peakMacsPerCycle() const {
    if (!cores) return peCount() * pe_array.macs_per_pe_per_cycle;
    return macsPerCore(peCount()) * std::max(1, cores->tle) * std::max(1, cores->tlt);
}

std::vector<std::string> validate(const Hardware& hw) {
    std::vector<std::string> p;
    if (hw.frequency_mhz <= 0) p.push_back("frequency_mhz must be positive");
    if (hw.batch < 1) p.push_back("batch must be at least 1");
    for (int b : {hw.precision.act_bits, hw.precision.weight_bits, hw.precision.psum_bits})
        if (b < 1 || b > 64) {
            p.push_back("precisions must be between 1 and 64 bits");
            break;
        }
    if (hw.dram.bandwidth_bytes_per_cycle <= 0) p.push_back("dram bandwidth must be positive");
    if (hw.dram.burst_bytes < 1) p.push_back("dram burst_bytes must be at least 1");
    if (hw.dram.cas_cycles < 0) p.push_back("dram cas_cycles must not be negative");
    if (hw.buffer.bytes < 1) p.push_back("buffer bytes must be positive");
    if (hw.buffer.banks < 1) p.push_back("buffer banks must be at least 1");
    if (hw.pe_array.cols < 1 || hw.pe_array.rows < 1) p.push_back("pe_array needs at least one PE");
    if (hw.pe_array.macs_per_pe_per_cycle < 1)
        p.push_back("macs_per_pe_per_cycle must be at least 1");
    const auto& rf = hw.register_file;
    if (rf.bytes_per_pe < 0 || rf.weight < 0 || rf.input < 0 || rf.psum < 0)
        p.push_back("register file sizes must not be negative");
    if (rf.weight + rf.input + rf.psum > rf.bytes_per_pe)
        p.push_back("register file sections (weight + input + psum = " +
                    std::to_string(rf.weight + rf.input + rf.psum) + " B) exceed bytes_per_pe (" +
                    std::to_string(rf.bytes_per_pe) + " B)");
    if (hw.cores) {
        if (hw.cores->tle < 1 || hw.cores->tlt < 1)
            p.push_back("cores tle and tlt must be at least 1");
        if (hw.cores->mb_bytes.size() != 3)
            p.push_back("cores mb_bytes must list MB0, MB1 and MB2");
        for (int64_t b : hw.cores->mb_bytes)
            if (b < 1) {
                p.push_back("cores memories must be positive");
                break;
            }
    }
    return p;
}

} // namespace lf
