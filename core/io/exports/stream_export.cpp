#include "io/exports/stream_export.h"

#include "io/yaml_support.h"
#include "network/dims.h"

#include <utility>

namespace lf {

using namespace yamlio;

namespace {

enum class StreamForm { conv, grouped_conv, depthwise_conv, pool, add };

StreamForm formOf(const Layer& l, const LayerDims& d) {
    switch (l.type) {
    case LayerType::pool:
    case LayerType::global_pool:
        return StreamForm::pool;
    case LayerType::add:
        return StreamForm::add;
    default:
        break;
    }
    if (d.G <= 1) return StreamForm::conv;
    if (d.G == d.Di && d.G == d.Dz) return StreamForm::depthwise_conv;
    return StreamForm::grouped_conv;
}

const char* operatorType(const Layer& l) {
    switch (l.type) {
    case LayerType::pool:
        return l.pool_mode == PoolMode::max ? "MaxPool" : "AveragePool";
    case LayerType::global_pool:
        return l.pool_mode == PoolMode::max ? "MaxPool" : "GlobalAveragePool";
    case LayerType::add:
        return "Add";
    default:
        return "Conv";
    }
}

// The workload id a layer reads its input from. A layer fed by a network input names
// itself (ZigZag's convention for an operand that comes from memory); a producer that is
// not a workload layer is looked through to its first input.
int sourceId(const Network& net, const std::vector<int>& wid, LayerId p, int self) {
    for (int guard = 0; guard < net.size(); ++guard) {
        if (wid[size_t(p)] >= 0) return wid[size_t(p)];
        const Layer& l = net.layer(p);
        if (l.type == LayerType::input || l.inputs.empty()) return self;
        p = l.inputs.front();
    }
    return self;
}

std::string relation(const char* in, int64_t stride, const char* out, int64_t dil, const char* k) {
    return std::string(in) + "=" + intText(stride) + "*" + out + "+" + intText(dil) + "*" + k;
}

void emitIntSeq(YAML::Emitter& out, const std::vector<int64_t>& v) {
    out << YAML::Flow << YAML::BeginSeq;
    for (int64_t x : v)
        out << intText(x);
    out << YAML::EndSeq;
}

void emitStrSeq(YAML::Emitter& out, const std::vector<std::string>& v) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const auto& s : v)
        out << s;
    out << YAML::EndSeq;
}

struct Loops {
    std::vector<std::string> dims;
    std::vector<int64_t> sizes;
    void add(const char* d, int64_t s) {
        dims.emplace_back(d);
        sizes.push_back(s);
    }
};

void emitWorkloadLayer(YAML::Emitter& out, const Network& net, const Hardware& hw, LayerId id,
                       const std::vector<int>& wid) {
    const Layer& l = net.layer(id);
    const LayerDims d = layerDims(net, id);
    const StreamForm form = formOf(l, d);
    const int self = wid[size_t(id)];
    const Precision& p = hw.precision;
    const bool windowed = form != StreamForm::add;
    const int64_t dilW = l.type == LayerType::conv || l.type == LayerType::pool ? l.dilation_w : 1;
    const int64_t dilH = l.type == LayerType::conv || l.type == LayerType::pool ? l.dilation_h : 1;

    Loops loops;
    loops.add("B", hw.batch);
    std::string equation;
    switch (form) {
    case StreamForm::conv:
        equation = "O[b][k][oy][ox]+=W[k][c][fy][fx]*I[b][c][iy][ix]";
        loops.add("K", d.Dz);
        loops.add("C", d.Di);
        break;
    case StreamForm::grouped_conv:
        equation = "O[b][g][k][oy][ox]+=W[g][k][c][fy][fx]*I[b][g][c][iy][ix]";
        loops.add("G", d.G);
        loops.add("K", d.DzPerGroup());
        loops.add("C", d.DiPerGroup());
        break;
    case StreamForm::depthwise_conv:
        equation = "O[b][g][oy][ox]+=W[g][fy][fx]*I[b][g][iy][ix]";
        loops.add("G", d.G);
        break;
    case StreamForm::pool:
        equation = "O[b][g][oy][ox]+=W[fy][fx]*I[b][g][iy][ix]";
        loops.add("G", d.Dz);
        break;
    case StreamForm::add:
        equation = "O[b][g][oy][ox]=W[b][g][oy][ox]+I[b][g][oy][ox]";
        loops.add("G", d.Dz);
        break;
    }
    loops.add("OY", d.Dy);
    loops.add("OX", d.Dx);
    if (windowed) {
        loops.add("FY", d.Dn);
        loops.add("FX", d.Dm);
    }

    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << intText(self);
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, l.name);
    out << YAML::Key << "operator_type" << YAML::Value << operatorType(l);
    out << YAML::Key << "equation" << YAML::Value << equation;
    out << YAML::Key << "dimension_relations" << YAML::Value;
    if (windowed)
        emitStrSeq(
            out, {relation("ix", d.Sx, "ox", dilW, "fx"), relation("iy", d.Sy, "oy", dilH, "fy")});
    else
        emitStrSeq(out, {});
    out << YAML::Key << "loop_dims" << YAML::Value;
    emitStrSeq(out, loops.dims);
    out << YAML::Key << "loop_sizes" << YAML::Value;
    emitIntSeq(out, loops.sizes);

    // Precisions in bits: partial sums at psum_bits where the operator accumulates.
    const bool accumulates =
        form != StreamForm::add && !(form == StreamForm::pool && l.pool_mode == PoolMode::max);
    out << YAML::Key << "operand_precision" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "W" << YAML::Value
        << intText(form == StreamForm::pool  ? 0
                   : form == StreamForm::add ? p.act_bits
                                             : p.weight_bits);
    out << YAML::Key << "I" << YAML::Value << intText(p.act_bits);
    out << YAML::Key << "O" << YAML::Value << intText(accumulates ? p.psum_bits : p.act_bits);
    out << YAML::Key << "O_final" << YAML::Value << intText(p.act_bits);
    out << YAML::EndMap;

    out << YAML::Key << "operand_source" << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (form == StreamForm::add) {
        const LayerId a = l.inputs.empty() ? id : l.inputs[0];
        const LayerId b = l.inputs.size() > 1 ? l.inputs[1] : a;
        out << YAML::Key << "W" << YAML::Value << intText(sourceId(net, wid, a, self));
        out << YAML::Key << "I" << YAML::Value << intText(sourceId(net, wid, b, self));
    } else {
        const int in = l.inputs.empty() ? self : sourceId(net, wid, l.inputs.front(), self);
        out << YAML::Key << "I" << YAML::Value << intText(in);
        out << YAML::Key << "W" << YAML::Value << intText(self); // constant operand
    }
    out << YAML::EndMap;

    if (windowed) {
        out << YAML::Key << "pr_loop_dims" << YAML::Value;
        emitStrSeq(out, {"IY", "IX"});
        out << YAML::Key << "pr_loop_sizes" << YAML::Value;
        emitIntSeq(out, {d.in_h, d.in_w});
        const bool padded = l.type == LayerType::conv || l.type == LayerType::pool;
        out << YAML::Key << "padding" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        emitIntSeq(out, {padded ? l.pad_t : 0, padded ? l.pad_b : 0});
        emitIntSeq(out, {padded ? l.pad_l : 0, padded ? l.pad_r : 0});
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

// Stream's intra-core tiling: the number of tiles of each tiled dim (ceil(D/T), per group),
// outermost loop first, dims with a single tile left out.
std::vector<std::string> intraCoreTiling(const Network& net, LayerId id, const LayerSchedule& ls) {
    const LayerDims d = layerDims(net, id);
    const StreamForm form = formOf(net.layer(id), d);
    const bool hasKC = form == StreamForm::conv || form == StreamForm::grouped_conv;
    std::vector<std::string> out;
    for (Dim dim : ls.order) {
        int64_t D = 1;
        const char* name = "";
        switch (dim) {
        case Dim::z:
            D = hasKC ? d.DzPerGroup() : 1;
            name = "K";
            break;
        case Dim::i:
            D = hasKC ? d.DiPerGroup() : 1;
            name = "C";
            break;
        case Dim::y:
            D = d.Dy;
            name = "OY";
            break;
        case Dim::x:
            D = d.Dx;
            name = "OX";
            break;
        }
        const int64_t T = std::max<int64_t>(1, std::min(ls.T(dim), D));
        const int64_t n = (D + T - 1) / T;
        if (n > 1) out.push_back(std::string(name) + ", " + intText(n));
    }
    return out;
}

std::string skipReason(const Layer& l) {
    switch (l.type) {
    case LayerType::concat:
        return "concat has no ZigZag operator (no compute)";
    case LayerType::mul:
        return "element-wise mul has no ZigZag operator";
    case LayerType::resize:
        return "resize has no ZigZag operator";
    case LayerType::deconv:
        return "a transposed convolution has no ZigZag dimension relation";
    case LayerType::opaque:
        return "an unsupported operator";
    default:
        return "no ZigZag operator";
    }
}

} // namespace

bool isStreamLayer(const Layer& l) {
    switch (l.type) {
    case LayerType::conv:
    case LayerType::fc:
    case LayerType::pool:
    case LayerType::global_pool:
    case LayerType::add:
        return true;
    default:
        return false;
    }
}

StreamExport exportStream(const Network& net, const Hardware& hw, const Schedule& s) {
    StreamExport e;
    e.workload_id.assign(size_t(net.size()), -1);
    std::vector<LayerId> layers;
    for (LayerId id = 0; id < net.size(); ++id) {
        const Layer& l = net.layer(id);
        if (isStreamLayer(l)) {
            e.workload_id[size_t(id)] = int(layers.size());
            layers.push_back(id);
        } else if (l.type != LayerType::input) {
            std::string n = l.name + " (" + std::string(toString(l.type)) +
                            ") is not in the workload: " + skipReason(l);
            if (!l.inputs.empty())
                n += "; its consumers read from " + net.layer(l.inputs.front()).name;
            e.notes.push_back(std::move(n));
        }
        if (l.type == LayerType::add && l.inputs.size() > 2)
            e.notes.push_back(
                l.name + " adds " + intText(int64_t(l.inputs.size())) +
                " inputs; ZigZag's Add takes two, so its operand_source names the first two");
    }

    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::Comment("Stream-style export of " + net.name() + " on " + hw.name +
                         ", exported by LayerFuse");
    out << YAML::Newline;
    out << YAML::Comment(
        "workload: ZigZag/Stream layers; mapping: Stream mapping entries; layer_stacks: the "
        "fusion groups as lists of workload ids (Stream's fused mode)");
    out << YAML::Newline;
    out << YAML::BeginMap;
    out << YAML::Key << "workload" << YAML::Value << YAML::BeginSeq;
    for (LayerId id : layers)
        emitWorkloadLayer(out, net, hw, id, e.workload_id);
    out << YAML::EndSeq;

    out << YAML::Key << "mapping" << YAML::Value << YAML::BeginSeq;
    const std::vector<int> group_of = s.groupIndexByLayer(net.size());
    for (LayerId id : layers) {
        // A spatial partition gives each layer of the group its own sub-array: core k for
        // the group's k-th layer; every other layer runs on core 0.
        int core = 0;
        if (const int g = group_of[size_t(id)]; g >= 0) {
            const FusionGroup& fg = s.groups[size_t(g)];
            if (fg.partition.kind == PartitionKind::spatial && fg.layers.size() > 1)
                for (size_t k = 0; k < fg.layers.size(); ++k)
                    if (fg.layers[k] == id) core = int(k);
        }
        out << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value;
        emitString(out, net.layer(id).name);
        out << YAML::Key << "core_allocation" << YAML::Value;
        emitIntSeq(out, {core});
        out << YAML::Key << "intra_core_tiling" << YAML::Value;
        emitStrSeq(out, intraCoreTiling(net, id, s.layers[size_t(id)]));
        out << YAML::Key << "inter_core_tiling" << YAML::Value;
        emitStrSeq(out, {});
        out << YAML::EndMap;
    }
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "default";
    out << YAML::Key << "core_allocation" << YAML::Value;
    emitIntSeq(out, {0});
    out << YAML::Key << "intra_core_tiling" << YAML::Value;
    emitStrSeq(out, {});
    out << YAML::Key << "inter_core_tiling" << YAML::Value;
    emitStrSeq(out, {});
    out << YAML::EndMap;
    out << YAML::EndSeq;

    out << YAML::Key << "layer_stacks" << YAML::Value << YAML::BeginSeq;
    for (const FusionGroup& g : s.groups) {
        std::vector<int64_t> ids;
        for (LayerId id : g.layers)
            if (size_t(id) < e.workload_id.size() && e.workload_id[size_t(id)] >= 0)
                ids.push_back(e.workload_id[size_t(id)]);
        if (!ids.empty()) emitIntSeq(out, ids);
    }
    out << YAML::EndSeq;

    if (!e.notes.empty()) {
        out << YAML::Key << "notes" << YAML::Value << YAML::BeginSeq;
        for (const auto& n : e.notes)
            emitString(out, n);
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
    e.text = finish(out);
    return e;
}

} // namespace lf
