// ConvFusion single-layer closed form and fused-segment recompute chaining, against values
// computed by hand from ConvFusion §IV and docs/models/convfusion.md.
#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "models/convfusion.h"
#include "models/convfusion_segment.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace lf;

namespace {

LayerSchedule workedExample() {
    // docs/models/convfusion.md: order z,y,x,i; Tz=Ty=Tx=Ti=4; SL_X=CL_X=yi; SL_W=CL_W=tile;
    // SL_Y=CL_Y=yi.
    LayerSchedule s;
    s.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    s.tile = {4, 4, 4, 4};
    s.store = {Level::l2, Level::l2, Level::tile}; // X, Y, W (yi is l2 in this order)
    s.compute = s.store;
    return s;
}

LayerSchedule full(const LayerDims& d) {
    LayerSchedule s;
    s.tile = {d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    return s;
}

const char* kTwo1x1 = R"(format: layerfuse/network@1
name: pointwise
inputs:
  - {name: in, channels: 8, height: 12, width: 12}
layers:
  - {name: a, type: conv, inputs: [in], out_channels: 6, kernel: 1}
  - {name: b, type: conv, inputs: [a], out_channels: 5, kernel: 1}
)";

const char* kStrideEqualsKernel = R"(format: layerfuse/network@1
name: s2k2
inputs:
  - {name: in, channels: 3, height: 16, width: 16}
layers:
  - {name: a, type: conv, inputs: [in], out_channels: 4, kernel: 2, stride: 2}
  - {name: b, type: conv, inputs: [a], out_channels: 4, kernel: 2, stride: 2}
)";

} // namespace

class TestConvFusion : public QObject {
    Q_OBJECT
  private slots:
    void workedExampleClosedForm();
    void workedExampleThroughCli();
    void levelNames();
    void groupedConvSumsGroups();
    void constraints();
    void recomputeWhenTilesOverlap();
    void noRecomputeWithoutOverlap_data();
    void noRecomputeWithoutOverlap();
    void segmentDramRules();
    void trafficNeverBelowCompulsory();
};

void TestConvFusion::workedExampleClosedForm() {
    const Network net = test::bundledNetwork("l2net");
    const LayerDims d = layerDims(net, net.find("conv2"));
    QCOMPARE(d.Dx, 16);
    QCOMPARE(d.Di, 4);
    LayerSchedule s = workedExample();
    CfLayerCost c = convFusionLayer(d, s, false);
    QCOMPARE(c.buf_x, 72);    // 4 · 3 · 6
    QCOMPARE(c.trans_x, 256); // (Dz·Dy) · (⌈16/4⌉·⌈4/4⌉) = 64 · 4
    QCOMPARE(c.acc_x, 18432);
    QCOMPARE(c.buf_w, 144);  // 4 · 4 · 9
    QCOMPARE(c.trans_w, 16); // 1 · 4 · 4 · 1 · 1
    QCOMPARE(c.acc_w, 2304);
    QCOMPARE(c.accY(), 1024); // 16 · 16 · 4 · (2·1 − 1)
    QCOMPARE(c.buf_y, 1);     // every output completes inside the ii loop
    QCOMPARE(c.macs, 36864);  // 16·16·4·4·9
    // CL_X = xi folds the x loop: Buf_X = 4 · 3 · 3, Acc_X unchanged.
    s.compute[size_t(Arr::X)] = Level::l3;
    c = convFusionLayer(d, s, false);
    QCOMPARE(c.buf_x, 36);
    QCOMPARE(c.acc_x, 18432);
}

void TestConvFusion::workedExampleThroughCli() {
    // The bundled schedule file states the worked example for layer 2; evaluate reproduces it.
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const BundledFile* f = findBundled(BundledKind::schedule, "l2net-worked-example");
    QVERIFY(f);
    auto sf = readScheduleYaml(f->text, bundledFileLabel(*f), net, hw);
    QVERIFY2(sf.ok(), sf.ok() ? "" : sf.error().toString().c_str());
    const Metrics m = evaluate(net, hw, sf->schedule);
    const LayerMetrics* l2 = m.layer(net.find("conv2"));
    QVERIFY(l2);
    QCOMPARE(l2->buf_x, 72);
    QCOMPARE(l2->buf_w, 144);
    QCOMPARE(l2->buf_y, 1);
    QCOMPARE(l2->dram.input, 18432);
    QCOMPARE(l2->dram.weight, 2304);
    QCOMPARE(l2->dram.output + l2->dram.psum, 1024);
    QCOMPARE(l2->macs, 36864);
}

void TestConvFusion::levelNames() {
    const std::array<Dim, 4> order{Dim::z, Dim::y, Dim::x, Dim::i};
    QCOMPARE(levelName(Level::tile, order), std::string("tile"));
    QCOMPARE(levelName(Level::l2, order), std::string("yi"));
    QCOMPARE(parseLevel("xi", order), std::optional<Level>(Level::l3));
    QCOMPARE(parseLevel("l4", order), std::optional<Level>(Level::l4));
    QVERIFY(!parseLevel("qi", order));
}

void TestConvFusion::groupedConvSumsGroups() {
    // Depthwise 3×3 on 4 channels of 10×10, full tiles: every group moves its own input
    // channel and 9 weights once; outputs once. Buffers are one group's.
    const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: dw
inputs:
  - {name: in, channels: 4, height: 10, width: 10}
layers:
  - {name: dw, type: conv, inputs: [in], out_channels: 4, kernel: 3, groups: 4}
)");
    const LayerDims d = layerDims(net, net.find("dw"));
    QCOMPARE(d.G, 4);
    const CfLayerCost c = convFusionLayer(d, full(d), false);
    QCOMPARE(c.buf_x, 100); // 1 channel × 10 × 10
    QCOMPARE(c.acc_x, 400); // 4 groups × 100
    QCOMPARE(c.acc_w, 36);  // 4 × 9
    QCOMPARE(c.acc_y_out, 4 * 8 * 8);
    QCOMPARE(c.macs, 4 * 8 * 8 * 9);
}

void TestConvFusion::constraints() {
    const Network net = test::bundledNetwork("l2net");
    const LayerId id = net.find("conv2");
    LayerSchedule s = workedExample();
    QVERIFY(checkLayer(net, id, s).empty());
    s.compute[size_t(Arr::X)] = Level::l1; // CL_X above SL_X (yi)
    auto v = checkLayer(net, id, s);
    QCOMPARE(v.size(), size_t(1));
    QVERIFY(QString::fromStdString(v[0].message)
                .contains("compute level of X (zi) is above its store level (yi)"));
    s = workedExample();
    s.store[size_t(Arr::Y)] = Level::tile; // SL_Y above SL_X
    s.compute[size_t(Arr::Y)] = Level::tile;
    v = checkLayer(net, id, s);
    QCOMPARE(v.size(), size_t(1));
    QVERIFY(QString::fromStdString(v[0].message)
                .contains("store level of Y (tile) is above the store level of X (yi)"));
    s = workedExample();
    s.tile[size_t(Dim::x)] = 17;
    v = checkLayer(net, id, s);
    QCOMPARE(v.size(), size_t(1));
    QVERIFY(QString::fromStdString(v[0].message).contains("Tx = 17 must be between 1 and Dx = 16"));
}

void TestConvFusion::recomputeWhenTilesOverlap() {
    // L2Net fused: conv2 order z,y,x,i, T = 4 everywhere, every array at the tile level.
    // Trans_X(conv2) = 1·⌈16/4⌉·⌈16/4⌉·1 = 16 X tiles of (4−1)+3 = 6 × 6 × 4; conv1 is run
    // 16 times on a 6×6×4 output: 16 · 6·6·4·3·9 = 62208 MACs vs 34992 plain.
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = test::l2netRecomputeSegment(net, hw);
    const GroupCost gc = convFusionGroup(net, hw, s, s.groups[0]);
    QCOMPARE(gc.layers[0].productions, 16);
    QCOMPARE(gc.layers[0].macs, 62208);
    QCOMPARE(gc.layers[0].recompute_macs, 62208 - 34992);
    QCOMPARE(gc.layers[1].macs, 36864);
    QCOMPARE(gc.layers[1].recompute_macs, 0);
    const Metrics m = evaluate(net, hw, s);
    QCOMPARE(m.totals.recompute_macs, 62208 - 34992);
    QVERIFY(m.totals.macs > 34992 + 36864);
}

void TestConvFusion::noRecomputeWithoutOverlap_data() {
    QTest::addColumn<QString>("yaml");
    QTest::newRow("1x1 kernels") << QString(kTwo1x1);
    QTest::newRow("stride == kernel") << QString(kStrideEqualsKernel);
}

void TestConvFusion::noRecomputeWithoutOverlap() {
    // Without overlapping windows a fused producer computes every output exactly once:
    // the segment's MACs equal the plain MACs (docs/models/README.md).
    QFETCH(QString, yaml);
    const Network net = test::networkFromYaml(yaml.toStdString());
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const LayerId a = net.find("a"), b = net.find("b");
    const LayerDims db = layerDims(net, b);
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        Schedule s = defaultSchedule(net, hw);
        auto pick = [&](int64_t D) {
            std::vector<int64_t> divs;
            for (int64_t t = 1; t <= D; ++t)
                if (D % t == 0) divs.push_back(t);
            return divs[rng() % divs.size()];
        };
        // Consumer: X loaded once per spatial tile (Tz = Dz, Ti = Di), any x/y tiles.
        s.layers[size_t(b)].tile = {db.Dz, pick(db.Dy), pick(db.Dx), db.Di};
        FusionGroup g;
        g.name = "seg";
        g.layers = {a, b};
        s.groups = {g};
        normalize(s, net);
        const Metrics m = evaluate(net, hw, s);
        const int64_t plain = layerMacs(layerDims(net, a)) + layerMacs(db);
        QCOMPARE(m.totals.recompute_macs, int64_t(0));
        QCOMPARE(m.totals.macs, plain);
    }
}

void TestConvFusion::segmentDramRules() {
    // Same segment as recomputeWhenTilesOverlap. conv1 stores everything at the tile level
    // with full tiles: per production Vol_X = 3 · 8 · 8 (window of 6 outputs) and one
    // transfer; weights 4·3·9 = 108 per production. conv2: Acc_W = 144 · 16, output 1024.
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = test::l2netRecomputeSegment(net, hw);
    const LayerId c1 = net.find("conv1"), c2 = net.find("conv2");
    Metrics m = evaluate(net, hw, s);
    QCOMPARE(m.groups[0].dram.input, 16 * 3 * 8 * 8); // only L1 reads X
    QCOMPARE(m.groups[0].dram.weight, 16 * 108 + 16 * 144);
    QCOMPARE(m.groups[0].dram.output, 1024); // only Ln writes Y
    QCOMPARE(m.groups[0].dram.psum, 0);
    QCOMPARE(m.layer(c1)->dram.output, 0);
    // Resident weights: each weight once, and they are all in the buffer.
    s.groups[0].weights_resident = true;
    m = evaluate(net, hw, s);
    QCOMPARE(m.groups[0].dram.weight, 108 + 144);
    QCOMPARE(m.layer(c1)->buf_w, 108);
    QCOMPARE(m.layer(c2)->buf_w, 144);
}

void TestConvFusion::trafficNeverBelowCompulsory() {
    // Every input element (stride ≤ kernel), every weight and every final output moves at
    // least once, whatever the schedule.
    std::mt19937 rng(11);
    for (int trial = 0; trial < 2000; ++trial) {
        const int k = 1 + int(rng() % 3);
        const int st = 1 + int(rng() % k);
        const int ci = 1 + int(rng() % 5), co = 1 + int(rng() % 5), hw = 6 + int(rng() % 6);
        const std::string yaml =
            "format: layerfuse/network@1\nname: r\ninputs:\n  - {name: in, channels: " +
            std::to_string(ci) + ", height: " + std::to_string(hw) +
            ", width: " + std::to_string(hw) +
            "}\nlayers:\n  - {name: c, type: conv, inputs: [in], out_channels: " +
            std::to_string(co) + ", kernel: " + std::to_string(k) +
            ", stride: " + std::to_string(st) + "}\n";
        const Network net = test::networkFromYaml(yaml);
        const LayerDims d = layerDims(net, net.find("c"));
        LayerSchedule s;
        std::array<Dim, 4> order{Dim::z, Dim::y, Dim::x, Dim::i};
        std::shuffle(order.begin(), order.end(), rng);
        s.order = order;
        const std::array<int64_t, 4> D{d.Dz, d.Dy, d.Dx, d.Di};
        for (size_t q = 0; q < 4; ++q)
            s.tile[q] = 1 + int64_t(rng() % uint64_t(D[q]));
        for (Arr a : kAllArrs) {
            s.store[size_t(a)] = Level(rng() % 5);
            s.compute[size_t(a)] =
                Level(int(s.store[size_t(a)]) + int(rng() % (5 - int(s.store[size_t(a)]))));
        }
        const CfLayerCost c = convFusionLayer(d, s, false);
        const int64_t usedRows = (d.Dy - 1) * d.Sy + d.Dn, usedCols = (d.Dx - 1) * d.Sx + d.Dm;
        QVERIFY2(c.acc_x >= d.Di * usedRows * usedCols, yaml.c_str());
        QVERIFY(c.acc_w >= layerWeights(d));
        QVERIFY(c.acc_y_out == d.Dx * d.Dy * d.Dz);
        QVERIFY(c.buf_x <= c.vol_x && c.buf_w <= c.vol_w); // folding never grows a buffer
    }
}

QTEST_GUILESS_MAIN(TestConvFusion)
#include "tst_convfusion.moc"
