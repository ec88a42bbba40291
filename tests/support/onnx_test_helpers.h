// Helpers for the ONNX import tests: import a built model, look layers up, count types.
#pragma once

#include "onnx_model_builder.h"

#include "io/onnx_import.h"
#include "network/network.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace lf::test {

inline Network importOk(const OnnxModelBuilder& b, const OnnxImportOptions& o = {}) {
    auto r = importOnnxBytes(b.bytes(), "test.onnx", o);
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

inline std::string importError(const OnnxModelBuilder& b, const OnnxImportOptions& o = {},
                               OnnxImportReport* report = nullptr) {
    auto r = importOnnxBytes(b.bytes(), "test.onnx", o, report);
    if (r) throw std::runtime_error("import unexpectedly succeeded");
    return r.error().toString();
}

inline const Layer& L(const Network& n, const char* name) {
    const LayerId id = n.find(name);
    if (id == kNoLayer) throw std::runtime_error(std::string("no layer ") + name);
    return n.layer(id);
}

inline int countType(const Network& n, LayerType t) {
    int k = 0;
    for (const Layer& l : n.layers())
        k += l.type == t;
    return k;
}

inline std::vector<std::string> inputNames(const Network& n, const Layer& l) {
    std::vector<std::string> v;
    for (LayerId p : l.inputs)
        v.push_back(n.layer(p).name);
    return v;
}

using Folded = std::vector<std::string>;

// x [1,C,H,W] -> Conv(name, W [M, C/g, k, k]) with optional attributes already set by caller.
inline onnx::NodeProto& conv(OnnxModelBuilder& b, const std::string& name, const std::string& in,
                             const std::string& out, std::vector<int64_t> w) {
    b.weight(name + ".w", w);
    return b.node("Conv", {in, name + ".w"}, {out}, name);
}

} // namespace lf::test
