// Errors of the ONNX import point at the cause: the node that cannot be mapped (name, op
// type, input shapes), never a later node that inherited a wrong shape; every unsupported
// node is listed at once; no node is skipped silently.
#include "onnx_test_helpers.h"

#include <QtTest>

using namespace lf;
using namespace lf::test;

namespace {

#define QVERIFY_CONTAINS(text, part)                                                               \
    QVERIFY2((text).find(part) != std::string::npos, (text).c_str())
#define QVERIFY_LACKS(text, part) QVERIFY2((text).find(part) == std::string::npos, (text).c_str())

// x -> conv -> Pad (pads from a node the importer cannot evaluate) -> conv /2 -> concat with a
// branch that is right only when the Pad pads: the Pad is the only problem of the model.
OnnxModelBuilder unfoldablePad(bool conflict) {
    OnnxModelBuilder b(13);
    b.input("x", {1, 4, 16, 16});
    conv(b, "c1", "x", "a", {8, 4, 1, 1});
    b.ints("raw", {0, 0, 1, 1, 0, 0, 1, 1});
    auto& odd = b.node("Foo", {"raw"}, {"pads"}, "pads_op");
    odd.set_domain("com.example");
    b.node("Pad", {"a", "pads"}, {"p"}, "pad");
    auto& c2 = conv(b, "c2", "p", "b", {8, 8, 3, 3});
    setAttr(c2, "strides", std::vector<int64_t>{2, 2});
    if (!conflict) {
        b.output("b");
        return b;
    }
    auto& c3 = conv(b, "c3", "a", "c", {8, 8, 2, 2}); // 16 -> 8, as c2 gives with the Pad
    setAttr(c3, "strides", std::vector<int64_t>{2, 2});
    auto& cat = b.node("Concat", {"b", "c"}, {"y"}, "late_concat");
    setAttr(cat, "axis", int64_t(1));
    b.output("y");
    return b;
}

} // namespace

class TestOnnxErrors : public QObject {
    Q_OBJECT
  private slots:
    // A model whose only problem is one Pad with pads the importer cannot fold is refused
    // naming that Pad, or (opaque layers allowed) imported with the Pad as a layer or refused
    // naming it — never imported with the Pad missing, never blamed on the Concat.
    void unfoldablePadIsNeverSkipped() {
        OnnxImportReport rep;
        std::string err = importError(unfoldablePad(true), {}, &rep);
        QVERIFY_CONTAINS(err, "Pad (node 'pad', inputs [1,8,16,16], unknown)");
        QVERIFY_CONTAINS(err, "com.example.Foo (node 'pads_op'");
        QVERIFY_LACKS(err, "late_concat");
        QVERIFY_LACKS(err, "agree in height and width");
        QCOMPARE(rep.unsupported.size(), size_t(2));

        OnnxImportOptions opaque;
        opaque.allow_opaque = true;
        err = importError(unfoldablePad(true), opaque);
        QVERIFY_CONTAINS(err, "node 'late_concat' (Concat) cannot be checked");
        QVERIFY_CONTAINS(err, "opaque node 'pad'");

        // Nothing contradicts the pass-through shape: the Pad is an opaque layer, reported.
        auto r = importOnnxBytes(unfoldablePad(false).bytes(), "test.onnx", opaque, &rep);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(std::string(toString(L(*r, "pad").type)), std::string("opaque"));
        QCOMPARE(inputNames(*r, L(*r, "c2")), (std::vector<std::string>{"pad"}));
        QCOMPARE(std::string(toString(rep.nodes[2].fate)), std::string("opaque"));
    }

    // Every unsupported node at once, with input shapes; later nodes that only inherit a
    // guessed shape are not listed and not blamed.
    void listsEveryUnsupportedNode() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 32, 32});
        conv(b, "c1", "x", "a", {8, 3, 3, 3});
        auto& sp = b.node("SpaceToDepthX", {"a"}, {"s"}, "custom_reorg");
        sp.set_domain("com.example");
        conv(b, "c2", "s", "b", {8, 32, 1, 1}); // fine only after the custom 2x2 reorg
        b.node("Hardmax", {"a"}, {"h"}, "hm");
        b.node("Add", {"b", "h"}, {"y"}, "merge");
        b.output("y");
        OnnxImportReport rep;
        const std::string err = importError(b, {}, &rep);
        QVERIFY_CONTAINS(err, "2 nodes cannot be mapped");
        QVERIFY_CONTAINS(err,
                         "com.example.SpaceToDepthX (node 'custom_reorg', inputs [1,8,30,30])");
        QVERIFY_CONTAINS(err, "Hardmax (node 'hm', inputs [1,8,30,30])");
        QVERIFY_LACKS(err, "node 'c2'");
        QVERIFY_LACKS(err, "merge");
    }

    // A layer that reads a tensor in a layout the IR cannot hold names the Transpose.
    void layoutErrorNamesTheTranspose() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 16, 16});
        conv(b, "c1", "x", "a", {8, 3, 3, 3});
        auto& t = b.node("Transpose", {"a"}, {"at"}, "to_nhwc");
        setAttr(t, "perm", std::vector<int64_t>{0, 2, 3, 1});
        conv(b, "c2", "at", "y", {4, 14, 1, 1}); // convolves the rows as channels
        b.output("y");
        const std::string err = importError(b);
        QVERIFY_CONTAINS(err, "Conv (node 'c2', inputs [1,14,14,8]");
        QVERIFY_CONTAINS(err, "NHWC view of layer 'c1' made by node 'to_nhwc'");
    }

    // A malformed node is named with its input shapes.
    void malformedNodeNamesItsInputs() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 3, 16, 16});
        conv(b, "c1", "x", "y", {8, 5, 3, 3});
        b.output("y");
        const std::string err = importError(b);
        QVERIFY_CONTAINS(err, "node 'c1' (Conv), inputs [1,3,16,16], constant [8,5,3,3]");
        QVERIFY_CONTAINS(err, "expect 5 input channels");
    }
};

QTEST_GUILESS_MAIN(TestOnnxErrors)
#include "tst_onnx_errors.moc"
