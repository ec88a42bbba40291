// ONNX import of the exporter patterns of TensorFlow (tf2onnx), PyTorch and Paddle that
// real models use: NHWC inputs with pre-processing, Transpose pairs around operators,
// constant sub-graphs (Split, ...) feeding Pad, Concat with constant channels, channel
// slices and splits, pixel shuffle, channel shuffle, NHWC matrix products, instance norm,
// fp16 and external weights. Every import is checked against ONNX shape inference and the
// MAC formula (onnx_test_helpers.h); expected shapes are computed by hand from the ONNX
// operator definitions.
#include "net_text.h"
#include "onnx_test_helpers.h"
#include "test_support.h"

#include "io/network_yaml.h"

#include <QtTest>

#include <fstream>

using namespace lf;
using namespace lf::test;

namespace {

// Round trip through network YAML keeps the network.
void checkYaml(const Network& n) {
    auto back = readNetworkYaml(writeNetworkYaml(n), "roundtrip.net.yaml");
    if (!back) throw std::runtime_error(back.error().toString());
    if (back->canonicalHash() != n.canonicalHash()) throw std::runtime_error("hash differs");
}

const OnnxNodeReport& outcome(const OnnxImportReport& r, const std::string& node) {
    for (const auto& n : r.nodes)
        if (n.node == node) return n;
    throw std::runtime_error("no report for node " + node);
}

} // namespace

class TestOnnxPatterns : public QObject {
    Q_OBJECT
  private slots:
    // tf2onnx: an NHWC image scaled with Mul/Sub, then transposed to NCHW.
    void nhwcInputWithPreprocessing() {
        OnnxModelBuilder b(11);
        b.input("image", {1, 64, 48, 4});
        b.floats("scale", {1.f / 127.5f}, {});
        b.floats("shift", {1.f, 1.f, 1.f, 1.f}, {4}); // per channel, on the last axis
        b.node("Mul", {"image", "scale"}, {"s"}, "scale");
        b.node("Sub", {"s", "shift"}, {"n"}, "shift");
        auto& t = b.node("Transpose", {"n"}, {"nchw"}, "to_nchw");
        setAttr(t, "perm", std::vector<int64_t>{0, 3, 1, 2});
        auto& dw = conv(b, "dw", "nchw", "a", {4, 1, 3, 3});
        setAttr(dw, "group", int64_t(4));
        setAttr(dw, "pads", std::vector<int64_t>{1, 1, 1, 1});
        conv(b, "pw", "a", "y", {32, 4, 1, 1});
        b.output("y");
        OnnxImportReport rep;
        const Network n = importOk(b, {}, &rep);
        QCOMPARE(n.layer(n.inputIds()[0]).out, (Shape{4, 64, 48}));
        QCOMPARE(L(n, "dw").out, (Shape{4, 64, 48}));
        QCOMPARE(L(n, "pw").out, (Shape{32, 64, 48}));
        QCOMPARE(n.size(), 3);
        QCOMPARE(rep.inputs.size(), size_t(1));
        QVERIFY2(rep.inputs[0].find("NHWC") != std::string::npos, rep.inputs[0].c_str());
        QCOMPARE(std::string(toString(outcome(rep, "scale").fate)), std::string("folded"));
        QVERIFY(outcome(rep, "shift").detail.find("pre-processing") != std::string::npos);
        QCOMPARE(std::string(toString(outcome(rep, "to_nchw").fate)), std::string("layout"));

        // The same graph with dynamic H and W: --input-shape C,H,W fills the NHWC input.
        b.graph()
            .mutable_input(0)
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim(1)
            ->set_dim_param("h");
        b.graph()
            .mutable_input(0)
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim(2)
            ->set_dim_param("w");
        OnnxImportOptions o;
        o.input_shape = {4, 32, 40};
        QVERIFY(importError(b).find("dynamic") != std::string::npos);
        const Network d = importOk(b, o);
        QCOMPARE(d.layer(d.inputIds()[0]).out, (Shape{4, 32, 40}));
        checkYaml(n);
    }

    // tf2onnx islands: operators kept in NHWC between Transpose pairs (Pad, per-channel
    // scale, Concat over the last axis, Resize, ReduceMean over axes 1, 2).
    void transposePairsAroundOperators() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 8, 16, 16});
        conv(b, "c1", "x", "a", {8, 8, 1, 1});
        conv(b, "c2", "x", "b", {4, 8, 1, 1});
        for (const char* v : {"a", "b"}) {
            auto& t = b.node("Transpose", {v}, {std::string(v) + "_nhwc"});
            setAttr(t, "perm", std::vector<int64_t>{0, 2, 3, 1});
        }
        b.floats("gamma", std::vector<float>(8, 2.f), {8});
        b.node("Mul", {"a_nhwc", "gamma"}, {"a_scaled"}, "channel_scale");
        auto& cat = b.node("Concat", {"a_scaled", "b_nhwc"}, {"cat"}, "concat_nhwc");
        setAttr(cat, "axis", int64_t(3));
        b.ints("pads", {0, 1, 2, 0, 0, 1, 2, 0}); // H 1/1, W 2/2 in NHWC
        b.node("Pad", {"cat", "pads"}, {"padded"}, "pad_nhwc");
        auto& back = b.node("Transpose", {"padded"}, {"p"}, "to_nchw");
        setAttr(back, "perm", std::vector<int64_t>{0, 3, 1, 2});
        auto& c3 = conv(b, "c3", "p", "c", {6, 12, 3, 3});
        setAttr(c3, "strides", std::vector<int64_t>{2, 2});
        auto& t3 = b.node("Transpose", {"c"}, {"c_nhwc"});
        setAttr(t3, "perm", std::vector<int64_t>{0, 2, 3, 1});
        b.floats("sc", {1, 2, 2, 1});
        b.node("Resize", {"c_nhwc", "", "sc"}, {"up"}, "resize_nhwc");
        auto& mean = b.node("ReduceMean", {"up"}, {"gap"}, "mean_hw");
        setAttr(mean, "axes", std::vector<int64_t>{1, 2});
        setAttr(mean, "keepdims", int64_t(0));
        b.weight("fc", {6, 3});
        b.node("MatMul", {"gap", "fc"}, {"y"}, "fc");
        b.output("y");
        b.output("up");
        const Network n = importOk(b);
        QCOMPARE(L(n, "concat_nhwc").out, (Shape{12, 16, 16}));
        QCOMPARE(L(n, "c3").out, (Shape{6, 8, 9})); // (16 + 2 - 3) / 2 + 1, (16 + 4 - 3) / 2 + 1
        const Layer& c3l = L(n, "c3");
        QCOMPARE((std::vector<int>{c3l.pad_t, c3l.pad_l, c3l.pad_b, c3l.pad_r}),
                 (std::vector<int>{1, 2, 1, 2}));
        QCOMPARE(L(n, "resize_nhwc").out, (Shape{6, 16, 18}));
        QCOMPARE(std::string(toString(L(n, "mean_hw").type)), std::string("global_pool"));
        QCOMPARE(L(n, "fc").out, (Shape{3, 1, 1}));
        QCOMPARE(L(n, "c1").folded, (Folded{"transpose", "scale"}));
        checkYaml(n);
    }

    // tf2onnx writes the pads of a Pad as Split -> Concat of constants.
    void padFromConstantSubgraph() {
        OnnxModelBuilder b(11);
        b.input("x", {1, 8, 20, 20});
        conv(b, "c1", "x", "a", {8, 8, 1, 1});
        b.ints("packed", {0, 0, 0, 0, 0, 1, 1, 0}); // NHWC order, as tf2onnx packs them
        auto& sp = b.node("Split", {"packed"}, {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"});
        setAttr(sp, "split", std::vector<int64_t>(8, 1));
        auto& cat = b.node("Concat", {"p0", "p3", "p1", "p2", "p4", "p7", "p5", "p6"}, {"pads"});
        setAttr(cat, "axis", int64_t(0));
        b.node("Pad", {"a", "pads"}, {"padded"}, "pad");
        auto& dw = conv(b, "dw", "padded", "y", {8, 1, 3, 3});
        setAttr(dw, "group", int64_t(8));
        setAttr(dw, "strides", std::vector<int64_t>{2, 2});
        b.output("y");
        OnnxImportReport rep;
        const Network n = importOk(b, {}, &rep);
        const Layer& d = L(n, "dw");
        QCOMPARE((std::vector<int>{d.pad_t, d.pad_l, d.pad_b, d.pad_r}),
                 (std::vector<int>{0, 0, 1, 1}));
        QCOMPARE(d.out, (Shape{8, 10, 10})); // (20 + 1 - 3) / 2 + 1
        QCOMPARE(std::string(toString(outcome(rep, "pad").fate)), std::string("padding"));
        QCOMPARE(outcome(rep, "pad").layer, std::string("dw"));
        QCOMPARE(std::string(toString(outcome(rep, "split_0").fate)), std::string("constant"));
    }

    // tf2onnx's channel zero-padding: Concat(activation, ConstantOfShape(...)); also Pad
    // of the channel axis.
    void constantChannels() {
        OnnxModelBuilder b(12);
        b.input("x", {1, 24, 16, 16});
        auto& mp = b.node("MaxPool", {"x"}, {"p"}, "pool");
        setAttr(mp, "kernel_shape", std::vector<int64_t>{2, 2});
        setAttr(mp, "strides", std::vector<int64_t>{2, 2});
        b.ints("zshape", {1, 8, 8, 8});
        b.node("ConstantOfShape", {"zshape"}, {"zeros"});
        auto& cat = b.node("Concat", {"p", "zeros"}, {"widened"}, "pad_channels");
        setAttr(cat, "axis", int64_t(1));
        auto& c1 = conv(b, "c1", "x", "a", {32, 24, 3, 3});
        setAttr(c1, "strides", std::vector<int64_t>{2, 2});
        setAttr(c1, "pads", std::vector<int64_t>{1, 1, 1, 1});
        b.node("Add", {"a", "widened"}, {"s"}, "residual");
        b.ints("cpads", {0, 0, 0, 0, 0, 16, 0, 0});
        b.node("Pad", {"s", "cpads"}, {"y"}, "pad_more_channels");
        b.output("y");
        OnnxImportReport rep;
        const Network n = importOk(b, {}, &rep);
        const Layer& c = L(n, "pad_channels");
        QCOMPARE(std::string(toString(c.type)), std::string("concat"));
        QCOMPARE(c.const_channels, int64_t(8));
        QCOMPARE(c.out, (Shape{32, 8, 8}));
        QCOMPARE(L(n, "pad_more_channels").out, (Shape{48, 8, 8}));
        QCOMPARE(L(n, "pad_more_channels").const_channels, int64_t(16));
        QCOMPARE(L(n, "residual").out, (Shape{32, 8, 8}));
        QCOMPARE(n.computeIds().size(), size_t(3)); // pool, conv, add: concats move nothing
        checkYaml(n);
    }

    // ShuffleNet v2: Split of the channels, channel shuffle as Reshape-Transpose-Reshape;
    // GhostNet: Slice of the first channels of a Concat; output heads sliced on channels.
    void channelSlicesAndShuffles() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 16, 8, 8});
        b.ints("halves", {8, 8});
        auto& sp = b.node("Split", {"x", "halves"}, {"l", "r"}, "split");
        setAttr(sp, "axis", int64_t(1));
        conv(b, "branch", "r", "rb", {8, 8, 1, 1});
        auto& cat = b.node("Concat", {"l", "rb"}, {"cat"}, "cat");
        setAttr(cat, "axis", int64_t(1));
        b.ints("s5", {1, 2, 8, 8, 8});
        b.node("Reshape", {"cat", "s5"}, {"g"}, "shuffle_split");
        auto& tr = b.node("Transpose", {"g"}, {"gt"}, "shuffle_swap");
        setAttr(tr, "perm", std::vector<int64_t>{0, 2, 1, 3, 4});
        b.ints("s4", {1, 16, 8, 8});
        b.node("Reshape", {"gt", "s4"}, {"shuffled"}, "shuffle_merge");
        conv(b, "ghost", "shuffled", "gh", {12, 16, 1, 1});
        auto& gcat = b.node("Concat", {"gh", "gh"}, {"gcat"}, "ghost_cat");
        setAttr(gcat, "axis", int64_t(1));
        b.ints("st", {0});
        b.ints("en", {20});
        b.ints("ax", {1});
        b.node("Slice", {"gcat", "st", "en", "ax"}, {"ghost_out"}, "ghost_slice");
        conv(b, "head", "ghost_out", "h", {6, 20, 1, 1});
        b.ints("hs", {4, 0});
        b.ints("he", {6, 1});
        b.ints("ha", {1, 0});
        b.node("Slice", {"h", "hs", "he", "ha"}, {"scores"}, "scores");
        b.ints("odd", {1});
        b.ints("end", {6});
        b.ints("ax1", {1});
        b.ints("two", {2});
        b.node("Slice", {"h", "odd", "end", "ax1", "two"}, {"every_other"}, "every_other");
        b.output("scores");
        b.output("every_other");
        OnnxImportReport rep;
        const Network n = importOk(b, {}, &rep);
        const Layer& right = L(n, "split_1");
        QCOMPARE(std::string(toString(right.type)), std::string("reorg"));
        QCOMPARE(right.op_type, std::string("slice"));
        QCOMPARE(right.slice_begin, int64_t(8));
        QCOMPARE(right.out, (Shape{8, 8, 8}));
        QCOMPARE(L(n, "split").slice_begin, int64_t(0));
        QCOMPARE(L(n, "cat").out, (Shape{16, 8, 8}));
        QCOMPARE(inputNames(n, L(n, "ghost")), (std::vector<std::string>{"cat"}));
        QVERIFY(std::find(L(n, "cat").folded.begin(), L(n, "cat").folded.end(),
                          "channel_shuffle") != L(n, "cat").folded.end());
        QCOMPARE(L(n, "ghost_slice").out, (Shape{20, 8, 8}));
        QCOMPARE(L(n, "scores").out, (Shape{2, 8, 8}));
        QCOMPARE(L(n, "scores").slice_begin, int64_t(4));
        QCOMPARE(L(n, "every_other").out, (Shape{3, 8, 8}));
        QCOMPARE(L(n, "every_other").slice_step, int64_t(2));
        QCOMPARE(L(n, "head").out, (Shape{6, 8, 8}));
        checkYaml(n);
    }

    // Super-resolution: conv to C * r^2 channels, then DepthToSpace (pixel shuffle).
    void pixelShuffle() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 24, 24});
        auto& c = conv(b, "c1", "x", "a", {27, 3, 3, 3});
        setAttr(c, "pads", std::vector<int64_t>{1, 1, 1, 1});
        auto& d2s = b.node("DepthToSpace", {"a"}, {"up"}, "pixel_shuffle");
        setAttr(d2s, "blocksize", int64_t(3));
        setAttr(d2s, "mode", "CRD");
        auto& s2d = b.node("SpaceToDepth", {"up"}, {"down"}, "unshuffle");
        setAttr(s2d, "blocksize", int64_t(2));
        b.output("up");
        b.output("down");
        const Network n = importOk(b);
        QCOMPARE(L(n, "pixel_shuffle").out, (Shape{3, 72, 72}));
        QCOMPARE(L(n, "unshuffle").out, (Shape{12, 36, 36}));
        QCOMPARE(n.computeIds().size(), size_t(1));
        checkYaml(n);
    }

    // TensorFlow Dense on an NHWC map is a MatMul over the last axis: a 1x1 convolution.
    void matMulOverNhwcChannels() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 8, 5, 7});
        auto& t = b.node("Transpose", {"x"}, {"xt"}, "nhwc");
        setAttr(t, "perm", std::vector<int64_t>{0, 2, 3, 1});
        b.weight("w", {8, 16});
        b.node("MatMul", {"xt", "w"}, {"y"}, "dense");
        b.weight("bias", {16});
        b.node("Add", {"y", "bias"}, {"z"}, "dense_bias");
        b.output("z");
        const Network n = importOk(b);
        const Layer& d = L(n, "dense");
        QCOMPARE(std::string(toString(d.type)), std::string("conv"));
        QCOMPARE(d.out, (Shape{16, 5, 7})); // 16 channels at each of the 5 x 7 pixels
        QCOMPARE(d.folded, (Folded{"bias"}));
    }

    // InstanceNormalization and a BatchNormalization that no conv precedes (on the input,
    // after an add) fold into whatever produces their input; PRelu / LeakyRelu / swish.
    void normalizationsAndActivations() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 4, 8, 8});
        for (const char* p : {"s", "bb", "m", "v"})
            b.weight(std::string("in_") + p, {4});
        b.node("BatchNormalization", {"x", "in_s", "in_bb", "in_m", "in_v"}, {"xn"}, "input_bn");
        conv(b, "c1", "xn", "a", {4, 4, 3, 3});
        b.node("InstanceNormalization", {"a", "in_s", "in_bb"}, {"an"}, "inorm");
        b.weight("slope", {4, 1, 1});
        b.node("PRelu", {"an", "slope"}, {"ap"}, "prelu");
        conv(b, "c2", "ap", "b2", {4, 4, 3, 3});
        auto& lr = b.node("LeakyRelu", {"b2"}, {"bl"}, "leaky");
        setAttr(lr, "alpha", 0.1f);
        b.node("Sigmoid", {"bl"}, {"sg"});
        b.node("Mul", {"bl", "sg"}, {"swish"}, "swish");
        b.output("swish");
        const Network n = importOk(b);
        QCOMPARE(n.size(), 3);
        QCOMPARE(n.layer(n.inputIds()[0]).folded, (Folded{"batchnorm"}));
        QCOMPARE(L(n, "c1").folded, (Folded{"instancenorm", "prelu"}));
        QCOMPARE(L(n, "c2").folded, (Folded{"leaky_relu", "silu"}));
    }

    // fp16 weights (raw FLOAT16) and weights kept in an external file.
    void fp16AndExternalWeights() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 16, 16});
        auto* w = b.graph().add_initializer();
        w->set_name("w16");
        w->set_data_type(onnx::TensorProto::FLOAT16);
        for (int64_t d : {8, 3, 3, 3})
            w->add_dims(d);
        w->set_raw_data(std::string(8 * 3 * 3 * 3 * 2, '\0'));
        b.node("Conv", {"x", "w16"}, {"a"}, "half");
        auto* e = b.graph().add_initializer();
        e->set_name("wext");
        e->set_data_type(onnx::TensorProto::FLOAT);
        for (int64_t d : {4, 8, 1, 1})
            e->add_dims(d);
        e->set_data_location(onnx::TensorProto::EXTERNAL);
        auto* loc = e->add_external_data();
        loc->set_key("location");
        loc->set_value("weights.bin");
        b.node("Conv", {"a", "wext"}, {"y"}, "external");
        b.output("y");
        const Network n = importOk(b);
        QCOMPARE(L(n, "half").out, (Shape{8, 14, 14}));
        QCOMPARE(L(n, "external").out, (Shape{4, 14, 14}));
        // From a file, without the weight file next to it: shapes need no weights.
        const QString path = writeTempFile("external.onnx", b.bytes());
        auto fromFile = importOnnx(path.toStdString());
        QVERIFY2(fromFile.ok(), fromFile.ok() ? "" : fromFile.error().toString().c_str());
        QCOMPARE(fromFile->canonicalHash(), n.canonicalHash());
    }

    // Element-wise operators of two activations other than Add / Mul (NMS-style Equal,
    // Max) are element-wise layers; dynamic quantization with ConvInteger is a conv.
    void comparisonsAndIntegerConvs() {
        OnnxModelBuilder b(11);
        b.input("x", {1, 3, 16, 16});
        b.node("DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"}, "quantize");
        auto* w = b.graph().add_initializer();
        w->set_name("wq");
        w->set_data_type(onnx::TensorProto::INT8);
        for (int64_t d : {8, 3, 3, 3})
            w->add_dims(d);
        w->set_raw_data(std::string(8 * 3 * 3 * 3, '\0'));
        auto& ci = b.node("ConvInteger", {"xq", "wq", "xz"}, {"ai"}, "qconv");
        setAttr(ci, "pads", std::vector<int64_t>{1, 1, 1, 1});
        auto& cast = b.node("Cast", {"ai"}, {"af"});
        setAttr(cast, "to", int64_t(onnx::TensorProto::FLOAT));
        b.floats("ws", {0.5f}, {});
        b.node("Mul", {"xs", "ws"}, {"scale"});
        b.node("Mul", {"af", "scale"}, {"a"}, "rescale");
        b.node("Sigmoid", {"a"}, {"p"}, "prob");
        auto& mp = b.node("MaxPool", {"p"}, {"m"}, "nms_pool");
        setAttr(mp, "kernel_shape", std::vector<int64_t>{3, 3});
        setAttr(mp, "pads", std::vector<int64_t>{1, 1, 1, 1});
        b.node("Equal", {"p", "m"}, {"peak"}, "is_peak");
        auto& c2 = b.node("Cast", {"peak"}, {"pf"});
        setAttr(c2, "to", int64_t(onnx::TensorProto::FLOAT));
        b.node("Mul", {"p", "pf"}, {"y"}, "keep_peaks");
        b.output("y");
        const Network n = importOk(b);
        QCOMPARE(std::string(toString(L(n, "qconv").type)), std::string("conv"));
        QCOMPARE(L(n, "qconv").out, (Shape{8, 16, 16}));
        QCOMPARE(std::string(toString(L(n, "is_peak").type)), std::string("add"));
        QCOMPARE(inputNames(n, L(n, "is_peak")), (std::vector<std::string>{"qconv", "nms_pool"}));
        QCOMPARE(std::string(toString(L(n, "keep_peaks").type)), std::string("mul"));
        QCOMPARE(n.size(), 5);
    }
};

QTEST_GUILESS_MAIN(TestOnnxPatterns)
#include "tst_onnx_patterns.moc"
