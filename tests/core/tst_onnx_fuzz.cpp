// Fuzz-style robustness of the ONNX importer: thousands of byte-level mutations (bit flips,
// random bytes, truncations, deletions, duplications) and field-level mutations (absurd
// dims and attribute values, swapped operator types, dropped inputs) of valid models. Every
// import must end in a network or in an error naming the file — never a crash, hang or
// unbounded allocation — and every network it does return must survive a YAML round trip.
#include "net_text.h"
#include "onnx_model_builder.h"
#include "test_support.h"

#include "io/network_yaml.h"
#include "io/onnx_import.h"

#include <QtTest>

#include <chrono>
#include <random>

using namespace lf;
using lf::test::OnnxModelBuilder;
using lf::test::setAttr;

namespace {

// A model that uses most of what the importer understands.
OnnxModelBuilder richModel() {
    OnnxModelBuilder b(13);
    b.input("x", {1, 3, 16, 16});
    b.weight("w0", {8, 3, 3, 3});
    auto& c0 = b.node("Conv", {"x", "w0"}, {"a"}, "stem");
    setAttr(c0, "pads", std::vector<int64_t>{1, 1, 1, 1});
    setAttr(c0, "strides", std::vector<int64_t>{2, 2});
    for (const char* p : {"s", "bb", "mean", "var"})
        b.weight(p, {8});
    b.node("BatchNormalization", {"a", "s", "bb", "mean", "var"}, {"bn"}, "bn");
    b.floats("three", {3.f}, {});
    b.floats("zero", {0.f}, {});
    b.floats("six", {6.f}, {});
    b.node("Add", {"bn", "three"}, {"p3"});
    b.node("Clip", {"p3", "zero", "six"}, {"cl"});
    b.node("Mul", {"bn", "cl"}, {"m"});
    b.node("Div", {"m", "six"}, {"hs"});
    b.node("GlobalAveragePool", {"hs"}, {"g"}, "se_pool");
    b.weight("se1", {2, 8, 1, 1});
    b.node("Conv", {"g", "se1"}, {"s1"}, "se_reduce");
    b.node("Relu", {"s1"}, {"s1r"});
    b.weight("se2", {8, 2, 1, 1});
    b.node("Conv", {"s1r", "se2"}, {"s2"}, "se_expand");
    b.node("HardSigmoid", {"s2"}, {"hsg"});
    b.node("Mul", {"hs", "hsg"}, {"se"}, "se_scale");
    b.ints("pads", {0, 0, 1, 1, 0, 0, 1, 1});
    b.node("Pad", {"se", "pads"}, {"pd"}, "pad");
    b.weight("wd", {8, 1, 3, 3});
    auto& dw = b.node("Conv", {"pd", "wd"}, {"d"}, "dw");
    setAttr(dw, "group", int64_t(8));
    b.node("Add", {"d", "se"}, {"res"}, "residual");
    b.weight("wt", {8, 4, 2, 2});
    auto& up = b.node("ConvTranspose", {"res", "wt"}, {"u"}, "up");
    setAttr(up, "strides", std::vector<int64_t>{2, 2});
    b.floats("sc", {1, 1, 2, 2});
    b.node("Resize", {"res", "", "sc"}, {"rz"}, "resize");
    auto& cat = b.node("Concat", {"u", "rz"}, {"cat"}, "cat");
    setAttr(cat, "axis", int64_t(1));
    auto& mp = b.node("MaxPool", {"cat"}, {"mp"}, "pool");
    setAttr(mp, "kernel_shape", std::vector<int64_t>{2, 2});
    setAttr(mp, "strides", std::vector<int64_t>{2, 2});
    setAttr(mp, "ceil_mode", int64_t(1));
    b.node("Shape", {"mp"}, {"shp"});
    b.ints("idx", {0}, {});
    b.node("Gather", {"shp", "idx"}, {"n"});
    b.ints("ax", {0});
    b.node("Unsqueeze", {"n", "ax"}, {"n1"});
    b.ints("rest", {-1});
    auto& sc = b.node("Concat", {"n1", "rest"}, {"target"});
    setAttr(sc, "axis", int64_t(0));
    b.node("Reshape", {"mp", "target"}, {"flat"}, "flatten");
    b.weight("fcw", {10, 768});
    auto& fc = b.node("Gemm", {"flat", "fcw"}, {"logits"}, "fc");
    setAttr(fc, "transB", int64_t(1));
    b.node("Softmax", {"logits"}, {"prob"}, "softmax");
    b.output("prob");
    // An NHWC island: channel Slice and Split, constant channels, pixel shuffle.
    auto& nhwc = b.node("Transpose", {"cat"}, {"catT"}, "to_nhwc");
    setAttr(nhwc, "perm", std::vector<int64_t>{0, 2, 3, 1});
    b.ints("sl_start", {0});
    b.ints("sl_end", {8});
    b.ints("sl_axis", {3});
    b.node("Slice", {"catT", "sl_start", "sl_end", "sl_axis"}, {"sl"}, "slice");
    b.ints("parts", {4, 4});
    auto& sp = b.node("Split", {"sl", "parts"}, {"sa", "sb"}, "split");
    setAttr(sp, "axis", int64_t(3));
    b.ints("zs", {1, 16, 16, 4});
    b.node("ConstantOfShape", {"zs"}, {"zeros"});
    auto& wide = b.node("Concat", {"sb", "zeros"}, {"wide"}, "widen");
    setAttr(wide, "axis", int64_t(3));
    auto& back = b.node("Transpose", {"wide"}, {"wideT"}, "to_nchw");
    setAttr(back, "perm", std::vector<int64_t>{0, 3, 1, 2});
    auto& d2s = b.node("DepthToSpace", {"wideT"}, {"shuffled"}, "pixel_shuffle");
    setAttr(d2s, "blocksize", int64_t(2));
    b.output("shuffled");
    b.output("sa");
    return b;
}

// LAYERFUSE_FUZZ_ITERATIONS raises the count for long local runs (e.g. under sanitizers).
int iterations(int normal) {
    const int env = qEnvironmentVariableIntValue("LAYERFUSE_FUZZ_ITERATIONS");
    return env > 0 ? env : normal;
}

struct Outcome {
    int ok = 0, failed = 0;
};

void check(std::string_view bytes, bool opaque, Outcome& out) {
    OnnxImportOptions o;
    o.allow_opaque = opaque;
    auto r = importOnnxBytes(bytes, "fuzz.onnx", o);
    if (!r) {
        const std::string msg = r.error().toString();
        QVERIFY2(msg.rfind("fuzz.onnx: ", 0) == 0 && msg.size() > 12, msg.c_str());
        ++out.failed;
        return;
    }
    ++out.ok;
    QVERIFY(r->size() >= 2);
    auto back = readNetworkYaml(writeNetworkYaml(*r), "fuzz.net.yaml");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QCOMPARE(back->canonicalHash(), r->canonicalHash());
}

std::string mutateBytes(std::string s, std::mt19937_64& rng) {
    auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
    switch (rng() % 7) {
    case 0: // bit flips
        for (int k = 1 + int(rng() % 4); k > 0 && !s.empty(); --k)
            s[pick(s.size())] ^= char(1 << (rng() % 8));
        break;
    case 1: // random bytes
        for (int k = 1 + int(rng() % 8); k > 0 && !s.empty(); --k)
            s[pick(s.size())] = char(rng());
        break;
    case 2: { // boundary values
        static const char vals[] = {'\0', '\x7f', '\x80', '\xff', '\x01'};
        if (!s.empty()) s[pick(s.size())] = vals[rng() % 5];
        break;
    }
    case 3: // truncation
        s.resize(pick(s.size()));
        break;
    case 4: { // deletion of a range
        const size_t at = pick(s.size()), len = 1 + pick(64);
        s.erase(at, len);
        break;
    }
    case 5: { // duplication of a range
        const size_t at = pick(s.size()), len = 1 + pick(128);
        s.insert(at, s.substr(at, len));
        break;
    }
    default: { // insertion of random bytes
        std::string junk(1 + pick(16), '\0');
        for (char& c : junk)
            c = char(rng());
        s.insert(pick(s.size() + 1), junk);
        break;
    }
    }
    return s;
}

int64_t wildValue(std::mt19937_64& rng) {
    static const int64_t vals[] = {-1,
                                   0,
                                   1,
                                   2,
                                   3,
                                   7,
                                   1 << 12,
                                   1 << 20,
                                   int64_t(1) << 31,
                                   int64_t(1) << 40,
                                   INT64_MAX,
                                   INT64_MIN,
                                   -(int64_t(1) << 33)};
    return vals[rng() % (sizeof(vals) / sizeof(vals[0]))];
}

std::string mutateFields(onnx::ModelProto m, std::mt19937_64& rng) {
    auto& g = *m.mutable_graph();
    static const char* ops[] = {"Conv",      "Relu",          "Add",
                                "Mul",       "Reshape",       "Concat",
                                "MaxPool",   "Gemm",          "Pad",
                                "Resize",    "ConvTranspose", "Flatten",
                                "Transpose", "Squeeze",       "Slice",
                                "Gather",    "Shape",         "GlobalAveragePool",
                                "Softmax",   "Expand",        "ConstantOfShape",
                                "Range",     "Where",         "Unknown"};
    for (int k = 1 + int(rng() % 3); k > 0; --k) {
        switch (rng() % 6) {
        case 0: { // an attribute value
            auto& n = *g.mutable_node(int(rng() % uint64_t(g.node_size())));
            if (n.attribute_size() == 0) break;
            auto& a = *n.mutable_attribute(int(rng() % uint64_t(n.attribute_size())));
            if (a.ints_size())
                a.set_ints(int(rng() % uint64_t(a.ints_size())), wildValue(rng));
            else
                a.set_i(wildValue(rng));
            break;
        }
        case 1: { // initializer dims
            auto& t = *g.mutable_initializer(int(rng() % uint64_t(g.initializer_size())));
            if (t.dims_size())
                t.set_dims(int(rng() % uint64_t(t.dims_size())), wildValue(rng));
            else
                t.add_dims(wildValue(rng));
            break;
        }
        case 2: { // integer constant values (shapes, pads, axes)
            auto& t = *g.mutable_initializer(int(rng() % uint64_t(g.initializer_size())));
            if (t.int64_data_size())
                t.set_int64_data(int(rng() % uint64_t(t.int64_data_size())), wildValue(rng));
            break;
        }
        case 3: { // operator type
            auto& n = *g.mutable_node(int(rng() % uint64_t(g.node_size())));
            n.set_op_type(ops[rng() % (sizeof(ops) / sizeof(ops[0]))]);
            break;
        }
        case 4: { // drop or rewire an input
            auto& n = *g.mutable_node(int(rng() % uint64_t(g.node_size())));
            if (n.input_size() == 0) break;
            const int i = int(rng() % uint64_t(n.input_size()));
            if (rng() % 2)
                n.set_input(i, "");
            else
                n.set_input(i, g.node(int(rng() % uint64_t(g.node_size()))).output(0));
            break;
        }
        default: { // input dims
            auto* shape =
                g.mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
            shape->mutable_dim(int(rng() % 4))->set_dim_value(wildValue(rng));
            break;
        }
        }
    }
    return m.SerializeAsString();
}

} // namespace

class TestOnnxFuzz : public QObject {
    Q_OBJECT
  private slots:
    void baseModelImports() {
        const OnnxModelBuilder b = richModel();
        auto r = importOnnxBytes(b.bytes(), "rich.onnx");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        // stem, se_pool, se_reduce, se_expand, se_scale, dw, residual, up, resize, cat, pool, fc;
        // the NHWC island: slice, split (2 parts), widen, pixel_shuffle.
        QCOMPARE(r->size(), 18);
        QCOMPARE(r->layer(r->find("pixel_shuffle")).out, (Shape{2, 32, 32}));
        QCOMPARE(r->layer(r->find("fc")).out, (Shape{10, 1, 1}));
    }

    void byteMutations() {
        const std::string base = richModel().bytes();
        std::mt19937_64 rng(20240611);
        Outcome out;
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0, n = iterations(3000); i < n; ++i) {
            std::string s = base;
            for (int k = 1 + int(rng() % 3); k > 0; --k)
                s = mutateBytes(std::move(s), rng);
            check(s, i % 2 == 1, out);
            if (QTest::currentTestFailed()) return;
        }
        qInfo("byte mutations: %d imported, %d refused in %lld ms", out.ok, out.failed,
              (long long)std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count());
        QVERIFY(out.failed > 0);
    }

    void fieldMutations() {
        const onnx::ModelProto base = richModel().model;
        std::mt19937_64 rng(77);
        Outcome out;
        for (int i = 0, n = iterations(3000); i < n; ++i) {
            check(mutateFields(base, rng), i % 2 == 0, out);
            if (QTest::currentTestFailed()) return;
        }
        qInfo("field mutations: %d imported, %d refused", out.ok, out.failed);
        QVERIFY(out.ok > 0 && out.failed > 0);
    }

    // Hostile sizes that are cheap to write: long fold chains and long constant computations
    // must stay linear (no per-node copies of the whole chain, a budget for constant work).
    void longChainsStayLinear() {
        OnnxModelBuilder b(13);
        b.input("x", {1, 1, 64, 64});
        b.weight("w", {4, 1, 3, 3});
        b.node("Conv", {"x", "w"}, {"r0"}, "conv");
        const int chain = 20000;
        for (int i = 0; i < chain; ++i)
            b.node("Relu", {"r" + std::to_string(i)}, {"r" + std::to_string(i + 1)});
        b.weight("c", {64, 64});
        std::string prev = "c";
        for (int i = 0; i < 1500; ++i) {
            b.node("Add", {prev, "c"}, {"k" + std::to_string(i)});
            prev = "k" + std::to_string(i);
        }
        b.node("Mul", {"x", prev}, {"scaled"});
        b.weight("w2", {4, 1, 3, 3});
        b.node("Conv", {"scaled", "w2"}, {"y"}, "conv2");
        b.output("r" + std::to_string(chain));
        b.output("y");
        const auto start = std::chrono::steady_clock::now();
        auto r = importOnnxBytes(b.bytes(), "long.onnx");
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        QCOMPARE(r->size(), 3); // x, conv (20000 folded relus), conv2
        QCOMPARE(r->layer(r->find("conv")).folded.size(), size_t(chain));
        qInfo("long chains imported in %lld ms", (long long)ms);
        QVERIFY2(ms < 15000, std::to_string(ms).c_str());
    }

    void realModelMutations() {
        const std::string base = lf::test::readBytes(
            lf::test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY(base.size() > 100000);
        std::mt19937_64 rng(3);
        Outcome out;
        for (int i = 0, n = iterations(200); i < n; ++i) {
            OnnxImportOptions o;
            o.input_shape = {3, 48, 192};
            o.allow_opaque = i % 2 == 0;
            const std::string s = mutateBytes(base, rng);
            auto r = importOnnxBytes(s, "fuzz.onnx", o);
            if (r)
                ++out.ok;
            else {
                ++out.failed;
                QVERIFY(r.error().toString().rfind("fuzz.onnx: ", 0) == 0);
            }
        }
        qInfo("real-model mutations: %d imported, %d refused", out.ok, out.failed);
    }
};

QTEST_GUILESS_MAIN(TestOnnxFuzz)
#include "tst_onnx_fuzz.moc"
