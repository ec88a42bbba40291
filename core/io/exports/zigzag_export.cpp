#include "io/exports/zigzag_export.h"

#include "io/exports/export_files.h"
#include "io/exports/zigzag_accelerator.h"
#include "io/exports/zigzag_mapping.h"
#include "io/exports/zigzag_workload.h"
#include "io/yaml_support.h"
#include "models/evaluate.h"

#include <yaml-cpp/yaml.h>

namespace lf {

using namespace yamlio;

namespace {

const char* const kCannotExpress[] = {
    "ZigZag cannot express LayerFuse's store levels: it allocates each operand's loops to its "
    "memories itself, innermost first, as far as each memory holds them",
    "ZigZag cannot express fusion groups: it costs every layer alone, reading its inputs from "
    "and writing its outputs to DRAM",
};

void emitHeader(YAML::Emitter& out, const std::string& what, const Network& net, const Hardware& hw,
                const std::vector<std::string>& notes) {
    out << YAML::Comment("ZigZag " + what + " of " + net.name() + " on " + hw.name +
                         ", exported by LayerFuse");
    out << YAML::Newline;
    for (const char* c : kCannotExpress) {
        out << YAML::Comment(c);
        out << YAML::Newline;
    }
    for (const std::string& n : notes) {
        out << YAML::Comment(n);
        out << YAML::Newline;
    }
}

void emitUnrolling(YAML::Emitter& out, const std::vector<ZigZagLoop>& loops) {
    out << YAML::Flow << YAML::BeginSeq;
    if (loops.empty()) out << "B, 1"; // every workload layer has B; keeps the axis defined
    for (const ZigZagLoop& l : loops)
        out << l.dim + ", " + intText(l.size);
    out << YAML::EndSeq;
}

void emitOperandLinks(YAML::Emitter& out) {
    out << YAML::Key << "memory_operand_links" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "O" << YAML::Value << "O";
    out << YAML::Key << "W" << YAML::Value << "I2";
    out << YAML::Key << "I" << YAML::Value << "I1";
    out << YAML::EndMap;
}

std::string dataflowDim(LoopDim l) {
    switch (l) {
    case LoopDim::ox:
        return "OX";
    case LoopDim::oy:
        return "OY";
    case LoopDim::oc:
        return "K";
    case LoopDim::ic:
        return "C";
    case LoopDim::kx:
        return "FX";
    case LoopDim::ky:
        return "FY";
    case LoopDim::b:
        return "B";
    }
    return "B";
}

// The entry for layers the file does not name: the dataflow's dims at full axis size
// (ZigZag reduces them to each layer's dims) and no temporal ordering (ZigZag searches).
void emitDefaultEntry(YAML::Emitter& out, const Hardware& hw) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "default";
    out << YAML::Key << "spatial_mapping" << YAML::Value << YAML::BeginMap;
    const Dataflow& df = hw.pe_array.dataflow;
    auto axis = [&](const char* key, const std::vector<LoopDim>& dims, int pes) {
        std::vector<ZigZagLoop> loops;
        if (!dims.empty()) loops.push_back({dataflowDim(dims.front()), pes});
        out << YAML::Key << key << YAML::Value;
        emitUnrolling(out, loops);
    };
    axis("D1", df.cols, hw.pe_array.cols);
    axis("D2", df.rows, hw.pe_array.rows);
    out << YAML::EndMap;
    emitOperandLinks(out);
    out << YAML::EndMap;
}

} // namespace

ZigZagExport exportZigZag(const Network& net, const Hardware& hw, const Schedule& s) {
    ZigZagExport e;
    e.workload_id = zigzagWorkloadIds(net);
    std::vector<LayerId> layers;
    for (LayerId id = 0; id < net.size(); ++id)
        if (e.workload_id[size_t(id)] >= 0) layers.push_back(id);

    std::vector<std::string> workloadNotes;
    for (const FusionGroup& g : s.groups) {
        if (g.layers.size() < 2) continue;
        std::string names;
        for (LayerId id : g.layers)
            names += (names.empty() ? "" : ", ") + net.layer(id).name;
        workloadNotes.push_back("fusion group " + g.name + " (" + names +
                                ") is costed by ZigZag layer by layer");
    }
    for (std::string& n : zigzagWorkloadNotes(net))
        workloadNotes.push_back(std::move(n));
    e.notes = workloadNotes;

    // LayerFuse sizes the buffer's sqrt / banked energy at the schedule's peak footprint.
    const Metrics metrics = evaluate(net, hw, s);
    const double sramBits = double(metrics.totals.buffer_peak_bytes) * 8.0;
    const ZigZagAcceleratorSpec acc = zigzagAccelerator(hw, sramBits, true);
    e.notes.insert(e.notes.end(), acc.notes.begin(), acc.notes.end());

    std::vector<ZigZagLayerMapping> mappings;
    for (LayerId id : layers) {
        mappings.push_back(zigzagLayerMapping(net, hw, id, s.layers[size_t(id)]));
        for (const std::string& n : mappings.back().notes)
            e.notes.push_back(net.layer(id).name + ": " + n);
    }

    {
        YAML::Emitter out;
        out.SetIndent(2);
        emitHeader(out, "workload", net, hw, workloadNotes);
        out << YAML::BeginSeq;
        for (LayerId id : layers)
            emitZigZagWorkloadLayer(out, net, hw, id, e.workload_id);
        out << YAML::EndSeq;
        e.workload = finish(out);
    }
    {
        YAML::Emitter out;
        out.SetIndent(2);
        emitHeader(out, "accelerator", net, hw, acc.notes);
        out << YAML::BeginMap;
        emitZigZagAcceleratorBody(out, acc, hw.name);
        out << YAML::EndMap;
        e.accelerator = finish(out);
    }
    {
        YAML::Emitter out;
        out.SetIndent(2);
        std::vector<std::string> mappingNotes;
        for (size_t k = 0; k < layers.size(); ++k)
            for (const std::string& n : mappings[k].notes)
                mappingNotes.push_back(net.layer(layers[k]).name + ": " + n);
        emitHeader(out, "mapping", net, hw, mappingNotes);
        out << YAML::BeginSeq;
        for (size_t k = 0; k < layers.size(); ++k) {
            const ZigZagLayerMapping& m = mappings[k];
            out << YAML::BeginMap;
            out << YAML::Key << "name" << YAML::Value;
            emitString(out, net.layer(layers[k]).name);
            out << YAML::Key << "spatial_mapping" << YAML::Value << YAML::BeginMap;
            out << YAML::Key << "D1" << YAML::Value;
            emitUnrolling(out, m.d1);
            out << YAML::Key << "D2" << YAML::Value;
            emitUnrolling(out, m.d2);
            out << YAML::EndMap;
            out << YAML::Key << "temporal_ordering" << YAML::Value << YAML::BeginSeq;
            for (const ZigZagLoop& l : m.temporal)
                out << YAML::Flow << YAML::BeginSeq << l.dim << intText(l.size) << YAML::EndSeq;
            out << YAML::EndSeq;
            emitOperandLinks(out);
            out << YAML::EndMap;
        }
        emitDefaultEntry(out, hw);
        out << YAML::EndSeq;
        e.mapping = finish(out);
    }
    return e;
}

Result<WrittenExport> writeZigZagExport(const std::string& dir, const Network& net,
                                        const Hardware& hw, const Schedule& s) {
    ZigZagExport e = exportZigZag(net, hw, s);
    auto paths = writeFilesToDirectory(dir, {{kZigZagWorkloadFile, e.workload},
                                             {kZigZagAcceleratorFile, e.accelerator},
                                             {kZigZagMappingFile, e.mapping}});
    if (!paths) return paths.error();
    return WrittenExport{std::move(*paths), std::move(e.notes)};
}

} // namespace lf
