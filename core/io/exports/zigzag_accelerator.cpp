#include "io/exports/zigzag_accelerator.h"

#include "io/yaml_support.h"
#include "models/energy.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lf {

using namespace yamlio;

namespace {

// ZigZag's on-chip memories move one element per access (register files) or a whole port
// width (buffer, DRAM); see the header for how costs are kept per element.
ZigZagMemory registerFile(const char* name, const char* operand, int64_t bytes, int bits,
                          double pj) {
    ZigZagMemory m;
    m.name = name;
    m.operands = {operand};
    m.size_bits = bytes * 8;
    m.bandwidth_min = m.bandwidth_max = bits;
    m.cost = pj;
    m.per_pe = true;
    return m;
}

void emitPort(YAML::Emitter& out, const std::string& name, const char* type, const ZigZagMemory& m,
              const std::vector<std::string>& allocation) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << name;
    out << YAML::Key << "type" << YAML::Value << type;
    out << YAML::Key << "bandwidth_min" << YAML::Value << intText(m.bandwidth_min);
    out << YAML::Key << "bandwidth_max" << YAML::Value << intText(m.bandwidth_max);
    out << YAML::Key << "allocation" << YAML::Value << YAML::BeginSeq;
    for (const std::string& a : allocation)
        out << a;
    out << YAML::EndSeq;
    out << YAML::EndMap;
}

// Ports: DRAM one read-write port (as ZigZag's examples); every other memory a read port
// (towards the array, and outputs back up) and a write port (fills from above, outputs from
// below) per operand, so that no operand waits for another's transfers (LayerFuse has no
// on-chip bandwidth limit). All ports of a memory are equally wide: ZigZag prices every
// access of a memory alike.
void emitPorts(YAML::Emitter& out, const ZigZagMemory& m) {
    out << YAML::Key << "ports" << YAML::Value << YAML::BeginSeq;
    if (m.name == "dram") {
        std::vector<std::string> all;
        for (const std::string& op : m.operands) {
            all.push_back(op + ", fh");
            all.push_back(op + ", tl");
            if (op == "O") {
                all.push_back("O, fl");
                all.push_back("O, th");
            }
        }
        emitPort(out, "rw_port_1", "read_write", m, all);
    } else {
        int k = 1;
        for (const std::string& op : m.operands) {
            std::vector<std::string> reads{op + ", tl"}, writes{op + ", fh"};
            if (op == "O") {
                reads.push_back("O, th");
                writes.push_back("O, fl");
            }
            emitPort(out, "r_port_" + intText(k), "read", m, reads);
            emitPort(out, "w_port_" + intText(k), "write", m, writes);
            ++k;
        }
    }
    out << YAML::EndSeq;
}

} // namespace

ZigZagAcceleratorSpec zigzagAccelerator(const Hardware& hw, double sram_bits, bool with_dram) {
    ZigZagAcceleratorSpec s;
    const Precision& p = hw.precision;
    const int64_t word = p.act_bits;
    const int64_t gran = std::gcd(std::gcd(p.act_bits, p.weight_bits), p.psum_bits);
    const int64_t widest = std::max({p.act_bits, p.weight_bits, p.psum_bits});
    s.cols = hw.pe_array.cols;
    s.rows = hw.pe_array.rows;
    s.mac_pj = hw.mac_pj;

    const RegisterFileConfig& rf = hw.register_file;
    if (rf.bytes_per_pe > 0) {
        const int64_t sections = rf.weight + rf.input + rf.psum;
        if (sections == 0) {
            // One pool for every operand (the presets that give no split).
            ZigZagMemory m = registerFile("rf", "I1", rf.bytes_per_pe, int(gran), 0);
            m.operands = {"I1", "I2", "O"};
            m.bandwidth_max = widest;
            m.cost = rf.pj_per_access * double(widest) / double(word);
            s.memories.push_back(m);
        } else {
            struct Section {
                const char* name;
                const char* operand;
                int64_t bytes;
                int bits;
                const char* what;
            };
            for (const Section& sec : {Section{"rf_W", "I2", rf.weight, p.weight_bits, "weight"},
                                       Section{"rf_I", "I1", rf.input, p.act_bits, "input"},
                                       Section{"rf_O", "O", rf.psum, p.psum_bits, "psum"}}) {
                if (sec.bytes * 8 >= sec.bits)
                    s.memories.push_back(
                        registerFile(sec.name, sec.operand, sec.bytes, sec.bits, rf.pj_per_access));
                else
                    s.notes.push_back(std::string("the register file's ") + sec.what +
                                      " section (" + intText(sec.bytes) +
                                      " B) holds no element; the buffer feeds the PEs directly");
            }
            if (rf.bytes_per_pe > sections)
                s.notes.push_back(intText(rf.bytes_per_pe - sections) +
                                  " B of each PE's register file are in no section and are not "
                                  "exported (LayerFuse's energy model uses the sections only, "
                                  "docs/model-notes.md)");
        }
    }

    // Each buffer port moves its operand for a whole array axis per cycle: LayerFuse has no
    // buffer bandwidth limit, so ZigZag should not stall on one either; and ZigZag limits the
    // spatial unrolling of an operand the buffer feeds directly to bandwidth / precision.
    ZigZagMemory gb;
    gb.name = "global_buffer";
    gb.operands = {"I1", "I2", "O"};
    gb.size_bits = hw.buffer.bytes * 8;
    gb.bandwidth_min = gran;
    gb.bandwidth_max = widest * std::max(hw.pe_array.cols, hw.pe_array.rows);
    gb.cost = sramAccessPj(hw.buffer.energy, sram_bits) * double(gb.bandwidth_max) / double(word);
    s.memories.push_back(gb);

    if (with_dram) {
        ZigZagMemory dram;
        dram.name = "dram";
        dram.operands = {"I1", "I2", "O"};
        dram.size_bits = int64_t(1) << 40;
        dram.bandwidth_min = gran;
        dram.bandwidth_max =
            std::max<int64_t>(gran, int64_t(std::llround(hw.dram.bandwidth_bytes_per_cycle * 8.0)));
        dram.cost = hw.dram.energy_pj_per_word * double(dram.bandwidth_max) / double(word);
        s.memories.push_back(dram);
    }
    if (hw.pe_array.macs_per_pe_per_cycle > 1)
        s.notes.push_back("each PE does " + intText(hw.pe_array.macs_per_pe_per_cycle) +
                          " MACs per cycle; a unit of ZigZag's operational array does one, so "
                          "ZigZag's cycle counts are that many times LayerFuse's");
    if (hw.cores)
        s.notes.push_back("the multicore organisation (cores: " + intText(hw.cores->tle) + " x " +
                          intText(hw.cores->tlt) +
                          ") is not exported: a ZigZag accelerator is one core");
    return s;
}

void emitZigZagAcceleratorBody(YAML::Emitter& out, const ZigZagAcceleratorSpec& spec,
                               const std::string& name) {
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, name);
    out << YAML::Key << "memories" << YAML::Value << YAML::BeginMap;
    for (const ZigZagMemory& m : spec.memories) {
        out << YAML::Key << m.name << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "size" << YAML::Value << intText(m.size_bits);
        out << YAML::Key << "r_cost" << YAML::Value;
        emitDouble(out, m.cost);
        out << YAML::Key << "w_cost" << YAML::Value;
        emitDouble(out, m.cost);
        out << YAML::Key << "area" << YAML::Value;
        emitDouble(out, 0.0);
        out << YAML::Key << "latency" << YAML::Value << intText(1);
        out << YAML::Key << "operands" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const std::string& op : m.operands)
            out << op;
        out << YAML::EndSeq;
        emitPorts(out, m);
        out << YAML::Key << "served_dimensions" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        if (!m.per_pe)
            out << "D1"
                << "D2";
        out << YAML::EndSeq;
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
    out << YAML::Key << "operational_array" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "unit_energy" << YAML::Value;
    emitDouble(out, spec.mac_pj);
    out << YAML::Key << "unit_area" << YAML::Value;
    emitDouble(out, 1.0);
    out << YAML::Key << "dimensions" << YAML::Value << YAML::Flow << YAML::BeginSeq << "D1"
        << "D2" << YAML::EndSeq;
    out << YAML::Key << "sizes" << YAML::Value << YAML::Flow << YAML::BeginSeq << intText(spec.cols)
        << intText(spec.rows) << YAML::EndSeq;
    out << YAML::EndMap;
}

std::string zigzagAcceleratorYaml(const Hardware& hw, double sram_bits) {
    const ZigZagAcceleratorSpec spec = zigzagAccelerator(hw, sram_bits, true);
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    emitZigZagAcceleratorBody(out, spec, hw.name);
    out << YAML::EndMap;
    return finish(out);
}

} // namespace lf
