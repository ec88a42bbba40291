// Builds small ONNX models in memory with the generated protobuf classes (no Python, no
// network). Header-only: used by the tests that link onnx_proto.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lf::test {

class OnnxModelBuilder {
  public:
    explicit OnnxModelBuilder(int64_t opset = 13, int64_t irVersion = 8) {
        model.set_ir_version(irVersion);
        model.set_producer_name("layerfuse-tests");
        auto* o = model.add_opset_import();
        o->set_domain("");
        o->set_version(opset);
        model.mutable_graph()->set_name("test_graph");
    }

    onnx::GraphProto& graph() { return *model.mutable_graph(); }

    // A float graph input; a negative dim is dynamic (written as a dim_param).
    OnnxModelBuilder& input(const std::string& name, const std::vector<int64_t>& dims) {
        fillValueInfo(graph().add_input(), name, dims);
        return *this;
    }
    OnnxModelBuilder& output(const std::string& name, const std::vector<int64_t>& dims = {}) {
        auto* vi = graph().add_output();
        vi->set_name(name);
        auto* tt = vi->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(onnx::TensorProto::FLOAT);
        if (!dims.empty()) fillShape(tt, dims);
        return *this;
    }
    // value_info for an intermediate tensor.
    OnnxModelBuilder& valueInfo(const std::string& name, const std::vector<int64_t>& dims) {
        fillValueInfo(graph().add_value_info(), name, dims);
        return *this;
    }

    // A float initializer of the given dims (zeros in raw_data).
    OnnxModelBuilder& weight(const std::string& name, const std::vector<int64_t>& dims) {
        auto* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        int64_t n = 1;
        for (int64_t d : dims) {
            t->add_dims(d);
            n *= d;
        }
        t->set_raw_data(std::string(size_t(n) * 4, '\0'));
        return *this;
    }
    OnnxModelBuilder& ints(const std::string& name, const std::vector<int64_t>& values,
                           std::vector<int64_t> dims = {-1}) {
        auto* t = graph().add_initializer();
        *t = intTensor(values, dims);
        t->set_name(name);
        return *this;
    }
    OnnxModelBuilder& floats(const std::string& name, const std::vector<float>& values,
                             std::vector<int64_t> dims = {-1}) {
        auto* t = graph().add_initializer();
        *t = floatTensor(values, dims);
        t->set_name(name);
        return *this;
    }

    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "") {
        auto* n = graph().add_node();
        n->set_op_type(op);
        n->set_name(name);
        for (const auto& i : inputs)
            n->add_input(i);
        for (const auto& o : outputs)
            n->add_output(o);
        return *n;
    }

    std::string bytes() const { return model.SerializeAsString(); }

    static onnx::TensorProto intTensor(const std::vector<int64_t>& values,
                                       std::vector<int64_t> dims = {-1}) {
        onnx::TensorProto t;
        t.set_data_type(onnx::TensorProto::INT64);
        if (dims.size() == 1 && dims[0] == -1) dims[0] = int64_t(values.size());
        for (int64_t d : dims)
            t.add_dims(d);
        for (int64_t v : values)
            t.add_int64_data(v);
        return t;
    }
    static onnx::TensorProto floatTensor(const std::vector<float>& values,
                                         std::vector<int64_t> dims = {-1}) {
        onnx::TensorProto t;
        t.set_data_type(onnx::TensorProto::FLOAT);
        if (dims.size() == 1 && dims[0] == -1) dims[0] = int64_t(values.size());
        for (int64_t d : dims)
            t.add_dims(d);
        for (float v : values)
            t.add_float_data(v);
        return t;
    }

    onnx::ModelProto model;

  private:
    static void fillShape(onnx::TypeProto_Tensor* tt, const std::vector<int64_t>& dims) {
        auto* shape = tt->mutable_shape();
        for (int64_t d : dims) {
            auto* dim = shape->add_dim();
            if (d < 0)
                dim->set_dim_param("dyn" + std::to_string(shape->dim_size()));
            else
                dim->set_dim_value(d);
        }
    }
    static void fillValueInfo(onnx::ValueInfoProto* vi, const std::string& name,
                              const std::vector<int64_t>& dims) {
        vi->set_name(name);
        auto* tt = vi->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(onnx::TensorProto::FLOAT);
        fillShape(tt, dims);
    }
};

// Attribute setters.
inline void setAttr(onnx::NodeProto& n, const std::string& name, int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}
inline void setAttr(onnx::NodeProto& n, const std::string& name, float v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
}
inline void setAttr(onnx::NodeProto& n, const std::string& name, const char* v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v);
}
inline void setAttr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
        a->add_ints(x);
}
inline void setAttr(onnx::NodeProto& n, const std::string& name, const std::vector<float>& v) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOATS);
    for (float x : v)
        a->add_floats(x);
}
inline void setAttr(onnx::NodeProto& n, const std::string& name, const onnx::TensorProto& t) {
    auto* a = n.add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = t;
}

} // namespace lf::test
