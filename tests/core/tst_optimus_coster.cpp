// The Optimus group coster (search/optimus_coster.h) against the coster as it was before its
// passes were fused and its bound of the outside tensors was made tighter
// (tests/support/reference_optimus_coster.h), on every group the DP can form (no pruning) of
// the bundled networks under presets with small and large buffers, and of random DAGs with
// strides, pools, adds, concats and non-square maps:
//  - Optimus Eq. 3 cost, Optimus Eq. 4 feasibility, weight residency, the Optimus Alg. 3 fmap
//    at fixed tiles and, for groups that do not fit and are not hopeless, the lower bound are
//    the same (a hopeless group is never combined, so its bound is not used; a group that
//    fits gets a bound no larger than before, its operators at min(T_c, C_out)); under a ceiling
//    the cost is the same when it is within it, else above the ceiling and no more than the cost;
//  - every group called hopeless (no group the DP forms from it has an Optimus Eq. 4
//    solution) has no feasible group among all the groups that hold it and none of the
//    consumers it feeds outside — the claim the DP prunes by, checked directly. The coster
//    before failed it: it counted a joined concat as an ISOA operator that forces its readers
//    off (random DAG trial 65 below);
//  - every group the space defers on the coster's upper bounds (OptimusDeferral) is valid and
//    not hopeless, its lower bound is no more than its cost, and costed later it gets the
//    cost the coster gives it directly.
#include "reference_optimus_coster.h"
#include "test_support.h"

#include "examples/bundled.h"
#include "models/optimus.h"
#include "network/dims.h"
#include "search/optimus_coster.h"
#include "search/optimus_fuser.h"
#include "search/optimus_groups.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>

using namespace lf;

namespace {

struct Compared {
    int64_t groups = 0, differing = 0, feasible = 0, hopeless = 0, streamed = 0;
    int64_t aboveCeiling = 0; // costs asked for under a ceiling they exceed
    int64_t tighter = 0;      // hopeless now, not before
    int64_t unsound = 0;      // hopeless, yet a group holding it is feasible
    std::string first;        // the first difference, for the message
};

std::string describe(const std::vector<LayerId>& m, const OptimusCoster::Cost& a,
                     const OptimusCoster::Cost& b) {
    std::ostringstream s;
    s << "group of " << m.size() << " from layer " << m.front() << ": cost " << a.memory_cost
      << " vs " << b.memory_cost << ", feasible " << a.feasible << " vs " << b.feasible
      << ", resident " << a.weights_resident << " vs " << b.weights_resident << ", bound "
      << a.lower_bound_bits << " vs " << b.lower_bound_bits << ", hopeless " << a.hopeless << " vs "
      << b.hopeless;
    return s.str();
}

// Every group of `net` (up to `maxSize` vertices, at most `budget` groups) through both costers.
Compared compare(const Network& net, const Hardware& hw, int64_t capBits, int maxSize,
                 int64_t budget) {
    OptimusCoster now(net, hw, capBits);
    test::ReferenceOptimusCoster before(net, hw, capBits);
    OptimusGroupRules rules;
    rules.vertex.assign(size_t(net.size()), 0);
    for (LayerId id = 0; id < net.size(); ++id)
        rules.vertex[size_t(id)] = net.layer(id).type != LayerType::input;
    now.setJoinable(rules.vertex);
    before.setJoinable(rules.vertex);
    rules.prune_hopeless = false;
    rules.max_size = maxSize;
    rules.max_groups = budget;
    Compared r;
    const size_t words = size_t(net.size() + 63) / 64;
    std::vector<std::vector<uint64_t>> hopelessSets, hopelessBelow, feasibleSets;
    auto bits = [&](const std::vector<LayerId>& m) {
        std::vector<uint64_t> b(words, 0);
        for (LayerId v : m)
            b[size_t(v) / 64] |= uint64_t(1) << (v % 64);
        return b;
    };
    const OptimusGroupSpace space(
        net, rules, [&](const std::vector<LayerId>& m, int, double, bool) {
            const OptimusCoster::Cost a = now.cost(m), b = before.cost(m);
            ++r.groups;
            r.feasible += b.feasible;
            r.hopeless += a.hopeless;
            r.tighter += a.hopeless && !b.hopeless;
            r.streamed += b.feasible && !b.weights_resident;
            if (a.hopeless) {
                // With the consumers it feeds outside (a larger group the DP forms from it keeps
                // them outside: it adds producers and parts it does not touch).
                std::vector<LayerId> below;
                for (LayerId v : m)
                    for (LayerId c : net.successors(v))
                        if (!std::binary_search(m.begin(), m.end(), c)) below.push_back(c);
                hopelessSets.push_back(bits(m));
                hopelessBelow.push_back(bits(below));
            }
            if (b.feasible && m.size() > 1) feasibleSets.push_back(bits(m));
            // A group that fits bounds the groups holding it by its operators at min(T_c, C_out),
            // no more than the bound before.
            const bool sameBound =
                a.hopeless || (a.feasible ? a.lower_bound_bits <= b.lower_bound_bits
                                          : a.lower_bound_bits == b.lower_bound_bits);
            const bool same = a.memory_cost == b.memory_cost && a.feasible == b.feasible &&
                              a.weights_resident == b.weights_resident && sameBound;
            bool sameFmap = true;
            for (int64_t t : {1, 3, 8})
                sameFmap = sameFmap && now.fmapAt(m, t, t + 1) == before.fmapAt(m, t, t + 1);
            // Under a ceiling: the exact cost when it is within it, else a cost above it.
            bool ceilingKept = true;
            if (b.feasible)
                for (int64_t ceiling : {b.memory_cost, b.memory_cost - 1, b.memory_cost / 2,
                                        b.memory_cost - b.memory_cost / 8, int64_t(0)}) {
                    const int64_t got = now.cost(m, ceiling).memory_cost;
                    ceilingKept = ceilingKept && (b.memory_cost <= ceiling
                                                      ? got == b.memory_cost
                                                      : got > ceiling && got <= b.memory_cost);
                    r.aboveCeiling += b.memory_cost > ceiling;
                }
            if (!same || !sameFmap || !ceilingKept) {
                if (r.differing++ == 0)
                    r.first = describe(m, a, b) + (sameFmap ? "" : ", fmap differs") +
                              (ceilingKept ? "" : ", not kept under a ceiling");
            }
            OptimusGroupClass c;
            c.cost = 1;
            return c;
        });
    for (size_t i = 0; i < hopelessSets.size(); ++i)
        for (const auto& f : feasibleSets) {
            const auto &h = hopelessSets[i], &below = hopelessBelow[i];
            bool holds = true;
            for (size_t k = 0; k < words && holds; ++k)
                holds = (h[k] & ~f[k]) == 0 && (below[k] & f[k]) == 0;
            r.unsound += holds;
        }
    return r;
}

// The rules of a group space over every layer but the inputs, within `capBits`, forming at
// most `budget` groups (0: no bound).
OptimusGroupRules spaceRules(const Network& net, int64_t capBits, int64_t budget) {
    OptimusGroupRules rules;
    rules.vertex.assign(size_t(net.size()), 0);
    for (LayerId id = 0; id < net.size(); ++id)
        rules.vertex[size_t(id)] = net.layer(id).type != LayerType::input;
    rules.capacity_bits = capBits;
    rules.max_groups = budget;
    return rules;
}

// The class the fuser's classifier gives a group of `members` layers for the coster's cost.
OptimusGroupClass classOf(const OptimusCoster::Cost& c, size_t members) {
    OptimusGroupClass k = OptimusCoster::classOf(c);
    if (c.feasible || members == 1) k.cost = double(c.memory_cost);
    return k;
}

struct Deferred {
    int64_t groups = 0, deferred = 0, wrong = 0;
    int64_t unproven = 0, invalid = 0; // deferred unproven, and of those found invalid
    std::string first;
};

// The group space of `net` with every group it can defer deferred (no sample, any share of
// dominated groups) — with `unproven`, every group under the deferral rule, shown to fit or
// not — on two threads; then every deferred group checked and costed, half one by one and
// half in batches. A group shown to fit must be valid and not hopeless; any deferred group's
// cost must be at least its bound, and resolve() must give what the coster gives (infinite
// when it does not fit).
Deferred checkDeferred(const Network& net, const Hardware& hw, int64_t capBits, int64_t budget,
                       bool unproven = false) {
    OptimusGroupRules rules = spaceRules(net, capBits, budget);
    rules.threads = 2;
    OptimusDeferral d = OptimusCoster(net, hw, capBits).deferral();
    d.sample = 0;
    d.max_dominated = 1;
    d.unproven_sample = 0;
    d.max_unproven = unproven ? 1 : -1;
    rules.deferral = &d;
    std::vector<OptimusCoster> costers(2, OptimusCoster(net, hw, capBits));
    for (OptimusCoster& c : costers)
        c.setJoinable(rules.vertex);
    OptimusCoster fresh = costers[0];
    OptimusGroupSpace space(
        net, rules, [&](const std::vector<LayerId>& m, int thread, double split, bool upper) {
            return classOf(costers[size_t(thread)].cost(m, optimusCeiling(split), upper), m.size());
        });
    Deferred r;
    r.groups = int64_t(space.size());
    std::vector<uint32_t> batch;
    std::vector<std::pair<uint32_t, OptimusCoster::Cost>> expected;
    auto costOf = [](const OptimusCoster::Cost& c) {
        return c.feasible ? double(c.memory_cost) : std::numeric_limits<double>::infinity();
    };
    auto settle = [&] {
        space.resolve(batch);
        for (const auto& [g, c] : expected)
            if (space.deferred(g) || space.cost(g) != costOf(c)) {
                if (r.wrong++ == 0)
                    r.first = "batch: group " + std::to_string(g) + " costs " +
                              std::to_string(space.cost(g)) + ", not " +
                              std::to_string(c.memory_cost);
            }
        batch.clear();
        expected.clear();
    };
    for (size_t g = 0; g < space.size(); ++g) {
        if (!space.deferred(g)) continue;
        ++r.deferred;
        const std::vector<LayerId> m = space.members(g);
        const OptimusCoster::Cost c = fresh.cost(m, optimusCeiling(space.split(g)));
        const double bound = space.cost(g);
        const bool proven = space.deferredProven(g);
        if (!proven) {
            ++r.unproven;
            r.invalid += !c.feasible;
        }
        const bool sound = (!proven || (c.feasible && !c.hopeless)) && bound <= costOf(c);
        if (!sound && r.wrong++ == 0)
            r.first = describe(m, c, c) + (proven ? "" : " (unproven)") +
                      ", deferred with lower bound " + std::to_string(bound);
        if (g % 2) {
            batch.push_back(uint32_t(g));
            expected.push_back({uint32_t(g), c});
            if (batch.size() == 40) settle();
        } else if (space.resolve(g) != costOf(c) && r.wrong++ == 0) {
            r.first = describe(m, c, c) + ", resolved to " + std::to_string(space.cost(g));
        }
    }
    settle();
    return r;
}

// How a checked space defers: never (groups are costed as they are formed), as the fuser
// does, or every group the deferral's bound shows to fit from the first.
enum class Deferring { never, asFuser, all };

// The group space of `net` within `capBits` (at most 20,000 groups) with the deferral's
// figures, classified on one thread by the coster as the fuser does; and a coster of its own
// for checking the groups.
struct CostedSpace {
    CostedSpace(const Network& net, const Hardware& hw, int64_t capBits, Deferring how)
        : fresh(net, hw, capBits), d(fresh.deferral()) {
        if (how == Deferring::never) d.sample = INT64_MAX;
        if (how == Deferring::all) {
            d.sample = 0;
            d.max_dominated = 1;
        }
        if (how != Deferring::asFuser) d.max_unproven = -1;
        OptimusGroupRules rules = spaceRules(net, capBits, 20000);
        rules.deferral = &d;
        fresh.setJoinable(rules.vertex);
        auto coster = std::make_shared<OptimusCoster>(fresh);
        space = std::make_unique<OptimusGroupSpace>(
            net, rules, [coster](const std::vector<LayerId>& m, int, double split, bool upper) {
                // As the fuser's classifier: the full tile's operator terms for the records.
                return classOf(coster->cost(m, optimusCeiling(split), upper, true), m.size());
            });
    }
    OptimusCoster fresh;
    OptimusDeferral d;
    std::unique_ptr<OptimusGroupSpace> space;
};

struct Inherited {
    int64_t groups = 0, inherited = 0, invalid = 0, wrong = 0;
    int64_t builtLater = 0; // groups formed deferring given records later
    std::string first;
};

// The group space of `net` with the deferral's figures, so that groups are classified from
// their components' records where they can be (inherited sub-groups) — with nothing deferred,
// or (`deferring`) deferring as the fuser does, where groups formed deferring get their
// records only when a later group needs them; then every group so classified costed exactly:
// one called invalid must have no solution of Optimus Eq. 4, one called dominated must cost at
// least what it was given, and that must be above its split.
Inherited checkInherited(const Network& net, const Hardware& hw, int64_t capBits,
                         bool deferring = false) {
    CostedSpace cs(net, hw, capBits, deferring ? Deferring::asFuser : Deferring::never);
    const OptimusGroupSpace& space = *cs.space;
    OptimusCoster& fresh = cs.fresh;
    Inherited r;
    r.groups = int64_t(space.size());
    r.builtLater = space.recordsBuiltLater();
    for (size_t g = 0; g < space.size(); ++g) {
        if (!space.inherited(g)) continue;
        ++r.inherited;
        const std::vector<LayerId> m = space.members(g);
        const OptimusCoster::Cost c = fresh.cost(m);
        const double given = space.cost(g);
        const bool invalid = std::isinf(given);
        r.invalid += invalid;
        const bool sound =
            invalid ? !c.feasible
                    : given > space.split(g) && (!c.feasible || given <= double(c.memory_cost));
        if (!sound && r.wrong++ == 0)
            r.first =
                describe(m, c, c) + (invalid ? ", called invalid"
                                             : ", given " + std::to_string(given) + " (split " +
                                                   std::to_string(space.split(g)) + ")");
    }
    return r;
}

// What one check found: of `checked` groups, `counted` of the kind under test (deferred
// unproven, inherited), `invalid` of those found invalid, `wrong` ones (the first described).
struct Outcome {
    int64_t checked = 0, counted = 0, invalid = 0, wrong = 0;
    std::string first;
    int64_t above = 0; // of those counted, valid and given a cost above their split
};

// The group space of `net` as the fuser forms it with the deferral's figures — deferring
// (every group it can, from the first) or costing every group as it is formed (then groups
// are classified from their components' records where they can be) — and every group checked
// against the coster: what the space takes as the least every group holding it needs for its
// operators must not exceed what the group itself needs for them under its own Optimus Alg. 2
// decision at its smallest tile. The DP prunes every combination of components whose bounds
// add up beyond the buffer, so a bound above that may drop a group the optimum needs.
Outcome checkLowerBounds(const Network& net, const Hardware& hw, int64_t capBits, bool deferring) {
    CostedSpace cs(net, hw, capBits, deferring ? Deferring::all : Deferring::never);
    const OptimusGroupSpace& space = *cs.space;
    OptimusCoster& fresh = cs.fresh;
    Outcome r;
    for (size_t g = 0; g < space.size(); ++g) {
        const std::vector<LayerId> m = space.members(g);
        const OptimusCoster::Cost c = fresh.cost(m);
        if (c.operator_fmap == 0) continue; // hopeless before its decision was found
        const int64_t need = c.operator_fmap * hw.precision.act_bits;
        ++r.checked;
        const bool notCosted = space.deferred(g) || space.inherited(g);
        r.counted += notCosted;
        if (space.lowerBoundBits(g) > need && r.wrong++ == 0)
            r.first = describe(m, c, c) +
                      (space.deferred(g)    ? " (deferred)"
                       : space.inherited(g) ? " (inherited)"
                                            : "") +
                      ": lower bound " + std::to_string(space.lowerBoundBits(g)) +
                      " bits, its operators need " + std::to_string(need);
    }
    return r;
}

// The group space of `net` deferring as the fuser does, with nothing deferred, or deferring
// every group it can; every group costed from its component's records (docs/model-notes.md,
// "Optimus costs from records") costed again by the coster with its split as the ceiling, as
// the classifier costs it: it must fit with the same cost (Optimus Eq. 3, or the cost above
// the split the coster gives where the ceiling stops its t_h search) and lower bound, and
// where the space keeps a bound of the groups holding it, the same rows read and a bound no
// lower than the coster's (those groups need no more).
Outcome checkFromRecords(const Network& net, const Hardware& hw, int64_t capBits, Deferring how) {
    CostedSpace cs(net, hw, capBits, how);
    const OptimusGroupSpace& space = *cs.space;
    OptimusCoster& fresh = cs.fresh;
    Outcome r;
    r.checked = int64_t(space.size());
    for (size_t g = 0; g < space.size(); ++g) {
        if (!space.costedFromRecords(g)) continue;
        ++r.counted;
        const std::vector<LayerId> m = space.members(g);
        const OptimusCoster::Cost c = fresh.cost(m, optimusCeiling(space.split(g)), true);
        std::string wrong;
        r.above += space.cost(g) > space.split(g) &&
                   space.cost(g) < std::numeric_limits<double>::infinity();
        if (!(space.cost(g) < std::numeric_limits<double>::infinity())) {
            // Shown invalid: no Optimus Eq. 4 solution, and a lower bound for the groups
            // holding it that the coster's (over the decisions they can impose) holds.
            ++r.invalid;
            if (c.feasible)
                wrong = "invalid, but it has an Optimus Eq. 4 solution";
            else if (space.lowerBoundBits(g) > c.lower_bound_bits)
                wrong = "lower bound " + std::to_string(space.lowerBoundBits(g)) +
                        " above the coster's";
        } else if (!c.feasible)
            wrong = "no Optimus Eq. 4 solution";
        else if (space.cost(g) != double(c.memory_cost))
            wrong = "cost " + std::to_string(space.cost(g));
        else if (space.lowerBoundBits(g) != c.lower_bound_bits)
            wrong = "lower bound " + std::to_string(space.lowerBoundBits(g));
        else if (space.upperBoundBits(g) != std::numeric_limits<int64_t>::max() &&
                 (space.upperBoundBits(g) < c.upper_bound_bits ||
                  space.upperRows(g) != c.upper_rows))
            wrong = "upper bound " + std::to_string(space.upperBoundBits(g)) + " (rows " +
                    std::to_string(space.upperRows(g)) + ")";
        if (!wrong.empty() && r.wrong++ == 0)
            r.first = describe(m, c, c) + ": from records " + wrong;
    }
    return r;
}

// Runs `check(net, hw, capBits, budget)` on each bundled network × preset at `eighths`
// eighths of its buffer (at most 20,000 groups), then on `trials` random DAGs with buffers
// from 256 bytes to 64 KB in doublings — or, `fine`, from 128 bytes up a quarter at a time, so
// that many groups lie close to the edge of fitting — (no bound); fails at the first check
// that finds a wrong group, and adds up what the checks counted, on the bundled networks and
// on the random DAGs.
template <class Check>
void checkEverywhere(std::initializer_list<const char*> names,
                     std::initializer_list<const char*> presets, std::initializer_list<int> eighths,
                     int trials, uint32_t seed, Check check, Outcome& bundled, Outcome& random,
                     bool fine = false) {
    auto add = [](Outcome& sum, const Outcome& r) {
        sum.checked += r.checked;
        sum.counted += r.counted;
        sum.invalid += r.invalid;
        sum.above += r.above;
    };
    for (const char* name : names)
        for (const char* hwName : presets) {
            const Network net = test::bundledNetwork(name);
            const Hardware hw = test::bundledHardware(hwName);
            for (int e : eighths) {
                const int64_t capBits = hw.buffer.bytes * e;
                const Outcome r = check(net, hw, capBits, 20000);
                QVERIFY2(r.wrong == 0,
                         qPrintable(QString("%1 on %2 with %3 bits: %4 of %5 wrong; %6")
                                        .arg(name, hwName)
                                        .arg(capBits)
                                        .arg(r.wrong)
                                        .arg(r.checked)
                                        .arg(QString::fromStdString(r.first))));
                add(bundled, r);
            }
        }
    std::mt19937 rng(seed);
    const Hardware hw = test::bundledHardware("hwff-config-1");
    for (int trial = 0; trial < trials; ++trial) {
        const std::string yaml = test::randomStridedDag(rng, 4 + int(rng() % 9));
        const Network net = test::networkFromYaml(yaml);
        for (int64_t capBytes = fine ? 128 : 256; capBytes <= 65536;
             capBytes += fine ? capBytes / 4 : capBytes) {
            const Outcome r = check(net, hw, capBytes * 8, 0);
            QVERIFY2(r.wrong == 0, qPrintable(QString("trial %1 (%2 bytes): %3 in\n%4")
                                                  .arg(trial)
                                                  .arg(capBytes)
                                                  .arg(QString::fromStdString(r.first))
                                                  .arg(QString::fromStdString(yaml))));
            add(random, r);
        }
    }
}

} // namespace

class TstOptimusCoster : public QObject {
    Q_OBJECT
  private slots:
    void equalsTheCosterBeforeOnBundledNetworks() {
        int64_t groups = 0, feasible = 0, hopeless = 0, streamed = 0, tighter = 0, above = 0;
        for (const BundledFile& n : bundledFiles()) {
            if (n.kind != BundledKind::network) continue;
            const Network net = test::bundledNetwork(n.name);
            for (const char* hwName :
                 {"optimus-default", "hwff-config-1", "hwff-config-2", "tso-nmp"}) {
                const Hardware hw = test::bundledHardware(hwName);
                const Compared r = compare(net, hw, hw.buffer.bytes * 8, 10, 4000);
                QVERIFY2(r.differing == 0,
                         qPrintable(QString("%1 on %2: %3 of %4 groups differ; %5")
                                        .arg(n.name, hwName)
                                        .arg(r.differing)
                                        .arg(r.groups)
                                        .arg(QString::fromStdString(r.first))));
                QVERIFY2(r.unsound == 0, qPrintable(QString("%1 on %2: %3 hopeless groups are "
                                                            "held by a feasible one")
                                                        .arg(n.name, hwName)
                                                        .arg(r.unsound)));
                tighter += r.tighter;
                groups += r.groups;
                feasible += r.feasible;
                hopeless += r.hopeless;
                streamed += r.streamed;
                above += r.aboveCeiling;
            }
        }
        // Every kind of classification was met many times.
        QVERIFY(groups > 50000);
        QVERIFY(feasible > 5000);
        QVERIFY(hopeless > 5000);
        QVERIFY(streamed > 1000);
        QVERIFY(tighter > 1000); // the tighter bound does prune more
        QVERIFY(above > 10000);
    }

    void deferredGroupsAreValid() {
        // The preset's buffer, and smaller and larger ones in steps, so that many groups are
        // deferred close to the edge of fitting, where a bound that claims too little shows.
        Outcome bundled, random;
        checkEverywhere(
            {"googlenet", "inceptionv3", "squeezenet1.0", "resnet50", "mobilenetv2", "xception",
             "dmcnn-vd"},
            {"optimus-default", "optimus-config-5", "tso-nmp", "hwff-config-1", "hwff-config-2"},
            {1, 2, 3, 4, 6, 8, 12, 16}, 120, 20261127,
            [](const Network& net, const Hardware& hw, int64_t capBits, int64_t budget) {
                const Deferred r = checkDeferred(net, hw, capBits, budget);
                return Outcome{r.deferred, r.deferred, r.invalid, r.wrong, r.first};
            },
            bundled, random, true);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(bundled.counted > 50000, qPrintable(QString("%1 deferred").arg(bundled.counted)));
        QVERIFY2(random.counted > 200, qPrintable(QString("%1 deferred").arg(random.counted)));
    }

    // Groups deferred without a proof that they fit (OptimusDeferral::unproven_sample): each
    // costs at least its bound, and resolve() gives the coster's cost, infinite for the ones
    // that turn out not to fit — which must be met often.
    void unprovenDeferredGroupsResolveToTheCostersCost() {
        Outcome bundled, random;
        checkEverywhere(
            {"googlenet", "squeezenet1.0", "resnet50", "xception"},
            {"optimus-default", "tso-nmp", "hwff-config-1"}, {2, 8, 16}, 60, 20261128,
            [](const Network& net, const Hardware& hw, int64_t capBits, int64_t budget) {
                const Deferred r = checkDeferred(net, hw, capBits, budget, true);
                return Outcome{r.deferred, r.unproven, r.invalid, r.wrong, r.first};
            },
            bundled, random);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(bundled.counted > 20000 && bundled.invalid > 2000,
                 qPrintable(
                     QString("%1 unproven, %2 invalid").arg(bundled.counted).arg(bundled.invalid)));
        QVERIFY(random.invalid > 20);
    }

    // Groups classified from their components' records without costing them (inherited
    // sub-groups; docs/model-notes.md, "Optimus inherited sub-groups") against the coster.
    void inheritedClassesHoldAgainstTheCoster() {
        Outcome bundled, random;
        checkEverywhere(
            {"googlenet", "inceptionv3", "squeezenet1.0", "resnet50", "xception", "dmcnn-vd"},
            {"optimus-default", "optimus-config-5", "tso-nmp", "hwff-config-1", "convfusion-40nm"},
            {2, 8, 32}, 120, 20261129,
            [](const Network& net, const Hardware& hw, int64_t capBits, int64_t) {
                const Inherited r = checkInherited(net, hw, capBits);
                return Outcome{r.inherited, r.inherited, r.invalid, r.wrong, r.first};
            },
            bundled, random);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(
            bundled.counted > 20000 && bundled.invalid > 2000,
            qPrintable(
                QString("%1 inherited, %2 invalid").arg(bundled.counted).arg(bundled.invalid)));
        QVERIFY(random.counted > 100);
    }

    // The same where the space defers as the fuser does: groups formed deferring get their
    // records only when a later group, costed as it is formed, needs them.
    void inheritedClassesHoldWhereTheSpaceDefers() {
        int64_t builtLater = 0;
        Outcome bundled, random;
        checkEverywhere(
            {"googlenet", "inceptionv3"},
            {"optimus-config-5", "tso-nmp", "hwff-config-1", "convfusion-40nm"}, {4, 8}, 40,
            20261126,
            [&](const Network& net, const Hardware& hw, int64_t capBits, int64_t) {
                const Inherited r = checkInherited(net, hw, capBits, true);
                builtLater += r.builtLater;
                return Outcome{r.inherited, r.inherited, r.invalid, r.wrong, r.first};
            },
            bundled, random);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(builtLater > 1000 && bundled.counted > 10000,
                 qPrintable(QString("%1 given records later, %2 inherited")
                                .arg(builtLater)
                                .arg(bundled.counted)));
    }

    // Groups costed from their component's records against the coster, in spaces deferring
    // as the fuser does, costing every group as it is formed, and deferring all they can;
    // among them groups shown invalid so, which must be met often.
    void costsFromRecordsEqualTheCosters() {
        for (const Deferring how : {Deferring::asFuser, Deferring::never, Deferring::all}) {
            Outcome bundled, random;
            checkEverywhere(
                {"googlenet", "inceptionv3", "xception"},
                {"optimus-config-5", "tso-nmp", "hwff-config-1", "hwff-config-3"}, {4, 8}, 40,
                20261130,
                [how](const Network& net, const Hardware& hw, int64_t capBits, int64_t) {
                    return checkFromRecords(net, hw, capBits, how);
                },
                bundled, random);
            if (QTest::currentTestFailed()) return;
            QVERIFY2(bundled.counted > 2000 && random.counted > 50 && bundled.invalid > 500 &&
                         random.invalid > 20 && bundled.above > (how == Deferring::all ? 20 : 5000),
                     qPrintable(QString("%1 and %2 costed from records, %3 and %4 invalid, %5 "
                                        "above their split")
                                    .arg(bundled.counted)
                                    .arg(random.counted)
                                    .arg(bundled.invalid)
                                    .arg(random.invalid)
                                    .arg(bundled.above)));
            qInfo("%s: %lld and %lld costed from records, %lld and %lld invalid, %lld and %lld "
                  "above their split",
                  how == Deferring::asFuser ? "as the fuser"
                  : how == Deferring::never ? "never deferring"
                                            : "deferring all",
                  (long long)bundled.counted, (long long)random.counted, (long long)bundled.invalid,
                  (long long)random.invalid, (long long)bundled.above, (long long)random.above);
        }
    }

    // Lower bounds where a layer consumed in a group can hold less than it holds alone, as
    // the group's output: its first layer is charged what its consumers read of it, not a
    // whole tile; and on networks whose tiles never shrink so, nothing changes.
    void lowerBoundsHoldWhereTilesShrink() {
        std::mt19937 rng(20261127);
        int64_t checked = 0, notCosted = 0;
        for (int trial = 0; trial < 80; ++trial) {
            const std::string yaml = test::randomStridedDag(rng, 6 + int(rng() % 10), true);
            const Network net = test::networkFromYaml(yaml);
            for (const char* hwName : {"hwff-config-1", "tso-nmp"}) {
                const Hardware hw = test::bundledHardware(hwName);
                for (int64_t capBytes = 128; capBytes <= 16384; capBytes += capBytes / 2)
                    for (bool deferring : {false, true}) {
                        const Outcome r = checkLowerBounds(net, hw, capBytes * 8, deferring);
                        QVERIFY2(r.wrong == 0,
                                 qPrintable(QString("trial %1 on %2 (%3 bytes%4): %5 in\n%6")
                                                .arg(trial)
                                                .arg(hwName)
                                                .arg(capBytes)
                                                .arg(deferring ? ", deferring" : "")
                                                .arg(QString::fromStdString(r.first))
                                                .arg(QString::fromStdString(yaml))));
                        checked += r.checked;
                        notCosted += r.counted;
                    }
            }
        }
        QVERIFY2(checked > 20000 && notCosted > 5000,
                 qPrintable(QString("%1 groups, %2 not costed").arg(checked).arg(notCosted)));
    }

    // The DP's floor (optimusDpFloor): over every group the DP may choose (valid, not above
    // its split; a deferred one at its lower bound) the floors of its layers add up to no
    // more than its cost, whether the floor follows the groups' components or, where nearly
    // every group is deferred and components are not kept, walks the costed groups; and it is
    // above the weights somewhere (else it would prune nothing the weights do not).
    void dpFloorHoldsForEveryGroup() {
        int64_t raised = 0;
        bool kept = false, notKept = false;
        auto check = [&](const Network& net, const Hardware& hw, int64_t capBits, int64_t budget) {
            OptimusGroupRules rules = spaceRules(net, capBits, budget);
            rules.threads = 2;
            const OptimusDeferral d = OptimusCoster(net, hw, capBits).deferral();
            rules.deferral = &d;
            std::vector<OptimusCoster> costers(2, OptimusCoster(net, hw, capBits));
            for (OptimusCoster& c : costers)
                c.setJoinable(rules.vertex);
            const OptimusGroupSpace space(
                net, rules,
                [&](const std::vector<LayerId>& m, int thread, double split, bool upper) {
                    return classOf(costers[size_t(thread)].cost(m, optimusCeiling(split), upper),
                                   m.size());
                });
            std::vector<double> weights(size_t(net.size()), 0);
            for (LayerId v = 0; v < net.size(); ++v)
                if (rules.vertex[size_t(v)] && isCompute(net.layer(v).type))
                    weights[size_t(v)] = double(layerWeights(layerDims(net, v)));
            const std::vector<double> floor = optimusDpFloor(net, space, weights);
            (space.componentsKept() ? kept : notKept) = true;
            for (size_t v = 0; v < floor.size(); ++v)
                raised += floor[v] > weights[v];
            Outcome r;
            for (size_t g = 0; g < space.size(); ++g) {
                const double cost = space.cost(g);
                if (std::isinf(cost) || (!space.deferred(g) && cost > space.split(g))) continue;
                ++r.checked;
                double sum = 0;
                for (LayerId v : space.members(g))
                    sum += floor[size_t(v)];
                if (sum > cost && r.wrong++ == 0)
                    r.first = "group " + std::to_string(g) +
                              (space.deferred(g) ? " (deferred)" : "") + ": floors " +
                              std::to_string(sum) + " above its cost " + std::to_string(cost);
            }
            r.counted = r.checked;
            return r;
        };
        Outcome bundled, random;
        checkEverywhere({"googlenet", "inceptionv3"},
                        {"optimus-config-5", "tso-nmp", "hwff-config-1", "hwff-config-2"}, {8}, 60,
                        20261126, check, bundled, random);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(kept && notKept,
                 qPrintable(QString("kept %1, not kept %2").arg(kept).arg(notKept)));
        QVERIFY2(raised > 100, qPrintable(QString("%1 floors above the weights").arg(raised)));
        QVERIFY2(bundled.checked > 20000, qPrintable(QString("%1 groups").arg(bundled.checked)));
        QVERIFY(random.checked > 100);
    }

    // The coster keeps its arrays in one arena (optimus_coster.h): a copy, made after the
    // original has costed groups (scratch and stamps in use), must have arrays of its own, cost
    // every group as a coster built anew does, and give the same deferral figures.
    void aCopyCostsAsTheOriginal() {
        int64_t compared = 0, feasible = 0;
        for (const auto& [netName, hwName] :
             std::initializer_list<std::pair<const char*, const char*>>{
                 {"googlenet", "tso-nmp"},
                 {"resnet50", "optimus-default"},
                 {"squeezenet1.0", "hwff-config-1"}}) {
            const Network net = test::bundledNetwork(netName);
            const Hardware hw = test::bundledHardware(hwName);
            const int64_t capBits = hw.buffer.bytes * 8;
            const OptimusGroupRules rules = spaceRules(net, capBits, 20000);
            OptimusCoster original(net, hw, capBits);
            original.setJoinable(rules.vertex);
            std::vector<std::pair<std::vector<LayerId>, int64_t>> groups; // members, ceiling
            const OptimusGroupSpace space(
                net, rules, [&](const std::vector<LayerId>& m, int, double split, bool upper) {
                    groups.emplace_back(m, optimusCeiling(split));
                    return classOf(original.cost(m, optimusCeiling(split), upper), m.size());
                });
            QVERIFY(groups.size() > 300);
            OptimusCoster copied = original; // after every group above
            // The copy's arrays are its own: marking no layer joinable in the original leaves
            // the copy's deferral figures and costs as they were.
            original.setJoinable(std::vector<char>(size_t(net.size()), 0));
            OptimusCoster fresh(net, hw, capBits);
            fresh.setJoinable(rules.vertex);
            const OptimusDeferral a = copied.deferral(), b = fresh.deferral();
            QVERIFY(a.elems == b.elems && a.weights == b.weights && a.rows == b.rows &&
                    a.compute == b.compute && a.channels == b.channels && a.cols == b.cols &&
                    a.least_rows == b.least_rows && a.least_cols == b.least_cols &&
                    a.joinable == b.joinable && a.tiles_shrink == b.tiles_shrink);
            QVERIFY(original.deferral().joinable != b.joinable);
            for (size_t i = 0; i < groups.size(); i += 3) { // every third, in formation order
                const auto& [m, ceiling] = groups[i];
                const OptimusCoster::Cost x = copied.cost(m, ceiling, true);
                const OptimusCoster::Cost y = fresh.cost(m, ceiling, true);
                QVERIFY2(x.memory_cost == y.memory_cost && x.feasible == y.feasible &&
                             x.hopeless == y.hopeless && x.lower_bound_bits == y.lower_bound_bits &&
                             x.upper_bound_bits == y.upper_bound_bits &&
                             x.subgroups == y.subgroups && x.operator_fmap == y.operator_fmap &&
                             x.operator_upper == y.operator_upper &&
                             x.operator_full == y.operator_full,
                         qPrintable(QString("%1 on %2: group %3 of %4 layers differs")
                                        .arg(netName, hwName)
                                        .arg(i)
                                        .arg(m.size())));
                ++compared;
                feasible += y.feasible;
            }
        }
        QVERIFY(compared > 1000);
        QVERIFY(feasible > 100 && feasible < compared);
    }

    // The outside bound's walks up from a joined producer's inputs are kept by tensor and
    // extents and replayed (OptimusCoster::heldFromTop). A walk kept from one group may meet,
    // in another, a tensor that group's bound charged already: here {m} keeps cA's walk, which
    // charges all of X (cA may join as an ISOA operator); {s, u} charges X first (through Y,
    // which t reads outside, so Y may join as an ISOA operator too) and then reaches cA through
    // the concat K with the same extents. The replay must not charge X twice: {s, u} gets the
    // same class after {m} as on a coster of its own at every buffer from where nothing fits to
    // where it fits (charged twice, it is called hopeless at 5 of these buffers).
    void replayedWalksChargeNothingTwice() {
        const Network net = test::networkFromYaml(R"(format: layerfuse/network@1
name: shared-producer
inputs:
  - {name: x, channels: 8, height: 16, width: 16}
layers:
  - {name: X, type: conv, inputs: [x], out_channels: 1024, kernel: 1}
  - {name: cA, type: conv, inputs: [X], out_channels: 1024, kernel: 1}
  - {name: cB, type: conv, inputs: [X], out_channels: 64, kernel: 1}
  - {name: K, type: concat, inputs: [cA, cB]}
  - {name: Y, type: conv, inputs: [X], out_channels: 512, kernel: 1}
  - {name: m, type: conv, inputs: [K], out_channels: 8, kernel: 1}
  - {name: s, type: concat, inputs: [Y, K]}
  - {name: u, type: conv, inputs: [s], out_channels: 8, kernel: 1}
  - {name: t, type: conv, inputs: [Y], out_channels: 8, kernel: 1}
)");
        const Hardware hw = test::bundledHardware("optimus-default");
        QVERIFY(optimusThroughput(hw).tc < 64); // the convolutions above may be ISOA
        const std::vector<LayerId> m{net.find("m")}, su{net.find("s"), net.find("u")};
        int hopeless = 0, walked = 0, fits = 0;
        for (int64_t capBytes = 64; capBytes <= (int64_t(1) << 20); capBytes += capBytes / 8) {
            OptimusCoster warm(net, hw, capBytes * 8), fresh(net, hw, capBytes * 8);
            const OptimusCoster::Cost first = warm.cost(m, INT64_MAX, true);
            const OptimusCoster::Cost a = warm.cost(su, INT64_MAX, true);
            const OptimusCoster::Cost b = fresh.cost(su, INT64_MAX, true);
            QVERIFY2(a.hopeless == b.hopeless && a.feasible == b.feasible &&
                         a.lower_bound_bits == b.lower_bound_bits &&
                         a.memory_cost == b.memory_cost && a.upper_bound_bits == b.upper_bound_bits,
                     qPrintable(QString("%1 bytes: %2")
                                    .arg(capBytes)
                                    .arg(QString::fromStdString(describe(su, a, b)))));
            hopeless += b.hopeless;
            walked += !first.feasible; // {m}'s outside bound walked past cA
            fits += b.feasible;
        }
        QVERIFY(hopeless > 0 && walked > 0 && fits > 0);
    }

    void equalsTheCosterBeforeOnRandomDags() {
        std::mt19937 rng(20261126);
        const Hardware hw = test::bundledHardware("hwff-config-1");
        int64_t groups = 0, feasible = 0, infeasible = 0;
        for (int trial = 0; trial < 80; ++trial) {
            const std::string yaml = test::randomStridedDag(rng, 4 + int(rng() % 9));
            const Network net = test::networkFromYaml(yaml);
            const int64_t capBits =
                8 * std::array<int64_t, 4>{256, 1024, 4096, 65536}[size_t(trial % 4)];
            const Compared r = compare(net, hw, capBits, 0, 0);
            QVERIFY2(r.differing == 0,
                     qPrintable(
                         QString("trial %1: %2").arg(trial).arg(QString::fromStdString(r.first))));
            QVERIFY2(r.unsound == 0,
                     qPrintable(QString("trial %1 (%2 bits): %3 hopeless groups are held by a "
                                        "feasible one in\n%4")
                                    .arg(trial)
                                    .arg(capBits)
                                    .arg(r.unsound)
                                    .arg(QString::fromStdString(yaml))));
            groups += r.groups;
            feasible += r.feasible;
            infeasible += r.groups - r.feasible;
        }
        QVERIFY(groups > 1000);
        QVERIFY(feasible > 200 && infeasible > 200);
    }
};

QTEST_GUILESS_MAIN(TstOptimusCoster)
#include "tst_optimus_coster.moc"
