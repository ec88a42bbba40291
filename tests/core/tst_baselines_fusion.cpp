// The prior fusers of Optimus' evaluation (search/baselines_fusion.h; Optimus §2.2-2.3):
// the prior works' group cost computed by hand on a two-layer chain (fmaps at the smallest
// Optimus Eq. 4 tile plus all parameters must fit; traffic |ifmap| + |ofmap| + Σ|param|); DNNVM's
// barriers keep forks and joins alone while Efficient-S's linear proxy fuses across branches;
// every scheme covers each operator once; no prior fuser beats running alone, and Optimus'
// DP never loses to DNNVM, whose groups it can all form.

#include "models/evaluate.h"
#include "search/baselines_fusion.h"
#include "search/optimus_fuser.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>

using namespace lf;

namespace {

const char* kChain = R"(format: layerfuse/network@1
name: chain
inputs:
  - {name: x, channels: 4, height: 8, width: 8}
layers:
  - {name: a, type: conv, inputs: [x], out_channels: 4, kernel: 3, padding: 1}
  - {name: b, type: conv, inputs: [a], out_channels: 4, kernel: 3, padding: 1}
)";

const char* kDiamond = R"(format: layerfuse/network@1
name: diamond
inputs:
  - {name: x, channels: 8, height: 16, width: 16}
layers:
  - {name: c0, type: conv, inputs: [x], out_channels: 8, kernel: 3, padding: 1}
  - {name: c1, type: conv, inputs: [c0], out_channels: 8, kernel: 3, padding: 1}
  - {name: c2, type: conv, inputs: [c0], out_channels: 8, kernel: 1}
  - {name: sum, type: add, inputs: [c1, c2]}
  - {name: c3, type: conv, inputs: [sum], out_channels: 8, kernel: 3, padding: 1}
)";

std::vector<LayerId> ids(const Network& net, std::initializer_list<const char*> names) {
    std::vector<LayerId> v;
    for (const char* n : names)
        v.push_back(net.find(n));
    std::sort(v.begin(), v.end());
    return v;
}

void checkCover(const Network& net, const PriorFuserResult& r) {
    std::vector<int> seen(size_t(net.size()), 0);
    for (const auto& g : r.groups)
        for (LayerId v : g)
            ++seen[size_t(v)];
    for (LayerId v : net.computeIds())
        QCOMPARE(seen[size_t(v)], 1);
}

} // namespace

class TstBaselinesFusion : public QObject {
    Q_OBJECT
  private slots:
    void priorGroupCostByHand() {
        const Network net = test::networkFromYaml(kChain);
        const Hardware hw = test::bundledHardware("optimus-default"); // 16-bit, T_h = 1
        // Tile: t_h = min(T_h, O_h) = 1 row of the full width 8. R(b) = 1 × 8, R(a) = 3 × 8;
        // a's input window 5 × 8. fmaps = 4·3·8 + 4·1·8 + 4·5·8 = 288 elements; parameters
        // 2 · 4·4·9 = 288 elements; both at 16 bits = 9216 bits.
        const auto g = priorGroupCost(net, hw, ids(net, {"a", "b"}), 9216);
        QCOMPARE(g.fmap_bits, int64_t(288 * 16));
        QCOMPARE(g.weight_bits, int64_t(288 * 16));
        QVERIFY(g.valid);
        QCOMPARE(g.ifmap, int64_t(256));
        QCOMPARE(g.ofmap, int64_t(256));
        QCOMPARE(g.params, int64_t(288));
        QCOMPARE(g.memoryCost(), int64_t(800));
        QVERIFY(!priorGroupCost(net, hw, ids(net, {"a", "b"}), 9215).valid);
    }

    void dnnvmKeepsBarriersAloneEfficientSFusesTheProxy() {
        const Network net = test::networkFromYaml(kDiamond);
        Hardware hw = test::bundledHardware("optimus-default");
        hw.buffer.bytes = int64_t(64) << 20; // everything fits
        const PriorFuserResult d = priorFuse(net, hw, PriorFuser::dnnvm);
        checkCover(net, d);
        // c0 (fork) and sum (join) are barriers; c1, c2 and c3 each sit between barriers.
        QCOMPARE(d.groups.size(), size_t(5));
        const PriorFuserResult e = priorFuse(net, hw, PriorFuser::efficient_s);
        checkCover(net, e);
        QCOMPARE(e.groups.size(), size_t(1)); // one run of the whole linear proxy
        // |ifmap| + |ofmap| + Σ|param|: 8·16·16 twice, weights 3·(8·8·9) + 8·8.
        QCOMPARE(e.cost, int64_t(2 * 8 * 16 * 16 + 3 * 8 * 8 * 9 + 8 * 8));
        QVERIFY(e.cost < d.cost);
        // Batch 4: activations four times, the resident parameters once.
        QCOMPARE(e.cost_batch, int64_t(4 * 2 * 8 * 16 * 16 + 3 * 8 * 8 * 9 + 8 * 8));
    }

    void runsStopAtTheBuffer() {
        const Network net = test::networkFromYaml(kChain);
        Hardware hw = test::bundledHardware("optimus-default");
        hw.buffer.bytes = 9215 / 8; // the pair of priorGroupCostByHand no longer fits
        for (PriorFuser f : {PriorFuser::dnnvm, PriorFuser::efficient_s}) {
            const PriorFuserResult r = priorFuse(net, hw, f);
            QCOMPARE(r.groups.size(), size_t(2));
        }
    }

    void neverWorseThanAloneAndOptimusNeverLosesToDnnvm() {
        for (const char* name : {"squeezenet1.0", "resnet18", "googlenet", "mobilenetv1"}) {
            const Network net = test::bundledNetwork(name);
            const Hardware hw = test::bundledHardware("optimus-default");
            Schedule alone = defaultSchedule(net, hw);
            for (FusionGroup& g : alone.groups)
                g.strategy = Strategy::optimus;
            const int64_t none = evaluate(net, hw, alone).totals.dram_accesses;
            const OptimusFuserResult o = optimusFuse(net, hw, {});
            for (PriorFuser f : {PriorFuser::dnnvm, PriorFuser::efficient_s}) {
                const PriorFuserResult r = priorFuse(net, hw, f);
                checkCover(net, r);
                QVERIFY2(r.cost_batch <= none, name);
                if (f == PriorFuser::dnnvm) QVERIFY2(o.cost <= double(r.cost), name);
                for (const auto& g : r.groups) {
                    if (g.size() < 2 || f != PriorFuser::dnnvm) continue;
                    for (LayerId v : g) // no barrier in a fused DNNVM group
                        QVERIFY(net.layer(v).inputs.size() == 1 && net.successors(v).size() <= 1);
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstBaselinesFusion)
#include "tst_baselines_fusion.moc"
