// ONNX import of real third-party models (tests/data/onnx, see its README for the source and
// license), canonical-hash round trips through network YAML, and refusal of bad files.
//
// Expected layer counts and shapes of the real models are derived from the published
// PaddleOCR architecture definitions, not from the importer.
#include "net_text.h"
#include "onnx_test_helpers.h"
#include "test_support.h"

#include "io/network_yaml.h"
#include "io/onnx_import.h"
#include "network/dims.h"

#include <QtTest>

#include <map>
#include <random>
#include <set>
#include <stdexcept>

using namespace lf;
using lf::test::OnnxModelBuilder;
using lf::test::setAttr;

namespace {
// Imports a bundled model, checks it against ONNX shape inference and the MAC formula.
Network importChecked(const std::string& path, const OnnxImportOptions& o,
                      OnnxImportReport& report) {
    auto r = importOnnx(path, o, &report);
    if (!r) throw std::runtime_error(r.error().toString());
    onnx::ModelProto model;
    if (!model.ParseFromString(lf::test::readBytes(QString::fromStdString(path))))
        throw std::runtime_error("cannot parse " + path);
    lf::test::checkAgainstOnnx(model, *r, report, o.input_shape);
    return *r;
}

int64_t totalMacs(const Network& n) {
    int64_t m = 0;
    for (LayerId id : n.computeIds())
        m += layerMacs(layerDims(n, id));
    return m;
}
} // namespace

namespace {

std::string dataPath(const char* file) {
    return lf::test::testData(QStringLiteral("onnx/") + file).toStdString();
}

std::map<std::string, int> typeCounts(const Network& n) {
    std::map<std::string, int> m;
    for (const Layer& l : n.layers())
        ++m[std::string(toString(l.type))];
    return m;
}

bool hasLayerWithOutput(const Network& n, LayerType t, Shape s) {
    for (const Layer& l : n.layers())
        if (l.type == t && l.out == s) return true;
    return false;
}

void checkYamlRoundTrip(const Network& n) {
    const std::string text = writeNetworkYaml(n);
    auto back = readNetworkYaml(text, "roundtrip.net.yaml");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QCOMPARE(back->canonicalHash(), n.canonicalHash());
    QCOMPARE(back->size(), n.size());
    QCOMPARE(writeNetworkYaml(*back), text);
}

std::string errorOf(std::string_view bytes, const OnnxImportOptions& o = {}) {
    auto r = importOnnxBytes(bytes, "bad.onnx", o);
    if (r) throw std::runtime_error("import unexpectedly succeeded");
    const std::string msg = r.error().toString();
    if (msg.rfind("bad.onnx: ", 0) != 0)
        throw std::runtime_error("error does not name the file: " + msg);
    return msg;
}

#define QVERIFY_CONTAINS(text, part)                                                               \
    QVERIFY2((text).find(part) != std::string::npos, (text).c_str())

OnnxModelBuilder smallModel(int64_t opset = 13) {
    OnnxModelBuilder b(opset);
    b.input("x", {1, 3, 8, 8});
    b.weight("w", {4, 3, 3, 3});
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    return b;
}

} // namespace

class TestOnnxModels : public QObject {
    Q_OBJECT
  private slots:
    // PaddleOCR text-direction classifier: MobileNetV3-small x0.35 (rec_mobilenet_v3.py) and
    // ClsHead(200 -> 2). With make_divisible(v, 8): conv1 8 ch; 11 residual units with
    // (mid, out) = (8,8) (24,8) (32,8) (32,16) (88,16) (88,16) (40,16) (48,16) (104,32)
    // (200,32) (200,32); SE in units 0 and 3..10; a shortcut add where stride is 1 and
    // in == out (units 2, 4, 5, 6, 7, 9, 10); conv2 to 200 channels; 2x2 max pool.
    void paddleOcrClassifier() {
        OnnxImportOptions o;
        o.input_shape = {3, 48, 192};
        auto r = importOnnx(dataPath("ch_ppocr_mobile_v2.0_cls_infer.onnx"), o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Network& n = *r;
        // 1 + 11 * 3 + 9 * 2 + 1 convs; 9 SE + head global pools; 9 SE scalings.
        const std::map<std::string, int> want = {{"input", 1}, {"conv", 53}, {"global_pool", 10},
                                                 {"mul", 9},   {"add", 7},   {"pool", 1},
                                                 {"fc", 1}};
        QCOMPARE(typeCounts(n), want);
        QCOMPARE(n.size(), 82);
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {8, 24, 96})); // conv1, stride 2
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {8, 12, 96})); // unit 0, stride (2,1)
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {16, 3, 96})); // unit 3, stride (2,1)
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {32, 2, 96})); // unit 8: (3 + 4 - 5) / 2 + 1
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {200, 2, 96})); // conv2
        QVERIFY(hasLayerWithOutput(n, LayerType::pool, {200, 1, 48})); // 2x2 / 2 max pool
        QVERIFY(hasLayerWithOutput(n, LayerType::fc, {2, 1, 1}));      // two orientations
        int depthwise3 = 0, depthwise5 = 0;
        for (const Layer& l : n.layers())
            if (l.type == LayerType::conv && l.groups > 1 &&
                l.groups == n.inputShape(n.find(l.name)).c)
                (l.kernel_h == 5 ? depthwise5 : depthwise3) += 1;
        QCOMPARE(depthwise3, 3); // units 0-2 use 3x3 kernels
        QCOMPARE(depthwise5, 8); // units 3-10 use 5x5 kernels
        checkYamlRoundTrip(n);

        OnnxImportReport report;
        auto dyn = importOnnx(dataPath("ch_ppocr_mobile_v2.0_cls_infer.onnx"), {}, &report);
        QVERIFY(!dyn);
        QVERIFY(report.needs_input_shape);
        auto info = inspectOnnx(dataPath("ch_ppocr_mobile_v2.0_cls_infer.onnx"));
        QVERIFY(info.ok());
        QCOMPARE(info->opset, int64_t(9));
        QCOMPARE(info->inputs.size(), size_t(1));
        QCOMPARE(info->inputs[0].dims, (std::vector<int64_t>{-1, 3, -1, -1}));
        QVERIFY(info->has_dynamic_input);
    }

    // PP-OCRv4 detector: PP-LCNetV3 det x0.75 (conv1 + 14 blocks of dw + pw convs, SE in two
    // blocks, 4 1x1 output convs: 37 convs), RSEFPN with 96 channels (8 RSE layers: conv,
    // SE and shortcut add each; 3 top-down adds; 6 nearest upsamplings; concat to 96 ch at
    // 1/4), DB head (3x3 conv, two 2x2 stride-2 transposed convs back to full resolution).
    void paddleOcrDetector() {
        OnnxImportOptions o;
        o.input_shape = {3, 640, 640};
        auto r = importOnnx(dataPath("ch_PP-OCRv4_det_infer.onnx"), o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Network& n = *r;
        const std::map<std::string, int> want = {{"input", 1},        {"conv", 62}, {"deconv", 2},
                                                 {"global_pool", 10}, {"mul", 10},  {"add", 11},
                                                 {"resize", 6},       {"concat", 1}};
        QCOMPARE(typeCounts(n), want);
        // Backbone outputs after the 1x1 convs: int(16, 24, 56, 480 x 0.75) channels at 1/4..1/32.
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {12, 160, 160}));
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {18, 80, 80}));
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {42, 40, 40}));
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {360, 20, 20}));
        QVERIFY(hasLayerWithOutput(n, LayerType::concat, {96, 160, 160}));
        QVERIFY(hasLayerWithOutput(n, LayerType::deconv, {24, 320, 320}));
        QVERIFY(hasLayerWithOutput(n, LayerType::deconv, {1, 640, 640})); // probability map
        std::multiset<int> scales;
        for (const Layer& l : n.layers())
            if (l.type == LayerType::resize) scales.insert(l.scale_h);
        QCOMPARE(scales, (std::multiset<int>{2, 2, 2, 2, 4, 8}));
        checkYamlRoundTrip(n);
    }

    // MediaPipe BlazeFace (front camera), converted by tf2onnx: an NHWC input transposed to
    // NCHW, BlazeBlocks whose shortcuts widen the channels by concatenating zeros
    // (ConstantOfShape), heads transposed back to NHWC and reshaped. Channels per block
    // (blazeface.py of MediaPipe's model card): 24, 24, 28, 32/2, 36, 42, 48/2, 56, 64, 72, 80,
    // 88, 96/2, 96 x 4; conv counts and MACs from tests/onnx/onnx_reference.py.
    void blazeFaceFront() {
        OnnxImportReport rep;
        const Network n =
            importChecked(dataPath("face_detection_front_128x128_barracuda.onnx"), {}, rep);
        const std::map<std::string, int> want = {
            {"input", 1}, {"conv", 37}, {"add", 16}, {"concat", 11}, {"pool", 3}};
        QCOMPARE(typeCounts(n), want);
        QCOMPARE(n.layer(n.inputIds()[0]).out, (Shape{3, 128, 128}));
        QCOMPARE(rep.inputs.size(), size_t(1));
        QVERIFY(rep.unsupported.empty());
        std::multiset<int64_t> widen;
        for (const Layer& l : n.layers())
            if (l.type == LayerType::concat) widen.insert(l.const_channels);
        QCOMPARE(widen, (std::multiset<int64_t>{4, 4, 4, 6, 6, 8, 8, 8, 8, 8, 8}));
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {24, 64, 64}));
        QVERIFY(hasLayerWithOutput(n, LayerType::concat, {28, 64, 64}));
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {96, 8, 8}));
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {2, 16, 16})); // 2 anchors x 16 x 16
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {6, 8, 8}));   // 6 anchors x 8 x 8
        QVERIFY(hasLayerWithOutput(n, LayerType::conv, {96, 8, 8}));
        QCOMPARE(totalMacs(n), int64_t(30760960));
        checkYamlRoundTrip(n);
    }

    // M-LSD tiny (MobileNetV2 encoder + U-Net-style decoder), converted by tf2onnx: an NHWC
    // RGBA input scaled with Mul / Sub before the Transpose, Pads whose pads are a
    // Split -> Concat of constants, bilinear Resize to sizes computed from Shape, the score
    // and offset channels sliced off the 16-channel map, NMS as MaxPool + Equal.
    void mlsdTiny() {
        OnnxImportReport rep;
        const Network n = importChecked(dataPath("mlsd_320x320_tiny.onnx"), {}, rep);
        const std::map<std::string, int> want = {{"input", 1},  {"conv", 41}, {"add", 9},
                                                 {"concat", 2}, {"mul", 1},   {"pool", 1},
                                                 {"resize", 3}, {"reorg", 2}};
        QCOMPARE(typeCounts(n), want);
        QCOMPARE(n.layer(n.inputIds()[0]).out, (Shape{4, 320, 320}));
        int preprocessing = 0; // the Mul and Sub on the raw NHWC input
        for (const auto& r : rep.nodes)
            preprocessing += r.detail.rfind("pre-processing", 0) == 0;
        QCOMPARE(preprocessing, 2);
        int padded = 0, slices = 0;
        for (const Layer& l : n.layers()) {
            if (l.type == LayerType::conv && l.stride_h == 2 && l.pad_b == 1 && l.pad_t == 0)
                ++padded; // the three stride-2 depthwise convs after a merged Pad, + Conv1
            if (l.type == LayerType::reorg) {
                ++slices;
                QCOMPARE(l.out.h, int64_t(160));
                QVERIFY(l.out.c == 1 || l.out.c == 4); // score map, 4 offset maps
            }
        }
        QCOMPARE(padded, 4);
        QCOMPARE(slices, 2);
        QVERIFY(hasLayerWithOutput(n, LayerType::resize, {16, 160, 160}));
        QCOMPARE(totalMacs(n), int64_t(1649100800));
        QVERIFY(rep.unsupported.empty());
        checkYamlRoundTrip(n);
    }

    void yamlRoundTripOfSyntheticModel() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 16, 16});
        b.weight("w1", {8, 3, 3, 3});
        auto& c1 = b.node("Conv", {"x", "w1"}, {"a"}, "stem");
        setAttr(c1, "pads", std::vector<int64_t>{0, 1, 2, 1});
        b.node("Relu", {"a"}, {"ar"});
        b.weight("wd", {8, 4, 2, 2});
        auto& d = b.node("ConvTranspose", {"ar", "wd"}, {"up"}, "up");
        setAttr(d, "strides", std::vector<int64_t>{2, 2});
        setAttr(d, "group", int64_t(2));
        auto& mp = b.node("MaxPool", {"up"}, {"p"}, "pool");
        setAttr(mp, "kernel_shape", std::vector<int64_t>{3, 3});
        setAttr(mp, "strides", std::vector<int64_t>{2, 2});
        setAttr(mp, "ceil_mode", int64_t(1));
        b.floats("sc", {1, 1, 2, 2});
        auto& rs = b.node("Resize", {"p", "", "sc"}, {"r"}, "resize");
        setAttr(rs, "mode", "linear");
        b.node("Hardmax", {"r"}, {"h"}, "odd");
        b.output("h");
        OnnxImportOptions o;
        o.allow_opaque = true;
        auto n = importOnnxBytes(b.bytes(), "synthetic.onnx", o);
        QVERIFY2(n.ok(), n.ok() ? "" : n.error().toString().c_str());
        QCOMPARE(n->size(), 6);
        checkYamlRoundTrip(*n);
    }

    void refusesBadFiles() {
        const std::string good = smallModel().bytes();
        QVERIFY(importOnnxBytes(good, "good.onnx").ok());

        QVERIFY_CONTAINS(errorOf(""), "empty");
        QVERIFY_CONTAINS(errorOf("format: layerfuse/network@1\nname: x\n"), "text file");
        QVERIFY_CONTAINS(errorOf(good.substr(0, good.size() / 2)), "truncated or corrupt");
        std::mt19937 rng(7);
        std::string noise(512, '\0');
        for (char& c : noise)
            c = char(rng());
        errorOf(noise); // any clear error

        // A length prefix that claims about 2 GB of graph.
        std::string claim = good.substr(0, 2);
        claim += "\x3a\xff\xff\xff\xff\x07";
        QVERIFY_CONTAINS(errorOf(claim), "truncated or corrupt");

        QVERIFY_CONTAINS(errorOf(smallModel(6).bytes()), "opset 6");
        QVERIFY_CONTAINS(errorOf(smallModel(19).bytes()), "opset 19");

        OnnxModelBuilder missing(13);
        missing.input("x", {1, 3, 8, 8});
        missing.node("Conv", {"x", "W"}, {"y"}, "conv");
        missing.output("y");
        const std::string m = errorOf(missing.bytes());
        QVERIFY_CONTAINS(m, "node 'conv' (Conv) reads 'W'");

        OnnxModelBuilder cycle(13);
        cycle.input("x", {1, 3, 8, 8});
        cycle.node("Add", {"x", "b"}, {"a"}, "first");
        cycle.node("Relu", {"a"}, {"b"}, "second");
        cycle.output("b");
        QVERIFY_CONTAINS(errorOf(cycle.bytes()), "cycle");

        OnnxModelBuilder absurd(13);
        absurd.input("x", {1, 3, 8, 8});
        auto* t = absurd.graph().add_initializer();
        t->set_name("W");
        t->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : {int64_t(1) << 40, int64_t(1) << 40, int64_t(3), int64_t(3)})
            t->add_dims(d);
        absurd.node("Conv", {"x", "W"}, {"y"}, "conv");
        absurd.output("y");
        QVERIFY_CONTAINS(errorOf(absurd.bytes()), "absurdly large");

        OnnxModelBuilder wide(13); // dims are fine but the layer would be huge
        wide.input("x", {1, 3, 8, 8});
        auto* w = wide.graph().add_initializer();
        w->set_name("W");
        w->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : {int64_t(1) << 30, int64_t(3), int64_t(3), int64_t(3)})
            w->add_dims(d);
        wide.node("Conv", {"x", "W"}, {"y"}, "conv");
        wide.output("y");
        QVERIFY_CONTAINS(errorOf(wide.bytes()), "node 'conv' (Conv)");

        OnnxModelBuilder raw(13);
        raw.input("x", {1, 3, 8, 8});
        raw.weight("W", {4, 3, 3, 3});
        raw.graph().mutable_initializer(0)->set_raw_data(std::string(10, '\0'));
        raw.node("Conv", {"x", "W"}, {"y"}, "conv");
        raw.output("y");
        QVERIFY_CONTAINS(errorOf(raw.bytes()), "stores 10 bytes");

        OnnxModelBuilder many(13); // a huge repeated field
        many.input("x", {1, 3, 8, 8});
        std::vector<std::string> ins(70000, "x");
        many.node("Sum", ins, {"y"}, "sum");
        many.output("y");
        QVERIFY_CONTAINS(errorOf(many.bytes()), "too many inputs");

        OnnxModelBuilder bigInput(13);
        bigInput.input("x", {1, 3, int64_t(1) << 31, 8});
        bigInput.weight("W", {4, 3, 3, 3});
        bigInput.node("Conv", {"x", "W"}, {"y"});
        bigInput.output("y");
        QVERIFY_CONTAINS(errorOf(bigInput.bytes()), "absurd dimensions");

        OnnxModelBuilder rank3(13);
        rank3.input("x", {1, 3, 8});
        rank3.node("Relu", {"x"}, {"y"});
        rank3.output("y");
        QVERIFY_CONTAINS(errorOf(rank3.bytes()), "rank 3");

        OnnxModelBuilder noOut(13);
        noOut.input("x", {1, 3, 8, 8});
        noOut.node("Relu", {"x"}, {"y"});
        QVERIFY_CONTAINS(errorOf(noOut.bytes()), "no outputs");

        auto file = importOnnx("/nonexistent/model.onnx");
        QVERIFY(!file);
        QVERIFY_CONTAINS(file.error().toString(), "no such file");
    }
};

QTEST_GUILESS_MAIN(TestOnnxModels)
#include "tst_onnx_models.moc"
