// Spreading a search over processes (search/distribution.h): the assignment of pieces, the
// segment fronts that travel between processes, and explorations and sweeps run by three
// "processes" (threads, tests/support/thread_ranks.h) against one process alone. The runs
// under real MPI ranks are tests/mpi.
#include "test_support.h"
#include "thread_ranks.h"

#include "search/distribution.h"
#include "search/pareto.h"
#include "search/segment_front_io.h"
#include "search/work_pool.h"
#include "sweep/sweep.h"

#include <QtTest>

#include <thread>

using namespace lf;

namespace {

// Runs `run(dist)` on every rank of a new group of `size`, each on a thread of its own.
template <class Run> void onRanks(int size, Run run) {
    test::ThreadRanks group(size);
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r)
        threads.emplace_back([&, r] { run(group.rank(r)); });
    for (auto& t : threads)
        t.join();
}

std::vector<std::vector<LayerSchedule>> schedulesOf(const ExploreResult& r, size_t k) {
    std::vector<std::vector<LayerSchedule>> out;
    for (const auto& [layers, point] : r.parts(k))
        out.push_back(point->layers);
    return out;
}

} // namespace

class TstDistribution : public QObject {
    Q_OBJECT
  private slots:
    void everyPieceGoesToExactlyOneProcess() {
        const std::vector<double> cost{5, 1, 9, 0, 0, 3, 7, 7, 2, 0};
        std::vector<int> owner(cost.size(), -1);
        std::vector<double> load(3, 0);
        for (int r = 0; r < 3; ++r)
            for (size_t k : assignedPieces(cost, r, 3)) {
                QCOMPARE(owner[k], -1);
                owner[k] = r;
                load[size_t(r)] += cost[k];
            }
        for (int o : owner)
            QVERIFY(o >= 0);
        // Longest first, to the least loaded: 9 → 0, 7 → 1, 7 → 2, 5 → 1, 3 → 2, 2 → 0, 1 → 2.
        QCOMPARE(load, (std::vector<double>{11, 12, 11}));
        // Pieces without a cost are dealt in turn, not all to one process.
        for (int r = 0; r < 3; ++r)
            QCOMPARE(assignedPieces(std::vector<double>(6, 0.0), r, 3).size(), size_t(2));
        QCOMPARE(assignedPieces(cost, 0, 1).size(), cost.size());
    }

    void segmentFrontsTravelUnchanged() {
        SegmentFront f;
        f.layers = {3, 4, 5};
        f.evaluations = 123456789;
        f.skipped = true;
        SegmentPoint p;
        p.dram = 1;
        p.buffer_bits = 2;
        p.macs = 3;
        p.weights_resident = true;
        p.strategy = Strategy::optimus;
        p.out_tile = OutputTile{7, 9};
        LayerSchedule l;
        l.order = {Dim::i, Dim::x, Dim::z, Dim::y};
        l.tile = {2, 4, 8, 16};
        l.store = {Level::l1, Level::tile, Level::l4};
        l.unroll = Dataflow{{LoopDim::ox, LoopDim::ky}, {LoopDim::oc}};
        p.layers = {l, LayerSchedule{}, l};
        f.points = {p, SegmentPoint{}};
        const std::string bytes = encodeSegmentFront(f);
        const auto back = decodeSegmentFront(bytes);
        QVERIFY(back);
        QCOMPARE(back->layers, f.layers);
        QCOMPARE(back->evaluations, f.evaluations);
        QCOMPARE(back->skipped, true);
        QCOMPARE(back->points.size(), size_t(2));
        QVERIFY(back->points[0].layers == p.layers);
        QVERIFY(back->points[0].out_tile == p.out_tile);
        QCOMPARE(back->points[0].weights_resident, true);
        QCOMPARE(back->points[0].strategy, Strategy::optimus);
        QCOMPARE(encodeSegmentFront(*back), bytes);
        // Anything but a whole front is refused.
        for (size_t cut : {size_t(0), size_t(3), bytes.size() / 2, bytes.size() - 1})
            QVERIFY(!decodeSegmentFront(bytes.substr(0, cut)));
        QVERIFY(!decodeSegmentFront(bytes + "x"));
        std::string bad = bytes;
        bad[0] ^= 1;
        QVERIFY(!decodeSegmentFront(bad));
    }

    void threeProcessesExploreWhatOneDoes() {
        const Network net = test::bundledNetwork("resnet18");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.max_depth = 2;
        opt.threads = 1;
        const ExploreResult alone = explore(net, hw, opt);
        QVERIFY(alone.front.size() > 10);
        std::vector<ExploreResult> results(3);
        onRanks(3, [&](Distribution& d) {
            ExploreOptions o = opt;
            o.distribution = &d;
            results[size_t(d.rank())] = explore(net, hw, o);
        });
        QVERIFY(results[1].worker && results[1].front.empty());
        QVERIFY(results[2].worker && results[2].front.empty());
        const ExploreResult& root = results[0];
        QVERIFY(!root.worker);
        QCOMPARE(root.front.size(), alone.front.size());
        QCOMPARE(root.evaluations, alone.evaluations);
        for (size_t k = 0; k < alone.front.size(); ++k) {
            QCOMPARE(root.front[k].dram_accesses, alone.front[k].dram_accesses);
            QCOMPARE(root.front[k].buffer_bytes, alone.front[k].buffer_bytes);
            QCOMPARE(root.front[k].macs, alone.front[k].macs);
            QVERIFY(schedulesOf(root, k) == schedulesOf(alone, k));
        }
    }

    void threeProcessesSweepWhatOneDoes() {
        auto spec = readSweepYaml("format: layerfuse/sweep@1\n"
                                  "networks: [resnet18, squeezenet1.1]\n"
                                  "hardware: [hwff-config-1]\n"
                                  "parameters: {buffer_bytes: [65536, 1048576]}\n"
                                  "strategies: [optimus, reuse]\n",
                                  "grid.sweep.yaml");
        if (!spec) QFAIL(spec.error().toString().c_str());
        auto in = loadSweepInputs(*spec);
        if (!in) QFAIL(in.error().toString().c_str());
        WorkPool pool(2);
        const std::vector<std::string> alone = runSweep(*spec, *in, &pool);
        QCOMPARE(alone.size(), size_t(8));
        std::vector<std::vector<std::string>> rows(3);
        onRanks(3, [&](Distribution& d) {
            rows[size_t(d.rank())] = runSweep(*spec, *in, nullptr, &d);
        });
        QCOMPARE(rows[0], alone);
        QVERIFY(rows[1].empty() && rows[2].empty());
    }
};

QTEST_GUILESS_MAIN(TstDistribution)
#include "tst_distribution.moc"
