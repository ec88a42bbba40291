#include "io/exports/stream_export.h"

#include "io/exports/export_files.h"
#include "io/exports/zigzag_accelerator.h"
#include "io/onnx_export.h"
#include "io/yaml_support.h"
#include "models/convfusion.h"
#include "models/evaluate.h"
#include "network/dims.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace lf {

using namespace yamlio;

namespace {

// Layout-only operators Stream turns into fusion edges, not computation nodes
// (ONNXModelParser.FUSION_EDGE_OPS).
bool isFusionEdge(const std::string& op) {
    return op == "Flatten" || op == "Reshape" || op == "Transpose" || op == "Squeeze" ||
           op == "Unsqueeze";
}

std::string unsupportedReason(const Layer& l) {
    switch (l.type) {
    case LayerType::conv:
        if (l.groups > 1)
            return "a grouped or depthwise convolution: Stream's Conv parser ignores `group` "
                   "and reads the weights as one group";
        if (l.dilation_h != 1 || l.dilation_w != 1)
            return "a dilated convolution: Stream's Conv parser ignores `dilations`";
        if (l.stride_h != l.stride_w)
            return "unequal strides: Stream's Conv parser reads ONNX's [h, w] strides as [x, y]";
        return {};
    case LayerType::fc:
        return {};
    case LayerType::pool:
        if (l.pool_mode == PoolMode::avg)
            return "average pooling: Stream has no AveragePool parser";
        if (!(l.pad_t == l.pad_l && l.pad_t == l.pad_b && l.pad_t == l.pad_r))
            return "asymmetric padding: Stream's MaxPool parser refuses it";
        if (l.stride_h != l.stride_w)
            return "unequal strides: Stream's MaxPool parser reads ONNX's [h, w] strides as [x, y]";
        if (l.dilation_h != 1 || l.dilation_w != 1)
            return "a dilated pool: Stream's MaxPool parser ignores `dilations`";
        return {};
    case LayerType::global_pool:
        return l.pool_mode == PoolMode::max ? "global max pooling: Stream has no GlobalMaxPool "
                                              "parser"
                                            : std::string();
    case LayerType::add:
        return l.operandIds().size() > 2 ? "an add of more than two tensors (ONNX Sum): Stream "
                                           "has no Sum parser"
                                         : std::string();
    case LayerType::mul:
        return l.operandIds().size() > 2 ? "a product of more than two tensors" : std::string();
    case LayerType::concat:
        return "a concat: Stream has no Concat parser";
    case LayerType::resize:
        return "a resize: Stream has no Resize parser";
    case LayerType::deconv:
        return "a transposed convolution: Stream has no ConvTranspose parser";
    case LayerType::reorg:
        return "a reorg (channel slice or pixel shuffle), which the Stream export does not cover";
    case LayerType::opaque:
        return "an operator LayerFuse does not model";
    case LayerType::input:
        return {};
    }
    return {};
}

// Position of the output-row / output-column / output-feature dims in a node's iteration
// space, as Stream's parsers build it (stream/parser/onnx/*.py): Conv (b, ox, oy, fx, fy, c,
// k); MaxPool (b, k, oy, ox, fy, fx); GlobalAveragePool (b, c, oh, ow, ih, iw); Gemm (m, k, n);
// element-wise operators the output's own axes.
struct TileDims {
    int oy = -1, ox = -1, n = -1;
};

TileDims tileDims(const std::string& op, bool flat) {
    if (op == "Conv") return {2, 1, -1};
    if (op == "Gemm") return {-1, -1, 2};
    if (flat) return {-1, -1, 1};
    return {2, 3, -1};
}

void emitCore(YAML::Emitter& out, const ZigZagAcceleratorSpec& spec, const std::string& name,
              const char* type) {
    out << YAML::BeginMap;
    emitZigZagAcceleratorBody(out, spec, name);
    out << YAML::Key << "type" << YAML::Value << type;
    out << YAML::EndMap;
}

void emitHeader(YAML::Emitter& out, const std::string& what, const Network& net, const Hardware& hw,
                const std::vector<std::string>& notes) {
    out << YAML::Comment("Stream " + std::string(kStreamVersion) + " (main " + kStreamCommit +
                         ") " + what + " of " + net.name() + " on " + hw.name +
                         ", exported by LayerFuse");
    out << YAML::Newline;
    for (const std::string& n : notes) {
        out << YAML::Comment(n);
        out << YAML::Newline;
    }
}

} // namespace

std::vector<std::string> streamUnsupported(const Network& net) {
    std::vector<std::string> out;
    for (const Layer& l : net.layers())
        if (const std::string why = unsupportedReason(l); !why.empty())
            out.push_back(l.name + " (" + std::string(toString(l.type)) + ") is " + why);
    return out;
}

Result<StreamExport> exportStream(const Network& net, const Hardware& hw, const Schedule& s) {
    if (const auto bad = streamUnsupported(net); !bad.empty()) {
        std::string msg = net.name() + " cannot be written for Stream " + kStreamVersion + ": ";
        for (size_t k = 0; k < bad.size() && k < 5; ++k)
            msg += (k ? "; " : "") + bad[k];
        if (bad.size() > 5) msg += "; and " + intText(int64_t(bad.size() - 5)) + " more";
        return Error(msg);
    }
    StreamExport e;
    OnnxExportOptions oo;
    oo.activation_type = onnxElementTypeForBits(hw.precision.act_bits);
    oo.weight_type = onnxElementTypeForBits(hw.precision.weight_bits);
    oo.stream_activations_only = true;
    OnnxExportReport report;
    auto bytes = writeOnnxModel(net, oo, &report);
    if (!bytes) return bytes.error();
    e.workload = std::move(*bytes);
    e.notes = report.notes;
    if (hw.precision.psum_bits != hw.precision.act_bits)
        e.notes.push_back("Stream takes an operand's width from its ONNX tensor type: partial "
                          "sums are as wide as the outputs (" +
                          intText(hw.precision.act_bits) + " bits), not psum_bits (" +
                          intText(hw.precision.psum_bits) + ")");
    if (hw.precision.act_bits > 16 || hw.precision.weight_bits > 16)
        e.notes.push_back("precisions above 16 bits are written as 32-bit floats");

    const Metrics m = evaluate(net, hw, s);
    std::vector<std::string> mappingNotes;
    for (const FusionGroup& g : s.groups)
        if (g.partition.kind == PartitionKind::spatial && g.layers.size() > 1)
            mappingNotes.push_back("group " + g.name +
                                   " splits the PE array between its layers; Stream's cores are "
                                   "separate accelerators, so every layer runs on core 0");
    if (hw.cores)
        mappingNotes.push_back("the multicore organisation (cores: " + intText(hw.cores->tle) +
                               " x " + intText(hw.cores->tlt) + ") is not exported: one core");

    // --- mapping.yaml ---------------------------------------------------------------------
    {
        YAML::Emitter out;
        out.SetIndent(2);
        emitHeader(out, "mapping", net, hw, mappingNotes);
        out << YAML::BeginMap;
        out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
        for (const auto& n : report.nodes) {
            if (isFusionEdge(n.op_type)) continue;
            out << YAML::BeginMap;
            out << YAML::Key << "name" << YAML::Value;
            emitString(out, n.name);
            out << YAML::Key << "core_allocation" << YAML::Value << YAML::Flow << YAML::BeginSeq
                << YAML::Flow << YAML::BeginSeq << intText(0) << YAML::EndSeq << YAML::EndSeq;
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
        out << YAML::Key << "fused_groups" << YAML::Value << YAML::BeginSeq;
        for (size_t gi = 0; gi < s.groups.size(); ++gi) {
            const FusionGroup& g = s.groups[gi];
            std::set<LayerId> members(g.layers.begin(), g.layers.end());
            std::vector<const OnnxExportReport::Node*> nodes;
            for (const auto& n : report.nodes)
                if (members.count(n.layer) && !isFusionEdge(n.op_type)) nodes.push_back(&n);
            if (nodes.empty()) continue;
            const OnnxExportReport::Node& last = *nodes.back();
            const Layer& lastLayer = net.layer(last.layer);
            const bool flat = lastLayer.type == LayerType::fc;
            const TileDims td = tileDims(last.op_type, flat);
            // The group's output tile: the scheduler's (reuse, optimus) or the last layer's.
            const LayerDims ld = layerDims(net, last.layer);
            const auto T = effectiveTiles(ld, s.layers[size_t(last.layer)], false);
            const GroupMetrics* gm = gi < m.groups.size() ? &m.groups[gi] : nullptr;
            int64_t th = T[size_t(Dim::y)], tw = T[size_t(Dim::x)];
            if (gm && gm->out_tile_h > 0 && gm->out_tile_w > 0) {
                th = gm->out_tile_h;
                tw = gm->out_tile_w;
            }
            out << YAML::BeginMap;
            out << YAML::Key << "name" << YAML::Value;
            emitString(out, g.name);
            out << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
            for (const auto* n : nodes)
                emitString(out, n->name);
            out << YAML::EndSeq;
            out << YAML::Key << "intra_core_tiling" << YAML::Value << YAML::BeginSeq;
            auto tile = [&](int dim, int64_t size) {
                out << YAML::Flow << YAML::BeginMap << YAML::Key << "dim" << YAML::Value;
                emitString(out, last.name + ".D" + intText(dim));
                out << YAML::Key << "tile" << YAML::Value << intText(std::max<int64_t>(1, size))
                    << YAML::EndMap;
            };
            if (td.n >= 0) {
                tile(td.n, std::min(T[size_t(Dim::z)] * ld.G, ld.Dz));
            } else {
                tile(td.oy, std::min(th, ld.Dy));
                tile(td.ox, std::min(tw, ld.Dx));
            }
            out << YAML::EndSeq;
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
        out << YAML::EndMap;
        e.mapping = finish(out);
    }

    // --- accelerator.yaml -----------------------------------------------------------------
    {
        const double sramBits = double(m.totals.buffer_peak_bytes) * 8.0;
        ZigZagAcceleratorSpec compute = zigzagAccelerator(hw, sramBits, false);
        ZigZagAcceleratorSpec offchip;
        offchip.memories = {zigzagAccelerator(hw, sramBits, true).memories.back()};
        offchip.cols = offchip.rows = 0;
        offchip.mac_pj = 0;
        YAML::Emitter out;
        out.SetIndent(2);
        std::vector<std::string> notes = compute.notes;
        notes.push_back("core 0: the PE array, its register files and the global buffer; core 1: "
                        "DRAM; the link between them carries the DRAM bandwidth (bits per cycle)");
        notes.push_back("Stream 1.13 names a node's loop dims D0, D1, ...; a core's `dataflows` "
                        "accept letter names only, so the dataflow is not fixed and Stream's "
                        "ZigZag backend chooses each layer's spatial mapping");
        emitHeader(out, "accelerator", net, hw, notes);
        out << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value;
        emitString(out, hw.name);
        out << YAML::Key << "cores" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << intText(0) << YAML::Value;
        emitCore(out, compute, hw.name + "-array", "zigzag.compute");
        out << YAML::Key << intText(1) << YAML::Value;
        emitCore(out, offchip, hw.name + "-dram", "zigzag.offchip");
        out << YAML::EndMap;
        out << YAML::Key << "offchip_core_id" << YAML::Value << intText(1);
        out << YAML::Key << "unit_energy_cost" << YAML::Value;
        emitDouble(out, 0.0);
        out << YAML::Key << "core_connectivity" << YAML::Value << YAML::BeginSeq;
        out << YAML::BeginMap;
        out << YAML::Key << "type" << YAML::Value << "link";
        out << YAML::Key << "cores" << YAML::Value << YAML::Flow << YAML::BeginSeq << intText(0)
            << intText(1) << YAML::EndSeq;
        out << YAML::Key << "bandwidth" << YAML::Value;
        emitDouble(out, double(offchip.memories.front().bandwidth_max));
        out << YAML::EndMap;
        out << YAML::EndSeq;
        out << YAML::EndMap;
        e.accelerator = finish(out);
        e.notes.insert(e.notes.end(), compute.notes.begin(), compute.notes.end());
    }
    e.notes.insert(e.notes.end(), mappingNotes.begin(), mappingNotes.end());
    return e;
}

Result<WrittenExport> writeStreamExport(const std::string& dir, const Network& net,
                                        const Hardware& hw, const Schedule& s) {
    auto e = exportStream(net, hw, s);
    if (!e) return e.error();
    auto paths = writeFilesToDirectory(dir, {{kStreamWorkloadFile, e->workload},
                                             {kStreamMappingFile, e->mapping},
                                             {kStreamAcceleratorFile, e->accelerator}});
    if (!paths) return paths.error();
    return WrittenExport{std::move(*paths), std::move(e->notes)};
}

} // namespace lf
