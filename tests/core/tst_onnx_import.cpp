// ONNX import, operator by operator: small models built in memory with the protobuf classes;
// every expected shape is computed by hand from the ONNX operator definitions.
#include "onnx_test_helpers.h"

#include <QtTest>

using namespace lf;
using namespace lf::test;

class TestOnnxImport : public QObject {
    Q_OBJECT
  private slots:
    void convolutions() {
        OnnxModelBuilder b;
        b.input("x", {1, 3, 32, 32});
        auto& c0 = conv(b, "c0", "x", "a", {16, 3, 3, 3});
        setAttr(c0, "strides", std::vector<int64_t>{2, 2});
        setAttr(c0, "pads", std::vector<int64_t>{1, 1, 1, 1});
        auto& dw = conv(b, "dw", "a", "b", {16, 1, 3, 3});
        setAttr(dw, "group", int64_t(16));
        setAttr(dw, "dilations", std::vector<int64_t>{2, 2});
        setAttr(dw, "pads", std::vector<int64_t>{2, 2, 2, 2});
        b.weight("g.bias", {32});
        b.weight("g.w", {32, 4, 1, 1});
        auto& g = b.node("Conv", {"b", "g.w", "g.bias"}, {"c"}, "grouped");
        setAttr(g, "group", int64_t(4));
        auto& asym = conv(b, "asym", "c", "d", {8, 32, 3, 3});
        setAttr(asym, "pads", std::vector<int64_t>{0, 1, 2, 3});
        b.output("d");
        const Network n = importOk(b);
        QCOMPARE(n.size(), 5);
        QCOMPARE(L(n, "c0").out, (Shape{16, 16, 16})); // (32 + 2 - 3) / 2 + 1
        const Layer& d = L(n, "dw");
        QCOMPARE(d.groups, int64_t(16));
        QCOMPARE(d.dilation_h, 2);
        QCOMPARE(d.out, (Shape{16, 16, 16})); // effective kernel 5, pads 2
        QCOMPARE(L(n, "grouped").groups, int64_t(4));
        QCOMPARE(L(n, "grouped").out, (Shape{32, 16, 16}));
        const Layer& a = L(n, "asym");
        QCOMPARE((std::vector<int>{a.pad_t, a.pad_l, a.pad_b, a.pad_r}),
                 (std::vector<int>{0, 1, 2, 3}));
        QCOMPARE(a.out, (Shape{8, 16, 18})); // H: 16 + 2 - 3 + 1, W: 16 + 4 - 3 + 1
    }

    void autoPad() {
        OnnxModelBuilder b;
        b.input("x", {1, 2, 15, 15});
        for (const char* mode : {"SAME_UPPER", "SAME_LOWER", "VALID"}) {
            auto& c = conv(b, mode, "x", std::string("o_") + mode, {4, 2, 4, 4});
            setAttr(c, "strides", std::vector<int64_t>{2, 2});
            setAttr(c, "auto_pad", mode);
            b.output(std::string("o_") + mode);
        }
        const Network n = importOk(b);
        // SAME: out = ceil(15 / 2) = 8, total padding (8 - 1) * 2 + 4 - 15 = 3.
        const Layer& up = L(n, "SAME_UPPER");
        QCOMPARE(up.out, (Shape{4, 8, 8}));
        QCOMPARE(up.pad_t, 1);
        QCOMPARE(up.pad_b, 2);
        const Layer& lo = L(n, "SAME_LOWER");
        QCOMPARE(lo.out, (Shape{4, 8, 8}));
        QCOMPARE(lo.pad_t, 2);
        QCOMPARE(lo.pad_b, 1);
        QCOMPARE(L(n, "VALID").out, (Shape{4, 6, 6})); // (15 - 4) / 2 + 1
    }

    void convTranspose() {
        OnnxModelBuilder b;
        b.input("x", {1, 8, 10, 10});
        b.weight("w2", {8, 2, 4, 4});
        auto& d0 = b.node("ConvTranspose", {"x", "w2"}, {"a"}, "up_grouped");
        setAttr(d0, "group", int64_t(2));
        setAttr(d0, "strides", std::vector<int64_t>{2, 2});
        setAttr(d0, "pads", std::vector<int64_t>{1, 1, 1, 1});
        auto& d1 = b.node("ConvTranspose", {"x", "w2"}, {"b"}, "up_outpad");
        setAttr(d1, "strides", std::vector<int64_t>{2, 2});
        setAttr(d1, "pads", std::vector<int64_t>{1, 1, 1, 1});
        setAttr(d1, "output_padding", std::vector<int64_t>{1, 1});
        b.weight("w3", {8, 3, 4, 4});
        auto& d2 = b.node("ConvTranspose", {"x", "w3"}, {"c"}, "up_shape");
        setAttr(d2, "strides", std::vector<int64_t>{2, 2});
        setAttr(d2, "output_shape", std::vector<int64_t>{20, 20});
        b.weight("wk3", {8, 3, 3, 3});
        auto& d3 = b.node("ConvTranspose", {"x", "wk3"}, {"d"}, "up_same");
        setAttr(d3, "strides", std::vector<int64_t>{2, 2});
        setAttr(d3, "auto_pad", "SAME_LOWER");
        for (const char* o : {"a", "b", "c", "d"})
            b.output(o);
        const Network n = importOk(b);
        QCOMPARE(countType(n, LayerType::deconv), 4);
        // (10 - 1) * 2 - 2 + 4 = 20; grouped: out channels 2 * 2.
        QCOMPARE(L(n, "up_grouped").out, (Shape{4, 20, 20}));
        QCOMPARE(L(n, "up_grouped").groups, int64_t(2));
        QCOMPARE(L(n, "up_outpad").out, (Shape{2, 21, 21}));
        // output_shape 20: total padding 2 * 9 + 4 - 20 = 2, split 1 / 1.
        const Layer& s = L(n, "up_shape");
        QCOMPARE(s.out, (Shape{3, 20, 20}));
        QCOMPARE(s.pad_t + s.pad_b, 2);
        // SAME_LOWER, kernel 3: target 20, total 2 * 9 + 3 - 20 = 1, the odd one at the start.
        const Layer& same = L(n, "up_same");
        QCOMPARE(same.out, (Shape{3, 20, 20}));
        QCOMPARE(same.pad_t, 1);
        QCOMPARE(same.pad_b, 0);
    }

    void gemmAndMatMul() {
        OnnxModelBuilder b;
        b.input("x", {1, 3, 8, 8});
        b.node("Flatten", {"x"}, {"f"}, "flat");
        b.weight("B", {10, 192});
        b.weight("C", {10});
        auto& g = b.node("Gemm", {"f", "B", "C"}, {"g"}, "fc1");
        setAttr(g, "transB", int64_t(1));
        b.node("Softmax", {"g"}, {"p"}, "prob");
        b.output("p");
        Network n = importOk(b);
        QCOMPARE(n.size(), 2);
        const Layer& fc = L(n, "fc1");
        QCOMPARE(std::string(toString(fc.type)), std::string("fc"));
        QCOMPARE(fc.out, (Shape{10, 1, 1}));
        QCOMPARE(fc.kernel_h, 8); // an fc's kernel spans its input (docs/models/README.md)
        QCOMPARE(fc.folded, (Folded{"softmax"}));
        QCOMPARE(n.find("prob"), n.find("fc1")); // folded names resolve to their carrier

        OnnxModelBuilder m;
        m.input("x", {1, 4, 6, 6});
        conv(m, "conv", "x", "c", {8, 4, 3, 3});
        m.node("GlobalAveragePool", {"c"}, {"g"}, "gap");
        m.ints("shape", {1, -1});
        m.node("Reshape", {"g", "shape"}, {"r"}, "reshape");
        m.weight("W", {8, 5});
        m.node("MatMul", {"r", "W"}, {"mm"}, "fc");
        m.weight("bias", {5});
        m.node("Add", {"mm", "bias"}, {"y"}, "fc_bias");
        m.output("y");
        n = importOk(m);
        QCOMPARE(n.size(), 4);
        QCOMPARE(L(n, "gap").out, (Shape{8, 1, 1}));
        QCOMPARE(L(n, "fc").out, (Shape{5, 1, 1}));
        QCOMPARE(L(n, "fc").folded, (Folded{"bias"}));
        QCOMPARE(L(n, "gap").folded, (Folded{"reshape"}));

        OnnxModelBuilder bad;
        bad.input("x", {1, 3, 8, 8});
        bad.node("Flatten", {"x"}, {"f"});
        bad.weight("B", {100, 10});
        bad.node("Gemm", {"f", "B"}, {"y"}, "wrong");
        bad.output("y");
        const std::string err = importError(bad);
        QVERIFY2(err.find("node 'wrong' (Gemm)") != std::string::npos, err.c_str());
        QVERIFY2(err.find("192 features") != std::string::npos, err.c_str());
    }

    void pooling() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 8, 15, 15});
        auto& mp = b.node("MaxPool", {"x"}, {"a"}, "max");
        setAttr(mp, "kernel_shape", std::vector<int64_t>{3, 3});
        setAttr(mp, "strides", std::vector<int64_t>{2, 2});
        setAttr(mp, "pads", std::vector<int64_t>{1, 1, 1, 1});
        auto& ap = b.node("AveragePool", {"x"}, {"b"}, "avg");
        setAttr(ap, "kernel_shape", std::vector<int64_t>{2, 2});
        setAttr(ap, "strides", std::vector<int64_t>{2, 2});
        auto& ac = b.node("AveragePool", {"x"}, {"c"}, "avg_ceil");
        setAttr(ac, "kernel_shape", std::vector<int64_t>{2, 2});
        setAttr(ac, "strides", std::vector<int64_t>{2, 2});
        setAttr(ac, "ceil_mode", int64_t(1));
        auto& ms = b.node("MaxPool", {"x"}, {"d"}, "max_same");
        setAttr(ms, "kernel_shape", std::vector<int64_t>{3, 3});
        setAttr(ms, "strides", std::vector<int64_t>{2, 2});
        setAttr(ms, "auto_pad", "SAME_UPPER");
        for (const char* o : {"a", "b", "c", "d"})
            b.output(o);
        const Network n = importOk(b);
        QCOMPARE(countType(n, LayerType::pool), 4);
        QCOMPARE(L(n, "max").out, (Shape{8, 8, 8})); // (15 + 2 - 3) / 2 + 1
        QCOMPARE(std::string(toString(L(n, "max").pool_mode)), std::string("max"));
        QCOMPARE(L(n, "avg").out, (Shape{8, 7, 7})); // floor((15 - 2) / 2) + 1
        QCOMPARE(std::string(toString(L(n, "avg").pool_mode)), std::string("avg"));
        QCOMPARE(L(n, "avg_ceil").out, (Shape{8, 8, 8})); // ceil(13 / 2) + 1
        QVERIFY(L(n, "avg_ceil").ceil_mode);
        QCOMPARE(L(n, "max_same").out, (Shape{8, 8, 8})); // ceil(15 / 2)
    }

    void globalPooling() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 6, 7, 9});
        b.node("GlobalAveragePool", {"x"}, {"a"}, "gap");
        b.node("GlobalMaxPool", {"x"}, {"m"}, "gmp");
        auto& r = b.node("ReduceMean", {"x"}, {"r"}, "mean");
        setAttr(r, "axes", std::vector<int64_t>{-1, 2});
        setAttr(r, "keepdims", int64_t(0));
        b.weight("W", {6, 4});
        b.node("MatMul", {"r", "W"}, {"y"}, "fc");
        for (const char* o : {"a", "m", "y"})
            b.output(o);
        const Network n = importOk(b);
        QCOMPARE(countType(n, LayerType::global_pool), 3);
        QCOMPARE(L(n, "gap").out, (Shape{6, 1, 1}));
        QCOMPARE(std::string(toString(L(n, "gmp").pool_mode)), std::string("max"));
        QCOMPARE(std::string(toString(L(n, "mean").pool_mode)), std::string("avg"));
        QCOMPARE(L(n, "fc").out, (Shape{4, 1, 1})); // keepdims 0 gives N x C, as an fc wants

        OnnxModelBuilder b18(18); // axes became an input
        b18.input("x", {1, 6, 7, 9});
        b18.ints("axes", {2, 3});
        b18.node("ReduceMean", {"x", "axes"}, {"r"}, "mean");
        b18.ints("ch", {1});
        b18.node("ReduceMean", {"x", "ch"}, {"c"}, "over_channels");
        b18.output("r");
        b18.output("c");
        OnnxImportReport report;
        const std::string err = importError(b18, {}, &report);
        QCOMPARE(report.unsupported.size(), size_t(1));
        QCOMPARE(report.unsupported[0].node, std::string("over_channels"));
        QVERIFY2(err.find("ReduceMean (node 'over_channels'") != std::string::npos, err.c_str());
    }

    void elementwiseLayers() {
        OnnxModelBuilder b;
        b.input("x", {1, 4, 8, 8});
        auto& ca = conv(b, "ca", "x", "a", {4, 4, 3, 3});
        setAttr(ca, "pads", std::vector<int64_t>{1, 1, 1, 1});
        conv(b, "cb", "x", "b", {4, 4, 1, 1});
        b.node("Add", {"a", "b"}, {"s"}, "residual");
        b.node("Sum", {"a", "b", "s"}, {"t"}, "sum3");
        b.node("Mul", {"a", "t"}, {"m"}, "gate");
        b.node("Sub", {"m", "b"}, {"d"}, "diff");
        auto& cat = b.node("Concat", {"a", "d", "m"}, {"y"}, "cat");
        setAttr(cat, "axis", int64_t(1));
        b.output("y");
        // One tensor read twice (directly and through a folded activation) still counts twice.
        b.node("Relu", {"a"}, {"ar"});
        auto& twice = b.node("Concat", {"a", "ar", "a"}, {"z"}, "twice");
        setAttr(twice, "axis", int64_t(1));
        b.output("z");
        const Network n = importOk(b);
        QCOMPARE(countType(n, LayerType::add), 3);
        QCOMPARE(countType(n, LayerType::mul), 1);
        QCOMPARE(inputNames(n, L(n, "residual")), (std::vector<std::string>{"ca", "cb"}));
        QCOMPARE(L(n, "sum3").inputs.size(), size_t(3));
        QCOMPARE(std::string(toString(L(n, "gate").type)), std::string("mul"));
        QCOMPARE(L(n, "cat").out, (Shape{12, 8, 8}));
        QCOMPARE(L(n, "twice").out, (Shape{12, 8, 8}));
        QCOMPARE(inputNames(n, L(n, "twice")), (std::vector<std::string>{"ca"}));
    }

    void resizeAndUpsample() {
        auto one = [](int64_t opset, auto&& build) {
            OnnxModelBuilder b(opset);
            b.input("x", {1, 4, 5, 6});
            build(b);
            b.output("y");
            return b;
        };
        // Opset 7: scales as an attribute.
        auto up7 = one(7, [](OnnxModelBuilder& b) {
            auto& u = b.node("Upsample", {"x"}, {"y"}, "up");
            setAttr(u, "scales", std::vector<float>{1, 1, 2, 3});
        });
        Network n = importOk(up7);
        QCOMPARE(std::string(toString(L(n, "up").type)), std::string("resize"));
        QCOMPARE(L(n, "up").out, (Shape{4, 10, 18}));
        QCOMPARE(std::string(toString(L(n, "up").resize_mode)), std::string("nearest"));
        // Opset 9: scales as an input, linear mode.
        auto up9 = one(9, [](OnnxModelBuilder& b) {
            b.floats("sc", {1, 1, 2, 2});
            auto& u = b.node("Upsample", {"x", "sc"}, {"y"}, "up");
            setAttr(u, "mode", "linear");
        });
        n = importOk(up9);
        QCOMPARE(std::string(toString(L(n, "up").resize_mode)), std::string("bilinear"));
        QCOMPARE(L(n, "up").out, (Shape{4, 10, 12}));
        // Opset 13: Resize with scales, and with sizes.
        auto r13 = one(13, [](OnnxModelBuilder& b) {
            b.floats("sc", {1, 1, 4, 4});
            b.node("Resize", {"x", "", "sc"}, {"y"}, "up");
        });
        QCOMPARE(L(importOk(r13), "up").out, (Shape{4, 20, 24}));
        auto sizes = one(13, [](OnnxModelBuilder& b) {
            b.ints("sz", {1, 4, 10, 18});
            b.node("Resize", {"x", "", "", "sz"}, {"y"}, "up");
        });
        n = importOk(sizes);
        QCOMPARE(L(n, "up").scale_h, 2);
        QCOMPARE(L(n, "up").scale_w, 3);
        // Opset 18: scales for the named axes only.
        auto r18 = one(18, [](OnnxModelBuilder& b) {
            b.floats("sc", {2, 2});
            auto& r = b.node("Resize", {"x", "", "sc"}, {"y"}, "up");
            setAttr(r, "axes", std::vector<int64_t>{2, 3});
        });
        QCOMPARE(L(importOk(r18), "up").out, (Shape{4, 10, 12}));
        // Not representable: fractional scales, cubic interpolation.
        auto frac = one(13, [](OnnxModelBuilder& b) {
            b.floats("sc", {1, 1, 1.5f, 1.5f});
            b.node("Resize", {"x", "", "sc"}, {"y"}, "frac");
        });
        QVERIFY(importError(frac).find("integer upsampling") != std::string::npos);
        auto cubic = one(13, [](OnnxModelBuilder& b) {
            b.floats("sc", {1, 1, 2, 2});
            auto& r = b.node("Resize", {"x", "", "sc"}, {"y"}, "cubic");
            setAttr(r, "mode", "cubic");
        });
        QVERIFY(importError(cubic).find("'cubic'") != std::string::npos);
    }

    void dynamicInputShape() {
        OnnxModelBuilder b(13);
        b.input("image", {-1, 3, -1, -1});
        conv(b, "conv", "image", "y", {8, 3, 3, 3});
        b.output("y");
        OnnxImportReport report;
        const std::string err = importError(b, {}, &report);
        QVERIFY(report.needs_input_shape);
        QVERIFY2(err.find("dynamic") != std::string::npos &&
                     err.find("--input-shape") != std::string::npos,
                 err.c_str());
        OnnxImportOptions o;
        o.input_shape = {3, 20, 24};
        Network n = importOk(b, o);
        QCOMPARE(n.layer(n.inputIds()[0]).out, (Shape{3, 20, 24}));
        QCOMPARE(L(n, "conv").out, (Shape{8, 18, 22}));
        o.input_shape = {2, 3, 20, 24};
        QCOMPARE(L(importOk(b, o), "conv").out, (Shape{8, 18, 22}));
        o.input_shape = {5, 20, 24}; // disagrees with the weights
        QVERIFY(importError(b, o).find("input channels") != std::string::npos);
        o.input_shape = {20, 24};
        QVERIFY(importError(b, o).find("3 (C,H,W) or 4") != std::string::npos);

        auto parsed = parseOnnxInputShape("3,224, 224");
        QVERIFY(parsed);
        QCOMPARE(*parsed, (std::vector<int64_t>{3, 224, 224}));
        QCOMPARE(*parseOnnxInputShape("1x3x32x32"), (std::vector<int64_t>{1, 3, 32, 32}));
        QVERIFY(!parseOnnxInputShape("3,224"));
        QVERIFY(!parseOnnxInputShape("3,-1,224"));
        QVERIFY(!parseOnnxInputShape("3,a,224"));
    }

    void unsupportedOperators() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 8, 8});
        conv(b, "c1", "x", "a", {8, 3, 3, 3});
        b.node("Hardmax", {"a"}, {"h"}, "hm");
        b.valueInfo("h", {1, 8, 6, 6});
        auto& foo = b.node("Foo", {"h"}, {"f"});
        foo.set_domain("com.example");
        conv(b, "c2", "f", "y", {4, 8, 1, 1});
        b.output("y");
        OnnxImportReport report;
        const std::string err = importError(b, {}, &report);
        QVERIFY2(err.find("2 nodes") != std::string::npos, err.c_str());
        QVERIFY2(err.find("Hardmax (node 'hm', inputs [1,8,6,6])") != std::string::npos,
                 err.c_str());
        QVERIFY2(err.find("com.example.Foo (node 'foo_0'") != std::string::npos, err.c_str());
        QCOMPARE(report.unsupported.size(), size_t(2));

        OnnxImportOptions o;
        o.allow_opaque = true;
        const Network n = importOk(b, o);
        QCOMPARE(n.size(), 5);
        QCOMPARE(countType(n, LayerType::opaque), 2);
        QCOMPARE(L(n, "hm").op_type, std::string("Hardmax"));
        QCOMPARE(L(n, "hm").out, (Shape{8, 6, 6})); // from value_info
        QCOMPARE(L(n, "foo_0").op_type, std::string("com.example.Foo"));
        QCOMPARE(L(n, "c2").out, (Shape{4, 6, 6}));
        QVERIFY(n.computeIds().size() == 2); // opaque layers do not compute
    }

    void layerNames() {
        OnnxModelBuilder b(13);
        b.input("input.1", {1, 3, 8, 8});
        conv(b, "/layer1/layer1.0/conv1/Conv", "input.1", "a", {4, 3, 1, 1});
        b.weight("w", {4, 4, 1, 1});
        b.node("Conv", {"a", "w"}, {"b"}, "dup");
        b.node("Conv", {"b", "w"}, {"c"}, "dup");
        b.node("Conv", {"c", "w"}, {"d"}, "");
        b.node("Conv", {"d", "w"}, {"e"}, "");
        b.node("Conv", {"e", "w"}, {"y"}, std::string("bad\x01name"));
        b.output("y");
        const Network n = importOk(b);
        for (const char* name :
             {"input.1", "layer1.0/conv1/Conv", "dup", "dup_2", "conv_0", "conv_1", "bad_name"})
            QVERIFY2(n.find(name) != kNoLayer, name);
        QCOMPARE(n.size(), 7);
    }

    void declaredShapesAreChecked() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 8, 8});
        conv(b, "conv", "x", "a", {4, 3, 3, 3});
        b.valueInfo("a", {-1, 4, 6, 6}); // right: (8 - 3) + 1, dynamic batch
        b.node("Relu", {"a"}, {"y"}, "relu");
        b.output("y", {1, 4, 7, 7}); // wrong
        OnnxImportReport report;
        auto r = importOnnxBytes(b.bytes(), "test.onnx", {}, &report);
        QVERIFY(r.ok());
        QCOMPARE(L(*r, "conv").out, (Shape{4, 6, 6})); // the operator's definition wins
        QCOMPARE(report.warnings.size(), size_t(1));
        const std::string& w = report.warnings[0];
        QVERIFY2(w.find("node 'relu'") != std::string::npos &&
                     w.find("[1,4,7,7]") != std::string::npos &&
                     w.find("[1,4,6,6]") != std::string::npos,
                 w.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOnnxImport)
#include "tst_onnx_import.moc"
