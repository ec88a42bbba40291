// How many PEs a layer, a group and the network run on (docs/models/README.md, HW-Flow-Fusion
// §4.3 partitions, TSO Eqs. 7-8 multicore): utilization never exceeds 1 whatever the cores
// (issue 17: `cores: {tle: 64, tlt: 64}` gave ResNet-18 a total of 6.71), and a spatial
// partition that gives sub-arrays to only some layers gives the others equal column strips
// of what is left (docs/file-formats.md) instead of the whole array and an overlap refusal.
#include "test_support.h"

#include "models/evaluate.h"

#include <QtTest>

#include <map>

using namespace lf;

namespace {

constexpr double kEps = 1e-9;

void expectUtilizationAtMostOne(const Metrics& m, const char* what) {
    QVERIFY2(m.totals.utilization <= 1 + kEps,
             qPrintable(QString("%1: total %2").arg(what).arg(m.totals.utilization)));
    for (const GroupMetrics& g : m.groups)
        QVERIFY2(g.utilization <= 1 + kEps, qPrintable(QString("%1: group %2 %3")
                                                           .arg(what)
                                                           .arg(QString::fromStdString(g.name))
                                                           .arg(g.utilization)));
    for (const LayerMetrics& l : m.layers)
        QVERIFY2(l.utilization <= 1 + kEps, qPrintable(QString("%1: layer %2 %3")
                                                           .arg(what)
                                                           .arg(QString::fromStdString(l.name))
                                                           .arg(l.utilization)));
}

Network chain3() {
    return test::networkFromYaml(R"(format: layerfuse/network@1
name: chain3
inputs:
  - {name: x, channels: 8, height: 12, width: 12}
layers:
  - {name: c1, type: conv, inputs: [x], out_channels: 8, kernel: 3, padding: 1}
  - {name: c2, type: conv, inputs: [c1], out_channels: 8, kernel: 3, padding: 1}
  - {name: c3, type: conv, inputs: [c2], out_channels: 8, kernel: 3, padding: 1}
)");
}

// chain3's three layers fused in one spatial group, `given` sub-arrays set.
struct SpatialGroup {
    Network net = chain3();
    Hardware hw = test::bundledHardware("hwff-config-1"); // 32 x 16 PEs
    LayerId c1 = net.find("c1"), c2 = net.find("c2"), c3 = net.find("c3");
    Schedule s;
    FusionGroup& group() { return s.groups[size_t(s.groupOf(c1))]; }
    explicit SpatialGroup(const std::map<std::string, SubArray>& given) {
        s = test::fused(defaultSchedule(net, hw), net, {c1, c2, c3});
        group().partition.kind = PartitionKind::spatial;
        for (const auto& [name, sub] : given)
            group().partition.subarrays[net.find(name)] = sub;
    }
};

} // namespace

class TstPeAccounting : public QObject {
    Q_OBJECT
  private slots:
    void multicoreUtilizationCountsTheCores() {
        const Network net = test::bundledNetwork("resnet18");
        for (int cores : {1, 4, 64, 4096}) {
            Hardware hw = test::bundledHardware("hwff-config-1");
            hw.cores = CoresConfig{cores, cores, {1 << 20, 1 << 20, 1 << 20}};
            const Metrics m = evaluate(net, hw, defaultSchedule(net, hw));
            expectUtilizationAtMostOne(m, qPrintable(QString("%1 x %1 cores").arg(cores)));
            QVERIFY(m.totals.utilization > 0);
            // The network's figure is the MAC-weighted figure of its layers' PEs: every layer
            // ran on the same chip, so total = Σ MACs / (Σ cycles · chip MACs per cycle).
            int64_t pes = 0;
            for (const LayerMetrics& l : m.layers)
                if (l.pes > 0) pes = std::max(pes, l.pes);
            QCOMPARE(m.totals.utilization,
                     double(m.totals.macs) / (double(m.totals.compute_cycles) * double(pes)));
        }
    }

    // Where the cores divide the array the chip has exactly the array's MAC units.
    void multicoreUtilizationOfTsoNmpUnchanged() {
        const Network net = test::bundledNetwork("resnet18");
        const Hardware hw = test::bundledHardware("tso-nmp");
        const Metrics m = evaluate(net, hw, defaultSchedule(net, hw));
        expectUtilizationAtMostOne(m, "tso-nmp");
        const double arrayMacs = double(hw.peCount() * hw.pe_array.macs_per_pe_per_cycle);
        QCOMPARE(m.totals.utilization,
                 double(m.totals.macs) / (double(m.totals.compute_cycles) * arrayMacs));
    }

    void partialSpatialPartitionGivesTheRestAsStrips() {
        SpatialGroup t({{"c1", SubArray{0, 0, 16, 16}}});
        const auto subs = effectiveSubarrays(t.group(), t.hw);
        QCOMPARE(subs.at(t.c1), (SubArray{0, 0, 16, 16}));
        QCOMPARE(subs.at(t.c2), (SubArray{16, 0, 8, 16}));
        QCOMPARE(subs.at(t.c3), (SubArray{24, 0, 8, 16}));
        QVERIFY(checkGroup(t.net, t.hw, t.group()).empty());
        const Metrics m = evaluate(t.net, t.hw, t.s);
        QCOMPARE(m.layer(t.c1)->pes, int64_t(16 * 16));
        QCOMPARE(m.layer(t.c2)->pes, int64_t(8 * 16));
        QCOMPARE(m.layer(t.c3)->pes, int64_t(8 * 16));
        QVERIFY(m.groups[size_t(t.s.groupOf(t.c1))].warnings.empty());
    }

    // Given sub-arrays that leave only rows free: the rest is the rows below them.
    void partialSpatialPartitionUsesFreeRows() {
        SpatialGroup t({{"c2", SubArray{0, 0, 32, 8}}});
        const auto subs = effectiveSubarrays(t.group(), t.hw);
        QCOMPARE(subs.at(t.c1), (SubArray{0, 8, 16, 8}));
        QCOMPARE(subs.at(t.c3), (SubArray{16, 8, 16, 8}));
        QVERIFY(checkGroup(t.net, t.hw, t.group()).empty());
    }

    // Nothing left for the layers left out: refused with that reason, not as an overlap.
    void partialSpatialPartitionWithNothingLeft() {
        SpatialGroup t({{"c1", SubArray{0, 0, 32, 16}}});
        const auto v = checkGroup(t.net, t.hw, t.group());
        QCOMPARE(v.size(), size_t(2)); // c2 and c3, and no overlap reported
        for (const Violation& x : v)
            QVERIFY2(x.message.find("no PEs left for c") != std::string::npos, x.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TstPeAccounting)
#include "tst_pe_accounting.moc"
