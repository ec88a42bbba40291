// ONNX import of what folds away: batch-norm and activations (also spelled out as chains of
// element-wise operators, as exporters write hard-swish, SiLU and GELU), squeeze-and-excitation
// blocks kept as layers, Pad merged into the next conv / pool, shape sub-graphs evaluated.
#include "onnx_test_helpers.h"

#include <QtTest>

using namespace lf;
using namespace lf::test;

class TestOnnxFolding : public QObject {
    Q_OBJECT
  private slots:
    void foldsIntoProducer() {
        OnnxModelBuilder b(14); // HardSwish exists from opset 14
        b.input("x", {1, 3, 8, 8});
        conv(b, "c1", "x", "a", {8, 3, 1, 1});
        for (const char* p : {"s", "bb", "mean", "var"})
            b.weight(p, {8});
        b.node("BatchNormalization", {"a", "s", "bb", "mean", "var"}, {"bn"}, "bn1");
        b.node("Relu", {"bn"}, {"r"}, "relu1");
        b.node("Dropout", {"r"}, {"dr"}, "drop");
        b.node("Identity", {"dr"}, {"id"}, "ident");
        conv(b, "c2", "id", "c", {8, 8, 1, 1});
        b.node("LeakyRelu", {"c"}, {"lr"});
        conv(b, "c3", "lr", "d", {8, 8, 1, 1});
        b.floats("zero", {0.f}, {});
        b.floats("six", {6.f}, {});
        b.node("Clip", {"d", "zero", "six"}, {"r6"});
        conv(b, "c4", "r6", "e", {8, 8, 1, 1});
        b.node("HardSwish", {"e"}, {"hs"});
        conv(b, "c5", "hs", "f", {8, 8, 1, 1});
        b.node("Sigmoid", {"f"}, {"sg"});
        b.output("sg");
        const Network n = importOk(b);
        QCOMPARE(n.size(), 6); // input and five convs: nothing else is a layer
        QCOMPARE(L(n, "c1").folded, (Folded{"batchnorm", "relu", "dropout", "identity"}));
        QCOMPARE(L(n, "c2").folded, (Folded{"leaky_relu"}));
        QCOMPARE(L(n, "c3").folded, (Folded{"relu6"}));
        QCOMPARE(L(n, "c4").folded, (Folded{"hardswish"}));
        QCOMPARE(L(n, "c5").folded, (Folded{"sigmoid"}));
        QCOMPARE(inputNames(n, L(n, "c2")), (std::vector<std::string>{"c1"}));

        OnnxModelBuilder t(13); // a batch-norm statistics output is training, not inference
        t.input("x", {1, 3, 8, 8});
        for (const char* p : {"s", "bb", "mean", "var"})
            t.weight(p, {3});
        t.node("BatchNormalization", {"x", "s", "bb", "mean", "var"}, {"y", "rm", "rv"},
               "train_bn");
        t.output("y");
        t.output("rm");
        QVERIFY(importError(t).find("train_bn") != std::string::npos);
    }

    void hardSwishChains() {
        // As paddle2onnx writes it (opset 9, Clip bounds as attributes): x * clip(x + 3) / 6.
        OnnxModelBuilder b(9);
        b.input("x", {1, 3, 8, 8});
        conv(b, "c1", "x", "a", {8, 3, 3, 3});
        for (const char* p : {"s", "bb", "mean", "var"})
            b.weight(p, {8});
        b.node("BatchNormalization", {"a", "s", "bb", "mean", "var"}, {"bn"});
        b.floats("three", {3.f}, {1});
        b.floats("six", {6.f}, {1});
        b.node("Add", {"bn", "three"}, {"p3"});
        auto& clip = b.node("Clip", {"p3"}, {"cl"});
        setAttr(clip, "min", 0.f);
        setAttr(clip, "max", 6.f);
        b.node("Mul", {"bn", "cl"}, {"m"});
        b.node("Div", {"m", "six"}, {"hs"});
        conv(b, "c2", "hs", "y", {4, 8, 1, 1});
        b.output("y");
        Network n = importOk(b);
        QCOMPARE(n.size(), 3);
        QCOMPARE(L(n, "c1").folded, (Folded{"batchnorm", "hardswish"}));
        QCOMPARE(inputNames(n, L(n, "c2")), (std::vector<std::string>{"c1"}));
        QCOMPARE(L(n, "c2").out, (Shape{4, 6, 6}));

        // x * (relu6(x + 3) / 6) with relu6 as Min(Max(., 0), 6), opset 13.
        OnnxModelBuilder m(13);
        m.input("x", {1, 3, 8, 8});
        conv(m, "c1", "x", "a", {8, 3, 1, 1});
        m.floats("three", {3.f}, {});
        m.floats("zero", {0.f}, {});
        m.floats("six", {6.f}, {});
        m.node("Add", {"three", "a"}, {"p3"});
        m.node("Max", {"p3", "zero"}, {"mx"});
        m.node("Min", {"mx", "six"}, {"mn"});
        m.node("Div", {"mn", "six"}, {"d"});
        m.node("Mul", {"d", "a"}, {"hs"});
        conv(m, "c2", "hs", "y", {4, 8, 1, 1});
        m.output("y");
        n = importOk(m);
        QCOMPARE(n.size(), 3);
        QCOMPARE(L(n, "c1").folded.back(), std::string("hardswish"));
    }

    void siluAndGelu() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 8, 8});
        conv(b, "c1", "x", "a", {8, 3, 1, 1});
        b.node("Sigmoid", {"a"}, {"s"});
        b.node("Mul", {"s", "a"}, {"silu"});
        conv(b, "c2", "silu", "c", {8, 8, 1, 1});
        // GELU as exporters spell it: x * 0.5 * (1 + erf(x / sqrt(2))).
        b.floats("sqrt2", {1.4142135f}, {});
        b.floats("one", {1.f}, {});
        b.floats("half", {0.5f}, {});
        b.node("Div", {"c", "sqrt2"}, {"g1"});
        b.node("Erf", {"g1"}, {"g2"});
        b.node("Add", {"g2", "one"}, {"g3"});
        b.node("Mul", {"c", "g3"}, {"g4"});
        b.node("Mul", {"g4", "half"}, {"gelu"});
        conv(b, "c3", "gelu", "y", {2, 8, 1, 1});
        b.output("y");
        const Network n = importOk(b);
        QCOMPARE(n.size(), 4);
        QCOMPARE(L(n, "c1").folded, (Folded{"silu"}));
        QCOMPARE(L(n, "c2").folded, (Folded{"gelu"}));
        QCOMPARE(inputNames(n, L(n, "c3")), (std::vector<std::string>{"c2"}));
    }

    void squeezeExcitation() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 16, 8, 8});
        conv(b, "c0", "x", "a", {16, 16, 1, 1});
        b.node("Relu", {"a"}, {"ar"});
        b.node("GlobalAveragePool", {"ar"}, {"g"}, "se_pool");
        b.weight("se1.b", {4});
        b.weight("se1.w", {4, 16, 1, 1});
        b.node("Conv", {"g", "se1.w", "se1.b"}, {"s1"}, "se_reduce");
        b.node("Relu", {"s1"}, {"s1r"});
        b.weight("se2.b", {16});
        b.weight("se2.w", {16, 4, 1, 1});
        b.node("Conv", {"s1r", "se2.w", "se2.b"}, {"s2"}, "se_expand");
        b.node("HardSigmoid", {"s2"}, {"hs"});
        b.node("Mul", {"ar", "hs"}, {"scaled"}, "se_scale");
        conv(b, "proj", "scaled", "y", {8, 16, 1, 1});
        b.output("y");
        Network n = importOk(b);
        QCOMPARE(n.size(), 7);
        QCOMPARE(L(n, "se_reduce").out, (Shape{4, 1, 1}));
        const Layer& mul = L(n, "se_scale");
        QCOMPARE(std::string(toString(mul.type)), std::string("mul"));
        QCOMPARE(inputNames(n, mul), (std::vector<std::string>{"c0", "se_expand"}));
        QCOMPARE(mul.out, (Shape{16, 8, 8})); // channel scales broadcast over H x W
        QCOMPARE(L(n, "se_expand").folded, (Folded{"hardsigmoid"}));

        // Fully connected variant: GAP -> Flatten -> Gemm -> Relu -> Gemm -> Sigmoid -> Reshape.
        OnnxModelBuilder f(13);
        f.input("x", {1, 16, 8, 8});
        f.node("GlobalAveragePool", {"x"}, {"g"}, "pool");
        f.node("Flatten", {"g"}, {"fl"});
        f.weight("w1", {16, 4});
        f.node("MatMul", {"fl", "w1"}, {"h"}, "fc1");
        f.node("Relu", {"h"}, {"hr"});
        f.weight("w2", {4, 16});
        f.node("MatMul", {"hr", "w2"}, {"h2"}, "fc2");
        f.node("Sigmoid", {"h2"}, {"sg"});
        f.ints("shape", {1, 16, 1, 1});
        f.node("Reshape", {"sg", "shape"}, {"s4"});
        f.node("Mul", {"x", "s4"}, {"y"}, "scale");
        f.output("y");
        n = importOk(f);
        QCOMPARE(n.size(), 5);
        QCOMPARE(inputNames(n, L(n, "scale")), (std::vector<std::string>{"x", "fc2"}));
        QCOMPARE(L(n, "scale").out, (Shape{16, 8, 8}));
    }

    void padMergesIntoConsumer() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 10, 10});
        b.ints("pads", {0, 0, 1, 2, 0, 0, 3, 4});
        b.node("Pad", {"x", "pads"}, {"p"}, "pad");
        auto& c = conv(b, "conv", "p", "y", {4, 3, 3, 3});
        setAttr(c, "pads", std::vector<int64_t>{1, 1, 1, 1});
        b.output("y");
        Network n = importOk(b);
        QCOMPARE(n.size(), 2);
        const Layer& l = L(n, "conv");
        QCOMPARE((std::vector<int>{l.pad_t, l.pad_l, l.pad_b, l.pad_r}),
                 (std::vector<int>{2, 3, 4, 5}));
        QCOMPARE(l.out, (Shape{4, 14, 16})); // 10 + 2 + 4 - 3 + 1, 10 + 3 + 5 - 3 + 1

        OnnxModelBuilder p7(7); // pads as an attribute, into a max pool
        p7.input("x", {1, 3, 10, 10});
        auto& pad = p7.node("Pad", {"x"}, {"p"}, "pad");
        setAttr(pad, "pads", std::vector<int64_t>{0, 0, 1, 1, 0, 0, 1, 1});
        auto& mp = p7.node("MaxPool", {"p"}, {"y"}, "pool");
        setAttr(mp, "kernel_shape", std::vector<int64_t>{2, 2});
        setAttr(mp, "strides", std::vector<int64_t>{2, 2});
        p7.output("y");
        n = importOk(p7);
        QCOMPARE(n.size(), 2);
        QCOMPARE(L(n, "pool").out, (Shape{3, 6, 6})); // (12 - 2) / 2 + 1

        OnnxModelBuilder bad(13); // a Pad that no conv / pool consumes
        bad.input("x", {1, 3, 10, 10});
        bad.ints("pads", {0, 0, 1, 1, 0, 0, 1, 1});
        bad.node("Pad", {"x", "pads"}, {"p"}, "lonely_pad");
        bad.node("Relu", {"p"}, {"y"}, "relu");
        bad.output("y");
        const std::string err = importError(bad);
        QVERIFY2(err.find("lonely_pad") != std::string::npos, err.c_str());
    }

    void shapeSubgraphsFoldAway() {
        // PyTorch style: Shape -> Gather -> Unsqueeze -> Concat(-1) -> Reshape -> Gemm.
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 8, 8});
        auto& c = conv(b, "conv", "x", "c", {6, 3, 3, 3});
        setAttr(c, "pads", std::vector<int64_t>{1, 1, 1, 1});
        b.node("Shape", {"c"}, {"s"});
        b.ints("zero", {0}, {});
        auto& g = b.node("Gather", {"s", "zero"}, {"n"});
        setAttr(g, "axis", int64_t(0));
        b.ints("ax0", {0});
        b.node("Unsqueeze", {"n", "ax0"}, {"n1"});
        auto& k = b.node("Constant", {}, {"minus1"});
        setAttr(k, "value", OnnxModelBuilder::intTensor({-1}));
        auto& cat = b.node("Concat", {"n1", "minus1"}, {"shape"});
        setAttr(cat, "axis", int64_t(0));
        b.node("Reshape", {"c", "shape"}, {"r"}, "flatten");
        b.weight("B", {10, 384});
        auto& gemm = b.node("Gemm", {"r", "B"}, {"y"}, "fc");
        setAttr(gemm, "transB", int64_t(1));
        b.output("y");
        Network n = importOk(b);
        QCOMPARE(n.size(), 3);
        QCOMPARE(L(n, "fc").out, (Shape{10, 1, 1}));
        QCOMPARE(L(n, "conv").folded, (Folded{"reshape"}));

        // paddle2onnx style (opset 9): Shape -> Cast -> Slice -> Cast -> Concat -> Reshape.
        OnnxModelBuilder p(9);
        p.input("x", {1, 6, 5, 5});
        p.node("GlobalAveragePool", {"x"}, {"g"}, "gap");
        p.node("Shape", {"g"}, {"s"});
        auto& c1 = p.node("Cast", {"s"}, {"s32"});
        setAttr(c1, "to", int64_t(onnx::TensorProto::INT32));
        auto& sl = p.node("Slice", {"s32"}, {"n"});
        setAttr(sl, "axes", std::vector<int64_t>{0});
        setAttr(sl, "starts", std::vector<int64_t>{0});
        setAttr(sl, "ends", std::vector<int64_t>{1});
        auto& c2 = p.node("Cast", {"n"}, {"n64"});
        setAttr(c2, "to", int64_t(onnx::TensorProto::INT64));
        p.ints("six", {6});
        auto& pc = p.node("Concat", {"n64", "six"}, {"shape"});
        setAttr(pc, "axis", int64_t(0));
        p.node("Reshape", {"g", "shape"}, {"r"});
        p.weight("W", {6, 3});
        p.node("MatMul", {"r", "W"}, {"y"}, "fc");
        p.output("y");
        n = importOk(p);
        QCOMPARE(n.size(), 3);
        QCOMPARE(L(n, "fc").out, (Shape{3, 1, 1}));
    }
};

QTEST_GUILESS_MAIN(TestOnnxFolding)
#include "tst_onnx_folding.moc"
