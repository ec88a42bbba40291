// The import report: what became of every node (layer, folded, layout, padding, constant,
// opaque) and how graph inputs were read, for the studio's import dialog and
// `layerfuse-cli convert --report`.
#include "io/onnx/onnx_translator.h"

namespace lf {

std::string_view toString(OnnxNodeFate f) {
    switch (f) {
    case OnnxNodeFate::layer:
        return "layer";
    case OnnxNodeFate::folded:
        return "folded";
    case OnnxNodeFate::layout:
        return "layout";
    case OnnxNodeFate::padding:
        return "padding";
    case OnnxNodeFate::constant:
        return "constant";
    case OnnxNodeFate::opaque:
        return "opaque";
    }
    return "?";
}

} // namespace lf

namespace lf::onnx_import {

std::string Translator::inputShapesText(const NodeCtx& c) const {
    std::string s;
    for (const Value* v : c.in) {
        if (!s.empty()) s += ", ";
        if (!v)
            s += "(none)";
        else if (v->kind == ValueKind::feature)
            s += dimsText(v->dims);
        else if (v->kind == ValueKind::constant)
            s += "constant " + dimsText(v->c.dims);
        else
            s += "unknown";
    }
    return s;
}

void Translator::notePad(const PendingPad& pad, const Value& consumer) {
    if (pad.id < 0 || !pad.any()) return;
    OnnxNodeReport& r = outcomes_[size_t(pad.id)];
    r.layer = root_.at(consumer.carrier);
    r.detail = "padding t,l,b,r " + std::to_string(pad.t) + "," + std::to_string(pad.l) + "," +
               std::to_string(pad.b) + "," + std::to_string(pad.r) + " merged";
}

void Translator::recordOutcome(const NodeCtx& c, OnnxNodeFate fate, std::string detail) {
    OnnxNodeReport& r = outcomes_[size_t(c.index)];
    r.node = c.name;
    r.op_type = c.n.domain().empty() || c.n.domain() == "ai.onnx"
                    ? readableName(c.n.op_type())
                    : readableName(c.n.domain() + "." + c.n.op_type());
    r.fate = fate;
    r.detail = std::move(detail);
    r.outputs.clear();
    for (int k = 0; k < c.n.output_size(); ++k) {
        auto it = values_.find(c.n.output(k));
        if (it != values_.end() && it->second.kind == ValueKind::feature)
            r.outputs.emplace_back(c.n.output(k), it->second.dims);
    }
}

void Translator::finishReport() {
    if (!report_) return;
    report_->unsupported = unsupported_;
    report_->warnings = warnings_;
    for (size_t k = 0; k < inputNotes_.size(); ++k)
        if (!inputNotes_[k].empty()) report_->inputs.push_back(inputNotes_[k]);
    std::set<std::string> inputs;
    for (const InputSpec& in : spec_.inputs)
        inputs.insert(in.name);
    for (int idx : order_) {
        OnnxNodeReport& r = outcomes_[size_t(idx)];
        if (r.op_type.empty()) continue; // not translated (dead, or the import stopped)
        const onnx::NodeProto& n = graph_.node(idx);
        if (r.fate == OnnxNodeFate::layer) {
            // The last layer the node made carries its output.
            auto it = n.output_size() ? values_.find(n.output(0)) : values_.end();
            if (it != values_.end() && it->second.kind == ValueKind::feature)
                r.layer = root_.count(it->second.carrier) ? root_.at(it->second.carrier) : "";
        } else if (r.fate == OnnxNodeFate::folded || r.fate == OnnxNodeFate::layout) {
            auto it = n.output_size() ? values_.find(n.output(0)) : values_.end();
            if (it != values_.end() && it->second.kind == ValueKind::feature &&
                root_.count(it->second.carrier)) {
                r.layer = root_.at(it->second.carrier);
                if (inputs.count(r.layer) && r.fate == OnnxNodeFate::folded)
                    r.detail = "pre-processing of input '" + r.layer + "'" +
                               (r.detail.empty() ? "" : ": " + r.detail);
            }
        }
        report_->nodes.push_back(r);
    }
}

} // namespace lf::onnx_import
