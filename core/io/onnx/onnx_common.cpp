#include "io/onnx/onnx_common.h"

namespace lf::onnx_import {

namespace {
const char* typeName(onnx::AttributeProto_AttributeType t) {
    switch (t) {
    case onnx::AttributeProto::FLOAT:
        return "a float";
    case onnx::AttributeProto::INT:
        return "an integer";
    case onnx::AttributeProto::STRING:
        return "a string";
    case onnx::AttributeProto::TENSOR:
        return "a tensor";
    case onnx::AttributeProto::FLOATS:
        return "a list of floats";
    case onnx::AttributeProto::INTS:
        return "a list of integers";
    default:
        return "another kind of value";
    }
}

const onnx::AttributeProto* typedAttr(const onnx::NodeProto& n, std::string_view name,
                                      onnx::AttributeProto_AttributeType want) {
    const onnx::AttributeProto* a = findAttr(n, name);
    if (!a) return nullptr;
    // Files written before `type` existed leave it unset (0); accept the matching field.
    if (a->type() != want && a->type() != onnx::AttributeProto::UNDEFINED)
        invalid("attribute '" + std::string(name) + "' must be " + typeName(want) + ", not " +
                typeName(a->type()));
    return a;
}
} // namespace

const onnx::AttributeProto* findAttr(const onnx::NodeProto& n, std::string_view name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

bool hasAttr(const onnx::NodeProto& n, std::string_view name) {
    return findAttr(n, name) != nullptr;
}

int64_t attrInt(const onnx::NodeProto& n, std::string_view name, int64_t def) {
    const auto* a = typedAttr(n, name, onnx::AttributeProto::INT);
    return a ? a->i() : def;
}

float attrFloat(const onnx::NodeProto& n, std::string_view name, float def) {
    const auto* a = typedAttr(n, name, onnx::AttributeProto::FLOAT);
    return a ? a->f() : def;
}

std::string attrString(const onnx::NodeProto& n, std::string_view name, std::string def) {
    const auto* a = typedAttr(n, name, onnx::AttributeProto::STRING);
    if (!a) return def;
    if (a->s().size() > 256) invalid("attribute '" + std::string(name) + "' is too long");
    return a->s();
}

std::vector<int64_t> attrInts(const onnx::NodeProto& n, std::string_view name) {
    const auto* a = typedAttr(n, name, onnx::AttributeProto::INTS);
    if (!a) return {};
    if (a->ints_size() > kMaxAttrList)
        invalid("attribute '" + std::string(name) + "' has " + std::to_string(a->ints_size()) +
                " values");
    return {a->ints().begin(), a->ints().end()};
}

std::vector<float> attrFloats(const onnx::NodeProto& n, std::string_view name) {
    const auto* a = typedAttr(n, name, onnx::AttributeProto::FLOATS);
    if (!a) return {};
    if (a->floats_size() > kMaxAttrList)
        invalid("attribute '" + std::string(name) + "' has " + std::to_string(a->floats_size()) +
                " values");
    return {a->floats().begin(), a->floats().end()};
}

std::string dimsText(const std::vector<int64_t>& dims) {
    std::string s = "[";
    for (size_t k = 0; k < dims.size(); ++k) {
        if (k) s += ",";
        s += dims[k] < 0 ? std::string("?") : std::to_string(dims[k]);
    }
    return s + "]";
}

int toIntIn(int64_t v, int64_t lo, int64_t hi, const char* what) {
    if (v < lo || v > hi)
        invalid(std::string(what) + " " + std::to_string(v) + " is outside " + std::to_string(lo) +
                ".." + std::to_string(hi));
    return int(v);
}

} // namespace lf::onnx_import
