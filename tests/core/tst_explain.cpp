// "Why this number": the breakdown of every formula multiplies out to the model's value,
// names the right reasons, and reproduces the worked example's text (issue 7).
#include "models/convfusion.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "teaching/explain.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace lf;

class TestExplain : public QObject {
    Q_OBJECT
  private slots:
    void workedExampleText();
    void productsEqualTheModel();
    void fusedProducerUsesSubstitutedDims();
    void groupFormulasSumToTheModel();
};

void TestExplain::workedExampleText() {
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = defaultSchedule(net, hw);
    const LayerId id = net.find("conv2");
    LayerSchedule& ls = s.layers[size_t(id)];
    ls.order = {Dim::z, Dim::y, Dim::x, Dim::i};
    ls.tile = {4, 4, 4, 4};
    ls.store = {Level::l2, Level::l2, Level::tile};
    ls.compute = ls.store;
    const LayerExplanation ex = explainLayer(net, hw, s, id);
    const Formula* bx = ex.find("Buf_X");
    QVERIFY(bx);
    QCOMPARE(QString::fromStdString(bx->text()),
             QString("Buf_X = T_i · D_n · ((T_x−1)·S_x + D_m) = 4 · 3 · 6 = 72"));
    QVERIFY(QString::fromStdString(bx->terms[1].why).contains("at or above SL_X"));
    QVERIFY(QString::fromStdString(bx->terms[2].why).contains("below SL_X"));
    QCOMPARE(ex.find("Trans_X")->value, 256);
    QCOMPARE(ex.find("Acc_X")->value, 18432);
    QCOMPARE(ex.find("Buf_W")->value, 144);
    QCOMPARE(ex.find("Acc_Y")->value, 1024);
    // Inputs are loaded 256 times in 72-element windows: 18432 / (4·18·18) = 14.2 × the minimum.
    QCOMPARE(ex.compulsory_x, 4 * 18 * 18);
    QVERIFY(qAbs(ex.reload_x - 18432.0 / 1296.0) < 1e-9);
    // Folding x: Buf_X = 4 · 3 · 3 and the x term says why.
    ls.compute[size_t(Arr::X)] = Level::l3;
    const LayerExplanation folded = explainLayer(net, hw, s, id);
    QCOMPARE(folded.find("Buf_X")->value, 36);
    QVERIFY(QString::fromStdString(folded.find("Buf_X")->terms[2].why).contains("folded"));
}

void TestExplain::productsEqualTheModel() {
    const Network net = test::bundledNetwork("resnet18");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    std::mt19937 rng(3);
    Schedule s = defaultSchedule(net, hw);
    for (int trial = 0; trial < 3000; ++trial) {
        const auto& ids = net.computeIds();
        const LayerId id = ids[rng() % ids.size()];
        const LayerDims d = layerDims(net, id);
        LayerSchedule& ls = s.layers[size_t(id)];
        std::shuffle(ls.order.begin(), ls.order.end(), rng);
        const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
        for (size_t k = 0; k < 4; ++k)
            ls.tile[k] = 1 + int64_t(rng() % uint64_t(D[k]));
        for (Arr a : kAllArrs) {
            ls.store[size_t(a)] = Level(rng() % 5);
            ls.compute[size_t(a)] =
                Level(int(ls.store[size_t(a)]) + int(rng() % (5 - int(ls.store[size_t(a)]))));
        }
        const LayerExplanation ex = explainLayer(net, hw, s, id);
        const CfLayerCost c = convFusionLayer(d, ls, false);
        for (const Formula& f : ex.formulas) {
            int64_t p = 1;
            for (const FormulaTerm& t : f.terms)
                p *= t.value;
            QVERIFY2(p == f.value, f.text().c_str());
        }
        QCOMPARE(ex.find("Buf_X")->value, c.buf_x);
        QCOMPARE(ex.find("Acc_X")->value, c.acc_x);
        QCOMPARE(ex.find("Buf_Y")->value, c.buf_y);
        QCOMPARE(ex.find("Acc_Y")->value, c.accY());
        if (d.weights) {
            QCOMPARE(ex.find("Buf_W")->value, c.buf_w);
            QCOMPARE(ex.find("Acc_W")->value, c.acc_w);
            QCOMPARE(ex.find("MACs")->value, layerMacs(d));
        }
    }
}

void TestExplain::fusedProducerUsesSubstitutedDims() {
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    const Schedule s = test::l2netRecomputeSegment(net, hw);
    const LayerId c1 = net.find("conv1");
    const LayerExplanation ex = explainLayer(net, hw, s, c1);
    QVERIFY(ex.fused);
    QCOMPARE(ex.productions, 16);
    QCOMPARE(ex.find("MACs")->value, 62208); // 16 · 6·6·4 · 3·9
    QCOMPARE(ex.find("Buf_Y")->value, 0);
    const Metrics m = evaluate(net, hw, s);
    QCOMPARE(ex.find("MACs")->value, m.layer(c1)->macs);
    QCOMPARE(ex.find("Buf_X")->value, m.layer(c1)->buf_x);
}

void TestExplain::groupFormulasSumToTheModel() {
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = test::l3netOneGroup(net, hw);
    for (Strategy st : {Strategy::recompute, Strategy::reuse, Strategy::optimus}) {
        s.groups[0].strategy = st;
        const Metrics m = evaluate(net, hw, s);
        const GroupExplanation ex = explainGroup(net, hw, s, 0);
        for (const Formula& f : ex.formulas) {
            int64_t v = f.sum ? 0 : 1;
            for (const FormulaTerm& t : f.terms)
                v = f.sum ? v + t.value : v * t.value;
            QVERIFY2(v == f.value, f.text().c_str());
        }
        if (st == Strategy::recompute) QCOMPARE(ex.find("MACs")->value, m.groups[0].macs);
        if (st == Strategy::reuse) QCOMPARE(ex.find("Traffic")->value, m.groups[0].dram.total());
        if (st == Strategy::optimus)
            QCOMPARE(ex.find("MemoryCost")->value, m.groups[0].dram.total());
    }
}

QTEST_GUILESS_MAIN(TestExplain)
#include "tst_explain.moc"
