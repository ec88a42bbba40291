// What does not move, and what fits: why an edit left every figure as it was
// (teaching/unchanged_figures.h), and the nearest output tile that makes a group over the
// buffer fit (search/fitting_tile.h), checked by evaluating the edits.
#include "models/evaluate.h"
#include "search/fitting_tile.h"
#include "teaching/unchanged_figures.h"
#include "test_support.h"

#include <QtTest>

using namespace lf;

class TestUnchangedFigures : public QObject {
    Q_OBJECT
  private slots:
    // A layer whose tiles are its full dimensions: every loop runs once, so no order can
    // change a figure — and the explanation says so.
    void loopOrderOfFullTiles() {
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("convfusion-40nm");
        Schedule before = defaultSchedule(net, hw);
        const LayerId conv2 = net.find("conv2");
        const LayerDims d = layerDims(net, conv2);
        before.layers[size_t(conv2)].tile = {d.Dz, d.Dy, d.Dx, d.Di};
        Schedule after = before;
        // The reorder of the report: the output loops swapped, the input channels innermost.
        after.layers[size_t(conv2)].order = {Dim::x, Dim::y, Dim::z, Dim::i};
        const Metrics a = evaluate(net, hw, before), b = evaluate(net, hw, after);
        QVERIFY(sameFigures(a, b));
        const std::string why = whyUnchanged(net, before, after);
        QVERIFY2(why.find("Every loop runs once") != std::string::npos, why.c_str());
        // One loop that runs more than once: the others may go anywhere.
        before.layers[size_t(conv2)].tile[size_t(Dim::z)] = 1;
        after.layers[size_t(conv2)].tile[size_t(Dim::z)] = 1;
        QVERIFY(sameFigures(evaluate(net, hw, before), evaluate(net, hw, after)));
        const std::string one = whyUnchanged(net, before, after);
        QVERIFY2(one.find("Only the z loop runs more than once") != std::string::npos, one.c_str());
        // Figures that move are not compared away.
        Schedule moved = before;
        moved.layers[size_t(conv2)].tile[size_t(Dim::z)] = d.Dz;
        QVERIFY(!sameFigures(evaluate(net, hw, before), evaluate(net, hw, moved)));
        // Two edited layers: nothing to explain.
        Schedule two = after;
        two.layers[size_t(net.find("conv1"))].order = {Dim::x, Dim::y, Dim::z, Dim::i};
        QVERIFY(whyUnchanged(net, before, two).empty());
    }

    // Inside an optimus group the layers' tiles do not enter (Optimus Eq. 4 picks the tile).
    void tilesInsideAnOptimusGroup() {
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("convfusion-40nm");
        const auto ids = net.computeIds();
        const Schedule before =
            test::fused(defaultSchedule(net, hw), net, {ids[0], ids[1], ids[2]}, Strategy::optimus);
        Schedule after = before;
        after.layers[size_t(ids[1])].tile[size_t(Dim::z)] = 1;
        QVERIFY(sameFigures(evaluate(net, hw, before), evaluate(net, hw, after)));
        const std::string why = whyUnchanged(net, before, after);
        QVERIFY2(why.find("Optimus Eq. 4") != std::string::npos, why.c_str());
    }

    // A reuse group whose "auto" tile (the last layer's whole map) is over the buffer gets
    // the largest smaller tile that fits; applying it makes the group fit with that footprint.
    void nearestFittingTileOfAReuseGroup() {
        const Network net = test::bundledNetwork("googlenet");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        const auto ids = net.computeIds();
        Schedule s = defaultSchedule(net, hw);
        LayerId a = kNoLayer, b = kNoLayer;
        for (LayerId id : ids) // the first conv → conv pair
            if (net.layer(id).inputs.size() == 1 &&
                net.layer(net.layer(id).inputs[0]).type == LayerType::conv &&
                net.layer(id).type == LayerType::conv) {
                a = net.layer(id).inputs[0];
                b = id;
                break;
            }
        QVERIFY(a != kNoLayer);
        s = test::fused(s, net, {a, b}, Strategy::reuse);
        LayerSchedule& last = s.layers[size_t(b)];
        last.tile[size_t(Dim::y)] = net.layer(b).out.h; // "auto": the whole map
        last.tile[size_t(Dim::x)] = net.layer(b).out.w;
        const Metrics m = evaluate(net, hw, s);
        const int gi = s.groupOf(b);
        QVERIFY(!m.groups[size_t(gi)].fits);
        const auto fit = nearestFittingTile(net, hw, s, gi);
        QVERIFY(fit);
        QVERIFY(fit->sets_group_tile);
        QVERIFY(fit->h * fit->w < net.layer(b).out.h * net.layer(b).out.w);
        Schedule fixed = s;
        fixed.groups[size_t(gi)] = fit->group_value;
        const Metrics after = evaluate(net, hw, fixed);
        QVERIFY(after.groups[size_t(gi)].fits);
        QCOMPARE(after.groups[size_t(gi)].buffer_bytes, fit->buffer_bytes);
        QCOMPARE(after.groups[size_t(gi)].out_tile_h, fit->h);
        QCOMPARE(after.groups[size_t(gi)].out_tile_w, fit->w);
        // A group that fits needs nothing.
        QVERIFY(!nearestFittingTile(net, hw, fixed, gi));
    }

    // Recompute groups take the tile as the last layer's T_y × T_x.
    void nearestFittingTileOfARecomputeLayer() {
        const Network net = test::bundledNetwork("l3net");
        Hardware hw = test::bundledHardware("convfusion-40nm");
        hw.buffer.bytes = 1024;
        Schedule s = defaultSchedule(net, hw);
        const LayerId conv3 = net.find("conv3");
        const LayerDims d = layerDims(net, conv3);
        s.layers[size_t(conv3)].tile = {d.Dz, d.Dy, d.Dx, d.Di};
        s.layers[size_t(conv3)].store = {Level::tile, Level::tile, Level::tile};
        s.layers[size_t(conv3)].compute = s.layers[size_t(conv3)].store;
        const int gi = s.groupOf(conv3);
        QVERIFY(!evaluate(net, hw, s).groups[size_t(gi)].fits);
        const auto fit = nearestFittingTile(net, hw, s, gi);
        QVERIFY(fit);
        QVERIFY(!fit->sets_group_tile);
        QCOMPARE(fit->layer, conv3);
        Schedule fixed = s;
        fixed.layers[size_t(conv3)] = fit->layer_schedule;
        QVERIFY(evaluate(net, hw, fixed).groups[size_t(gi)].fits);
        QCOMPARE(fit->layer_schedule.T(Dim::y), fit->h);
    }
};

QTEST_GUILESS_MAIN(TestUnchangedFigures)
#include "tst_unchanged_figures.moc"
