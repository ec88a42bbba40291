#include "io/exports/zigzag_workload.h"

#include "io/yaml_support.h"

#include <yaml-cpp/yaml.h>

namespace lf {

using namespace yamlio;

namespace {

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

const char* equationOf(ZigZagForm form) {
    switch (form) {
    case ZigZagForm::conv:
        return "O[b][k][oy][ox]+=W[k][c][fy][fx]*I[b][c][iy][ix]";
    case ZigZagForm::grouped_conv:
        return "O[b][g][k][oy][ox]+=W[g][k][c][fy][fx]*I[b][g][c][iy][ix]";
    case ZigZagForm::depthwise_conv:
        return "O[b][g][oy][ox]+=W[g][fy][fx]*I[b][g][iy][ix]";
    case ZigZagForm::pool:
        return "O[b][g][oy][ox]+=W[fy][fx]*I[b][g][iy][ix]";
    case ZigZagForm::add:
        return "O[b][g][oy][ox]=W[b][g][oy][ox]+I[b][g][oy][ox]";
    }
    return "";
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

} // namespace

bool isZigZagLayer(const Layer& l) {
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

std::string zigzagSkipReason(const Layer& l) {
    switch (l.type) {
    case LayerType::concat:
        return "concat has no ZigZag operator (no compute)";
    case LayerType::mul:
        return "element-wise mul has no ZigZag operator";
    case LayerType::resize:
        return "resize has no ZigZag operator";
    case LayerType::deconv:
        return "a transposed convolution has no ZigZag dimension relation";
    case LayerType::reorg:
        return "a reorg moves data without computing; ZigZag has no operator for it";
    case LayerType::opaque:
        return "an unsupported operator";
    default:
        return "no ZigZag operator";
    }
}

ZigZagForm zigzagForm(const Layer& l, const LayerDims& d) {
    switch (l.type) {
    case LayerType::pool:
    case LayerType::global_pool:
        return ZigZagForm::pool;
    case LayerType::add:
        return ZigZagForm::add;
    default:
        break;
    }
    if (d.G <= 1) return ZigZagForm::conv;
    if (d.G == d.Di && d.G == d.Dz) return ZigZagForm::depthwise_conv;
    return ZigZagForm::grouped_conv;
}

std::vector<ZigZagLoop> zigzagLoops(const Network& net, const Hardware& hw, LayerId id) {
    const LayerDims d = layerDims(net, id);
    const ZigZagForm form = zigzagForm(net.layer(id), d);
    std::vector<ZigZagLoop> loops{{"B", hw.batch}};
    switch (form) {
    case ZigZagForm::conv:
        loops.push_back({"K", d.Dz});
        loops.push_back({"C", d.Di});
        break;
    case ZigZagForm::grouped_conv:
        loops.push_back({"G", d.G});
        loops.push_back({"K", d.DzPerGroup()});
        loops.push_back({"C", d.DiPerGroup()});
        break;
    case ZigZagForm::depthwise_conv:
        loops.push_back({"G", d.G});
        break;
    case ZigZagForm::pool:
    case ZigZagForm::add:
        loops.push_back({"G", d.Dz});
        break;
    }
    loops.push_back({"OY", d.Dy});
    loops.push_back({"OX", d.Dx});
    if (form != ZigZagForm::add) {
        loops.push_back({"FY", d.Dn});
        loops.push_back({"FX", d.Dm});
    }
    return loops;
}

std::vector<int> zigzagWorkloadIds(const Network& net) {
    std::vector<int> wid(size_t(net.size()), -1);
    int next = 0;
    for (LayerId id = 0; id < net.size(); ++id)
        if (isZigZagLayer(net.layer(id))) wid[size_t(id)] = next++;
    return wid;
}

void emitZigZagWorkloadLayer(YAML::Emitter& out, const Network& net, const Hardware& hw, LayerId id,
                             const std::vector<int>& wid) {
    const Layer& l = net.layer(id);
    const LayerDims d = layerDims(net, id);
    const ZigZagForm form = zigzagForm(l, d);
    const int self = wid[size_t(id)];
    const Precision& p = hw.precision;
    const bool windowed = form != ZigZagForm::add;
    const int64_t dilW = l.type == LayerType::conv || l.type == LayerType::pool ? l.dilation_w : 1;
    const int64_t dilH = l.type == LayerType::conv || l.type == LayerType::pool ? l.dilation_h : 1;

    std::vector<std::string> dims;
    std::vector<int64_t> sizes;
    for (const ZigZagLoop& loop : zigzagLoops(net, hw, id)) {
        dims.push_back(loop.dim);
        sizes.push_back(loop.size);
    }

    out << YAML::BeginMap;
    out << YAML::Key << "id" << YAML::Value << intText(self);
    out << YAML::Key << "name" << YAML::Value;
    emitString(out, l.name);
    out << YAML::Key << "operator_type" << YAML::Value << operatorType(l);
    out << YAML::Key << "equation" << YAML::Value << equationOf(form);
    out << YAML::Key << "dimension_relations" << YAML::Value;
    if (windowed)
        emitStrSeq(
            out, {relation("ix", d.Sx, "ox", dilW, "fx"), relation("iy", d.Sy, "oy", dilH, "fy")});
    else
        emitStrSeq(out, {});
    out << YAML::Key << "loop_dims" << YAML::Value;
    emitStrSeq(out, dims);
    out << YAML::Key << "loop_sizes" << YAML::Value;
    emitIntSeq(out, sizes);

    // Precisions in bits: partial sums at psum_bits where the operator accumulates.
    const bool accumulates =
        form != ZigZagForm::add && !(form == ZigZagForm::pool && l.pool_mode == PoolMode::max);
    out << YAML::Key << "operand_precision" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "W" << YAML::Value
        << intText(form == ZigZagForm::pool  ? 0
                   : form == ZigZagForm::add ? p.act_bits
                                             : p.weight_bits);
    out << YAML::Key << "I" << YAML::Value << intText(p.act_bits);
    out << YAML::Key << "O" << YAML::Value << intText(accumulates ? p.psum_bits : p.act_bits);
    out << YAML::Key << "O_final" << YAML::Value << intText(p.act_bits);
    out << YAML::EndMap;

    out << YAML::Key << "operand_source" << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (form == ZigZagForm::add) {
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

std::vector<std::string> zigzagWorkloadNotes(const Network& net) {
    std::vector<std::string> notes;
    for (LayerId id = 0; id < net.size(); ++id) {
        const Layer& l = net.layer(id);
        if (!isZigZagLayer(l) && l.type != LayerType::input) {
            std::string n = l.name + " (" + std::string(toString(l.type)) +
                            ") is not in the workload: " + zigzagSkipReason(l);
            if (!l.inputs.empty())
                n += "; its consumers read from " + net.layer(l.inputs.front()).name;
            notes.push_back(std::move(n));
        }
        if (l.type == LayerType::add && l.inputs.size() > 2)
            notes.push_back(
                l.name + " adds " + intText(int64_t(l.inputs.size())) +
                " inputs; ZigZag's Add takes two, so its operand_source names the first two");
    }
    return notes;
}

} // namespace lf
