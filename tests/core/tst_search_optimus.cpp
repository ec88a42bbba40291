// Optimus DP fuser (Optimus Alg. 1, Optimus §6; docs/models/optimus.md) against brute force: on
// random DAGs of up to 10 operators with forks and joins, the DP's cost equals the minimum over
// every partition into valid groups (each group costed by the model, lf::optimusPlan); on a
// chain of n operators it forms exactly n(n+1)/2 groups (Optimus Table 5: VGG's 13 conv + 5 pool
// operators → 171); the fast coster equals lf::optimusPlan; the on-line variant keeps its
// rules; Optimus Alg. 3's table holds a hand-computed entry; cancellation stops the search.

#include "models/evaluate.h"
#include "models/optimus.h"
#include "network/dag.h"
#include "reference_optimus.h"
#include "schedule/schedule.h"
#include "search/optimus_coster.h"
#include "search/optimus_fuser.h"
#include "search/optimus_groups.h"
#include "test_support.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <thread>

using namespace lf;

namespace {

// A random DAG on a 4×8×8 input: convs and pools (3×3, same size), adds joining two
// 4-channel tensors, concats joining two tensors (8 channels, read by convs only).
std::string randomDag(std::mt19937& rng, int n) {
    std::string y = "format: layerfuse/network@1\nname: dag\ninputs:\n  - {name: x, channels: 4, "
                    "height: 8, width: 8}\nlayers:\n";
    std::vector<std::string> names{"x"};
    std::vector<char> wide{0}; // 8 channels (a concat)
    for (int k = 0; k < n; ++k) {
        const std::string name = "n" + std::to_string(k);
        auto pick = [&](bool narrowOnly) {
            for (;;) {
                const size_t i = size_t(rng() % names.size());
                if (!narrowOnly || !wide[i]) return i;
            }
        };
        const int kind = int(rng() % 10);
        if (kind < 2 && names.size() >= 2) { // join by add
            const size_t a = pick(true), b = pick(true);
            if (a != b) {
                y += "  - {name: " + name + ", type: add, inputs: [" + names[a] + ", " + names[b] +
                     "]}\n";
                names.push_back(name);
                wide.push_back(0);
                continue;
            }
        }
        if (kind == 2 && names.size() >= 2) { // join by concat
            const size_t a = pick(true), b = pick(true);
            if (a != b) {
                y += "  - {name: " + name + ", type: concat, inputs: [" + names[a] + ", " +
                     names[b] + "]}\n";
                names.push_back(name);
                wide.push_back(1);
                continue;
            }
        }
        if (kind == 3) {
            const size_t a = pick(true);
            y += "  - {name: " + name + ", type: pool, mode: max, inputs: [" + names[a] +
                 "], kernel: 3, stride: 1, padding: [1, 1]}\n";
            names.push_back(name);
            wide.push_back(0);
            continue;
        }
        const size_t a = pick(false);
        y += "  - {name: " + name + ", type: conv, inputs: [" + names[a] +
             "], out_channels: 4, kernel: 3, padding: [1, 1]}\n";
        names.push_back(name);
        wide.push_back(0);
    }
    return y;
}

Network chainNetwork(int n) {
    std::string y = "format: layerfuse/network@1\nname: chain\ninputs:\n  - {name: x, channels: 4, "
                    "height: 8, width: 8}\nlayers:\n";
    std::string prev = "x";
    for (int k = 0; k < n; ++k) {
        const std::string name = "c" + std::to_string(k);
        y += "  - {name: " + name + ", type: conv, inputs: [" + prev +
             "], out_channels: 4, kernel: 3, padding: [1, 1]}\n";
        prev = name;
    }
    return test::networkFromYaml(y);
}

// Minimum over every partition of the vertices into valid groups: f(S) = min over the
// subsets T of S holding S's lowest vertex of cost(T) + f(S − T) — every partition once.
double bruteForce(const Network& net, const Hardware& hw, int64_t capBits) {
    std::vector<LayerId> v;
    for (LayerId id = 0; id < net.size(); ++id)
        if (net.layer(id).type != LayerType::input) v.push_back(id);
    const size_t n = v.size();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> cost(size_t(1) << n, inf);
    for (uint32_t m = 1; m < (1u << n); ++m) {
        std::vector<LayerId> members;
        bool compute = false;
        for (size_t k = 0; k < n; ++k)
            if (m >> k & 1) {
                members.push_back(v[k]);
                compute = compute || isCompute(net.layer(v[k]).type);
            }
        if (!compute) {
            if (members.size() == 1) cost[m] = 0; // a concat alone moves nothing
            continue;
        }
        if (!optimusValidity(net, members).empty()) continue; // docs/models/optimus.md
        const OptimusPlan p = optimusPlan(net, hw, members, capBits);
        if (!p.feasible && members.size() > 1) continue;
        // A single layer without an Optimus Eq. 4 solution runs layer by layer.
        cost[m] = p.feasible ? double(p.memory_cost)
                             : test::referenceLoneLayerCost(net, hw, members.front(), capBits);
    }
    std::vector<double> f(size_t(1) << n, inf);
    f[0] = 0;
    for (uint32_t S = 1; S < (1u << n); ++S) {
        const uint32_t low = S & (~S + 1);
        for (uint32_t T = S; T; T = (T - 1) & S)
            if ((T & low) && cost[T] < inf && f[S ^ T] < inf)
                f[S] = std::min(f[S], cost[T] + f[S ^ T]);
    }
    return f[(1u << n) - 1];
}

} // namespace

class TstSearchOptimus : public QObject {
    Q_OBJECT
  private slots:
    void dpEqualsBruteForceOnRandomDags() {
        std::mt19937 rng(20240611);
        Hardware hw = test::bundledHardware("hwff-config-1");
        int forks = 0, joins = 0, fusedTrials = 0;
        for (int trial = 0; trial < 60; ++trial) {
            const int n = 3 + int(rng() % 8); // 3..10 operators
            const Network net = test::networkFromYaml(randomDag(rng, n));
            for (LayerId id = 0; id < net.size(); ++id) {
                forks += net.successors(id).size() >= 2;
                joins += net.layer(id).inputs.size() >= 2;
            }
            const int64_t capBytes =
                std::array<int64_t, 4>{256, 1024, 2048, 65536}[size_t(trial % 4)];
            OptimusFuserOptions opt;
            opt.capacity_bytes = capBytes;
            opt.prune_hopeless = trial % 2 == 0;
            const OptimusFuserResult r = optimusFuse(net, hw, opt);
            const double brute = bruteForce(net, hw, capBytes * 8);
            QVERIFY2(
                r.cost == brute,
                qPrintable(
                    QString("trial %1: DP %2, brute force %3").arg(trial).arg(r.cost).arg(brute)));
            // The scheme is a partition of the compute layers into valid groups.
            std::vector<int> seen(size_t(net.size()), 0);
            bool fused = false;
            for (const auto& g : r.groups) {
                fused = fused || g.size() > 1;
                QVERIFY(optimusValidity(net, g).empty());
                for (LayerId id : g)
                    ++seen[size_t(id)];
            }
            for (LayerId id : net.computeIds())
                QCOMPARE(seen[size_t(id)], 1);
            QVERIFY(checkSchedule(net, hw, r.schedule).empty());
            fusedTrials += fused;
        }
        QVERIFY(forks > 20 && joins > 20); // the DAGs do branch
        QVERIFY(fusedTrials > 20);         // and the optimum does fuse
    }

    // The same where tiles shrink upstream — resizes, deconvolutions and unpadded stride-2
    // convolutions, so that a layer consumed in a group may hold less than as the group's
    // output — on DAGs whose fan-outs often reach three, where the DP classifies groups from
    // their components' records by the bounds that rely on extents, and costs some from them
    // (spaces this small never defer; tst_optimus_coster's lowerBoundsHoldWhereTilesShrink
    // covers deferred groups).
    void dpEqualsBruteForceWhereTilesShrink() {
        std::mt19937 rng(20261127);
        const Hardware hw = test::bundledHardware("optimus-default");
        int wide = 0;
        int64_t inherited = 0, fromRecords = 0;
        for (int trial = 0; trial < 80; ++trial) {
            const std::string yaml = test::randomStridedDag(rng, 4 + int(rng() % 7), true);
            const Network net = test::networkFromYaml(yaml);
            size_t fanout = 0;
            for (LayerId id = 0; id < net.size(); ++id)
                fanout = std::max(fanout, net.successors(id).size());
            wide += fanout >= 3;
            for (int64_t capBytes : {256, 1024, 8192}) {
                OptimusFuserOptions opt;
                opt.capacity_bytes = capBytes;
                const OptimusFuserResult r = optimusFuse(net, hw, opt);
                inherited += r.groups_inherited;
                fromRecords += r.costed_from_records;
                const double brute = bruteForce(net, hw, capBytes * 8);
                QVERIFY2(r.cost == brute, qPrintable(QString("trial %1 (%2 bytes): DP %3, brute "
                                                             "force %4 in\n%5")
                                                         .arg(trial)
                                                         .arg(capBytes)
                                                         .arg(r.cost)
                                                         .arg(brute)
                                                         .arg(QString::fromStdString(yaml))));
            }
        }
        QVERIFY2(wide > 40, qPrintable(QString("%1 DAGs with a fan-out of three").arg(wide)));
        QVERIFY2(inherited > 40 && fromRecords > 40,
                 qPrintable(QString("%1 groups classified and %2 costed from records")
                                .arg(inherited)
                                .arg(fromRecords)));
    }

    // A concat that joins a group is no ISOA operator: the operators behind it may be, so its
    // readers keep their t_c. The bound once charged them all their channels, called {n6}
    // hopeless and so never formed {n1, n4, n6}, the optimum's group (the DP found 11,332
    // instead of 9,928 when lone layers were costed by Optimus Eq. 3 alone).
    void joinedConcatDoesNotForceItsReaders() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: dag
inputs:
  - {name: x, channels: 4, height: 13, width: 9}
layers:
  - {name: n0, type: conv, inputs: [x], out_channels: 8, kernel: 5, stride: 2, padding: [2, 2]}
  - {name: n1, type: conv, inputs: [x], out_channels: 8, kernel: 5, stride: 1, padding: [2, 2]}
  - {name: n2, type: conv, inputs: [x], out_channels: 16, kernel: 1, stride: 1, padding: [0, 0]}
  - {name: n3, type: conv, inputs: [n1], out_channels: 4, kernel: 5, stride: 1, padding: [2, 2]}
  - {name: n4, type: concat, inputs: [n1, x]}
  - {name: n5, type: conv, inputs: [x], out_channels: 8, kernel: 3, stride: 1, padding: [1, 1]}
  - {name: n6, type: conv, inputs: [n4], out_channels: 8, kernel: 1, stride: 1, padding: [0, 0]}
  - {name: n7, type: conv, inputs: [n2], out_channels: 4, kernel: 3, stride: 2, padding: [1, 1]}
)");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        OptimusFuserOptions opt;
        opt.capacity_bytes = 1024;
        const OptimusFuserResult r = optimusFuse(net, hw, opt);
        QCOMPARE(r.cost, bruteForce(net, hw, 1024 * 8));
        // 9,928 by Optimus Eq. 3 alone; n3 alone has no Optimus Eq. 4 solution in 1 KB and
        // runs layer by layer, which costs more.
        QCOMPARE(r.cost, 16128.0);
        bool fused = false;
        for (const auto& g : r.groups)
            fused = fused || g == std::vector<LayerId>{2, 5, 7};
        QVERIFY(fused);
    }

    // The group space shares each vertex's groups between the caller and a helper thread: the
    // same groups, flags, costs and scheme as one thread, on networks with wide fan-outs and
    // large group spaces (the fuser picks two threads for these by itself).
    void sameResultOnOneAndTwoThreads() {
        for (const char* name : {"googlenet", "squeezenet1.0", "xception"})
            for (const char* hwName : {"optimus-default", "hwff-config-2"}) {
                const Network net = test::bundledNetwork(name);
                const Hardware hw = test::bundledHardware(hwName);
                OptimusFuserOptions one, two;
                one.threads = 1;
                two.threads = 2;
                const OptimusFuserResult a = optimusFuse(net, hw, one);
                const OptimusFuserResult b = optimusFuse(net, hw, two);
                const QString where = QString("%1 on %2").arg(name, hwName);
                QVERIFY2(a.cost == b.cost, qPrintable(where));
                QVERIFY2(a.groups == b.groups, qPrintable(where));
                QVERIFY2(a.groups_evaluated == b.groups_evaluated, qPrintable(where));
                QVERIFY2(a.classified_by_bound == b.classified_by_bound, qPrintable(where));
                QVERIFY2(a.subproblems == b.subproblems, qPrintable(where));
                QVERIFY(a.groups_evaluated > 200);
                // Forming the groups is part of the DP's time, and takes some of it.
                for (const OptimusFuserResult* r : {&a, &b})
                    QVERIFY2(r->form_seconds > 0 && r->form_seconds <= r->seconds,
                             qPrintable(where));
            }
    }

    // A group space takes the arrays of one that went before it (emptied; kept so that the
    // next search writes the memory the last one wrote): nothing of an earlier search may show
    // in a later one. Each search of a sequence (larger spaces before smaller ones and after,
    // off-line and on-line, with records and without) against the same search with arrays of
    // its own (the kept ones held by spaces alive meanwhile).
    void sameResultWhateverSearchedBefore() {
        struct Run {
            const char* net;
            const char* hw;
            int threads;
            bool online = false;
        };
        const std::vector<Run> runs = {{"googlenet", "tso-nmp", 2},
                                       {"alexnet", "convfusion-40nm-banked", 1},
                                       {"alexnet", "convfusion-40nm-banked", 1, true},
                                       {"squeezenet1.0", "optimus-default", 1},
                                       {"googlenet", "optimus-default", 1},
                                       {"resnet18", "optimus-config-1", 1},
                                       {"resnet50", "hwff-config-2", 2},
                                       {"mobilenetv2", "tso-nmp", 1, true},
                                       {"googlenet", "hwff-config-1", 2},
                                       {"vgg16", "optimus-config-5", 1}};
        auto search = [](const Run& r) {
            OptimusFuserOptions opt;
            opt.threads = r.threads;
            opt.online = r.online;
            return optimusFuse(test::bundledNetwork(r.net), test::bundledHardware(r.hw), opt);
        };
        const Network lenet = test::bundledNetwork("lenet5");
        OptimusGroupRules rules;
        rules.vertex.assign(size_t(lenet.size()), 1);
        auto fresh = [&](const Run& r) {
            std::vector<std::unique_ptr<OptimusGroupSpace>> holders;
            for (size_t i = 0; i < OptimusGroupSpace::kKeptStorages; ++i)
                holders.push_back(std::make_unique<OptimusGroupSpace>(
                    lenet, rules, [](const std::vector<LayerId>&, int, double, bool) {
                        OptimusGroupClass c;
                        c.cost = 1;
                        return c;
                    }));
            return search(r);
        };
        for (const Run& r : runs) {
            const OptimusFuserResult a = fresh(r), b = search(r);
            const QString where =
                QString("%1 on %2%3").arg(r.net, r.hw, r.online ? " (on-line)" : "");
            QVERIFY2(a.cost == b.cost, qPrintable(where));
            QVERIFY2(a.groups == b.groups, qPrintable(where));
            QVERIFY2(a.groups_evaluated == b.groups_evaluated, qPrintable(where));
            QVERIFY2(a.groupsCosted() == b.groupsCosted(), qPrintable(where));
            QVERIFY2(a.costed_from_records == b.costed_from_records, qPrintable(where));
            QVERIFY2(a.groups_inherited == b.groups_inherited, qPrintable(where));
            QVERIFY2(a.subproblems == b.subproblems, qPrintable(where));
            QVERIFY2(a.dp_steps == b.dp_steps, qPrintable(where));
        }
    }

    // Deferred costs (docs/model-notes.md, "Optimus deferred costs") change which groups are
    // costed and the order the DP tries them in, not the optimum nor the group chosen on ties:
    // the same scheme with and without, on one and on two threads, and with every group under
    // the deferral rule deferred whether the bound shows it to fit or not (some then turn out
    // invalid when the DP costs them), where nearly every group is deferred (large buffers),
    // where few are (small ones) and where the bounds cut.
    void deferringKeepsTheScheme() {
        int64_t deferred = 0;
        for (const char* name : {"googlenet", "inceptionv3", "resnet50", "squeezenet1.0"})
            for (const char* hwName : {"optimus-default", "optimus-config-5", "tso-nmp",
                                       "hwff-config-1", "hwff-config-2"}) {
                const Network net = test::bundledNetwork(name);
                const Hardware hw = test::bundledHardware(hwName);
                OptimusFuserOptions eager;
                eager.defer = false;
                // Inception-v3 forms a million groups on large buffers: a smaller share.
                if (std::string(name) == "inceptionv3") eager.max_groups_per_vertex = 2000;
                OptimusFuserOptions lazy = eager, lazy2 = eager;
                lazy.defer = lazy2.defer = true;
                lazy.threads = 1;
                lazy2.threads = 2;
                // Every group under the deferral rule deferred, shown to fit or not.
                OptimusFuserOptions unproven = lazy2;
                unproven.defer_unproven_sample = 0;
                const OptimusFuserResult a = optimusFuse(net, hw, eager);
                const QString where = QString("%1 on %2").arg(name, hwName);
                QCOMPARE(a.groups_deferred, int64_t(0));
                for (const OptimusFuserOptions& o : {lazy, lazy2, unproven}) {
                    const OptimusFuserResult b = optimusFuse(net, hw, o);
                    QVERIFY2(a.cost == b.cost, qPrintable(where));
                    QVERIFY2(a.groups == b.groups, qPrintable(where));
                    QVERIFY2(a.complete == b.complete, qPrintable(where));
                    QVERIFY2(b.deferred_costed <= b.groups_deferred, qPrintable(where));
                    deferred += b.groups_deferred;
                }
            }
        QVERIFY(deferred > 100000);
        // GoogLeNet on a large buffer: nearly every group deferred, few of them costed.
        const OptimusFuserResult g = optimusFuse(test::bundledNetwork("googlenet"),
                                                 test::bundledHardware("hwff-config-2"), {});
        QVERIFY2(g.groups_deferred > g.groups_evaluated * 3 / 4,
                 qPrintable(QString("%1 of %2").arg(g.groups_deferred).arg(g.groups_evaluated)));
        QVERIFY2(g.deferred_costed * 20 < g.groups_deferred,
                 qPrintable(QString("%1 of %2").arg(g.deferred_costed).arg(g.groups_deferred)));
    }

    // Vertices that outgrow their share are formed again under a size limit; with two threads
    // their groups are classified while they are formed, and what was classified for the
    // groups formed before the overflow must be dropped.
    void sameResultOnTwoThreadsWhenBoundsCut() {
        for (const char* name : {"googlenet", "inceptionv3"})
            for (int64_t perVertex : {40, 300}) {
                const Network net = test::bundledNetwork(name);
                const Hardware hw = test::bundledHardware("hwff-config-2");
                OptimusFuserOptions one, two;
                one.threads = 1;
                two.threads = 2;
                one.max_groups_per_vertex = two.max_groups_per_vertex = perVertex;
                const OptimusFuserResult a = optimusFuse(net, hw, one);
                const OptimusFuserResult b = optimusFuse(net, hw, two);
                const QString where = QString("%1, %2 per vertex").arg(name).arg(perVertex);
                QVERIFY2(!a.limited_vertices.empty(), qPrintable(where));
                QVERIFY2(a.cost == b.cost, qPrintable(where));
                QVERIFY2(a.groups == b.groups, qPrintable(where));
                QVERIFY2(a.groups_evaluated == b.groups_evaluated, qPrintable(where));
                QVERIFY2(a.classified_by_bound == b.classified_by_bound, qPrintable(where));
                QVERIFY2(a.groups_not_formed == b.groups_not_formed, qPrintable(where));
            }
    }

    void chainFormsTriangularNumberOfGroups() {
        Hardware hw = test::bundledHardware("hwff-config-1");
        hw.buffer.bytes = int64_t(1) << 30; // every group feasible: none is pruned
        for (int n = 1; n <= 16; ++n) {
            const Network net = chainNetwork(n);
            for (bool online : {false, true}) {
                OptimusFuserOptions opt;
                opt.online = online;
                opt.max_group_size = online ? n : 0;
                const OptimusFuserResult r = optimusFuse(net, hw, opt);
                // Optimus §4.4, Optimus Table 5.
                QCOMPARE(r.groups_evaluated, int64_t(n) * (n + 1) / 2);
            }
        }
    }

    void vggTable5Count() {
        // Optimus Table 5: VGG, 18 operators (13 conv + 5 pool), 171 groups bottom-up.
        const Network net = test::bundledNetwork("vgg16");
        OptimusFuserOptions opt;
        opt.fusible = {LayerType::conv, LayerType::pool};
        opt.prune_hopeless = false;
        const OptimusFuserResult r =
            optimusFuse(net, test::bundledHardware("optimus-default"), opt);
        QCOMPARE(r.operators, 18);
        QCOMPARE(r.groups_evaluated, int64_t(171));
        // The fc layers stay single.
        for (const auto& g : r.groups)
            if (net.layer(g.front()).type == LayerType::fc) QCOMPARE(g.size(), size_t(1));
        // Pruning hopeless groups leaves the scheme unchanged.
        opt.prune_hopeless = true;
        const OptimusFuserResult p =
            optimusFuse(net, test::bundledHardware("optimus-default"), opt);
        QCOMPARE(p.cost, r.cost);
        QVERIFY(p.groups_evaluated <= r.groups_evaluated);
    }

    void costerEqualsOptimusPlan() {
        for (const char* name : {"resnet50", "googlenet", "squeezenet1.0", "mobilenetv2"}) {
            const Network net = test::bundledNetwork(name);
            for (const char* hwName : {"hwff-config-1", "optimus-default"}) {
                const Hardware hw = test::bundledHardware(hwName);
                const int64_t cap = hw.buffer.bytes * 8;
                OptimusCoster coster(net, hw, cap);
                OptimusGroupRules rules;
                rules.vertex.assign(size_t(net.size()), 0);
                for (LayerId id = 0; id < net.size(); ++id)
                    rules.vertex[size_t(id)] = net.layer(id).type != LayerType::input;
                rules.prune_hopeless = false;
                rules.max_size = 12;
                int checked = 0;
                const OptimusGroupSpace space(
                    net, rules, [&](const std::vector<LayerId>& m, int, double, bool) {
                        OptimusGroupClass c;
                        bool compute = false;
                        for (LayerId v : m)
                            compute = compute || isCompute(net.layer(v).type);
                        if (!compute || (checked++ % 3) != 0) return c;
                        const auto a = coster.cost(m);
                        const OptimusPlan b = optimusPlan(net, hw, m, cap);
                        if (a.memory_cost != b.memory_cost || a.feasible != b.feasible ||
                            (b.feasible && a.weights_resident != b.weights_resident))
                            qWarning("%s: group of %zu differs: %lld vs %lld", name, m.size(),
                                     (long long)a.memory_cost, (long long)b.memory_cost);
                        else
                            c.cost = 1; // counted below
                        return c;
                    });
                size_t agreeing = 0;
                for (size_t g = 0; g < space.size(); ++g)
                    agreeing += space.cost(g) == 1;
                QVERIFY(checked > 100);
                QCOMPARE(agreeing, size_t((checked + 2) / 3));
            }
        }
    }

    void onlineVariantKeepsItsRules() {
        for (const char* name : {"resnet50", "googlenet", "squeezenet1.0"}) {
            const Network net = test::bundledNetwork(name);
            const Hardware hw = test::bundledHardware("optimus-default");
            OptimusFuserOptions off, on;
            on.online = true;
            const OptimusFuserResult a = optimusFuse(net, hw, off);
            const OptimusFuserResult b = optimusFuse(net, hw, on);
            QVERIFY(b.max_group_size >= 1);
            QVERIFY(b.groups_evaluated < a.groups_evaluated);
            QVERIFY(b.cost >= a.cost); // a heuristic over a subset of the groups
            for (const auto& g : b.groups) {
                QVERIFY(int(g.size()) <= b.max_group_size);
                for (LayerId v : g) {
                    const auto& succ = net.successors(v);
                    if (succ.size() < 2 || g.size() == 1) continue;
                    size_t inside = 0;
                    for (LayerId s : succ)
                        inside += std::binary_search(g.begin(), g.end(), s);
                    QVERIFY2(inside == 0 || inside == succ.size(),
                             qPrintable(QString::fromStdString(net.layer(v).name)));
                }
            }
        }
    }

    void lookupTableHandComputed() {
        // Two 3×3 convs (pad 1) on 4×8×8, 4 channels each. Optimus Alg. 3 line 4 for {c0} at
        // t_h = t_w = ⌈8/4⌉ = 2: the outside input 4 ch × ((2−1)+3) × 4 = 64, c0's output
        // 4 × 2 × 2 = 16 (T_c = 16 ≥ C_out: no ISOA, t_c = C_out) → 80 elements × 16 bits.
        // {c1} alike → memo[1] = 1280 bits. {c0, c1}: c1 out 16, c0 out 4 × 4 × 4 = 64, input
        // 4 × 6 × 6 = 144 (ISOA would need T_c < C_out) → 224 × 16 = 3584 bits.
        const Network net = chainNetwork(2);
        Hardware hw = test::bundledHardware("optimus-default"); // ox|oc on 16×16: T_c = 16
        const OptimusLookupTable t = buildOptimusLookupTable(net, hw);
        QCOMPARE(t.memo_bits.size(), size_t(2));
        QCOMPARE(t.memo_bits[0], int64_t(1280));
        QCOMPARE(t.memo_bits[1], int64_t(3584));
        QCOMPARE(t.maxGroupSize(2000), 1);
        QCOMPARE(t.maxGroupSize(4000), 2);
    }

    void resultIsAValidSchedule() {
        const Network net = test::bundledNetwork("resnet50");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        for (Strategy s : {Strategy::optimus, Strategy::recompute}) {
            OptimusFuserOptions opt;
            opt.strategy = s;
            const OptimusFuserResult r = optimusFuse(net, hw, opt);
            QVERIFY(checkSchedule(net, hw, r.schedule).empty());
            const Metrics m = evaluate(net, hw, r.schedule);
            const Metrics d = evaluate(net, hw, defaultSchedule(net, hw));
            if (s == Strategy::optimus) {
                // Optimus Eq. 3 summed over the scheme is what evaluate reports for the groups.
                QCOMPARE(double(m.totals.dram_accesses), r.cost);
                QVERIFY(m.totals.dram_accesses < d.totals.dram_accesses);
            }
        }
    }

    // A layer alone without an Optimus Eq. 4 solution (the global pools of ResNet-50,
    // Inception-v3 and Xception on the paper's 128 KB buffer: their input at all its channels
    // does not fit; most convolutions of DMCNN-VD at full HD) runs layer by layer with the
    // default tiles, so the scheme fits the buffer, and the DP counts what that schedule costs
    // (for one image, as Optimus Eq. 3 does).
    void loneLayerWithoutEq4SolutionRunsLayerByLayer() {
        Hardware hw = test::bundledHardware("optimus-default");
        hw.batch = 1;
        for (const char* name : {"resnet50", "inceptionv3", "xception", "dmcnn-vd"}) {
            const Network net = test::bundledNetwork(name);
            const OptimusFuserResult r = optimusFuse(net, hw, OptimusFuserOptions{});
            QVERIFY(checkSchedule(net, hw, r.schedule).empty());
            const Metrics m = evaluate(net, hw, r.schedule);
            QVERIFY2(m.totals.fits, name);
            QCOMPARE(double(m.totals.dram_accesses), r.cost);
            OptimusCoster coster(net, hw, hw.buffer.bytes * 8);
            int layerByLayer = 0;
            for (const FusionGroup& g : r.schedule.groups) {
                if (g.layers.size() != 1 || coster.cost(g.layers).feasible) {
                    QCOMPARE(g.strategy, Strategy::optimus);
                    continue;
                }
                QVERIFY(isImplicitGroup(g, net)); // the default group: layer by layer
                QCOMPARE(r.schedule.layers[size_t(g.layers[0])],
                         defaultLayerSchedule(net, hw, g.layers[0]));
                ++layerByLayer;
            }
            QVERIFY2(layerByLayer > 0, name); // the global pool at least
        }
    }

    void cancelStopsQuickly() {
        const Network net = test::bundledNetwork("googlenet");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        std::atomic<bool> cancel{false};
        SearchControl control;
        control.cancel = &cancel;
        OptimusFuserOptions opt;
        opt.prune_hopeless = false;
        std::chrono::steady_clock::time_point set;
        std::thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            set = std::chrono::steady_clock::now();
            cancel = true;
        });
        const OptimusFuserResult r = optimusFuse(net, hw, opt, control);
        const auto end = std::chrono::steady_clock::now();
        t.join();
        if (!r.cancelled) QSKIP("the search finished before the flag was set");
        QVERIFY(end - set < std::chrono::milliseconds(100));
    }
};

QTEST_GUILESS_MAIN(TstSearchOptimus)
#include "tst_search_optimus.moc"
