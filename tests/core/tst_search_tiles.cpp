// Tile optimizer (docs/models/convfusion.md): the single-layer coster equals evaluate()'s figures
// for a group of one; the optimizer is never worse than 1,000 random legal schedules that
// fit, for every objective; the buffer bound holds; groups improve on their default tiles;
// a cancelled search says so.

#include "models/convfusion.h"
#include "models/energy.h"
#include "models/evaluate.h"
#include "models/evaluate_detail.h"
#include "network/dims.h"
#include "search/layer_space.h"
#include "search/tile_optimizer.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace lf;

namespace {

// A random legal schedule (docs/models/README.md) of a layer in `space`, tiles from `tiles`.
LayerSchedule randomSchedule(std::mt19937& rng, const LayerDims& d, LevelSpace space,
                             TileSet tiles = TileSet::all) {
    LayerSchedule s;
    for (;;) {
        std::array<Dim, 4> o{Dim::z, Dim::y, Dim::x, Dim::i};
        std::shuffle(o.begin(), o.end(), rng);
        s.order = o;
        const int slX = int(rng() % 5), slW = int(rng() % 5);
        const int slY = std::max(slX, slW) + int(rng() % uint32_t(5 - std::max(slX, slW)));
        auto below = [&](int sl) { return sl + int(rng() % uint32_t(5 - sl)); };
        s.store = {Level(slX), Level(slY), Level(slW)};
        s.compute = {Level(below(slX)), Level(below(slY)), Level(below(slW))};
        if (inLevelSpace(s, false, space)) break;
    }
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    for (size_t k = 0; k < 4; ++k) {
        const auto c = tileCandidates(D[k], tiles);
        s.tile[k] = c[rng() % c.size()];
    }
    return s;
}

double objectiveOf(const detail::GroupEval& ev, const Hardware& hw, Objective o) {
    return groupObjectiveValue(ev, hw, o);
}

detail::GroupEval evalAlone(const Network& net, const Hardware& hw, Schedule& work, LayerId id,
                            const LayerSchedule& s) {
    work.layers[size_t(id)] = s;
    FusionGroup g;
    g.name = "g";
    g.layers = {id};
    return detail::evaluateGroup(net, hw, work, g, EvaluateOptions{});
}

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

} // namespace

class TstSearchTiles : public QObject {
    Q_OBJECT
  private slots:
    void singleLayerCosterEqualsEvaluate() {
        std::mt19937 rng(3);
        int checked = 0;
        for (const char* hwName :
             {"hwff-config-1", "convfusion-40nm", "tso-nmp", "optimus-default"}) {
            const Hardware hw = test::bundledHardware(hwName);
            for (const char* netName : {"resnet50", "mobilenetv2", "googlenet"}) {
                const Network net = test::bundledNetwork(netName);
                Schedule work = defaultSchedule(net, hw);
                for (LayerId id : net.computeIds()) {
                    if (rng() % 4) continue;
                    const SingleLayerCoster coster(net, hw, id, std::nullopt, true);
                    const LayerDims& d = coster.dims();
                    for (int k = 0; k < 4; ++k) {
                        const LayerSchedule s = randomSchedule(rng, d, LevelSpace::legal);
                        const auto f = coster.figures(convFusionLayer(d, s, false),
                                                      effectiveTiles(d, s, false), s.order);
                        const detail::GroupEval ev = evalAlone(net, hw, work, id, s);
                        QCOMPARE(f.dram, ev.gm.dram.total());
                        QCOMPARE(f.buffer_bits, ev.buffer_bits);
                        QCOMPARE(f.latency_cycles, ev.gm.latency_cycles);
                        QVERIFY(close(f.energy_pj, objectiveOf(ev, hw, Objective::energy)));
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 300);
    }

    void neverWorseThanRandomSchedules() {
        std::mt19937 rng(5);
        const Hardware hw = test::bundledHardware("hwff-config-1");
        struct Case {
            const char* net;
            const char* layer;
            TileSet tiles;
        };
        const Case cases[] = {{"resnet50", "layer3.1.conv1", TileSet::divisors},
                              {"resnet50", "maxpool", TileSet::divisors},
                              {"resnet50", "layer4.2.add", TileSet::pow2},
                              {"resnet50", "fc", TileSet::divisors},
                              {"mobilenetv2", "block2.depthwise", TileSet::divisors},
                              {"l3net", "conv2", TileSet::all}};
        for (const Case& c : cases) {
            const Network net = test::bundledNetwork(c.net);
            Schedule work = defaultSchedule(net, hw);
            const LayerId id = net.find(c.layer);
            QVERIFY2(id != kNoLayer, c.layer);
            const LayerDims d = layerDims(net, id);
            for (LevelSpace space : {LevelSpace::sound, LevelSpace::legal})
                for (Objective o :
                     {Objective::dram, Objective::energy, Objective::latency, Objective::edp}) {
                    TileSearchOptions opt;
                    opt.objective = o;
                    opt.tiles = c.tiles;
                    opt.levels = space;
                    opt.capacity_bytes = std::string(c.net) == "l3net" ? 256 : 64 * 1024;
                    const LayerTileResult r = optimizeLayerTiles(net, hw, id, opt);
                    QVERIFY(r.fits);
                    const detail::GroupEval mine = evalAlone(net, hw, work, id, r.schedule);
                    QVERIFY(close(objectiveOf(mine, hw, o), r.objective));
                    QVERIFY(mine.gm.buffer_bytes <= opt.capacity_bytes);
                    int fitting = 0;
                    for (int k = 0; fitting < 1000 && k < 400000; ++k) {
                        const LayerSchedule s = randomSchedule(rng, d, space, c.tiles);
                        const detail::GroupEval ev = evalAlone(net, hw, work, id, s);
                        if (ev.gm.buffer_bytes > opt.capacity_bytes) continue;
                        ++fitting;
                        const double v = objectiveOf(ev, hw, o);
                        QVERIFY2(r.objective <= v * (1 + 1e-12),
                                 qPrintable(QString("%1 %2: optimizer %3 > random %4")
                                                .arg(c.layer, toString(o))
                                                .arg(r.objective)
                                                .arg(v)));
                    }
                    QCOMPARE(fitting, 1000);
                }
        }
    }

    void capacityBounds() {
        const Network net = test::bundledNetwork("vgg16");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        const LayerId id = net.find("conv3_2");
        int64_t previous = INT64_MAX;
        for (int64_t cap :
             {int64_t(1) << 20, int64_t(64) << 10, int64_t(8) << 10, int64_t(1) << 10}) {
            TileSearchOptions opt;
            opt.capacity_bytes = cap;
            const LayerTileResult r = optimizeLayerTiles(net, hw, id, opt);
            QVERIFY(r.fits);
            QVERIFY(r.buffer_bytes <= cap);
            QVERIFY(r.dram_accesses >=
                    (previous == INT64_MAX ? 0 : previous)); // less room, more traffic
            previous = r.dram_accesses;
        }
        // Nothing fits a 4-byte buffer: the smallest footprint is returned and flagged.
        TileSearchOptions tiny;
        tiny.capacity_bytes = 4;
        const LayerTileResult r = optimizeLayerTiles(net, hw, id, tiny);
        QVERIFY(!r.fits);
        QVERIFY(r.buffer_bytes > 4);
    }

    void groupsImproveOnDefaultTiles() {
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        Schedule s = defaultSchedule(net, hw);
        s.groups.clear();
        FusionGroup g;
        g.name = "all";
        g.layers = {net.find("conv1"), net.find("conv2"), net.find("conv3")};
        s.groups.push_back(g);
        normalize(s, net);
        for (Objective o : {Objective::dram, Objective::latency}) {
            TileSearchOptions opt;
            opt.objective = o;
            const double before =
                groupObjectiveValue(detail::evaluateGroup(net, hw, s, s.groups[0], {}), hw, o);
            const ScheduleTileResult r = optimizeScheduleTiles(net, hw, s, opt);
            QVERIFY(checkSchedule(net, hw, r.schedule).empty());
            const detail::GroupEval ev =
                detail::evaluateGroup(net, hw, r.schedule, r.schedule.groups[0], {});
            QVERIFY(ev.gm.fits);
            QVERIFY(groupObjectiveValue(ev, hw, o) <= before);
        }
    }

    void cancelledSearchSaysSo() {
        const Network net = test::bundledNetwork("vgg16");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        std::atomic<bool> cancel{true};
        SearchControl control;
        control.cancel = &cancel;
        const LayerTileResult r = optimizeLayerTiles(net, hw, net.find("conv1_1"), {}, control);
        QVERIFY(r.cancelled);
    }
};

QTEST_GUILESS_MAIN(TstSearchTiles)
#include "tst_search_tiles.moc"
