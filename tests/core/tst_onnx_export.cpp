// Writing ONNX (io/onnx_export.h): every bundled network written and read back by the
// importer is the same canonical network (same hash, names, activations); a network imported
// from ONNX keeps its nodes' original names; weights are shapes without values; element
// types; activations Stream cannot parse left out with a note; layers without an ONNX form
// refused with the layer named.
#include "export_test_helpers.h"
#include "onnx_test_helpers.h"
#include "test_support.h"

#include "io/onnx_export.h"
#include "io/onnx_import.h"

#include <QtTest>

#include <onnx/onnx_pb.h>

#include <string>

using namespace lf;

namespace {

onnx::ModelProto parse(const std::string& bytes) {
    onnx::ModelProto m;
    if (!m.ParseFromString(bytes)) throw std::runtime_error("not an ONNX model");
    return m;
}

Network reimport(const std::string& bytes) {
    auto r = importOnnxBytes(bytes, "written.onnx");
    if (!r) throw std::runtime_error(r.error().toString());
    return *r;
}

const onnx::NodeProto& nodeNamed(const onnx::ModelProto& m, const std::string& name) {
    for (const auto& n : m.graph().node())
        if (n.name() == name) return n;
    throw std::runtime_error("no node " + name);
}

} // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT

  private slots:
    // Every bundled network: write, read back, same canonical hash (names, types, inputs,
    // shapes, every shape parameter) and the same folded activations.
    void everyBundledNetworkRoundTrips() {
        for (const char* name : lf::test::bundledNetworkNames()) {
            const Network net = lf::test::bundledNetwork(name);
            OnnxExportReport report;
            auto bytes = writeOnnxModel(net, {}, &report);
            QVERIFY2(bytes.ok(), bytes.ok() ? name : bytes.error().toString().c_str());
            const Network back = reimport(*bytes);
            QVERIFY2(back.canonicalHash() == net.canonicalHash(), name);
            QCOMPARE(back.size(), net.size());
            for (const Layer& l : net.layers()) {
                const LayerId id = back.find(l.name);
                QVERIFY2(id != kNoLayer, (std::string(name) + " " + l.name).c_str());
                // The activation comes back folded into its layer (those without an ONNX
                // operator at opset 14, such as selu, are noted instead).
                bool noted = false;
                for (const std::string& n : report.notes)
                    noted =
                        noted || n.find(" of " + l.name + " is not written") != std::string::npos;
                if (!l.activation.empty() && !noted)
                    QVERIFY2(!back.layer(id).activation.empty() || !back.layer(id).folded.empty(),
                             (std::string(name) + " " + l.name).c_str());
            }
        }
    }

    // ResNet-18's first layers: Conv named after the layer with its attributes, the weights a
    // [64, 3, 7, 7] initializer without values, ReLU as its own node after it; the fc layer a
    // Flatten and a Gemm whose B is [512, 1000] (transB = 0); the output tensor declared.
    void operatorsAndWeights() {
        const Network net = lf::test::bundledNetwork("resnet18");
        auto bytes = writeOnnxModel(net);
        QVERIFY(bytes.ok());
        QVERIFY2(bytes->size() < 100000, "weights are written without values");
        const onnx::ModelProto m = parse(*bytes);
        QCOMPARE(m.opset_import(0).version(), int64_t(14));
        const onnx::NodeProto& conv1 = nodeNamed(m, "conv1");
        QCOMPARE(conv1.op_type(), std::string("Conv"));
        for (const auto& a : conv1.attribute()) {
            if (a.name() == "strides") QCOMPARE(a.ints(0), int64_t(2));
            if (a.name() == "pads") QCOMPARE(a.ints(0), int64_t(3));
            if (a.name() == "group") QCOMPARE(a.i(), int64_t(1));
        }
        for (const auto& init : m.graph().initializer())
            if (init.name() == conv1.input(1)) {
                QCOMPARE(std::vector<int64_t>(init.dims().begin(), init.dims().end()),
                         (std::vector<int64_t>{64, 3, 7, 7}));
                QVERIFY(init.raw_data().empty() && init.float_data_size() == 0);
            }
        QCOMPARE(nodeNamed(m, "conv1/Relu").input(0), conv1.output(0));
        const onnx::NodeProto& fc = nodeNamed(m, "fc");
        QCOMPARE(fc.op_type(), std::string("Gemm"));
        QCOMPARE(fc.attribute_size(), 0);
        QCOMPARE(nodeNamed(m, "fc/Flatten").output(0), fc.input(0));
        for (const auto& init : m.graph().initializer())
            if (init.name() == fc.input(1))
                QCOMPARE(std::vector<int64_t>(init.dims().begin(), init.dims().end()),
                         (std::vector<int64_t>{512, 1000}));
        QCOMPARE(m.graph().output_size(), 1);
        QCOMPARE(m.graph().output(0).name(), fc.output(0));
    }

    // A network imported from ONNX keeps its nodes' names: the file written names them as the
    // original did ("/layer1/conv/Conv"), and reading it gives the same layer names.
    void originalNodeNamesAreKept() {
        lf::test::OnnxModelBuilder b;
        b.input("x", {1, 3, 8, 8});
        lf::test::conv(b, "/block/conv/Conv", "x", "y", {4, 3, 3, 3});
        b.node("Relu", {"y"}, {"z"}, "/block/relu/Relu");
        b.output("z");
        const Network net = lf::test::importOk(b);
        const LayerId id = net.computeIds().front();
        QCOMPARE(net.layer(id).source_name, std::string("/block/conv/Conv"));
        QCOMPARE(onnxNodeName(net.layer(id)), std::string("/block/conv/Conv"));
        auto bytes = writeOnnxModel(net);
        QVERIFY(bytes.ok());
        const onnx::ModelProto m = parse(*bytes);
        QCOMPARE(m.graph().node(0).name(), std::string("/block/conv/Conv"));
        const Network back = reimport(*bytes);
        QCOMPARE(back.layer(back.computeIds().front()).name, net.layer(id).name);
        QCOMPARE(back.canonicalHash(), net.canonicalHash());
    }

    // Element types for Stream (it takes an operand's width from its tensor type), and the
    // activations it has no parser for (MobileNetV2's relu6 is Clip) left out with a note.
    void elementTypesAndStreamActivations() {
        const Network net = lf::test::bundledNetwork("mobilenetv2");
        OnnxExportOptions o;
        o.activation_type = onnxElementTypeForBits(8);
        o.weight_type = onnxElementTypeForBits(16);
        OnnxExportReport all, stream;
        const onnx::ModelProto m = parse(*writeOnnxModel(net, o, &all));
        QCOMPARE(m.graph().input(0).type().tensor_type().elem_type(), int(onnx::TensorProto::INT8));
        QCOMPARE(m.graph().initializer(0).data_type(), int(onnx::TensorProto::INT16));
        QCOMPARE(onnxElementTypeForBits(32), OnnxElementType::float32);
        int clips = 0;
        for (const auto& n : m.graph().node())
            clips += n.op_type() == "Clip";
        QVERIFY(clips > 0);
        QVERIFY(all.notes.empty());
        o.stream_activations_only = true;
        const onnx::ModelProto s = parse(*writeOnnxModel(net, o, &stream));
        for (const auto& n : s.graph().node())
            QVERIFY2(n.op_type() != "Clip", n.name().c_str());
        QCOMPARE(int(stream.notes.size()), clips);
        QVERIFY(stream.notes.front().find("relu6 activation") != std::string::npos);
        // The report lists every node with its layer.
        QCOMPARE(int(stream.nodes.size()), s.graph().node_size());
        QCOMPARE(stream.nodes.front().name, s.graph().node(0).name());
    }

    // A layer that stands for an operator LayerFuse does not model has no ONNX form: refused,
    // naming it; so is a product of three tensors.
    void layersWithoutOnnxForm() {
        lf::test::OnnxModelBuilder b;
        b.input("x", {1, 3, 8, 8});
        b.node("Hardmax", {"x"}, {"y"}, "strange");
        b.valueInfo("y", {1, 3, 8, 8});
        b.output("y");
        OnnxImportOptions opt;
        opt.allow_opaque = true;
        const Network opaque = lf::test::importOk(b, opt);
        auto r = writeOnnxModel(opaque);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("'Hardmax'") != std::string::npos,
                 r.error().message.c_str());

        const Network mul = lf::test::networkFromYaml(R"(format: layerfuse/network@1
name: m
inputs:
  - {name: x, channels: 2, height: 4, width: 4}
layers:
  - {name: p, type: mul, inputs: [x, x, x]}
)");
        auto m = writeOnnxModel(mul);
        QVERIFY(!m.ok());
        QVERIFY(m.error().message.find("p (mul) multiplies 3 tensors") == 0);
    }
};

QTEST_GUILESS_MAIN(TestOnnxExport)
#include "tst_onnx_export.moc"
