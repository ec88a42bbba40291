// Network DAG utilities (network/dag.h): reachability, sequences (ConvFusion §V-A),
// weak connectivity and the fusion cycle test (Optimus ISValid, Optimus Alg. 1 / Optimus Fig. 9);
// topological ids and the canonical hash. Expected answers are read off the hand-drawn graphs
// below.
#include "net_text.h"
#include "test_support.h"

#include "network/dag.h"
#include "network/network.h"

#include <QtTest>

using namespace lf;
using lf::test::netYaml;
using lf::test::tryNetwork;

namespace {

std::vector<std::string> namesOf(const Network& n, const std::vector<LayerId>& ids) {
    std::vector<std::string> out;
    for (LayerId id : ids)
        out.push_back(n.layer(id).name);
    return out;
}

// The hand-drawn DAG of the DAG-utility tests:
//
//   in -> a -> b -> c --> d -> e --.
//                     `-> f -------+-> g (add) -> h -> i
//
// forks at c, joins at g.
const char* const kDagLayers[] = {
    "{name: a, type: conv, inputs: [in], out_channels: 4, kernel: 1}",
    "{name: b, type: conv, inputs: [a], out_channels: 4, kernel: 1}",
    "{name: c, type: conv, inputs: [b], out_channels: 4, kernel: 1}",
    "{name: d, type: conv, inputs: [c], out_channels: 4, kernel: 1}",
    "{name: e, type: conv, inputs: [d], out_channels: 4, kernel: 1}",
    "{name: f, type: conv, inputs: [c], out_channels: 4, kernel: 1}",
    "{name: g, type: add, inputs: [e, f]}",
    "{name: h, type: conv, inputs: [g], out_channels: 4, kernel: 1}",
    "{name: i, type: conv, inputs: [h], out_channels: 4, kernel: 1}",
};

std::string dagYaml(const std::vector<int>& order) {
    std::string t = "format: layerfuse/network@1\nname: dag\ninputs:\n"
                    "  - {name: in, channels: 4, height: 8, width: 8}\nlayers:\n";
    for (int k : order)
        t += std::string("  - ") + kDagLayers[k] + "\n";
    return t;
}

Network dag() {
    return lf::test::networkFromYaml(dagYaml({0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

} // namespace

class TestNetworkDag : public QObject {
    Q_OBJECT

  private slots:
    // --- DAG utilities -------------------------------------------------------------------
    void reachability() {
        const Network n = dag();
        const Reachability reach(n);
        auto R = [&](const char* a, const char* b) { return reach.reaches(n.find(a), n.find(b)); };
        QVERIFY(R("a", "i"));
        QVERIFY(R("in", "g"));
        QVERIFY(R("c", "f"));
        QVERIFY(R("f", "g"));
        QVERIFY(R("d", "h"));
        QVERIFY(R("e", "e"));
        QVERIFY(!R("d", "f"));
        QVERIFY(!R("f", "d"));
        QVERIFY(!R("f", "e"));
        QVERIFY(!R("i", "a"));
        QVERIFY(!R("g", "c"));
    }

    // Above kMaxBitsetLayers the answers come from a bounded search; they must agree.
    void reachabilityLargeNetwork() {
        const int n = Reachability::kMaxBitsetLayers + 100;
        std::string t = "format: layerfuse/network@1\nname: big\ninputs:\n"
                        "  - {name: x, channels: 1, height: 1, width: 1}\nlayers:\n"
                        "  - {name: side, type: conv, inputs: [x], out_channels: 1, kernel: 1}\n";
        std::string prev = "x";
        for (int k = 0; k < n; ++k) {
            const std::string nm = "c" + std::to_string(k);
            t += "  - {name: " + nm + ", type: conv, inputs: [" + prev +
                 "], out_channels: 1, kernel: 1}\n";
            prev = nm;
        }
        t += "  - {name: join, type: add, inputs: [" + prev + ", side]}\n";
        auto r = tryNetwork(t);
        QVERIFY_OK(r);
        const Network& net = *r;
        const Reachability reach(net);
        QVERIFY(reach.reaches(net.find("c0"), net.find("join")));
        QVERIFY(reach.reaches(net.find("c5"), net.find("c20000")));
        QVERIFY(reach.reaches(net.find("side"), net.find("join")));
        QVERIFY(!reach.reaches(net.find("side"), net.find("c7")));
        QVERIFY(!reach.reaches(net.find("c9"), net.find("side")));
        QVERIFY(!reach.reaches(net.find("c20"), net.find("c19")));
    }

    void sequencesOfHandDrawnDag() {
        const Network n = dag();
        std::vector<std::vector<std::string>> got;
        for (const auto& s : sequences(n))
            got.push_back(namesOf(n, s));
        const std::vector<std::vector<std::string>> want = {
            {"a", "b", "c"}, {"d", "e"}, {"f"}, {"g", "h", "i"}};
        QCOMPARE(got, want);
    }

    // ConvFusion Fig. 4: A -> B -> C -> D -> E -> F with a residual A -> F: the sequence is
    // [B, C, D, E]; A (fork) and F (join) stand alone.
    void sequencesConvFusionFig4() {
        const Network n = lf::test::networkFromYaml(
            netYaml({"{name: x, channels: 4, height: 8, width: 8}"},
                    {"{name: A, type: conv, inputs: [x], out_channels: 4, kernel: 1}",
                     "{name: B, type: conv, inputs: [A], out_channels: 4, kernel: 1}",
                     "{name: C, type: conv, inputs: [B], out_channels: 4, kernel: 1}",
                     "{name: D, type: conv, inputs: [C], out_channels: 4, kernel: 1}",
                     "{name: E, type: conv, inputs: [D], out_channels: 4, kernel: 1}",
                     "{name: F, type: add, inputs: [E, A]}"}));
        std::vector<std::vector<std::string>> got;
        for (const auto& s : sequences(n))
            got.push_back(namesOf(n, s));
        const std::vector<std::vector<std::string>> want = {{"A"}, {"B", "C", "D", "E"}, {"F"}};
        QCOMPARE(got, want);
    }

    void weaklyConnected() {
        const Network n = dag();
        auto W = [&](std::initializer_list<const char*> names) {
            std::vector<LayerId> ids;
            for (const char* s : names)
                ids.push_back(n.find(s));
            return isWeaklyConnected(n, ids);
        };
        QVERIFY(W({"a"}));
        QVERIFY(W({"a", "b", "c"}));
        QVERIFY(W({"c", "d", "f"})); // through the fork
        QVERIFY(W({"e", "f", "g"})); // through the join
        QVERIFY(!W({"a", "c"}));     // b missing
        QVERIFY(!W({"d", "e", "f"}));
        QVERIFY(!W({"d", "i"}));
        QVERIFY(!isWeaklyConnected(n, {}));
    }

    // Optimus ISValid (Optimus Alg. 1 L24-30, Optimus Fig. 9): a group is invalid when a path
    // leaves it and re-enters it through an outside node.
    void fusingCycle() {
        const Network n = dag();
        auto C = [&](std::initializer_list<const char*> names, LayerId* via) {
            std::vector<LayerId> ids;
            for (const char* s : names)
                ids.push_back(n.find(s));
            return fusingCreatesCycle(n, ids, via);
        };
        LayerId via = kNoLayer;
        // c -> d -> e: leaves at d, re-enters at e
        QVERIFY(C({"c", "e"}, &via));
        QCOMPARE(via, n.find("d"));
        // c -> f -> g leaves through f (Optimus Fig. 9(b)-like: a bigger group, still invalid)
        via = kNoLayer;
        QVERIFY(C({"c", "d", "e", "g"}, &via));
        QCOMPARE(via, n.find("f"));
        // a longer detour: b -> c -> f -> g with c, f outside
        via = kNoLayer;
        QVERIFY(C({"b", "d", "e", "g"}, &via));
        QVERIFY(via == n.find("c") || via == n.find("f"));
        QVERIFY(!C({"c", "d", "e", "f", "g"}, nullptr));
        QVERIFY(!C({"d", "e"}, nullptr));
        QVERIFY(!C({"c", "d"}, nullptr));
        QVERIFY(!C({"c", "d", "f"}, nullptr));
        QVERIFY(!C({"g", "h", "i"}, nullptr));
        QVERIFY(!C({}, nullptr));
    }

    // --- ids and hash -----------------------------------------------------------------------
    void topologicalIds() {
        // Written consumers-first: ids must still be topological.
        const Network n = lf::test::networkFromYaml(dagYaml({8, 7, 6, 5, 4, 3, 2, 1, 0}));
        QCOMPARE(n.size(), 10);
        for (LayerId id = 0; id < n.size(); ++id) {
            QCOMPARE(n.find(n.layer(id).name), id);
            for (LayerId p : n.layer(id).inputs)
                QVERIFY(p < id);
            for (LayerId s : n.successors(id))
                QVERIFY(s > id);
        }
        QCOMPARE(n.layer(0).name, std::string("in"));
        QCOMPARE(n.inputIds(), std::vector<LayerId>{0});
        // Among layers ready together, the one written first comes first: f before d here.
        QVERIFY(n.find("f") < n.find("d"));
        const Network m = dag();
        QVERIFY(m.find("d") < m.find("f"));
        QCOMPARE(m.successors(m.find("c")), (std::vector<LayerId>{m.find("d"), m.find("f")}));
        QCOMPARE(m.predecessors(m.find("g")), (std::vector<LayerId>{m.find("e"), m.find("f")}));
    }

    void canonicalHash() {
        const Network a = dag();
        const Network b = lf::test::networkFromYaml(dagYaml({8, 7, 6, 5, 4, 3, 2, 1, 0}));
        const Network c = lf::test::networkFromYaml(dagYaml({0, 1, 2, 5, 3, 4, 6, 7, 8}));
        QCOMPARE(a.canonicalHash().size(), size_t(64));
        QCOMPARE(b.canonicalHash(), a.canonicalHash());
        QCOMPARE(c.canonicalHash(), a.canonicalHash());
        // The name is not part of the hash; a dim is.
        std::string renamed = dagYaml({0, 1, 2, 3, 4, 5, 6, 7, 8});
        renamed.replace(renamed.find("name: dag"), 9, "name: other");
        QCOMPARE(lf::test::networkFromYaml(renamed).canonicalHash(), a.canonicalHash());
        std::string wider = dagYaml({0, 1, 2, 3, 4, 5, 6, 7, 8});
        wider.replace(wider.find("height: 8"), 9, "height: 9");
        const Network d = lf::test::networkFromYaml(wider);
        QVERIFY(d.canonicalHash() != a.canonicalHash());
        std::string chans = dagYaml({0, 1, 2, 3, 4, 5, 6, 7, 8});
        chans.replace(chans.find("out_channels: 4"), 15, "out_channels: 5");
        const Network f = lf::test::networkFromYaml(chans);
        QVERIFY(f.canonicalHash() != a.canonicalHash());
        QVERIFY(!(f == a));
        QVERIFY(b == a);
    }
};

QTEST_GUILESS_MAIN(TestNetworkDag)
#include "tst_network_dag.moc"
