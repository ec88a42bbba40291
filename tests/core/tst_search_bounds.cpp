// Bounds of the automatic searches (docs/model-notes.md "Optimus DP bounds", "Bounded DSE"):
// the Optimus DP on wide fan-outs (one conv feeding 30 1×1 convs, with and without a concat
// joining them) and on a 2,000-layer DAG of 173 inception-like modules finishes within its
// memory budget with a valid schedule and says what it did not explore; the bounds change
// nothing on the bundled networks (the DP is exact there, as before); when they do cut, the
// result is still a valid scheme whose cost is the one reported and never below the optimum;
// `optimize --method dse`'s search stays within its evaluation budget on a 5,000-layer chain.
#include "net_text.h"
#include "synthetic_networks.h"
#include "test_support.h"

#include "models/evaluate.h"
#include "search/dse_optimize.h"
#include "search/optimus_fuser.h"
#include "search/pareto.h"
#include "search/search_report.h"

#include <QtTest>

using namespace lf;

namespace {

// The scheme covers every compute layer once with groups the studio accepts.
void expectValidScheme(const Network& net, const Hardware& hw, const OptimusFuserResult& r) {
    std::vector<int> seen(size_t(net.size()), 0);
    for (const auto& g : r.groups)
        for (LayerId v : g)
            ++seen[size_t(v)];
    for (LayerId v : net.computeIds())
        QCOMPARE(seen[size_t(v)], 1);
    for (const FusionGroup& g : r.schedule.groups) {
        const auto v = checkGroup(net, hw, g);
        QVERIFY2(v.empty(), v.empty() ? "" : v.front().message.c_str());
    }
}

OptimusFuserOptions unbounded() {
    OptimusFuserOptions o;
    o.memory_budget_bytes = 0;
    o.max_groups_per_vertex = 0;
    return o;
}

Network network(const std::string& yaml) {
    return test::networkFromYaml(yaml);
}

} // namespace

class TstSearchBounds : public QObject {
    Q_OBJECT
  private slots:
    // Issue 17: 24 consumers took 16.6 s and 1.5 GB, 30 ended in std::bad_alloc.
    void wideFanOutIsBoundedAndSaysSo() {
        for (bool joined : {false, true}) {
            std::string yaml = test::fanOutNetworkYaml(30);
            if (!joined) yaml = yaml.substr(0, yaml.rfind("  - {name: cat"));
            const Network net = network(yaml);
            Hardware hw = test::bundledHardware("optimus-default");
            hw.batch = 1; // Optimus Eq. 3 is per image
            const OptimusFuserResult r = optimusFuse(net, hw, {});
            QVERIFY(!r.cancelled);
            expectValidScheme(net, hw, r);
            QVERIFY(!r.complete);
            QVERIFY(!r.limited_vertices.empty());
            const auto stem = std::find_if(
                r.limited_vertices.begin(), r.limited_vertices.end(),
                [&](const OptimusVertexLimit& l) { return net.layer(l.vertex).name == "stem"; });
            QVERIFY(stem != r.limited_vertices.end());
            QVERIFY(stem->max_size >= 2);
            QVERIFY(r.groups_not_formed > 0);
            QVERIFY(r.largest_vertex_share <= OptimusFuserOptions{}.max_groups_per_vertex);
            QVERIFY(optimusNotExplored(net, r).find("stem") != std::string::npos);
            // Optimus Eq. 3 of the scheme is what the DP reports (read back as costed).
            QCOMPARE(double(evaluate(net, hw, r.schedule).totals.dram_accesses), r.cost);
            QVERIFY(peakResidentBytes() < (int64_t(1) << 30));
        }
    }

    // The bounds change nothing where the search fits them: Table 5's networks on the
    // paper's configuration and GoogLeNet on every bundled preset.
    void boundsLeaveBundledNetworksExact() {
        struct Case {
            const char* net;
            const char* hw;
        };
        std::vector<Case> cases{{"vgg16", "optimus-default"},
                                {"resnet50", "optimus-default"},
                                {"resnet152", "optimus-default"},
                                {"squeezenet1.0", "optimus-default"}};
        for (const char* hw : {"optimus-default", "optimus-config-1", "optimus-config-8",
                               "hwff-config-1", "hwff-config-6", "tso-nmp", "convfusion-40nm"})
            cases.push_back({"googlenet", hw});
        for (const Case& c : cases) {
            const Network net = test::bundledNetwork(c.net);
            const Hardware hw = test::bundledHardware(c.hw);
            const OptimusFuserResult bounded = optimusFuse(net, hw, {});
            const OptimusFuserResult exact = optimusFuse(net, hw, unbounded());
            QVERIFY2(bounded.complete, qPrintable(QString("%1 on %2").arg(c.net, c.hw)));
            QCOMPARE(bounded.cost, exact.cost);
            QCOMPARE(bounded.groups, exact.groups);
            QCOMPARE(bounded.groups_evaluated, exact.groups_evaluated);
        }
    }

    // Tight bounds on a DAG the DP solves exactly: a valid scheme, its reported cost, never
    // below the optimum, and the report of what was cut.
    void tightBoundsDegradeGracefully() {
        const Network net = test::bundledNetwork("googlenet");
        Hardware hw = test::bundledHardware("optimus-default");
        hw.batch = 1; // Optimus Eq. 3 is per image
        const OptimusFuserResult exact = optimusFuse(net, hw, unbounded());
        QVERIFY(exact.complete);
        struct Bounds {
            int64_t memory, perVertex;
        };
        for (const Bounds b : {Bounds{0, 8}, Bounds{64 << 10, 0}, Bounds{96 << 10, 16}}) {
            OptimusFuserOptions o;
            o.memory_budget_bytes = b.memory;
            o.max_groups_per_vertex = b.perVertex;
            const OptimusFuserResult r = optimusFuse(net, hw, o);
            expectValidScheme(net, hw, r);
            QVERIFY(!r.complete);
            QVERIFY(r.cost >= exact.cost);
            QCOMPARE(double(evaluate(net, hw, r.schedule).totals.dram_accesses), r.cost);
            if (b.perVertex > 0) QVERIFY(r.largest_vertex_share <= b.perVertex);
            if (b.memory > 0) QVERIFY(r.subproblems <= r.max_subproblems + net.size());
        }
    }

    // Issue 17: a 2,000-layer DAG (173 concats, fan-out ≤ 9) ran 300 s into 4.3 GB.
    void inceptionDagIsBounded() {
        const Network net = network(test::inceptionDagYaml(173));
        QCOMPARE(int(net.computeIds().size()) + 173 + 1, net.size()); // inputs and concats
        const Hardware hw = test::bundledHardware("hwff-config-1");
        const OptimusFuserResult r = optimusFuse(net, hw, {});
        QVERIFY(!r.cancelled);
        expectValidScheme(net, hw, r);
        QVERIFY(r.groups_evaluated <=
                r.max_groups + 2 * int64_t(net.size()) * OptimusGroupSpace::kMinShare);
        QVERIFY(r.subproblems <= r.max_subproblems + net.size());
        QVERIFY(peakResidentBytes() < (int64_t(1) << 30));
    }

    // `optimize --method dse` on a 5,000-layer chain: each shape is searched once; a budget
    // too small for the longer segments stops before them and says so.
    void dseOnALongChainIsBounded() {
        const Network net = network(test::chainYaml(5000));
        const Hardware hw = test::bundledHardware("hwff-config-1");
        DseOptimizeOptions o;
        const DseOptimizeResult r = optimizeByExploration(net, hw, o);
        QVERIFY(r.fits);
        QVERIFY(r.complete());
        QCOMPARE(r.depth_searched, 3);
        QVERIFY(r.distinct_segments < 20);
        QCOMPARE(r.segments, int64_t(5000 + 4999 + 4998));
        const Metrics m = evaluate(net, hw, r.schedule);
        QVERIFY(m.totals.fits);
        const Metrics base = evaluate(net, hw, defaultSchedule(net, hw));
        QVERIFY(m.totals.dram_accesses < base.totals.dram_accesses);

        o.evaluation_budget = r.evaluations / 4; // not enough for the longest segments
        const DseOptimizeResult cut = optimizeByExploration(net, hw, o);
        QVERIFY(cut.fits);
        QVERIFY(!cut.complete());
        QVERIFY(cut.depth_searched < 3);
        QVERIFY(cut.segments_not_searched > 0);
        QVERIFY(cut.evaluations <= r.evaluations);
        QVERIFY(evaluate(net, hw, cut.schedule).totals.dram_accesses >= m.totals.dram_accesses);
    }

    // On a network where `explore` is exact and small, the DP of `--method dse` finds the
    // front's fewest DRAM accesses under the buffer.
    void dseMatchesTheFrontOnL3Net() {
        const Network net = test::bundledNetwork("l3net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        DseOptimizeOptions o;
        o.tiles = TileSet::all;
        const DseOptimizeResult r = optimizeByExploration(net, hw, o);
        QVERIFY(r.fits && r.complete());
        ExploreOptions xo;
        xo.tiles = TileSet::all;
        xo.max_buffer_bytes = hw.buffer.bytes;
        const ExploreResult front = explore(net, hw, xo);
        int64_t best = INT64_MAX;
        for (const ExplorePoint& p : front.front)
            best = std::min(best, p.dram_accesses);
        QCOMPARE(evaluate(net, hw, r.schedule).totals.dram_accesses, best);
    }
};

QTEST_GUILESS_MAIN(TstSearchBounds)
#include "tst_search_bounds.moc"
