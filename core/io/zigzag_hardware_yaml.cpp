#include "io/zigzag_hardware_yaml.h"

#include "io/hardware_yaml.h"
#include "io/yaml_support.h"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>

namespace lf {

using namespace yamlio;

namespace {

constexpr int64_t kMaxBits = int64_t(1) << 62;

struct Memory {
    std::string name;
    TNode node;
    int64_t bits = 0;
    double r = 0, w = 0;
    std::vector<std::string> operands;
    bool per_pe = false;
    int64_t bw_max = 0;
    bool element_ports = true; // every port moves one fixed width (bandwidth_min == _max)
    int64_t element_bits = 0;
    bool holds(const std::string& op) const {
        return std::find(operands.begin(), operands.end(), op) != operands.end();
    }
    double costPerBit() const { return (r + w) / 2.0 / double(std::max<int64_t>(1, bw_max)); }
};

Memory readMemory(const std::string& name, const TNode& m) {
    requireMap(m, "memory " + name);
    checkKeys(m, {"size", "r_cost", "w_cost", "area", "latency", "mem_type", "auto_cost_extraction",
                  "operands", "ports", "served_dimensions", "force_double_buffering"});
    Memory mem;
    mem.name = name;
    mem.node = m;
    mem.bits = toInt(req(m, "size"), "size", 1, kMaxBits);
    toInt(req(m, "latency"), "latency", 0, int64_t(1) << 30);
    if (getBool(m, "auto_cost_extraction", false))
        fail(m["auto_cost_extraction"], "costs extracted with CACTI are not supported: give "
                                        "r_cost and w_cost");
    if (!m["r_cost"] || !m["w_cost"])
        fail(m, "memory " + name + " needs r_cost and w_cost (LayerFuse does not run CACTI)");
    mem.r = toDouble(m["r_cost"], "r_cost", 0, 1e15);
    mem.w = toDouble(m["w_cost"], "w_cost", 0, 1e15);
    if (const TNode a = m["area"]) toDouble(a, "area", 0, 1e15);
    if (const TNode t = m["mem_type"]) toString(t, "mem_type");
    if (const TNode f = m["force_double_buffering"]) toBool(f, "force_double_buffering");

    const TNode ops = req(m, "operands");
    requireSeq(ops, "operands");
    for (const auto& op : ops) {
        const std::string o = toString(op, "operand");
        if (o != "I1" && o != "I2" && o != "O")
            fail(op, "operand must be I1 (inputs), I2 (weights) or O (outputs), got '" + o + "'");
        mem.operands.push_back(o);
    }
    const TNode ports = req(m, "ports");
    requireSeq(ports, "ports");
    static const std::regex kPort("^[r]?[w]?_port_\\d+$");
    static const std::regex kAllocation("^(I[12]|O), (fh|tl|fl|th)$");
    for (const auto& p : ports) {
        requireMap(p, "port");
        checkKeys(p, {"name", "type", "bandwidth_min", "bandwidth_max", "allocation"});
        const std::string pn = toString(req(p, "name"), "port name");
        if (!std::regex_match(pn, kPort))
            fail(p["name"], "port name must look like r_port_1, w_port_1 or rw_port_1");
        const std::string type = toString(req(p, "type"), "port type");
        if (type != "read" && type != "write" && type != "read_write")
            fail(p["type"], "port type must be read, write or read_write, got '" + type + "'");
        const int64_t lo = toInt(req(p, "bandwidth_min"), "bandwidth_min", 1, int64_t(1) << 40);
        const int64_t hi = toInt(req(p, "bandwidth_max"), "bandwidth_max", 1, int64_t(1) << 40);
        if (lo > hi) fail(p["bandwidth_min"], "bandwidth_min is above bandwidth_max");
        mem.bw_max = std::max(mem.bw_max, hi);
        if (lo != hi || (mem.element_bits && mem.element_bits != hi)) mem.element_ports = false;
        mem.element_bits = hi;
        const TNode alloc = req(p, "allocation");
        requireSeq(alloc, "allocation");
        for (const auto& a : alloc)
            if (!std::regex_match(toString(a, "allocation"), kAllocation))
                fail(a, "allocation must be 'I1|I2|O, fh|tl|fl|th'");
    }
    const TNode served = req(m, "served_dimensions");
    requireSeq(served, "served_dimensions");
    static const std::regex kDim("^D\\d$");
    for (const auto& d : served)
        if (!std::regex_match(toString(d, "served dimension"), kDim))
            fail(d, "a served dimension is D1, D2, ...");
    mem.per_pe = served.size() == 0;
    return mem;
}

std::optional<LoopDim> loopDimOf(const std::string& zz) {
    if (zz == "K" || zz == "G") return LoopDim::oc;
    if (zz == "C") return LoopDim::ic;
    if (zz == "OX") return LoopDim::ox;
    if (zz == "OY") return LoopDim::oy;
    if (zz == "FX") return LoopDim::kx;
    if (zz == "FY") return LoopDim::ky;
    if (zz == "B") return LoopDim::b;
    return std::nullopt;
}

HardwareImport readAccelerator(const TNode& root, const std::string& file) {
    HardwareImport out;
    Hardware& hw = out.hw;
    auto note = [&](std::string s) { out.notes.push_back(std::move(s)); };
    requireMap(root, "ZigZag accelerator");
    checkKeys(root, {"name", "memories", "operational_array", "dataflows"});
    hw.name = toString(req(root, "name"), "name");
    hw.description = "ZigZag accelerator " + hw.name + " imported from " + file;

    // --- operational array ---------------------------------------------------------------
    const TNode oa = req(root, "operational_array");
    requireMap(oa, "operational_array");
    checkKeys(oa, {"dimensions", "sizes", "unit_energy", "unit_area", "is_imc", "input_precision",
                   "imc_type", "adc_resolution", "bit_serial_precision"});
    if (getBool(oa, "is_imc", false))
        fail(oa["is_imc"], "in-memory computing arrays are not supported");
    for (const char* k : {"imc_type", "adc_resolution", "bit_serial_precision", "input_precision"})
        if (oa[k] && !oa[k].IsNull())
            fail(oa[k], std::string(k) + " describes in-memory computing, which is not supported");
    const TNode dims = req(oa, "dimensions"), sizes = req(oa, "sizes");
    requireSeq(dims, "dimensions");
    requireSeq(sizes, "sizes");
    if (dims.size() != sizes.size() || sizes.size() == 0)
        fail(sizes, "sizes must give one size per dimension");
    int64_t cols = 1, rows = 1;
    for (size_t k = 0; k < sizes.size(); ++k) {
        const int64_t n = toInt(sizes.item(k), "array size", 1, 1 << 16);
        (k == 0 ? cols : rows) *= n;
    }
    if (rows > (1 << 16)) fail(sizes, "the array's rows exceed 65536");
    if (sizes.size() > 2)
        note("the operational array has " + intText(int64_t(sizes.size())) +
             " dimensions; D2 and up are the rows of LayerFuse's two-dimensional array");
    hw.pe_array.cols = int(cols);
    hw.pe_array.rows = int(rows);
    if (oa["unit_energy"])
        hw.mac_pj = toDouble(oa["unit_energy"], "unit_energy", 0, 1e15);
    else
        note("no unit_energy: MACs cost nothing");
    if (const TNode ua = oa["unit_area"]) toDouble(ua, "unit_area", 0, 1e15);

    // --- dataflow ----------------------------------------------------------------------
    if (const TNode df = root["dataflows"]) {
        requireMap(df, "dataflows");
        checkKeys(df, {"D1", "D2", "D3", "D4"});
        Dataflow flow;
        for (const char* axis : {"D1", "D2", "D3", "D4"}) {
            const TNode list = df[axis];
            if (!list) continue;
            requireSeq(list, axis);
            for (const auto& e : list) {
                const std::string s = toString(e, "dataflow entry");
                const std::string dim = s.substr(0, s.find(','));
                const auto l = loopDimOf(dim);
                if (!l) fail(e, "dataflow dim '" + dim + "' has no LayerFuse loop dim");
                (std::string(axis) == "D1" ? flow.cols : flow.rows).push_back(*l);
            }
        }
        if (flow.cols.empty() || flow.rows.empty())
            fail(df, "the dataflow needs dims on D1 and on D2 and up");
        hw.pe_array.dataflow = flow;
    } else {
        note("no dataflows: the dataflow is LayerFuse's default " + toString(hw.pe_array.dataflow));
    }

    // --- memories ------------------------------------------------------------------------
    const TNode mems = req(root, "memories");
    requireMap(mems, "memories");
    std::vector<Memory> list;
    for (const auto& e : mems)
        list.push_back(readMemory(toString(e.first, "memory name"), e.second));
    std::map<std::string, std::vector<size_t>> levels; // operand -> memories, innermost first
    for (size_t k = 0; k < list.size(); ++k)
        for (const std::string& op : list[k].operands)
            levels[op].push_back(k);
    for (const char* op : {"I1", "I2", "O"})
        if (!levels.count(op)) fail(mems, std::string("no memory holds operand ") + op);
    const size_t top = levels["I1"].back();
    for (const char* op : {"I2", "O"})
        if (levels[op].back() != top)
            fail(list[levels[op].back()].node,
                 "the top memory of " + std::string(op) + " is " + list[levels[op].back()].name +
                     ", of I1 " + list[top].name +
                     "; LayerFuse's DRAM is one memory holding every operand");
    const Memory& dram = list[top];

    // Operand widths: one element per access in a per-PE memory of one operand.
    Precision& p = hw.precision;
    p = {8, 8, 16};
    std::map<std::string, int*> width{
        {"I1", &p.act_bits}, {"I2", &p.weight_bits}, {"O", &p.psum_bits}};
    for (const Memory& m : list)
        if (m.per_pe && m.operands.size() == 1 && m.element_ports && m.element_bits <= 64)
            *width[m.operands[0]] = int(m.element_bits);
    note("operand widths (ZigZag's accelerators carry none): activations " + intText(p.act_bits) +
         ", weights " + intText(p.weight_bits) + ", partial sums " + intText(p.psum_bits) +
         " bits");

    hw.dram.bandwidth_bytes_per_cycle = double(dram.bw_max) / 8.0;
    hw.dram.energy_pj_per_word = dram.costPerBit() * p.act_bits;
    note("DRAM " + dram.name +
         ": burst size and latency are LayerFuse's defaults (ZigZag has "
         "neither)");

    // The buffer: each operand's memory directly below DRAM.
    std::vector<size_t> buffers;
    for (const char* op : {"I1", "I2", "O"}) {
        const auto& lv = levels[op];
        if (lv.size() < 2 || list[lv[lv.size() - 2]].per_pe) continue;
        if (std::find(buffers.begin(), buffers.end(), lv[lv.size() - 2]) == buffers.end())
            buffers.push_back(lv[lv.size() - 2]);
    }
    if (buffers.empty())
        fail(mems, "no memory between DRAM (" + dram.name +
                       ") and the array: LayerFuse needs an on-chip buffer");
    int64_t bufferBits = 0;
    size_t largest = buffers.front();
    for (size_t b : buffers) {
        bufferBits += list[b].bits;
        if (list[b].bits > list[largest].bits) largest = b;
    }
    hw.buffer.bytes = std::max<int64_t>(1, bufferBits / 8);
    hw.buffer.banks = 1;
    hw.buffer.energy.model = SramEnergyModel::constant;
    hw.buffer.energy.pj_per_access = list[largest].costPerBit() * p.act_bits;
    if (buffers.size() > 1)
        note("the buffer is " + intText(int64_t(buffers.size())) +
             " memories together; its energy per access is that of the largest, " +
             list[largest].name);

    // Register files: the per-PE memories.
    RegisterFileConfig& rf = hw.register_file;
    double energy = 0, weight = 0;
    for (size_t k = 0; k < list.size(); ++k) {
        const Memory& m = list[k];
        if (k == top || std::find(buffers.begin(), buffers.end(), k) != buffers.end()) continue;
        if (!m.per_pe) {
            note("memory " + m.name +
                 " (between the buffer and the array, shared by PEs) "
                 "has no LayerFuse level and is left out");
            continue;
        }
        const int64_t bytes = m.bits / 8;
        rf.bytes_per_pe += bytes;
        if (m.operands.size() == 1) {
            const std::string& op = m.operands[0];
            (op == "I2" ? rf.weight : op == "I1" ? rf.input : rf.psum) += bytes;
        }
        // Accesses per MAC: a weight, an input, a partial sum read and written.
        for (const std::string& op : m.operands) {
            const double share = op == "O" ? 2.0 : 1.0;
            energy += share * m.costPerBit() * *width[op];
            weight += share;
        }
    }
    rf.pj_per_access = weight > 0 ? energy / weight : 0;
    if (rf.bytes_per_pe > 0 && rf.weight + rf.input + rf.psum > 0 &&
        rf.weight + rf.input + rf.psum < rf.bytes_per_pe)
        note("per-PE memories shared by several operands count in the register file, in no "
             "section");
    if (const std::vector<std::string> problems = validate(hw); !problems.empty())
        fail(root, "the imported hardware is not usable: " + problems.front());
    return out;
}

} // namespace

bool looksLikeZigZagAccelerator(std::string_view text) {
    auto tree = Tree::parse(text, "");
    if (!tree) return false;
    const TNode root = (*tree)->root();
    return root.IsMap() && !root["format"] && root["memories"] && root["operational_array"];
}

Result<HardwareImport> readZigZagAcceleratorYaml(std::string_view text, const std::string& file) {
    auto tree = parseTree(text, file);
    if (!tree) return tree.error();
    try {
        return readAccelerator((*tree)->root(), file);
    } catch (const YamlInputError& e) {
        return Error(file, e.pos, e.what());
    }
}

Result<HardwareImport> importHardwareFile(const std::string& path) {
    auto text = readFile(path);
    if (!text) return text.error();
    if (looksLikeZigZagAccelerator(*text)) return readZigZagAcceleratorYaml(*text, path);
    auto hw = readHardwareYaml(*text, path);
    if (!hw) return hw.error();
    return HardwareImport{std::move(*hw), {}};
}

} // namespace lf
