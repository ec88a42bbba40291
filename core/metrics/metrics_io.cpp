#include "metrics/metrics_io.h"

#include "util/format.h"

#include <cstdio>
#include <sstream>

namespace lf {

const char* toString(Bound b) {
    return b == Bound::compute ? "compute" : "memory";
}

namespace {
nlohmann::ordered_json trafficJson(const Traffic& t) {
    nlohmann::ordered_json j;
    j["input"] = t.input;
    j["weight"] = t.weight;
    j["output"] = t.output;
    j["psum"] = t.psum;
    return j;
}
nlohmann::ordered_json energyJson(const Energy& e) {
    nlohmann::ordered_json j;
    j["mac"] = e.mac;
    j["rf"] = e.rf;
    j["sram"] = e.sram;
    j["dram"] = e.dram;
    return j;
}
} // namespace

nlohmann::ordered_json metricsToJson(const Metrics& m) {
    nlohmann::ordered_json j;
    j["network"] = m.network;
    j["hardware"] = m.hardware;
    const Totals& t = m.totals;
    nlohmann::ordered_json tj;
    tj["macs"] = t.macs;
    tj["recompute_macs"] = t.recompute_macs;
    tj["ops"] = t.ops;
    tj["dram_accesses"] = t.dram_accesses;
    tj["dram_bytes"] = t.dram_bytes;
    tj["dram"] = trafficJson(t.dram);
    tj["buffer_peak_bytes"] = t.buffer_peak_bytes;
    tj["buffer_capacity_bytes"] = t.buffer_capacity_bytes;
    tj["fits"] = t.fits;
    tj["latency_cycles"] = t.latency_cycles;
    tj["latency_s"] = t.latency_s;
    tj["compute_cycles"] = t.compute_cycles;
    tj["memory_cycles"] = t.memory_cycles;
    tj["bound"] = toString(t.bound);
    tj["energy_pj"] = t.energy.total();
    tj["energy"] = energyJson(t.energy);
    tj["ctc"] = t.ctc;
    tj["utilization"] = t.utilization;
    if (t.saturated) tj["saturated"] = true;
    j["totals"] = std::move(tj);

    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (const GroupMetrics& g : m.groups) {
        nlohmann::ordered_json gj;
        gj["name"] = g.name;
        nlohmann::ordered_json names = nlohmann::ordered_json::array();
        for (LayerId id : g.layers) {
            const LayerMetrics* lm = m.layer(id);
            names.push_back(lm ? lm->name : std::to_string(id));
        }
        gj["layers"] = std::move(names);
        gj["strategy"] = toString(g.strategy);
        gj["partition"] = g.partition == PartitionKind::temporal ? "temporal" : "spatial";
        gj["macs"] = g.macs;
        gj["recompute_macs"] = g.recompute_macs;
        gj["dram_accesses"] = g.dram.total();
        gj["dram"] = trafficJson(g.dram);
        gj["dram_bytes"] = g.dram_bytes;
        gj["buffer_bytes"] = g.buffer_bytes;
        gj["fits"] = g.fits;
        gj["latency_cycles"] = g.latency_cycles;
        gj["compute_cycles"] = g.compute_cycles;
        gj["memory_cycles"] = g.memory_cycles;
        gj["bound"] = toString(g.bound);
        gj["energy_pj"] = g.energy.total();
        gj["energy"] = energyJson(g.energy);
        gj["ctc"] = g.ctc;
        gj["utilization"] = g.utilization;
        if (g.out_tile_h > 0) gj["out_tile"] = {{"h", g.out_tile_h}, {"w", g.out_tile_w}};
        if (!g.warnings.empty()) gj["warnings"] = g.warnings;
        groups.push_back(std::move(gj));
    }
    j["groups"] = std::move(groups);

    nlohmann::ordered_json layers = nlohmann::ordered_json::array();
    for (const LayerMetrics& l : m.layers) {
        nlohmann::ordered_json lj;
        lj["name"] = l.name;
        lj["type"] = std::string(toString(l.type));
        lj["group"] = l.group >= 0 ? m.groups[size_t(l.group)].name : "";
        nlohmann::ordered_json d;
        d["out_width"] = l.out_width;
        d["out_height"] = l.out_height;
        d["out_channels"] = l.out_channels;
        d["in_channels"] = l.in_channels;
        d["kernel_width"] = l.kernel_width;
        d["kernel_height"] = l.kernel_height;
        d["stride_x"] = l.stride_x;
        d["stride_y"] = l.stride_y;
        d["groups"] = l.groups;
        lj["dims"] = std::move(d);
        lj["macs"] = l.macs;
        lj["recompute_macs"] = l.recompute_macs;
        lj["ops"] = l.ops;
        lj["weights"] = l.weights;
        lj["buffer"] = {{"X", l.buf_x}, {"Y", l.buf_y}, {"W", l.buf_w}};
        lj["dram"] = trafficJson(l.dram);
        lj["sram_rf_traffic"] = l.sram_rf_traffic;
        lj["compute_cycles"] = l.compute_cycles;
        lj["pes"] = l.pes;
        lj["utilization"] = l.utilization;
        lj["energy_pj"] = l.energy.total();
        lj["energy"] = energyJson(l.energy);
        layers.push_back(std::move(lj));
    }
    j["layers"] = std::move(layers);
    return j;
}

std::string metricsToJsonText(const Metrics& m, int indent) {
    return metricsToJson(m).dump(indent) + "\n";
}

std::string metricsToCsv(const Metrics& m) {
    std::ostringstream o;
    o << "kind,name,group,type,macs,recompute_macs,dram_input,dram_weight,dram_output,dram_psum,"
         "dram_accesses,buffer,latency_cycles,compute_cycles,memory_cycles,energy_mac_pj,"
         "energy_rf_pj,energy_sram_pj,energy_dram_pj,energy_pj,utilization\n";
    auto num = [](double v) { return formatDouble(v); };
    for (const LayerMetrics& l : m.layers) {
        const int64_t buf = l.buf_x + l.buf_y + l.buf_w;
        o << "layer," << csvField(l.name) << ','
          << csvField(l.group >= 0 ? m.groups[size_t(l.group)].name : "") << ',' << toString(l.type)
          << ',' << l.macs << ',' << l.recompute_macs << ',' << l.dram.input << ',' << l.dram.weight
          << ',' << l.dram.output << ',' << l.dram.psum << ',' << l.dram.total() << ',' << buf
          << ',' << (l.compute_cycles + l.memory_cycles) << ',' << l.compute_cycles << ','
          << l.memory_cycles << ',' << num(l.energy.mac) << ',' << num(l.energy.rf) << ','
          << num(l.energy.sram) << ',' << num(l.energy.dram) << ',' << num(l.energy.total()) << ','
          << num(l.utilization) << '\n';
    }
    for (const GroupMetrics& g : m.groups) {
        o << "group," << csvField(g.name) << ',' << csvField(g.name) << ',' << toString(g.strategy)
          << ',' << g.macs << ',' << g.recompute_macs << ',' << g.dram.input << ',' << g.dram.weight
          << ',' << g.dram.output << ',' << g.dram.psum << ',' << g.dram.total() << ','
          << g.buffer_bytes << ',' << g.latency_cycles << ',' << g.compute_cycles << ','
          << g.memory_cycles << ',' << num(g.energy.mac) << ',' << num(g.energy.rf) << ','
          << num(g.energy.sram) << ',' << num(g.energy.dram) << ',' << num(g.energy.total()) << ','
          << num(g.utilization) << '\n';
    }
    const Totals& t = m.totals;
    o << "total," << csvField(m.network) << ",,," << t.macs << ',' << t.recompute_macs << ','
      << t.dram.input << ',' << t.dram.weight << ',' << t.dram.output << ',' << t.dram.psum << ','
      << t.dram_accesses << ',' << t.buffer_peak_bytes << ',' << t.latency_cycles << ','
      << t.compute_cycles << ',' << t.memory_cycles << ',' << num(t.energy.mac) << ','
      << num(t.energy.rf) << ',' << num(t.energy.sram) << ',' << num(t.energy.dram) << ','
      << num(t.energy.total()) << ',' << num(t.utilization) << '\n';
    return o.str();
}

std::string metricsToTable(const Metrics& m) {
    std::ostringstream o;
    const Totals& t = m.totals;
    o << "network   " << m.network << "\nhardware  " << m.hardware << "\n\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-24s %6s %10s %10s %10s %10s %10s %5s\n", "group", "layers",
                  "MACs", "recompute", "DRAM", "buffer", "latency", "fits");
    o << line;
    for (const GroupMetrics& g : m.groups) {
        std::snprintf(line, sizeof line, "%-24.24s %6zu %10s %10s %10s %10s %10s %5s\n",
                      g.name.c_str(), g.layers.size(), humanCount(double(g.macs)).c_str(),
                      humanCount(double(g.recompute_macs)).c_str(),
                      humanBytes(double(g.dram_bytes)).c_str(),
                      humanBytes(double(g.buffer_bytes)).c_str(),
                      humanCount(double(g.latency_cycles)).c_str(), g.fits ? "yes" : "NO");
        o << line;
    }
    o << "\ntotals\n";
    o << "  MACs            " << humanCount(double(t.macs)) << " (recompute "
      << humanCount(double(t.recompute_macs)) << ")\n";
    o << "  DRAM            " << humanBytes(double(t.dram_bytes)) << " = " << t.dram_accesses
      << " accesses (input " << t.dram.input << ", weight " << t.dram.weight << ", output "
      << t.dram.output << ", psum " << t.dram.psum << ")\n";
    o << "  buffer peak     " << humanBytes(double(t.buffer_peak_bytes)) << " of "
      << humanBytes(double(t.buffer_capacity_bytes)) << (t.fits ? "" : "  (DOES NOT FIT)") << "\n";
    o << "  latency         " << t.latency_cycles << " cycles = " << humanTime(t.latency_s) << " ("
      << toString(t.bound) << " bound; compute " << t.compute_cycles << ", memory "
      << t.memory_cycles << ")\n";
    o << "  energy          " << humanEnergy(t.energy.total()) << " (MAC "
      << humanEnergy(t.energy.mac) << ", RF " << humanEnergy(t.energy.rf) << ", SRAM "
      << humanEnergy(t.energy.sram) << ", DRAM " << humanEnergy(t.energy.dram) << ")\n";
    o << "  energy × delay  " << humanEdp(t.energy.total() * double(t.latency_cycles)) << "\n";
    o << "  utilization     " << fixedText(t.utilization * 100, 1) << " %\n";
    return o.str();
}

} // namespace lf
