// ConvFusion exploration (ConvFusion §V-A; docs/models/convfusion.md): the fast single-layer
// evaluator equals the closed form; no front point is dominated and every point rebuilds to
// a schedule that evaluate() costs the same; on a tiny network the front equals the brute-
// force front of every raw per-layer schedule (24 orders × every tile × every level
// combination) combined through the segment model; results do not depend on the number of
// threads; cancel stops within 100 ms.

#include "models/convfusion.h"
#include "models/convfusion_segment.h"
#include "models/evaluate.h"
#include "models/evaluate_detail.h"
#include "network/dims.h"
#include "search/layer_space.h"
#include "search/pareto.h"
#include "search/pareto_filter.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <tuple>

using namespace lf;

namespace {

std::vector<std::array<Dim, 4>> orders() {
    std::array<Dim, 4> o{Dim::z, Dim::y, Dim::x, Dim::i};
    std::vector<std::array<Dim, 4>> out;
    std::sort(o.begin(), o.end());
    do
        out.push_back(o);
    while (std::next_permutation(o.begin(), o.end()));
    return out;
}

// Every raw schedule of a layer: 24 orders × every tile 1..D (per group) × every level
// combination the constraints allow (CL at or below SL, SL_Y at or below SL_X and SL_W),
// restricted to `space` (fused: the layer is a producer inside a segment).
template <class Visit>
void everySchedule(const LayerDims& d, bool fused, LevelSpace space, Visit visit) {
    const std::array<int64_t, 4> D{d.DzPerGroup(), d.Dy, d.Dx, d.DiPerGroup()};
    LayerSchedule s;
    for (const auto& o : orders()) {
        s.order = o;
        for (int slX = 0; slX <= 4; ++slX)
            for (int clX = slX; clX <= 4; ++clX)
                for (int slW = 0; slW <= 4; ++slW)
                    for (int clW = slW; clW <= 4; ++clW)
                        for (int slY = std::max(slX, slW); slY <= 4; ++slY)
                            for (int clY = slY; clY <= 4; ++clY) {
                                s.store = {Level(slX), Level(slY), Level(slW)};
                                s.compute = {Level(clX), Level(clY), Level(clW)};
                                if (!inLevelSpace(s, fused, space)) continue;
                                for (int64_t z = 1; z <= D[0]; ++z)
                                    for (int64_t y = 1; y <= D[1]; ++y)
                                        for (int64_t x = 1; x <= D[2]; ++x)
                                            for (int64_t i = 1; i <= D[3]; ++i) {
                                                s.tile = {z, y, x, i};
                                                visit(s);
                                            }
                            }
    }
}

// What the segment model reads of a layer's closed form: schedules with equal keys cost the
// same in every group they are in.
using CostKey = std::array<int64_t, 11>;
CostKey keyOf(const CfLayerCost& c) {
    return {c.acc_x, c.acc_w,   c.acc_y_out, c.acc_y_psum, c.buf_x, c.buf_w,
            c.buf_y, c.trans_x, c.ext_x,     c.ext_y,      c.ext_c};
}

std::map<CostKey, LayerSchedule> distinctSchedules(const LayerDims& d, bool fused,
                                                   LevelSpace space) {
    std::map<CostKey, LayerSchedule> out;
    everySchedule(d, fused, space, [&](const LayerSchedule& s) {
        out.try_emplace(keyOf(convFusionLayer(d, s, fused)), s);
    });
    return out;
}

struct Pt {
    int64_t dram, bits, macs;
};

std::set<std::array<int64_t, 3>> frontOf(const std::vector<Pt>& pts) {
    std::set<std::array<int64_t, 3>> out;
    const auto keep = paretoIndices<3>(pts.size(), [&](size_t k) {
        return std::array{pts[k].dram, (pts[k].bits + 7) / 8, pts[k].macs};
    });
    for (uint32_t k : keep)
        out.insert({pts[k].dram, (pts[k].bits + 7) / 8, pts[k].macs});
    return out;
}

bool sameCf(const CfLayerCost& a, const CfLayerCost& b) {
    return a.buf_x == b.buf_x && a.buf_w == b.buf_w && a.buf_y == b.buf_y && a.vol_x == b.vol_x &&
           a.vol_w == b.vol_w && a.trans_x == b.trans_x && a.trans_w == b.trans_w &&
           a.acc_x == b.acc_x && a.acc_w == b.acc_w && a.acc_y_out == b.acc_y_out &&
           a.acc_y_psum == b.acc_y_psum && a.macs == b.macs && a.ext_x == b.ext_x &&
           a.ext_y == b.ext_y && a.ext_c == b.ext_c;
}

} // namespace

class TstSearchPareto : public QObject {
    Q_OBJECT
  private slots:
    void fastLayerEqualsClosedForm() {
        std::mt19937 rng(7);
        int checked = 0;
        for (const char* name : {"resnet50", "mobilenetv2", "googlenet", "vgg16", "dmcnn-vd"}) {
            const Network net = test::bundledNetwork(name);
            for (LayerId id : net.computeIds()) {
                const LayerDims d = layerDims(net, id);
                for (bool fused : {false, true})
                    for (LevelSpace space : {LevelSpace::sound, LevelSpace::legal}) {
                        const auto& list = levelStructures(fused, space, !d.weights);
                        const FastLayer fl(d, fused);
                        for (int k = 0; k < 8; ++k) {
                            const LevelStructure& s = list[rng() % list.size()];
                            std::array<int64_t, 4> T{};
                            for (Dim dim : kAllDims)
                                T[size_t(dim)] = 1 + int64_t(rng() % uint64_t(fl.extent(dim)));
                            const CfLayerCost a =
                                fl.eval(s, fl.tileValue(Dim::z, T[0]), fl.tileValue(Dim::y, T[1]),
                                        fl.tileValue(Dim::x, T[2]), fl.tileValue(Dim::i, T[3]));
                            const CfLayerCost b = convFusionLayer(d, s.schedule(T), fused);
                            QVERIFY2(sameCf(a, b),
                                     qPrintable(QString("%1 %2").arg(name).arg(
                                         QString::fromStdString(net.layer(id).name))));
                            ++checked;
                        }
                    }
            }
        }
        QVERIFY(checked > 5000);
    }

    void structuresAreLegalAndInTheirSpace() {
        for (bool fused : {false, true})
            for (LevelSpace space : {LevelSpace::sound, LevelSpace::legal})
                for (bool resident : {false, true})
                    for (const LevelStructure& s : levelStructures(fused, space, resident)) {
                        const LayerSchedule ls = s.schedule({1, 1, 1, 1});
                        QVERIFY(inLevelSpace(ls, fused, space));
                        for (Arr a : kAllArrs)
                            QVERIFY(ls.CL(a) >= ls.SL(a));
                        QVERIFY(ls.SL(Arr::Y) >= ls.SL(Arr::X) && ls.SL(Arr::Y) >= ls.SL(Arr::W));
                    }
        // The sound space refuses folding a loop the array does not depend on (z for X).
        LayerSchedule s;
        s.order = {Dim::z, Dim::y, Dim::x, Dim::i};
        s.store = {Level::tile, Level::l4, Level::tile};
        s.compute = {Level::l1, Level::l4, Level::tile};
        QVERIFY(!inLevelSpace(s, false, LevelSpace::sound));
        QVERIFY(inLevelSpace(s, false, LevelSpace::legal));
        // ... and accepts the paper's ConvFusion Fig. 2 rotating buffer (SL_X = yi, CL_X = xi).
        s.store = {Level::l2, Level::l4, Level::tile};
        s.compute = {Level::l3, Level::l4, Level::tile};
        QVERIFY(inLevelSpace(s, false, LevelSpace::sound));
    }

    void buffersGrowWithTiles() {
        // The branch and bound of docs/models/convfusion.md rests on this.
        std::mt19937 rng(11);
        const Network net = test::bundledNetwork("resnet50");
        for (LayerId id : net.computeIds()) {
            const LayerDims d = layerDims(net, id);
            for (bool fused : {false, true}) {
                const FastLayer fl(d, fused);
                const auto& list = levelStructures(fused, LevelSpace::legal);
                for (int k = 0; k < 20; ++k) {
                    const LevelStructure& s = list[rng() % list.size()];
                    std::array<int64_t, 4> T{};
                    for (Dim dim : kAllDims)
                        T[size_t(dim)] = 1 + int64_t(rng() % uint64_t(fl.extent(dim)));
                    auto eval = [&](const std::array<int64_t, 4>& t) {
                        return fl.eval(s, fl.tileValue(Dim::z, t[0]), fl.tileValue(Dim::y, t[1]),
                                       fl.tileValue(Dim::x, t[2]), fl.tileValue(Dim::i, t[3]));
                    };
                    const CfLayerCost a = eval(T);
                    for (Dim dim : kAllDims) {
                        auto U = T;
                        U[size_t(dim)] =
                            std::min(fl.extent(dim), U[size_t(dim)] + 1 + int64_t(rng() % 4));
                        const CfLayerCost b = eval(U);
                        QVERIFY(b.buf_x >= a.buf_x && b.buf_w >= a.buf_w && b.buf_y >= a.buf_y);
                    }
                }
            }
        }
    }

    void frontIsNotDominatedAndRebuilds() {
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.tiles = TileSet::all;
        const ExploreResult r = explore(net, hw, opt);
        QVERIFY(r.front.size() > 20);
        for (size_t a = 0; a < r.front.size(); ++a) {
            const std::array<int64_t, 3> ca{r.front[a].dram_accesses, r.front[a].buffer_bytes,
                                            r.front[a].macs};
            for (size_t b = 0; b < r.front.size(); ++b) {
                const std::array<int64_t, 3> cb{r.front[b].dram_accesses, r.front[b].buffer_bytes,
                                                r.front[b].macs};
                QVERIFY(a == b || (!dominates(cb, ca) && ca != cb));
            }
            const Schedule s = r.schedule(net, hw, a);
            QVERIFY(checkSchedule(net, hw, s).empty());
            const Metrics m = evaluate(net, hw, s);
            QCOMPARE(m.totals.dram_accesses, ca[0]);
            QCOMPARE(m.totals.buffer_peak_bytes, ca[1]);
            QCOMPARE(m.totals.macs, ca[2]);
        }
        // Fusion with recompute reaches fewer accesses than any single-layer schedule.
        ExploreOptions single = opt;
        single.max_depth = 1;
        const ExploreResult s1 = explore(net, hw, single);
        int64_t best1 = INT64_MAX, best3 = INT64_MAX;
        for (const auto& p : s1.front)
            best1 = std::min(best1, p.dram_accesses);
        for (const auto& p : r.front)
            best3 = std::min(best3, p.dram_accesses);
        QVERIFY(best3 < best1);
    }

    void frontEqualsBruteForceOnTinyNetwork() {
        // Two 3×3 convs: 2×6×6 → 2×4×4 → 2×2×2.
        const Network net = test::networkFromYaml(
            "format: layerfuse/network@1\nname: tiny\ninputs:\n  - {name: x, channels: 2, height: "
            "6, width: 6}\n"
            "layers:\n  - {name: a, type: conv, inputs: [x], out_channels: 2, kernel: 3}\n"
            "  - {name: b, type: conv, inputs: [a], out_channels: 2, kernel: 3}\n");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        const LayerId a = net.find("a"), b = net.find("b");
        const LayerDims da = layerDims(net, a), db = layerDims(net, b);
        for (LevelSpace space : {LevelSpace::legal, LevelSpace::sound}) {
            Schedule work = defaultSchedule(net, hw);
            // The segment model of docs/models/convfusion.md (batch 1: evaluate adds nothing to
            // these).
            auto groupCost = [&](std::vector<LayerId> layers, bool resident) {
                FusionGroup g;
                g.name = std::string(1, 'g'); // gcc 12 -O2 with UBSan: a false -Wrestrict on = "g"
                g.layers = layers;
                g.weights_resident = resident;
                const GroupCost gc = convFusionGroup(net, hw, work, g);
                Pt p{0, gc.buffer_bits, 0};
                for (const LayerCost& lc : gc.layers) {
                    p.dram += lc.dram.total();
                    p.macs += lc.macs;
                }
                return p;
            };
            // Singles.
            std::vector<Pt> singleA, singleB;
            for (auto [layer, d, out] : {std::tuple{a, da, &singleA}, std::tuple{b, db, &singleB}})
                for (const auto& [key, s] : distinctSchedules(d, false, space))
                    for (bool resident : {false, true}) {
                        work.layers[size_t(layer)] = s;
                        out->push_back(groupCost({layer}, resident));
                    }
            // Sum and max are monotone: the singles' own fronts make every Pareto sum
            // (ConvFusion §V-A).
            auto front3 = [](const std::vector<Pt>& v) {
                std::vector<Pt> out;
                for (uint32_t k : paretoIndices<3>(v.size(), [&](size_t j) {
                         return std::array{v[j].dram, v[j].bits, v[j].macs};
                     }))
                    out.push_back(v[k]);
                return out;
            };
            std::vector<Pt> all;
            for (const Pt& p : front3(singleA))
                for (const Pt& q : front3(singleB))
                    all.push_back({p.dram + q.dram, std::max(p.bits, q.bits), p.macs + q.macs});
            // Fused: every distinct consumer schedule with every distinct producer schedule for
            // the tile it demands.
            std::map<std::pair<int64_t, int64_t>, std::map<CostKey, LayerSchedule>> producers;
            for (const auto& [key, sb] : distinctSchedules(db, false, space)) {
                const CfLayerCost cb = convFusionLayer(db, sb, false);
                auto& prod = producers[{cb.ext_x, cb.ext_y}];
                if (prod.empty()) {
                    LayerDims sub = da;
                    sub.Dx = std::min(cb.ext_x, da.Dx);
                    sub.Dy = std::min(cb.ext_y, da.Dy);
                    for (const auto& [k2, sa] : distinctSchedules(sub, true, space))
                        prod.emplace(k2, sa);
                }
                work.layers[size_t(b)] = sb;
                for (const auto& [k2, sa] : prod) {
                    work.layers[size_t(a)] = sa;
                    for (bool resident : {false, true})
                        all.push_back(groupCost({a, b}, resident));
                }
            }
            const auto brute = frontOf(all);
            ExploreOptions opt;
            opt.tiles = TileSet::all;
            opt.levels = space;
            opt.max_depth = 2;
            const ExploreResult r = explore(net, hw, opt);
            std::set<std::array<int64_t, 3>> mine;
            for (const auto& p : r.front)
                mine.insert({p.dram_accesses, p.buffer_bytes, p.macs});
            // Under the legal levels the deepest compute levels fold every buffer to a window
            // at no cost in accesses: the front shrinks to a couple of points (search_types.h).
            QVERIFY(brute.size() > (space == LevelSpace::sound ? 10u : 0u));
            QCOMPARE(mine, brute);
        }
    }

    // The combination of two fronts visits only the pairs that can be on the front: the front
    // of those pairs has the same costs as the front of every pair (random sets, with small
    // value ranges so that buffers and sums tie often).
    void prunedPairsKeepTheFrontOfAllPairs() {
        std::mt19937_64 rng(11);
        auto front = [](const std::vector<std::array<int64_t, 3>>& v) {
            std::set<std::array<int64_t, 3>> out;
            for (uint32_t k : paretoIndices<3>(v.size(), [&](size_t j) { return v[j]; }))
                out.insert(v[k]);
            return out;
        };
        int64_t pruned = 0, all = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const int64_t range = trial % 2 ? 8 : 1000;
            auto randomSet = [&](size_t n) {
                std::vector<FrontCost> v(n);
                for (FrontCost& c : v)
                    c = {int64_t(rng() % range), int64_t(rng() % range), int64_t(rng() % range)};
                return v;
            };
            const auto A = randomSet(rng() % 40), B = randomSet(rng() % 40);
            auto sum = [&](uint32_t a, uint32_t b) {
                return std::array{A[a].acc + B[b].acc, std::max(A[a].bits, B[b].bits),
                                  A[a].macs + B[b].macs};
            };
            std::vector<std::array<int64_t, 3>> every, some;
            for (uint32_t a = 0; a < A.size(); ++a)
                for (uint32_t b = 0; b < B.size(); ++b)
                    every.push_back(sum(a, b));
            std::set<std::pair<uint32_t, uint32_t>> seen;
            sumMaxFrontPairs(A, B, [&](uint32_t a, uint32_t b) {
                QVERIFY(a < A.size() && b < B.size());
                QVERIFY2(seen.insert({a, b}).second, "a pair was visited twice");
                some.push_back(sum(a, b));
            });
            QCOMPARE(front(some), front(every));
            pruned += int64_t(some.size());
            all += int64_t(every.size());
        }
        QVERIFY(pruned < all / 2); // it does prune
    }

    void sameFrontWithOneAndTwoThreads() {
        const Network net = test::bundledNetwork("resnet18");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.max_depth = 2;
        opt.threads = 1;
        const ExploreResult one = explore(net, hw, opt);
        opt.threads = 2;
        const ExploreResult two = explore(net, hw, opt);
        QCOMPARE(one.front.size(), two.front.size());
        for (size_t k = 0; k < one.front.size(); ++k) {
            QCOMPARE(one.front[k].dram_accesses, two.front[k].dram_accesses);
            QCOMPARE(one.front[k].buffer_bytes, two.front[k].buffer_bytes);
            QCOMPARE(one.front[k].macs, two.front[k].macs);
        }
        for (size_t k : {size_t(0), one.front.size() / 2, one.front.size() - 1})
            QVERIFY(one.schedule(net, hw, k) == two.schedule(net, hw, k));
        QCOMPARE(one.evaluations, two.evaluations);
    }

    void otherStrategiesRebuild() {
        const Network net = test::bundledNetwork("l2net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        for (Strategy s : {Strategy::reuse, Strategy::optimus}) {
            ExploreOptions opt;
            opt.strategy = s;
            opt.tiles = TileSet::all;
            const ExploreResult r = explore(net, hw, opt);
            QVERIFY(!r.front.empty());
            for (size_t k = 0; k < r.front.size(); ++k) {
                const Metrics m = evaluate(net, hw, r.schedule(net, hw, k));
                QCOMPARE(m.totals.dram_accesses, r.front[k].dram_accesses);
                QCOMPARE(m.totals.buffer_peak_bytes, r.front[k].buffer_bytes);
            }
        }
    }

    void bufferBoundKeepsOnlyFittingPoints() {
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.tiles = TileSet::all;
        const ExploreResult all = explore(net, hw, opt);
        opt.max_buffer_bytes = 200;
        const ExploreResult bounded = explore(net, hw, opt);
        // Exactly the points of the unbounded front that fit.
        std::vector<std::array<int64_t, 3>> expect, got;
        for (const auto& p : all.front)
            if (p.buffer_bytes <= 200) expect.push_back({p.dram_accesses, p.buffer_bytes, p.macs});
        for (const auto& p : bounded.front)
            got.push_back({p.dram_accesses, p.buffer_bytes, p.macs});
        QVERIFY(!expect.empty());
        QCOMPARE(got, expect);
        QVERIFY(bounded.evaluations < all.evaluations);
    }

    // The search polls the flag between small pieces of work (search/search_types.h: it stops
    // within a few milliseconds). A wall-clock bound of that size fails on a loaded machine, so
    // this checks that the flag ends the search long before it would end by itself (a full run of
    // this exploration takes many seconds) with a bound meant to catch a search that ignores it.
    void cancelStopsTheSearch() {
        const Network net = test::bundledNetwork("resnet50");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.tiles = TileSet::all;
        opt.max_depth = 3;
        std::atomic<bool> cancel{false};
        SearchControl control;
        control.cancel = &cancel;
        std::chrono::steady_clock::time_point set;
        std::thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            set = std::chrono::steady_clock::now();
            cancel = true;
        });
        const ExploreResult r = explore(net, hw, opt, control);
        const auto end = std::chrono::steady_clock::now();
        t.join();
        QVERIFY(r.cancelled);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(end - set).count();
        QVERIFY2(ms < 1500, qPrintable(QString("stopped %1 ms after the flag").arg(ms)));
    }
};

QTEST_GUILESS_MAIN(TstSearchPareto)
#include "tst_search_pareto.moc"
