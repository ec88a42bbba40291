// One truth per figure: the buffer use of a fused group reads the same in the metrics
// (core/metrics/buffer_use.h), the group inspector, the tile pyramid's gauge, the canvas
// tooltip and the canvas fill bar — on every bundled network × every bundled hardware preset,
// with a fused group under each strategy in turn.
#include "bundled/bundled_files.h"
#include "graph/graph_items.h"
#include "graph/graph_labels.h"
#include "graph/graph_scene.h"
#include "inspectors/group_inspector.h"
#include "metrics/buffer_use.h"
#include "metrics/metric_grid.h"
#include "metrics/units.h"
#include "qt_text.h"
#include "studio_states.h"
#include "teaching/tile_pyramid_view.h"
#include "test_support.h"

#include <QProgressBar>
#include <QtTest>

using namespace lf;
using lf::graph::GraphScene;
using lf::graph::GroupItem;
using lf::graph::NodeItem;

namespace {

// The first producer → consumer pair of compute layers where the consumer reads only it;
// a network of independent layers (Stoutchinin's tables) gets its first layer alone.
std::vector<LayerId> firstChain(const Network& net) {
    for (LayerId id : net.computeIds()) {
        const Layer& l = net.layer(id);
        if (l.inputs.size() != 1) continue;
        const LayerId p = l.inputs.front();
        if (isCompute(net.layer(p).type) && net.successors(p).size() == 1) return {p, id};
    }
    return {net.computeIds().front()};
}

int groupNamed(const Schedule& s, const std::string& name) {
    for (size_t i = 0; i < s.groups.size(); ++i)
        if (s.groups[i].name == name) return int(i);
    return -1;
}

} // namespace

class TestOneTruth : public QObject {
    Q_OBJECT
  private slots:
    void bufferUseReadsTheSameEverywhere() {
        std::vector<const BundledFile*> networks, presets;
        for (const BundledFile& f : bundledFiles()) {
            if (f.kind == BundledKind::network) networks.push_back(&f);
            if (f.kind == BundledKind::hardware) presets.push_back(&f);
        }
        QVERIFY(networks.size() >= 20 && presets.size() >= 15);
        const Strategy strategies[] = {Strategy::recompute, Strategy::reuse, Strategy::optimus};
        int compared = 0, over = 0;
        for (const BundledFile* nf : networks) {
            const Network net = test::bundledNetwork(nf->name);
            const std::vector<LayerId> chain = firstChain(net);
            QVERIFY2(!chain.empty(), nf->name);
            GraphScene scene;
            for (size_t h = 0; h < presets.size(); ++h) {
                const Hardware hw = test::bundledHardware(presets[h]->name);
                const Strategy st = strategies[h % 3];
                const StudioState s = test::evaluatedState(
                    net, hw, test::fused(defaultSchedule(net, hw), net, chain, st, "seg"));
                const int gi = groupNamed(s.schedule, "seg");
                QVERIFY(gi >= 0);
                const BufferUse use = groupBufferUse(*s.metrics, gi);
                const GroupMetrics& gm = s.metrics->groups[size_t(gi)];
                QCOMPARE(use.bytes, gm.buffer_bytes);
                QCOMPARE(use.fits, gm.buffer_bytes <= hw.buffer.bytes);
                const QString where =
                    QStringLiteral("%1 on %2 (%3)")
                        .arg(QLatin1String(nf->name), QLatin1String(presets[h]->name),
                             QLatin1String(toString(st)));
                over += use.fits ? 0 : 1;

                GroupInspector inspector;
                inspector.setState(s);
                inspector.setSelection(StudioSelection{{}, gi});
                const QString inspected = inspector.metricGrid()->valueText("group.buffer");
                QVERIFY2(inspected.startsWith(qs(humanBytes(double(use.bytes)))),
                         qPrintable(where + ": " + inspected));
                QCOMPARE(inspector.metricGrid()->valueText("group.fits") == QStringLiteral("yes"),
                         use.fits);

                TilePyramidView pyramid;
                pyramid.setState(s);
                pyramid.setSelection(StudioSelection{{}, gi});
                QCOMPARE(pyramid.shownGroup(), gi);
                QCOMPARE(pyramid.occupancyGauge()->format(),
                         QStringLiteral("buffer ") + qs(use.text()));
                QCOMPARE(pyramid.occupancyGauge()->value(),
                         int(std::clamp(use.fraction(), 0.0, 1.0) * 1000));
                // The pyramid walks the tile the model costed.
                QCOMPARE(pyramid.pyramid().tile_h, gm.out_tile_h);
                QCOMPARE(pyramid.pyramid().tile_w, gm.out_tile_w);

                QVERIFY2(graph::groupToolTip(s, gi).contains(qs(use.text()).toHtmlEscaped()),
                         qPrintable(where));
                const auto u = scene.setState(s);
                QVERIFY2(u.error.isEmpty(), qPrintable(u.error));
                bool drawn = false;
                if (chain.size() == 1) { // a group of one: the node draws the bar
                    const NodeItem* node = scene.node(chain.front());
                    QVERIFY(node && node->look().fill_ratio);
                    QCOMPARE(*node->look().fill_ratio, use.fraction());
                    QCOMPARE(node->look().overCapacity, !use.fits);
                    drawn = true;
                }
                for (const GroupItem* item : scene.groupItems())
                    if (item->look().group_index == gi) {
                        drawn = true;
                        QCOMPARE(item->look().fill_ratio, use.fraction());
                        QCOMPARE(item->look().overCapacity, !use.fits);
                    }
                QVERIFY2(drawn, qPrintable(where));
                ++compared;
            }
        }
        QCOMPARE(compared, int(networks.size() * presets.size()));
        QVERIFY(over > 0); // the comparison covers groups that do not fit, too
    }
};

QTEST_MAIN(TestOneTruth)
#include "tst_one_truth.moc"
