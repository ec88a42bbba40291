#include "io/exports/timeloop_export.h"

#include "io/yaml_support.h"
#include "network/dims.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace lf {

using namespace yamlio;

namespace {

// Positions in kTimeloopDims.
enum TlDim : size_t { tR = 0, tS = 1, tP = 2, tQ = 3, tC = 4, tK = 5, tN = 6 };

// Timeloop letter of one of our tiled dims: z -> K, y -> Q, x -> P, i -> C.
TlDim timeloopDimOf(Dim d) {
    switch (d) {
    case Dim::z:
        return tK;
    case Dim::y:
        return tQ;
    case Dim::x:
        return tP;
    case Dim::i:
        return tC;
    }
    return tK;
}

const char* ourDimName(Dim d) {
    switch (d) {
    case Dim::z:
        return "out_channels";
    case Dim::y:
        return "out_height";
    case Dim::x:
        return "out_width";
    case Dim::i:
        return "in_channels";
    }
    return "?";
}

// Innermost-first permutation of one level: the kernel loops R (width, innermost) and S,
// then the tiled loops from the innermost of `order` outwards, then the batch N.
std::string permutationOf(const std::array<Dim, 4>& order) {
    std::string p = "RS";
    for (auto it = order.rbegin(); it != order.rend(); ++it)
        p += kTimeloopDims[timeloopDimOf(*it)];
    p += 'N';
    return p;
}

std::string safeFileStem(const std::string& name) {
    std::string s;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
        s += ok ? c : '_';
    }
    if (s.empty() || s.front() == '.') s.insert(s.begin(), '_');
    return s;
}

void emitProjection(YAML::Emitter& out,
                    std::initializer_list<std::initializer_list<const char*>> terms) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const auto& term : terms) {
        out << YAML::Flow << YAML::BeginSeq;
        for (const char* t : term)
            out << t;
        out << YAML::EndSeq;
    }
    out << YAML::EndSeq;
}

void emitDataSpace(
    YAML::Emitter& out, const char* name,
    std::initializer_list<std::initializer_list<std::initializer_list<const char*>>> dims,
    bool readWrite) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name;
    out << YAML::Key << "projection" << YAML::Value << YAML::BeginSeq;
    for (const auto& d : dims)
        emitProjection(out, d);
    out << YAML::EndSeq;
    if (readWrite) out << YAML::Key << "read_write" << YAML::Value << true;
    out << YAML::EndMap;
}

// Timeloop's CNN-layer problem shape (its problem-shapes/cnn-layer.yaml).
void emitShape(YAML::Emitter& out) {
    out << YAML::Key << "shape" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "CNN-Layer";
    out << YAML::Key << "dimensions" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (char c : kTimeloopDims)
        out << std::string(1, c);
    out << YAML::EndSeq;
    out << YAML::Key << "coefficients" << YAML::Value << YAML::BeginSeq;
    for (const char* c : {"Wstride", "Hstride", "Wdilation", "Hdilation"})
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << c << YAML::Key
            << "default" << YAML::Value << intText(1) << YAML::EndMap;
    out << YAML::EndSeq;
    out << YAML::Key << "data_spaces" << YAML::Value << YAML::BeginSeq;
    emitDataSpace(out, "Weights", {{{"C"}}, {{"K"}}, {{"R"}}, {{"S"}}}, false);
    emitDataSpace(out, "Inputs",
                  {{{"N"}},
                   {{"C"}},
                   {{"R", "Wdilation"}, {"P", "Wstride"}},
                   {{"S", "Hdilation"}, {"Q", "Hstride"}}},
                  false);
    emitDataSpace(out, "Outputs", {{{"N"}}, {{"K"}}, {{"Q"}}, {{"P"}}}, true);
    out << YAML::EndSeq;
    out << YAML::EndMap;
}

// A minimal architecture matching the two mapping levels: DRAM, one on-chip buffer of the
// hardware's capacity and a single MAC (the mapping has no spatial level). Buffer capacity
// is depth x block_size words of word_bits.
void emitArchitecture(YAML::Emitter& out, const Hardware& hw) {
    const int64_t wordBits = std::max(hw.precision.act_bits, hw.precision.weight_bits);
    const int64_t dramBlock =
        std::max<int64_t>(1, int64_t(hw.dram.bandwidth_bytes_per_cycle * 8) / wordBits);
    const int64_t depth = std::max<int64_t>(1, hw.buffer.bits() / wordBits);
    out << YAML::Key << "architecture" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "version" << YAML::Value << "0.3";
    out << YAML::Key << "subtree" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "System";
    out << YAML::Key << "local" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "DRAM" << YAML::Key << "class" << YAML::Value
        << "DRAM";
    out << YAML::Key << "attributes" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "width" << YAML::Value << intText(dramBlock * wordBits);
    out << YAML::Key << "block_size" << YAML::Value << intText(dramBlock);
    out << YAML::Key << "word_bits" << YAML::Value << intText(wordBits);
    out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
    out << YAML::Key << "subtree" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << "Chip";
    out << YAML::Key << "local" << YAML::Value << YAML::BeginSeq;
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "Buffer" << YAML::Key << "class"
        << YAML::Value << "SRAM";
    out << YAML::Key << "attributes" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "depth" << YAML::Value << intText(depth);
    out << YAML::Key << "width" << YAML::Value << intText(wordBits);
    out << YAML::Key << "block_size" << YAML::Value << intText(1);
    out << YAML::Key << "word_bits" << YAML::Value << intText(wordBits);
    out << YAML::EndMap << YAML::EndMap;
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "MACC" << YAML::Key << "class"
        << YAML::Value << "intmac";
    out << YAML::Key << "attributes" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "datawidth" << YAML::Value << intText(wordBits) << YAML::EndMap << YAML::EndMap;
    out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq;
    out << YAML::EndMap << YAML::EndSeq;
    out << YAML::EndMap;
}

void emitLevel(YAML::Emitter& out, const char* target, const TimeloopLevel& l) {
    out << YAML::BeginMap;
    out << YAML::Key << "target" << YAML::Value << target;
    out << YAML::Key << "type" << YAML::Value << "temporal";
    out << YAML::Key << "factors" << YAML::Value << timeloopFactorString(l);
    out << YAML::Key << "permutation" << YAML::Value << l.permutation;
    out << YAML::EndMap;
}

std::string orderText(const LayerSchedule& ls) {
    std::string s;
    for (Dim d : ls.order) {
        if (!s.empty()) s += ", ";
        s += dimChar(d);
    }
    return s;
}

} // namespace

std::string timeloopFactorString(const TimeloopLevel& level) {
    std::string s;
    for (size_t k = 0; k < kTimeloopDims.size(); ++k) {
        if (k) s += ' ';
        s += kTimeloopDims[k];
        s += '=';
        s += intText(level.factors[k]);
        if (level.residuals[k] != level.factors[k]) s += "," + intText(level.residuals[k]);
    }
    return s;
}

std::string timeloopUnsupportedReason(const Network& net, const Schedule& s, LayerId id) {
    const Layer& l = net.layer(id);
    if (l.type != LayerType::conv && l.type != LayerType::fc)
        return "a " + std::string(toString(l.type)) +
               " layer is not a convolution; Timeloop's CNN-layer problem covers conv and fc "
               "layers";
    const int g = s.groupOf(id);
    if (g >= 0 && s.groups[size_t(g)].layers.size() > 1)
        return "it is fused in group '" + s.groups[size_t(g)].name +
               "'; a single-layer Timeloop mapping exists only for a layer alone in its group";
    return {};
}

TimeloopLayerMapping timeloopMapping(const Network& net, const Hardware& hw, LayerId id,
                                     const LayerSchedule& ls) {
    const Layer& l = net.layer(id);
    const LayerDims d = layerDims(net, id);
    TimeloopLayerMapping m;
    m.groups = d.G;
    m.instance[tR] = d.Dm;
    m.instance[tS] = d.Dn;
    m.instance[tP] = d.Dx;
    m.instance[tQ] = d.Dy;
    m.instance[tC] = d.DiPerGroup();
    m.instance[tK] = d.DzPerGroup();
    m.instance[tN] = hw.batch;
    m.w_stride = d.Sx;
    m.h_stride = d.Sy;
    const bool fc = l.type == LayerType::fc;
    m.w_dilation = fc ? 1 : l.dilation_w;
    m.h_dilation = fc ? 1 : l.dilation_h;

    // Buffer level: the inner tile loops (T) and the whole kernel; DRAM level: the outer
    // tile loops (ceil(D/T)) and the batch (one image after another). A tile that does not
    // divide its dim leaves a partial last tile: Timeloop's residual of the buffer factor
    // (ceil(D/T) - 1)·T + residual = D.
    m.buffer.factors[tR] = d.Dm;
    m.buffer.factors[tS] = d.Dn;
    m.dram.factors[tN] = hw.batch;
    for (Dim dim : kAllDims) {
        const TlDim t = timeloopDimOf(dim);
        const int64_t D = m.instance[t];
        const int64_t T = std::clamp<int64_t>(ls.T(dim), 1, D);
        if (T != ls.T(dim))
            m.notes.push_back(std::string(1, kTimeloopDims[t]) + " (" + ourDimName(dim) + " " +
                              intText(D) + "): tile " + intText(ls.T(dim)) + " is outside 1.." +
                              intText(D) + "; using " + intText(T));
        const int64_t outer = (D + T - 1) / T;
        m.buffer.factors[t] = T;
        m.buffer.residuals[t] = D - (outer - 1) * T;
        m.dram.factors[t] = outer;
    }
    for (size_t k = 0; k < kTimeloopDims.size(); ++k) {
        if (k == size_t(tP) || k == size_t(tQ) || k == size_t(tC) || k == size_t(tK)) continue;
        m.buffer.residuals[k] = m.buffer.factors[k];
    }
    for (size_t k = 0; k < kTimeloopDims.size(); ++k)
        m.dram.residuals[k] = m.dram.factors[k];
    m.dram.permutation = permutationOf(ls.order);
    m.buffer.permutation = permutationOf(ls.order);
    return m;
}

Result<std::string> exportTimeloopLayer(const Network& net, const Hardware& hw, const Schedule& s,
                                        LayerId id) {
    if (id < 0 || id >= net.size()) return Error("no such layer");
    const Layer& l = net.layer(id);
    if (const std::string why = timeloopUnsupportedReason(net, s, id); !why.empty())
        return Error("layer '" + l.name + "' cannot be exported to Timeloop: " + why);
    const int64_t wordBits = std::max(hw.precision.act_bits, hw.precision.weight_bits);
    if (hw.buffer.bytes * 8 / wordBits > int64_t(UINT32_MAX))
        return Error("the buffer of " + hw.name + " holds " +
                     intText(hw.buffer.bytes * 8 / wordBits) +
                     " words; Timeloop reads a buffer depth as a 32-bit number (buffer.cpp)");
    const LayerSchedule& ls = s.layers[size_t(id)];
    const TimeloopLayerMapping m = timeloopMapping(net, hw, id, ls);

    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::Comment("Timeloop problem and mapping of layer " + l.name + " of " + net.name() +
                         ", exported by LayerFuse");
    out << YAML::Newline;
    out << YAML::Comment(
        "P = out_width, Q = out_height, K = out_channels, C = in_channels, R = kernel_width, "
        "S = kernel_height, N = batch");
    out << YAML::Newline;
    out << YAML::Comment("loop order (outermost first): " + orderText(ls) +
                         "; tiles z=" + intText(ls.T(Dim::z)) + " y=" + intText(ls.T(Dim::y)) +
                         " x=" + intText(ls.T(Dim::x)) + " i=" + intText(ls.T(Dim::i)));
    out << YAML::Newline;
    out << YAML::Comment(
        "LayerFuse store levels X=" + levelName(ls.SL(Arr::X), ls.order) +
        " Y=" + levelName(ls.SL(Arr::Y), ls.order) + " W=" + levelName(ls.SL(Arr::W), ls.order) +
        "; this two-level mapping keeps each array's whole tile in Buffer (store level tile)");
    out << YAML::Newline;
    if (m.groups > 1) {
        out << YAML::Comment(
            "grouped convolution: G = " + intText(m.groups) +
            " groups; this problem is one group (C and K per group), multiply its counts by " +
            intText(m.groups) + " for the layer");
        out << YAML::Newline;
    }
    if (l.pad_t || l.pad_b || l.pad_l || l.pad_r) {
        out << YAML::Comment(
            "padding (t, l, b, r) = " + intText(l.pad_t) + ", " + intText(l.pad_l) + ", " +
            intText(l.pad_b) + ", " + intText(l.pad_r) +
            " is not part of Timeloop's problem: its input extent counts padded elements");
        out << YAML::Newline;
    }
    for (const std::string& n : m.notes) {
        out << YAML::Comment(n);
        out << YAML::Newline;
    }
    out << YAML::BeginMap;
    out << YAML::Key << "problem" << YAML::Value << YAML::BeginMap;
    emitShape(out);
    out << YAML::Key << "instance" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (size_t k = 0; k < kTimeloopDims.size(); ++k)
        out << YAML::Key << std::string(1, kTimeloopDims[k]) << YAML::Value
            << intText(m.instance[k]);
    out << YAML::Key << "Wstride" << YAML::Value << intText(m.w_stride);
    out << YAML::Key << "Hstride" << YAML::Value << intText(m.h_stride);
    out << YAML::Key << "Wdilation" << YAML::Value << intText(m.w_dilation);
    out << YAML::Key << "Hdilation" << YAML::Value << intText(m.h_dilation);
    out << YAML::EndMap;
    out << YAML::EndMap;
    emitArchitecture(out, hw);
    out << YAML::Key << "mapping" << YAML::Value << YAML::BeginSeq;
    emitLevel(out, "DRAM", m.dram);
    emitLevel(out, "Buffer", m.buffer);
    out << YAML::BeginMap;
    out << YAML::Key << "target" << YAML::Value << "Buffer";
    out << YAML::Key << "type" << YAML::Value << "bypass";
    out << YAML::Key << "keep" << YAML::Value << YAML::Flow << YAML::BeginSeq << "Weights"
        << "Inputs"
        << "Outputs" << YAML::EndSeq;
    out << YAML::Key << "bypass" << YAML::Value << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
    out << YAML::EndMap;
    out << YAML::EndSeq;
    out << YAML::EndMap;
    return finish(out);
}

TimeloopExport exportTimeloop(const Network& net, const Hardware& hw, const Schedule& s) {
    TimeloopExport e;
    std::set<std::string> used;
    for (LayerId id : net.computeIds()) {
        const std::string why = timeloopUnsupportedReason(net, s, id);
        if (!why.empty()) {
            e.skipped.push_back(TimeloopSkip{id, why});
            continue;
        }
        auto text = exportTimeloopLayer(net, hw, s, id);
        if (!text) {
            e.skipped.push_back(TimeloopSkip{id, text.error().message});
            continue;
        }
        const std::string stem = safeFileStem(net.layer(id).name);
        std::string name = stem + ".timeloop.yaml";
        for (int k = 2; !used.insert(name).second; ++k)
            name = stem + "-" + intText(k) + ".timeloop.yaml";
        e.files.push_back(TimeloopFile{id, name, std::move(*text)});
    }
    return e;
}

} // namespace lf
