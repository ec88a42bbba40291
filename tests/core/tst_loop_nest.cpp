// The loop nest behind a schedule (issue 7): ConvFusion Code 2 for a layer with loads and
// stores at the store and compute levels and their volumes; ConvFusion Code 3 for a fused segment.
#include "models/evaluate.h"
#include "teaching/loop_nest.h"
#include "test_support.h"

#include <QtTest>

using namespace lf;

namespace {

Schedule workedExample(const Network& net, const Hardware& hw) {
    Schedule s = defaultSchedule(net, hw);
    LayerSchedule& ls = s.layers[size_t(net.find("conv2"))];
    ls.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    ls.tile = {4, 4, 4, 4};
    ls.store = {Level::l2, Level::l2, Level::tile};
    ls.compute = ls.store;
    return s;
}

// Index of the first line whose code contains `s`, at or after `from`; -1 if none.
int find(const LoopNest& n, const QString& s, int from = 0) {
    for (int k = from; k < int(n.lines.size()); ++k)
        if (QString::fromStdString(n.lines[size_t(k)].code).contains(s)) return k;
    return -1;
}

} // namespace

class TestLoopNest : public QObject {
    Q_OBJECT
  private slots:
    void workedExampleLoopsInOrder();
    void workedExampleVolumes();
    void foldedComputeLevel();
    void segmentInlinesProducer();
    void otherStrategies();
};

void TestLoopNest::workedExampleLoopsInOrder() {
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const LoopNest n = layerLoopNest(net, hw, workedExample(net, hw), net.find("conv2"));
    if (qEnvironmentVariableIsSet("LAYERFUSE_PRINT"))
        qInfo().noquote() << QString::fromStdString(n.text());
    // Outer tile loops zo, yo, xo, io, then inner zi, yi, xi, ii, then kernel n, m.
    int at = 0;
    for (const char* loop :
         {"int zo = 0; zo < 4; zo += 4", "int yo = 0; yo < 16; yo += 4",
          "int xo = 0; xo < 16; xo += 4", "int io = 0; io < 4; io += 4", "int zi = zo",
          "int yi = yo", "int xi = xo", "int ii = io", "int n = 0; n < 3", "int m = 0; m < 3"}) {
        const int k = find(n, loop, at);
        QVERIFY2(k >= at, loop);
        at = k + 1;
    }
    QVERIFY(find(n, "Y[zi][yi][xi] += X[ii][yi*1+n][xi*1+m] * W[zi][ii][n][m];") >
            find(n, "int m = 0"));
    // Braces balance.
    int depth = 0;
    for (const CodeLine& l : n.lines) {
        if (l.code.ends_with("{")) ++depth;
        if (l.code == "}") --depth;
        QVERIFY(depth >= 0);
    }
    QCOMPARE(depth, 0);
}

void TestLoopNest::workedExampleVolumes() {
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const LoopNest n = layerLoopNest(net, hw, workedExample(net, hw), net.find("conv2"));
    // W is allocated and loaded inside io (SL_W = tile): 144 elements, 16 transfers.
    const int io = find(n, "int io = 0"), zi = find(n, "int zi = zo"), yi = find(n, "int yi = yo"),
              xi = find(n, "int xi = xo");
    const int allocW = find(n, "alloc W[144];");
    const int loadW = find(n, "load W[144];");
    QVERIFY(allocW > io && allocW < zi);
    QVERIFY(loadW > io && loadW < zi);
    QVERIFY(QString::fromStdString(n.lines[size_t(loadW)].comment)
                .contains("Vol_W = 144, Trans_W = 16"));
    // X inside yi (SL_X = CL_X = yi): 4 channels × 3 rows × 6 columns = 72, Trans_X = 256.
    const int allocX = find(n, "alloc X[72];");
    const int loadX = find(n, "load X[4][3][6];");
    QVERIFY(allocX > yi && allocX < xi);
    QVERIFY(loadX > yi && loadX < xi);
    QCOMPARE(n.lines[size_t(loadX)].volume, 72);
    QVERIFY(QString::fromStdString(n.lines[size_t(loadX)].comment)
                .contains("Vol_X = 72, Trans_X = 256"));
    // Y: one element at yi; stored when the yi iteration ends, 1024 accesses in all.
    const int store = find(n, "store Y;");
    QVERIFY(store > find(n, "Y[zi][yi][xi] +="));
    QVERIFY(QString::fromStdString(n.lines[size_t(store)].comment).contains("Acc_Y = 1024"));
    QVERIFY(find(n, "alloc Y[1];") > yi);
}

void TestLoopNest::foldedComputeLevel() {
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = workedExample(net, hw);
    s.layers[size_t(net.find("conv2"))].compute[size_t(Arr::X)] = Level::l3; // CL_X = xi
    const LoopNest n = layerLoopNest(net, hw, s, net.find("conv2"));
    const int allocX = find(n, "alloc X[36];"); // folded: 4 · 3 · 3
    const int load = find(n, "load new X slice;");
    QVERIFY(allocX > find(n, "int yi = yo") && allocX < find(n, "int xi = xo"));
    QVERIFY(load > find(n, "int xi = xo"));
}

void TestLoopNest::segmentInlinesProducer() {
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const Schedule s = test::l2netRecomputeSegment(net, hw);
    const LoopNest n = groupLoopNest(net, hw, s, 0);
    if (qEnvironmentVariableIsSet("LAYERFUSE_PRINT"))
        qInfo().noquote() << QString::fromStdString(n.text());
    // conv2's outer loops come first; conv1 is produced inline, over its 6×6×4 tile, before
    // conv2's inner loops; conv2's X is not loaded from DRAM.
    const int outer2 = find(n, "int zo = 0; zo < 4; zo += 4");
    int inlineAt = -1;
    for (int k = 0; k < int(n.lines.size()); ++k)
        if (QString::fromStdString(n.lines[size_t(k)].comment)
                .contains("inline production of conv1"))
            inlineAt = k;
    QVERIFY(outer2 >= 0 && inlineAt > outer2);
    QVERIFY(find(n, "int yo1 = 0; yo1 < 6; yo1 += 6", inlineAt) >
            inlineAt); // conv1 over a 6-row tile
    QVERIFY(find(n, "X_conv1[zi1][yi1][xi1] +=") > inlineAt);
    QVERIFY(find(n, "int zi = zo", find(n, "X_conv1[zi1][yi1][xi1] +=")) >
            0); // conv2's inner loops follow
    QCOMPARE(find(n, "load X[4]"), -1);
    QVERIFY(find(n, "load X[3][8][8];") > inlineAt); // conv1 reads its 8×8 input window from DRAM
}

void TestLoopNest::otherStrategies() {
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = defaultSchedule(net, hw);
    const auto ids = net.computeIds();
    FusionGroup g;
    g.name = "all";
    g.layers = {ids[0], ids[1], ids[2]};
    g.strategy = Strategy::reuse;
    s.groups = {g};
    normalize(s, net);
    LoopNest n = groupLoopNest(net, hw, s, 0);
    QVERIFY(find(n, "compute conv2 new unique tile;") > 0);
    QVERIFY(find(n, "load W_conv1[") >= 0);
    s.groups[0].strategy = Strategy::optimus;
    n = groupLoopNest(net, hw, s, 0);
    QVERIFY(find(n, "for (int sub = 0;") >= 0);
    QVERIFY(find(n, "compute conv3") > 0);
}

QTEST_GUILESS_MAIN(TestLoopNest)
#include "tst_loop_nest.moc"
