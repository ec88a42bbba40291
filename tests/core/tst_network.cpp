// Network IR: shape inference of every layer kind, canonicalization (folding, flatten,
// expect), repeated inputs, bundled networks' shapes and MACs, and the loop dims the models
// see. (DAG utilities, ids and the hash: tst_network_dag.cpp.)
// Every expected value below is computed by hand in the comment next to it.
#include "net_text.h"
#include "test_support.h"

#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "network/dims.h"
#include "network/network.h"
#include "network/shape_inference.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace lf;
using lf::test::netYaml;
using lf::test::shapeText;
using lf::test::tryNetwork;

namespace {

// Output shape of the layer named `name` in a network that must load.
std::string outOf(const Network& n, const char* name) {
    const LayerId id = n.find(name);
    if (id == kNoLayer) return std::string("<no layer ") + name + ">";
    return shapeText(n.layer(id).out);
}

// One layer on one input, returns its shape or the error text.
std::string single(std::string_view input, std::string_view layer) {
    auto r = tryNetwork(netYaml({input}, {layer}));
    if (!r) return "error: " + r.error().message;
    return shapeText(r->layers().back().out);
}

std::vector<std::string> namesOf(const Network& n, const std::vector<LayerId>& ids) {
    std::vector<std::string> out;
    for (LayerId id : ids)
        out.push_back(n.layer(id).name);
    return out;
}

} // namespace

class TestNetwork : public QObject {
    Q_OBJECT

  private slots:
    // --- sliding windows --------------------------------------------------------------
    void slidingWindow_data() {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("padBefore");
        QTest::addColumn<int>("padAfter");
        QTest::addColumn<int>("dilation");
        QTest::addColumn<bool>("ceil");
        QTest::addColumn<int>("expected");
        // (224 + 2 - 3)/1 + 1 = 224
        QTest::newRow("3x3 same") << 224 << 3 << 1 << 1 << 1 << 1 << false << 224;
        // (224 + 6 - 7)/2 + 1 = 111 + 1 = 112
        QTest::newRow("7x7 s2 p3") << 224 << 7 << 2 << 3 << 3 << 1 << false << 112;
        // effective kernel (3-1)*2+1 = 5: (10 - 5)/1 + 1 = 6
        QTest::newRow("dilation 2") << 10 << 3 << 1 << 0 << 0 << 2 << false << 6;
        // (8 + 1 + 2 - 3)/2 + 1 = 4 + 1 = 5
        QTest::newRow("asymmetric pad") << 8 << 3 << 2 << 1 << 2 << 1 << false << 5;
        // floor((7-2)/2) + 1 = 3; ceil(5/2) + 1 = 4, last window starts at 6 < 7
        QTest::newRow("2x2 s2 floor") << 7 << 2 << 2 << 0 << 0 << 1 << false << 3;
        QTest::newRow("2x2 s2 ceil") << 7 << 2 << 2 << 0 << 0 << 1 << true << 4;
        // GoogLeNet pool1: 112, 3x3 s2 ceil: ceil(109/2) + 1 = 56 (floor gives 55)
        QTest::newRow("googlenet ceil") << 112 << 3 << 2 << 0 << 0 << 1 << true << 56;
        QTest::newRow("googlenet floor") << 112 << 3 << 2 << 0 << 0 << 1 << false << 55;
        // 5 + 1 + 1 - 2 = 5: ceil(5/2) + 1 = 4, but window 4 would start at 6 = 5 + 1
        // (entirely in the right pad), so ONNX/PyTorch drop it: 3.
        QTest::newRow("ceil last window in pad") << 5 << 2 << 2 << 1 << 1 << 1 << true << 3;
        QTest::newRow("floor same case") << 5 << 2 << 2 << 1 << 1 << 1 << false << 3;
        // kernel larger than the padded input: no output
        QTest::newRow("too large") << 2 << 5 << 1 << 1 << 1 << 1 << false << -1;
        // exactly fits: 1
        QTest::newRow("exact") << 3 << 5 << 1 << 1 << 1 << 1 << false << 1;
    }
    void slidingWindow() {
        QFETCH(int, in);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, padBefore);
        QFETCH(int, padAfter);
        QFETCH(int, dilation);
        QFETCH(bool, ceil);
        QFETCH(int, expected);
        QCOMPARE(slidingOutExtent(in, kernel, stride, padBefore, padAfter, dilation, ceil),
                 int64_t(expected));
    }

    // --- every layer kind ---------------------------------------------------------------
    void layerShapes_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("expected");
        const QString img224 = "{name: x, channels: 3, height: 224, width: 224}";
        QTest::newRow("conv 7x7 s2 p3") << img224
                                        << "{name: l, type: conv, inputs: [x], out_channels: 64, "
                                           "kernel: 7, stride: 2, padding: 3}"
                                        << "64x112x112";
        // h: (8 + 1 + 2 - 3)/2 + 1 = 5, w: (5 + 0 + 0 - 1)/1 + 1 = 5
        QTest::newRow("conv [t,l,b,r] padding, rect kernel")
            << "{name: x, channels: 2, height: 8, width: 5}"
            << "{name: l, type: conv, inputs: [x], out_channels: 6, kernel: [3, 1], "
               "stride: [2, 1], padding: [1, 0, 2, 0]}"
            << "6x5x5";
        // padding [1, 2]: h (10 + 2 - 3) + 1 = 10, w (10 + 4 - 3) + 1 = 12
        QTest::newRow("conv [tb, lr] padding")
            << "{name: x, channels: 1, height: 10, width: 10}"
            << "{name: l, type: conv, inputs: [x], out_channels: 1, kernel: 3, padding: [1, 2]}"
            << "1x10x12";
        // dilation 2, effective 5: (10 - 5) + 1 = 6; dilation [1, 3] width eff 7: 4
        QTest::newRow("conv dilation")
            << "{name: x, channels: 1, height: 10, width: 10}"
            << "{name: l, type: conv, inputs: [x], out_channels: 2, kernel: 3, dilation: [2, 3]}"
            << "2x6x4";
        QTest::newRow("grouped conv") << "{name: x, channels: 8, height: 10, width: 10}"
                                      << "{name: l, type: conv, inputs: [x], out_channels: 16, "
                                         "kernel: 3, padding: 1, groups: 4}"
                                      << "16x10x10";
        // depthwise 3x3 s2 p1 on 112: (112 + 2 - 3)/2 + 1 = 56
        QTest::newRow("depthwise conv") << "{name: x, channels: 32, height: 112, width: 112}"
                                        << "{name: l, type: conv, inputs: [x], out_channels: 32, "
                                           "kernel: 3, stride: 2, padding: 1, "
                                           "groups: 32}"
                                        << "32x56x56";
        // deconv: (4-1)*2 - 2 + (4-1) + 1 = 8
        QTest::newRow("deconv k4 s2 p1") << "{name: x, channels: 16, height: 4, width: 4}"
                                         << "{name: l, type: deconv, inputs: [x], out_channels: 8, "
                                            "kernel: 4, stride: 2, padding: 1}"
                                         << "8x8x8";
        // deconv with output padding: (4-1)*2 - 2 + 2 + 1 + 1 = 8; width without: 7
        QTest::newRow("deconv output_padding")
            << "{name: x, channels: 16, height: 4, width: 4}"
            << "{name: l, type: deconv, inputs: [x], out_channels: 8, kernel: 3, stride: 2, "
               "padding: 1, output_padding: [1, 0]}"
            << "8x8x7";
        QTest::newRow("fc over spatial input")
            << "{name: x, channels: 512, height: 7, width: 7}"
            << "{name: l, type: fc, inputs: [x], out_features: 4096}"
            << "4096x1x1";
        // (112 + 2 - 3)/2 + 1 = 56
        QTest::newRow("max pool 3x3 s2 p1")
            << "{name: x, channels: 64, height: 112, width: 112}"
            << "{name: l, type: pool, inputs: [x], mode: max, kernel: 3, stride: 2, padding: 1}"
            << "64x56x56";
        QTest::newRow("max pool ceil_mode")
            << "{name: x, channels: 64, height: 112, width: 112}"
            << "{name: l, type: pool, inputs: [x], kernel: 3, stride: 2, ceil_mode: true}"
            << "64x56x56";
        QTest::newRow("max pool floor")
            << "{name: x, channels: 64, height: 112, width: 112}"
            << "{name: l, type: pool, inputs: [x], kernel: 3, stride: 2}"
            << "64x55x55";
        QTest::newRow("avg pool ceil_mode, last window in pad")
            << "{name: x, channels: 3, height: 5, width: 7}"
            << "{name: l, type: pool, inputs: [x], mode: avg, kernel: 2, stride: 2, padding: 1, "
               "ceil_mode: true}"
            << "3x3x4"; // h: see slidingWindow; w: 7+2-2 = 7, ceil(7/2)+1 = 5, start 8 >= 8 -> 4
        QTest::newRow("global pool") << "{name: x, channels: 2048, height: 7, width: 7}"
                                     << "{name: l, type: global_pool, inputs: [x]}"
                                     << "2048x1x1";
        QTest::newRow("resize x2") << "{name: x, channels: 5, height: 6, width: 7}"
                                   << "{name: l, type: resize, inputs: [x], scale: 2}"
                                   << "5x12x14";
        QTest::newRow("resize [2, 3] bilinear")
            << "{name: x, channels: 5, height: 6, width: 7}"
            << "{name: l, type: resize, inputs: [x], scale: [2, 3], mode: bilinear}"
            << "5x12x21";
        QTest::newRow("opaque pass-through") << "{name: x, channels: 5, height: 6, width: 7}"
                                             << "{name: l, type: opaque, inputs: [x], op: Foo}"
                                             << "5x6x7";
        QTest::newRow("opaque with shape") << "{name: x, channels: 5, height: 6, width: 7}"
                                           << "{name: l, type: opaque, inputs: [x], op: Foo, "
                                              "shape: {channels: 9, height: 2, width: 3}}"
                                           << "9x2x3";
    }
    void layerShapes() {
        QFETCH(QString, input);
        QFETCH(QString, layer);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(single(input.toStdString(), layer.toStdString())),
                 expected);
    }

    void elementwiseAndConcat() {
        const std::string y = netYaml(
            {"{name: x, channels: 64, height: 56, width: 56}"},
            {
                "{name: a, type: conv, inputs: [x], out_channels: 64, kernel: 3, padding: 1}",
                "{name: sum, type: add, inputs: [a, x]}",
                // squeeze-and-excitation: global pool -> fc-like 1x1 convs -> channel scale
                "{name: sq, type: global_pool, inputs: [sum]}",
                "{name: ex1, type: conv, inputs: [sq], out_channels: 16, kernel: 1}",
                "{name: ex2, type: conv, inputs: [ex1], out_channels: 64, kernel: 1}",
                "{name: se, type: mul, inputs: [sum, ex2]}",
                "{name: se_rev, type: mul, inputs: [ex2, sum]}",
                "{name: b, type: conv, inputs: [se], out_channels: 32, kernel: 1}",
                "{name: c, type: pool, inputs: [se], kernel: 1}",
                "{name: cat, type: concat, inputs: [se, b, c]}",
                "{name: three, type: add, inputs: [a, x, sum]}",
            });
        auto r = tryNetwork(y);
        QVERIFY_OK(r);
        const Network& n = *r;
        QCOMPARE(outOf(n, "sum"), std::string("64x56x56"));
        QCOMPARE(outOf(n, "sq"), std::string("64x1x1"));
        QCOMPARE(outOf(n, "ex2"), std::string("64x1x1"));
        QCOMPARE(outOf(n, "se"), std::string("64x56x56"));
        QCOMPARE(outOf(n, "se_rev"), std::string("64x56x56"));
        QCOMPARE(outOf(n, "cat"), std::string("160x56x56")); // 64 + 32 + 64
        QCOMPARE(outOf(n, "three"), std::string("64x56x56"));
        QCOMPARE(n.layer(n.find("cat")).inputs.size(), size_t(3));
    }

    // A tensor used twice by one layer: one edge in the DAG, but the layer still sees it
    // twice (concat stacks it twice, x + x is an add of two inputs), and it is written back
    // as it was read.
    void repeatedInput() {
        const std::string y = netYaml({"{name: x, channels: 3, height: 4, width: 4}"},
                                      {"{name: cat, type: concat, inputs: [x, x]}",
                                       "{name: twice, type: add, inputs: [cat, cat]}",
                                       "{name: sq, type: mul, inputs: [twice, twice, cat]}"});
        auto r = tryNetwork(y);
        QVERIFY_OK(r);
        const Network& n = *r;
        QCOMPARE(outOf(n, "cat"), std::string("6x4x4"));
        QCOMPARE(outOf(n, "twice"), std::string("6x4x4"));
        QCOMPARE(n.layer(n.find("cat")).inputs, std::vector<LayerId>{n.find("x")});
        QCOMPARE(n.successors(n.find("x")), std::vector<LayerId>{n.find("cat")});
        QCOMPARE(n.layer(n.find("sq")).inputs,
                 (std::vector<LayerId>{n.find("twice"), n.find("cat")}));
        QCOMPARE(layerOps(n, n.find("twice")), int64_t(96)); // 6*4*4 adds
        QCOMPARE(layerOps(n, n.find("sq")), int64_t(192));   // 6*4*4 * 2 multiplies
        const std::string text = writeNetworkYaml(n);
        QVERIFY2(text.find("inputs: [x, x]") != std::string::npos, text.c_str());
        QVERIFY2(text.find("inputs: [twice, twice, cat]") != std::string::npos, text.c_str());
        auto back = tryNetwork(text);
        QVERIFY_OK(back);
        QCOMPARE(back->canonicalHash(), n.canonicalHash());
        QCOMPARE(writeNetworkYaml(*back), text);
        // [x, x] and [x] are different networks.
        auto single = tryNetwork(netYaml({"{name: x, channels: 3, height: 4, width: 4}"},
                                         {"{name: cat, type: concat, inputs: [x]}",
                                          "{name: twice, type: add, inputs: [cat, cat]}",
                                          "{name: sq, type: mul, inputs: [twice, twice, cat]}"}));
        QVERIFY_OK(single);
        QVERIFY(single->canonicalHash() != n.canonicalHash());
    }

    void shapeMismatches_data() {
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("message");
        QTest::newRow("add channels")
            << "{name: a, type: conv, inputs: [x], out_channels: 32, kernel: 1}|"
               "{name: s, type: add, inputs: [x, a]}"
            << "layer 's': inputs disagree in channels (64 vs 32)";
        QTest::newRow("mul height") << "{name: a, type: pool, inputs: [x], kernel: 2, stride: 2}|"
                                       "{name: s, type: mul, inputs: [x, a]}"
                                    << "layer 's': inputs disagree in height (8 vs 4)";
        QTest::newRow("add one input") << "{name: s, type: add, inputs: [x]}"
                                       << "layer 's': add layer takes 2 to 4096 input(s), got 1";
        QTest::newRow("concat spatial")
            << "{name: a, type: pool, inputs: [x], kernel: 2, stride: 2}|"
               "{name: s, type: concat, inputs: [x, a]}"
            << "layer 's': concat inputs must agree in height and width (64x8x8 vs 64x4x4)";
        QTest::newRow("groups not dividing in")
            << "{name: s, type: conv, inputs: [x], out_channels: 60, kernel: 1, groups: 3}"
            << "layer 's': groups (3) must divide the input channels (64)";
        QTest::newRow("groups not dividing out")
            << "{name: s, type: conv, inputs: [x], out_channels: 30, kernel: 1, groups: 4}"
            << "layer 's': groups (4) must divide out_channels (30)";
        QTest::newRow("kernel too large")
            << "{name: s, type: conv, inputs: [x], out_channels: 1, kernel: 11, padding: 1}"
            << "layer 's': kernel 11x11 does not fit the padded input 64x8x8";
        QTest::newRow("conv two inputs")
            << "{name: a, type: conv, inputs: [x], out_channels: 64, kernel: 1}|"
               "{name: s, type: conv, inputs: [x, a], out_channels: 1, kernel: 1}"
            << "layer 's': conv layer takes 1 input(s), got 2";
    }
    void shapeMismatches() {
        QFETCH(QString, layers);
        QFETCH(QString, message);
        std::string t = "format: layerfuse/network@1\nname: t\ninputs:\n"
                        "  - {name: x, channels: 64, height: 8, width: 8}\nlayers:\n";
        for (const QString& l : layers.split('|'))
            t += "  - " + l.toStdString() + "\n";
        auto r = tryNetwork(t);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().message), message);
    }

    // --- canonicalization -----------------------------------------------------------------
    void foldsIntoProducer() {
        const std::string y = netYaml(
            {"{name: x, channels: 3, height: 8, width: 8}"},
            {
                "{name: conv, type: conv, inputs: [x], out_channels: 16, kernel: 3, padding: 1}",
                "{name: bn, type: batchnorm, inputs: [conv]}",
                "{name: act, type: relu, inputs: [bn]}",
                "{name: pool, type: pool, inputs: [act], kernel: 2, stride: 2}",
                "{name: drop, type: dropout, inputs: [pool]}",
                "{name: flat, type: flatten, inputs: [drop]}",
                "{name: fc, type: fc, inputs: [flat], out_features: 10}",
                "{name: sm, type: softmax, inputs: [fc]}",
            });
        auto r = tryNetwork(y);
        QVERIFY_OK(r);
        const Network& n = *r;
        // x, conv, pool, fc remain
        QCOMPARE(n.size(), 4);
        QCOMPARE(namesOf(n, n.computeIds()), (std::vector<std::string>{"conv", "pool", "fc"}));
        const LayerId conv = n.find("conv"), pool = n.find("pool"), fc = n.find("fc");
        QCOMPARE(n.layer(conv).folded, (std::vector<std::string>{"batchnorm", "relu"}));
        QCOMPARE(n.layer(pool).folded, (std::vector<std::string>{"dropout", "flatten"}));
        QCOMPARE(n.layer(fc).folded, (std::vector<std::string>{"softmax"}));
        // Folded names resolve to the layer that carries them.
        QCOMPARE(n.find("bn"), conv);
        QCOMPARE(n.find("act"), conv);
        QCOMPARE(n.find("drop"), pool);
        QCOMPARE(n.find("flat"), pool);
        QCOMPARE(n.find("sm"), fc);
        QCOMPARE(n.find("nope"), kNoLayer);
        // The fc reads the pool directly: 16x4x4 -> kernel spans 4x4.
        QCOMPARE(n.layer(fc).inputs, std::vector<LayerId>{pool});
        QCOMPARE(n.layer(fc).kernel_h, 4);
        QCOMPARE(n.layer(fc).kernel_w, 4);
        QCOMPARE(shapeText(n.layer(fc).out), std::string("10x1x1"));
    }

    void flattenBeforeConvRefused_data() {
        QTest::addColumn<QString>("between");
        QTest::newRow("directly") << "";
        // A second folded op between the flatten and the conv must not hide it.
        QTest::newRow("through dropout") << "{name: drop, type: dropout, inputs: [flat]}";
        QTest::newRow("through relu and identity")
            << "{name: drop, type: relu, inputs: [flat]}|{name: id, type: identity, inputs: "
               "[drop]}";
    }
    void flattenBeforeConvRefused() {
        QFETCH(QString, between);
        std::string t = "format: layerfuse/network@1\nname: t\ninputs:\n"
                        "  - {name: x, channels: 3, height: 8, width: 8}\nlayers:\n"
                        "  - {name: conv, type: conv, inputs: [x], out_channels: 4, kernel: 1}\n"
                        "  - {name: flat, type: flatten, inputs: [conv]}\n";
        std::string last = "flat";
        if (!between.isEmpty())
            for (const QString& l : between.split('|')) {
                t += "  - " + l.toStdString() + "\n";
                last = l.section("name: ", 1).section(',', 0, 0).toStdString();
            }
        t += "  - {name: c2, type: conv, inputs: [" + last + "], out_channels: 4, kernel: 1}\n";
        auto r = tryNetwork(t);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().message,
                 std::string("'flat' (flatten/reshape) is only supported in front of an fc layer"));
        QCOMPARE(r.error().line, 7); // the flatten entry
        QCOMPARE(r.error().column, 5);
    }

    void flattenThroughFoldsIntoFcAccepted() {
        auto r =
            tryNetwork(netYaml({"{name: x, channels: 3, height: 8, width: 8}"},
                               {"{name: conv, type: conv, inputs: [x], out_channels: 4, kernel: 1}",
                                "{name: flat, type: flatten, inputs: [conv]}",
                                "{name: drop, type: dropout, inputs: [flat]}",
                                "{name: fc, type: fc, inputs: [drop], out_features: 2}"}));
        QVERIFY_OK(r);
        QCOMPARE(r->size(), 3);
    }

    // The message names the cycle in edge order and points at a layer on it.
    void cycleNamed_data() {
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::newRow("three") << "{name: a, type: conv, inputs: [c], out_channels: 1, kernel: 1}|"
                                  "{name: b, type: conv, inputs: [a], out_channels: 1, kernel: 1}|"
                                  "{name: c, type: add, inputs: [b, x]}"
                               << "the network has a cycle: a -> b -> c -> a" << 6;
        QTest::newRow("two, behind a chain")
            << "{name: p, type: conv, inputs: [x], out_channels: 1, kernel: 1}|"
               "{name: q, type: conv, inputs: [s], out_channels: 1, kernel: 1}|"
               "{name: r, type: add, inputs: [p, q]}|"
               "{name: s, type: conv, inputs: [r], out_channels: 1, kernel: 1}"
            << "the network has a cycle: q -> r -> s -> q" << 7;
        QTest::newRow("through a folded op")
            << "{name: a, type: conv, inputs: [act], out_channels: 1, kernel: 1}|"
               "{name: act, type: relu, inputs: [a]}"
            << "the network has a cycle: a -> act -> a" << 6;
    }
    void cycleNamed() {
        QFETCH(QString, layers);
        QFETCH(QString, message);
        QFETCH(int, line);
        std::string t = "format: layerfuse/network@1\nname: t\ninputs:\n"
                        "  - {name: x, channels: 1, height: 4, width: 4}\nlayers:\n";
        for (const QString& l : layers.split('|'))
            t += "  - " + l.toStdString() + "\n";
        auto r = tryNetwork(t);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error().message), message);
        QCOMPARE(r.error().line, line);
        QCOMPARE(r.error().column, 5);
    }

    // `expect:` is checked on folded layers too: a folded op keeps its producer's shape,
    // a flatten gives C*H*W x 1 x 1.
    void expectOnFoldedLayers_data() {
        QTest::addColumn<QString>("fold");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("message");
        QTest::newRow("relu right")
            << "{name: f, type: relu, inputs: [c], expect: {channels: 4, height: 6, width: 6}}"
            << true << "";
        QTest::newRow("relu wrong")
            << "{name: f, type: relu, inputs: [c], expect: {channels: 4, height: 8, width: 8}}"
            << false << "layer 'f': expected output 4x8x8 but inference gives 4x6x6";
        QTest::newRow("flatten right")
            << "{name: f, type: flatten, inputs: [c], expect: {channels: 144, height: 1, width: 1}}"
            << true << "";
        QTest::newRow("flatten wrong")
            << "{name: f, type: flatten, inputs: [c], expect: {channels: 4, height: 6, width: 6}}"
            << false << "layer 'f': expected output 4x6x6 but inference gives 144x1x1";
    }
    void expectOnFoldedLayers() {
        QFETCH(QString, fold);
        QFETCH(bool, ok);
        QFETCH(QString, message);
        auto r = tryNetwork(
            netYaml({"{name: x, channels: 3, height: 8, width: 8}"},
                    {"{name: c, type: conv, inputs: [x], out_channels: 4, kernel: 3}",
                     fold.toStdString(), "{name: fc, type: fc, inputs: [f], out_features: 2}"}));
        QCOMPARE(r.ok(), ok);
        if (ok) return;
        QCOMPARE(QString::fromStdString(r.error().message), message);
        QCOMPARE(r.error().line, 7);
        QCOMPARE(r.error().column, 48 + (fold.startsWith("{name: f, type: flatten") ? 3 : 0));
    }

    // --- bundled networks: well-known shapes and MAC totals -----------------------------------
    // Shapes in front of the classifier head (the input of the last global pool, else of the
    // first fc) and total MACs as published for the torchvision models (VGG16 15.47 G =
    // 15.35 G conv + 0.12 G fc, hand-summed; ResNet-18 1.82 G; ResNet-50 4.09 G; ResNet-152
    // 11.51 G; MobileNetV2 0.30 G).
    void bundledNetworks_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("beforeHead");
        QTest::addColumn<double>("gmacs");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("vgg16") << "vgg16"
                               << "512x7x7" << 15.47 << 0.01;
        QTest::newRow("resnet18") << "resnet18"
                                  << "512x7x7" << 1.82 << 0.02;
        QTest::newRow("resnet50") << "resnet50"
                                  << "2048x7x7" << 4.09 << 0.02;
        QTest::newRow("resnet152") << "resnet152"
                                   << "2048x7x7" << 11.51 << 0.02;
        QTest::newRow("mobilenetv2") << "mobilenetv2"
                                     << "1280x7x7" << 0.30 << 0.03;
    }
    void bundledNetworks() {
        QFETCH(QString, name);
        QFETCH(QString, beforeHead);
        QFETCH(double, gmacs);
        QFETCH(double, tolerance);
        const std::string nm = name.toStdString();
        if (!findBundled(BundledKind::network, nm)) QSKIP("this network is not bundled");
        auto r = loadBundledNetwork(nm);
        QVERIFY_OK(r);
        const Network& n = *r;
        LayerId head = kNoLayer;
        for (LayerId id = n.size() - 1; id >= 0 && head == kNoLayer; --id)
            if (n.layer(id).type == LayerType::global_pool) head = id;
        for (LayerId id = 0; id < n.size() && head == kNoLayer; ++id)
            if (n.layer(id).type == LayerType::fc) head = id;
        QVERIFY(head != kNoLayer);
        QCOMPARE(QString::fromStdString(shapeText(n.inputShape(head))), beforeHead);
        QCOMPARE(shapeText(n.layers().back().out), std::string("1000x1x1"));
        int64_t macs = 0;
        for (LayerId id : n.computeIds())
            macs += layerMacs(layerDims(n, id));
        const double g = double(macs) / 1e9;
        QVERIFY2(std::abs(g - gmacs) <= tolerance * gmacs,
                 qPrintable(QString("%1 GMACs, expected %2").arg(g).arg(gmacs)));
    }

    // --- loop dims and MACs ------------------------------------------------------------------
    void dimsAndMacs() {
        const Network n = lf::test::networkFromYaml(
            netYaml({"{name: x, channels: 3, height: 20, width: 20}",
                     "{name: y, channels: 8, height: 10, width: 10}",
                     "{name: z, channels: 512, height: 7, width: 7}",
                     "{name: p, channels: 64, height: 112, width: 112}"},
                    {"{name: conv1, type: conv, inputs: [x], out_channels: 4, kernel: 3}",
                     "{name: conv2, type: conv, inputs: [conv1], out_channels: 4, kernel: 3}",
                     "{name: grp, type: conv, inputs: [y], out_channels: 16, kernel: 3, padding: "
                     "1, groups: 4}",
                     "{name: dw, type: conv, inputs: [y], out_channels: 8, kernel: 3, stride: 2, "
                     "padding: 1, groups: 8}",
                     "{name: fc, type: fc, inputs: [z], out_features: 4096}",
                     "{name: pool, type: pool, inputs: [p], kernel: 3, stride: 2, padding: 1}"}));

        // ConvFusion Table 6 / docs/models/convfusion.md worked example: L2Net layer 2.
        LayerDims d = layerDims(n, n.find("conv2"));
        QCOMPARE(d.Dx, 16);
        QCOMPARE(d.Dy, 16);
        QCOMPARE(d.Dz, 4);
        QCOMPARE(d.Di, 4);
        QCOMPARE(d.Dm, 3);
        QCOMPARE(d.Dn, 3);
        QCOMPARE(d.Sx, 1);
        QCOMPARE(d.G, 1);
        QCOMPARE(d.in_w, 18);
        QCOMPARE(layerMacs(d), 36864);  // 16*16*4*4*9
        QCOMPARE(layerWeights(d), 144); // 4*4*9
        // conv1: 18*18*4*3*9
        QCOMPARE(layerMacs(layerDims(n, n.find("conv1"))), 34992);

        // Grouped: 8 -> 16 in 4 groups: each output sees 2 input channels.
        d = layerDims(n, n.find("grp"));
        QCOMPARE(d.G, 4);
        QCOMPARE(d.DiPerGroup(), 2);
        QCOMPARE(d.DzPerGroup(), 4);
        QCOMPARE(layerMacs(d), 28800);  // 10*10*16*2*9
        QCOMPARE(layerWeights(d), 288); // 16*2*9

        // Depthwise 3x3 s2: 5x5 output, one input channel per output.
        d = layerDims(n, n.find("dw"));
        QCOMPARE(d.Dx, 5);
        QCOMPARE(d.G, 8);
        QCOMPARE(d.Sx, 2);
        QCOMPARE(layerMacs(d), 1800); // 5*5*8*1*9
        QCOMPARE(layerWeights(d), 72);

        // fc: kernel spans the 7x7 input (docs/models/README.md).
        d = layerDims(n, n.find("fc"));
        QCOMPARE(d.Dx, 1);
        QCOMPARE(d.Dy, 1);
        QCOMPARE(d.Dm, 7);
        QCOMPARE(d.Dn, 7);
        QCOMPARE(d.Di, 512);
        QCOMPARE(d.Dz, 4096);
        QCOMPARE(layerMacs(d), int64_t(102760448)); // 4096*512*49

        // Pool: no weights, no MACs; ops = compares over the 3x3 window.
        d = layerDims(n, n.find("pool"));
        QCOMPARE(d.Dx, 56);
        QCOMPARE(d.Dz, 64);
        QCOMPARE(d.Dm, 3);
        QCOMPARE(d.Sx, 2);
        QCOMPARE(d.G, 64);
        QVERIFY(!d.weights);
        QCOMPARE(layerMacs(d), 0);
        QCOMPARE(layerWeights(d), 0);
        QCOMPARE(layerOps(n, n.find("pool")), int64_t(1806336)); // 56*56*64*9
        // Input window clipped to the real input: 112 rows, not 114 with padding.
        QCOMPARE(d.windowY(56), 112);
        QCOMPARE(d.windowY(2), 5); // (2-1)*2 + 3
    }
};

QTEST_GUILESS_MAIN(TestNetwork)
#include "tst_network.moc"
