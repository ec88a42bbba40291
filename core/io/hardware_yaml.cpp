#include "io/hardware_yaml.h"

#include "io/yaml_support.h"
#include "util/format.h"

namespace lf {

using namespace yamlio;

namespace {
constexpr double kBig = 1e15;
constexpr int64_t kMaxBytes = int64_t(1) << 44; // 16 TiB: beyond any real on-chip memory
} // namespace

namespace {
template <class N> Hardware readHardwareT(const N& root) {
    requireMap(root, "hardware");
    checkKeys(root, {"format", "name", "description", "frequency_mhz", "batch", "precision", "dram",
                     "buffer", "pe_array", "register_file", "mac", "overlap", "cores"});
    Hardware hw;
    hw.name = toString(req(root, "name"), "name");
    hw.description = getString(root, "description", "");
    hw.frequency_mhz = getDouble(root, "frequency_mhz", hw.frequency_mhz, 1e-3, 1e6);
    hw.batch = int(getInt(root, "batch", 1, 1, 1 << 16));
    if (const N p = root["precision"]) {
        requireMap(p, "precision");
        checkKeys(p, {"act_bits", "weight_bits", "psum_bits"});
        hw.precision.act_bits = int(getInt(p, "act_bits", hw.precision.act_bits, 1, 64));
        hw.precision.weight_bits = int(getInt(p, "weight_bits", hw.precision.weight_bits, 1, 64));
        hw.precision.psum_bits = int(getInt(p, "psum_bits", hw.precision.psum_bits, 1, 64));
    }
    if (const N d = root["dram"]) {
        requireMap(d, "dram");
        checkKeys(d,
                  {"bandwidth_bytes_per_cycle", "burst_bytes", "cas_cycles", "energy_pj_per_word"});
        hw.dram.bandwidth_bytes_per_cycle = getDouble(
            d, "bandwidth_bytes_per_cycle", hw.dram.bandwidth_bytes_per_cycle, 1e-6, kBig);
        hw.dram.burst_bytes = getInt(d, "burst_bytes", hw.dram.burst_bytes, 1, 1 << 20);
        hw.dram.cas_cycles = getDouble(d, "cas_cycles", hw.dram.cas_cycles, 0, 1e9);
        hw.dram.energy_pj_per_word =
            getDouble(d, "energy_pj_per_word", hw.dram.energy_pj_per_word, 0, kBig);
    }
    if (const N b = root["buffer"]) {
        requireMap(b, "buffer");
        checkKeys(b, {"bytes", "banks", "energy"});
        hw.buffer.bytes = getInt(b, "bytes", hw.buffer.bytes, 1, kMaxBytes);
        hw.buffer.banks = int(getInt(b, "banks", hw.buffer.banks, 1, 1 << 20));
        if (const N e = b["energy"]) {
            requireMap(e, "buffer energy");
            checkKeys(e, {"model", "pj_per_access", "a", "b", "bank_bits", "bank_factor"});
            const std::string m = getString(e, "model", "constant");
            BufferEnergy& be = hw.buffer.energy;
            if (m == "constant")
                be.model = SramEnergyModel::constant;
            else if (m == "sqrt")
                be.model = SramEnergyModel::sqrt;
            else if (m == "banked")
                be.model = SramEnergyModel::banked;
            else
                fail(e["model"],
                     "buffer energy model must be constant, sqrt or banked, got " + quoteValue(m));
            be.pj_per_access = getDouble(e, "pj_per_access", be.pj_per_access, 0, kBig);
            be.a = getDouble(e, "a", be.a, 0, kBig);
            be.b = getDouble(e, "b", be.b, 0, kBig);
            be.bank_bits = getDouble(e, "bank_bits", be.bank_bits, 1, kBig);
            be.bank_factor = getDouble(e, "bank_factor", be.bank_factor, 0, kBig);
        }
    }
    if (const N p = root["pe_array"]) {
        requireMap(p, "pe_array");
        checkKeys(p, {"cols", "rows", "macs_per_pe_per_cycle", "dataflow"});
        hw.pe_array.cols = int(getInt(p, "cols", hw.pe_array.cols, 1, 1 << 16));
        hw.pe_array.rows = int(getInt(p, "rows", hw.pe_array.rows, 1, 1 << 16));
        hw.pe_array.macs_per_pe_per_cycle =
            int(getInt(p, "macs_per_pe_per_cycle", hw.pe_array.macs_per_pe_per_cycle, 1, 1 << 16));
        if (const N df = p["dataflow"]) {
            const std::string s = toString(df, "dataflow");
            auto parsed = parseDataflow(s);
            if (!parsed)
                fail(df, "dataflow " + quoteValue(s) +
                             " is not of the form COLS|ROWS with dims ox, oy, oc, ic, kx, ky, b "
                             "(e.g. \"ox|oc\" or \"ky*oy|ic*oc\")");
            hw.pe_array.dataflow = *parsed;
        }
    }
    if (const N r = root["register_file"]) {
        requireMap(r, "register_file");
        checkKeys(r, {"bytes_per_pe", "weight", "input", "psum", "pj_per_access"});
        auto& rf = hw.register_file;
        rf.bytes_per_pe = getInt(r, "bytes_per_pe", rf.bytes_per_pe, 0, 1 << 30);
        rf.weight = getInt(r, "weight", rf.weight, 0, 1 << 30);
        rf.input = getInt(r, "input", rf.input, 0, 1 << 30);
        rf.psum = getInt(r, "psum", rf.psum, 0, 1 << 30);
        rf.pj_per_access = getDouble(r, "pj_per_access", rf.pj_per_access, 0, kBig);
        if (rf.weight + rf.input + rf.psum > rf.bytes_per_pe)
            fail(r, "register file sections (weight + input + psum = " +
                        std::to_string(rf.weight + rf.input + rf.psum) +
                        " B) exceed bytes_per_pe (" + std::to_string(rf.bytes_per_pe) + " B)");
    }
    if (const N m = root["mac"]) {
        requireMap(m, "mac");
        checkKeys(m, {"pj"});
        hw.mac_pj = getDouble(m, "pj", hw.mac_pj, 0, kBig);
    }
    if (const N o = root["overlap"]) {
        const std::string s = toString(o, "overlap");
        if (s == "serial")
            hw.overlap = OverlapMode::serial;
        else if (s == "overlapped")
            hw.overlap = OverlapMode::overlapped;
        else
            fail(o, "overlap must be serial or overlapped, got " + quoteValue(s));
    }
    if (const N c = root["cores"]) {
        requireMap(c, "cores");
        checkKeys(c, {"tle", "tlt", "mb_bytes"});
        CoresConfig cc;
        cc.tle = int(getInt(c, "tle", 1, 1, 1 << 12));
        cc.tlt = int(getInt(c, "tlt", 1, 1, 1 << 12));
        if (const N mb = c["mb_bytes"]) {
            auto v = intList(mb, "mb_bytes", 3, 3, 1, kMaxBytes);
            cc.mb_bytes.assign(v.begin(), v.end());
        }
        hw.cores = cc;
    }
    return hw;
}
} // namespace

Hardware yamlio::readHardwareNode(const YAML::Node& root) {
    return readHardwareT(root);
}
Hardware yamlio::readHardwareNode(const TNode& root) {
    return readHardwareT(root);
}

void yamlio::emitHardwareBody(YAML::Emitter& out, const Hardware& hw) {
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, hw.name);
    if (!hw.description.empty()) {
        out << YAML::Key << "description" << YAML::Value;
        emitString(out, hw.description);
    }
    out << YAML::Key << "frequency_mhz" << YAML::Value;
    emitDouble(out, hw.frequency_mhz);
    if (hw.batch != 1) out << YAML::Key << "batch" << YAML::Value << intText(hw.batch);
    out << YAML::Key << "precision" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "act_bits" << YAML::Value << intText(hw.precision.act_bits);
    out << YAML::Key << "weight_bits" << YAML::Value << intText(hw.precision.weight_bits);
    out << YAML::Key << "psum_bits" << YAML::Value << intText(hw.precision.psum_bits);
    out << YAML::EndMap;
    out << YAML::Key << "dram" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "bandwidth_bytes_per_cycle" << YAML::Value;
    emitDouble(out, hw.dram.bandwidth_bytes_per_cycle);
    out << YAML::Key << "burst_bytes" << YAML::Value << intText(hw.dram.burst_bytes);
    out << YAML::Key << "cas_cycles" << YAML::Value;
    emitDouble(out, hw.dram.cas_cycles);
    out << YAML::Key << "energy_pj_per_word" << YAML::Value;
    emitDouble(out, hw.dram.energy_pj_per_word);
    out << YAML::EndMap;
    out << YAML::Key << "buffer" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "bytes" << YAML::Value << intText(hw.buffer.bytes);
    out << YAML::Key << "banks" << YAML::Value << intText(hw.buffer.banks);
    out << YAML::Key << "energy" << YAML::Value << YAML::Flow << YAML::BeginMap;
    const BufferEnergy& be = hw.buffer.energy;
    switch (be.model) {
    case SramEnergyModel::constant:
        out << YAML::Key << "model" << YAML::Value << "constant";
        out << YAML::Key << "pj_per_access" << YAML::Value;
        emitDouble(out, be.pj_per_access);
        break;
    case SramEnergyModel::sqrt:
    case SramEnergyModel::banked:
        out << YAML::Key << "model" << YAML::Value
            << (be.model == SramEnergyModel::sqrt ? "sqrt" : "banked");
        out << YAML::Key << "a" << YAML::Value;
        emitDouble(out, be.a);
        out << YAML::Key << "b" << YAML::Value;
        emitDouble(out, be.b);
        if (be.model == SramEnergyModel::banked) {
            out << YAML::Key << "bank_bits" << YAML::Value;
            emitDouble(out, be.bank_bits);
            out << YAML::Key << "bank_factor" << YAML::Value;
            emitDouble(out, be.bank_factor);
        }
        break;
    }
    out << YAML::EndMap << YAML::EndMap;
    out << YAML::Key << "pe_array" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "cols" << YAML::Value << intText(hw.pe_array.cols);
    out << YAML::Key << "rows" << YAML::Value << intText(hw.pe_array.rows);
    out << YAML::Key << "macs_per_pe_per_cycle" << YAML::Value
        << intText(hw.pe_array.macs_per_pe_per_cycle);
    out << YAML::Key << "dataflow" << YAML::Value << YAML::DoubleQuoted
        << toString(hw.pe_array.dataflow);
    out << YAML::EndMap;
    const auto& rf = hw.register_file;
    out << YAML::Key << "register_file" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "bytes_per_pe" << YAML::Value << intText(rf.bytes_per_pe);
    out << YAML::Key << "weight" << YAML::Value << intText(rf.weight);
    out << YAML::Key << "input" << YAML::Value << intText(rf.input);
    out << YAML::Key << "psum" << YAML::Value << intText(rf.psum);
    out << YAML::Key << "pj_per_access" << YAML::Value;
    emitDouble(out, rf.pj_per_access);
    out << YAML::EndMap;
    out << YAML::Key << "mac" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "pj" << YAML::Value;
    emitDouble(out, hw.mac_pj);
    out << YAML::EndMap;
    out << YAML::Key << "overlap" << YAML::Value
        << (hw.overlap == OverlapMode::serial ? "serial" : "overlapped");
    if (hw.cores) {
        out << YAML::Key << "cores" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "tle" << YAML::Value << intText(hw.cores->tle);
        out << YAML::Key << "tlt" << YAML::Value << intText(hw.cores->tlt);
        out << YAML::Key << "mb_bytes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (int64_t b : hw.cores->mb_bytes)
            out << intText(b);
        out << YAML::EndSeq << YAML::EndMap;
    }
}

Result<Hardware> readHardwareYaml(std::string_view text, const std::string& file) {
    auto tree = parseTree(text, file);
    if (!tree) return tree.error();
    try {
        const TNode root = (*tree)->root();
        checkFormat(root, "hardware", 1);
        return readHardwareNode(root);
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    }
}

Result<Hardware> loadHardwareYamlFile(const std::string& path) {
    auto text = readFile(path);
    if (!text) return text.error();
    return readHardwareYaml(*text, path);
}

std::string writeHardwareYaml(const Hardware& hw) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;
    out << YAML::Key << "format" << YAML::Value << "layerfuse/hardware@1";
    emitHardwareBody(out, hw);
    out << YAML::EndMap;
    return finish(out);
}

} // namespace lf
