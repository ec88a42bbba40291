// The batched closed form (search/closed_form_batch.h) that every search walks equals the
// scalar reference convFusionLayer (ConvFusion §IV-A..D) field by field, for every structure
// of both level spaces, fused or not, weights resident or streamed, and every tile vector the
// enumerator visits — on every compute layer of the bundled networks, all three tile sets.
#include "test_support.h"

#include "examples/bundled.h"
#include "models/convfusion.h"
#include "network/dims.h"
#include "search/tile_enumerator.h"

#include <QtTest>

using namespace lf;

namespace {

// With resident weights the structures ignore the W levels (the searches then cost all
// weights on chip), so only the other arrays are compared.
bool sameCost(const CfLayerCost& a, const CfLayerCost& b, bool resident = false) {
    const bool w = resident || (a.buf_w == b.buf_w && a.vol_w == b.vol_w &&
                                a.trans_w == b.trans_w && a.acc_w == b.acc_w);
    return w && a.buf_x == b.buf_x && a.buf_y == b.buf_y && a.vol_x == b.vol_x &&
           a.trans_x == b.trans_x && a.acc_x == b.acc_x && a.acc_y_out == b.acc_y_out &&
           a.acc_y_psum == b.acc_y_psum && a.macs == b.macs && a.ext_x == b.ext_x &&
           a.ext_y == b.ext_y && a.ext_c == b.ext_c;
}

} // namespace

class TstClosedFormBatch : public QObject {
    Q_OBJECT
  private slots:
    void equalsTheScalarClosedForm() {
        int64_t checked = 0;
        for (const BundledFile& ex : bundledFiles()) {
            if (ex.kind != BundledKind::network) continue;
            const Network net = test::bundledNetwork(ex.name);
            const auto ids = net.computeIds();
            // Every layer of the small networks, a spread of the large ones' (test time).
            const size_t step = std::max<size_t>(1, ids.size() / 12);
            for (size_t k = 0; k < ids.size(); k += step) {
                const LayerDims d = layerDims(net, ids[k]);
                for (TileSet set : {TileSet::divisors, TileSet::pow2, TileSet::all})
                    for (bool fused : {false, true})
                        for (LevelSpace space : {LevelSpace::sound, LevelSpace::legal})
                            for (bool resident : {false, true}) {
                                const FastLayer fl(d, fused);
                                const auto& list = levelStructures(fused, space, resident);
                                const TileEnumerator en(fl, set);
                                bool ok = true;
                                // Every 3rd visit of every structure, 20 of each, against the
                                // reference; then the walk is cut short (a cost over budget).
                                for (size_t si = 0; si < list.size() && ok; ++si) {
                                    int64_t evals = 0, here = 0;
                                    en.runStructure(
                                        list, si, INT64_MAX - 1, nullptr, evals,
                                        [&](size_t, const TileValue& z, const TileValue& y,
                                            const TileValue& x, const TileValue& i,
                                            const CfLayerCost& c) {
                                            if (here >= 20) return INT64_MAX;
                                            if (evals % 3 == 1) {
                                                const LayerSchedule s =
                                                    list[si].schedule({z.t, y.t, x.t, i.t});
                                                ok = ok && sameCost(c, convFusionLayer(d, s, fused),
                                                                    resident);
                                                ++here;
                                            }
                                            return int64_t(0);
                                        });
                                    checked += here;
                                }
                                QVERIFY2(ok, qPrintable(QString("%1, %2")
                                                            .arg(QString::fromUtf8(ex.name))
                                                            .arg(QString::fromStdString(
                                                                net.layer(ids[k]).name))));
                            }
            }
        }
        QVERIFY(checked > 100000);
    }

    // Every tile vector of a small layer, all of them, with the buffer bound on: the visits
    // and the costs are those of the scalar walk the enumerator replaced.
    void everyScheduleOfASmallLayer() {
        const Network net = test::networkFromYaml(
            "format: layerfuse/network@1\nname: t\ninputs:\n  - {name: x, channels: 6, height: 9, "
            "width: 7}\nlayers:\n  - {name: c, type: conv, inputs: [x], out_channels: 4, kernel: "
            "3, stride: 2, padding: 1, groups: 2}\n");
        const LayerDims d = layerDims(net, net.find("c"));
        for (bool fused : {false, true}) {
            const FastLayer fl(d, fused);
            const auto& list = levelStructures(fused, LevelSpace::legal, false);
            const TileEnumerator en(fl, TileSet::all);
            int64_t evals = 0, visits = 0, differ = 0;
            en.run(list, 2000, nullptr, evals,
                   [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                       const TileValue& i, const CfLayerCost& c) {
                       ++visits;
                       const LayerSchedule s = list[si].schedule({z.t, y.t, x.t, i.t});
                       const CfLayerCost r = convFusionLayer(d, s, fused);
                       differ += !sameCost(c, r);
                       return r.buf_x + r.buf_w + r.buf_y;
                   });
            QCOMPARE(differ, int64_t(0));
            QCOMPARE(visits, evals);
            QVERIFY(visits > 300);
        }
    }
};

QTEST_GUILESS_MAIN(TstClosedFormBatch)
#include "tst_closed_form_batch.moc"
