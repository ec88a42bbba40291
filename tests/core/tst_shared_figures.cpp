// The pieces the CLI and the studio share from core: human units (metrics/units.h), bits and
// bytes (hardware/hardware.h, metrics/metrics.h), the objective of a search
// (search/objective.h) and the explored front's CSV (search/explore_front.h). Expected values
// are worked out by hand.
#include "metrics/units.h"
#include "models/evaluate.h"
#include "search/explore_front.h"
#include "search/objective.h"
#include "search/pareto.h"
#include "test_support.h"

#include <QtTest>

using namespace lf;

class TestSharedFigures : public QObject {
    Q_OBJECT
  private slots:
    void humanUnits() {
        QCOMPARE(humanBytes(0), std::string("0 B"));
        QCOMPARE(humanBytes(512), std::string("512 B"));
        QCOMPARE(humanBytes(1536), std::string("1.50 KB"));  // 1536 / 1024
        QCOMPARE(humanBytes(524288), std::string("512 KB")); // the default buffer
        QCOMPARE(humanBytes(25.5 * 1048576), std::string("25.5 MB"));
        QCOMPARE(humanCount(999), std::string("999"));
        QCOMPARE(humanCount(36864), std::string("36.9 K")); // L2Net conv2's MACs
        QCOMPARE(humanEnergy(2500), std::string("2.50 nJ"));
        QCOMPARE(humanEnergy(12.5), std::string("12.50 pJ"));
        QCOMPARE(humanTime(0.0015), std::string("1.50 ms"));
        QCOMPARE(humanTime(61.5e-6), std::string("61.5 µs"));
        QCOMPARE(fixedText(63.25, 1), std::string("63.2")); // round half to even in binary
    }

    // One reading of the energy-delay product wherever it is shown: it read "83100 T
    // pJ·cycles" (humanCount stops at T) in the trade-off dialog and "8.31e+16 pJ·cycles" in
    // the status bar.
    void energyDelayProduct() {
        QCOMPARE(humanEdp(8.31e16), std::string("8.31e16 pJ·cycles"));
        QCOMPARE(humanEdp(83.1e15), std::string("8.31e16 pJ·cycles"));
        QCOMPARE(humanEdp(1e16), std::string("1.00e16 pJ·cycles"));
        QCOMPARE(humanEdp(9.996e16), std::string("1.00e17 pJ·cycles")); // rounds up a decade
        QCOMPARE(humanEdp(123456), std::string("1.23e5 pJ·cycles"));
        QCOMPARE(humanEdp(1e4), std::string("1.00e4 pJ·cycles"));
        QCOMPARE(humanEdp(9999), std::string("9999 pJ·cycles"));
        QCOMPARE(humanEdp(512.4), std::string("512 pJ·cycles"));
        QCOMPARE(humanEdp(0), std::string("0 pJ·cycles"));
        QCOMPARE(humanEdp(2.5e123), std::string("2.50e123 pJ·cycles"));
        // The studio's EDP of a network: energy (pJ) × latency (cycles), as objectiveValue.
        QCOMPARE(humanEdp(objectiveValue(Objective::edp, 0, 2.5e6, 4e7)),
                 std::string("1.00e14 pJ·cycles"));
    }

    void bitsAndBytes() {
        QCOMPARE(bitsToBytes(0), int64_t(0));
        QCOMPARE(bitsToBytes(1), int64_t(1)); // rounded up
        QCOMPARE(bitsToBytes(16), int64_t(2));
        QCOMPARE(bitsToBytes(17), int64_t(3));
        QCOMPARE(bytesToBits(3), int64_t(24));
        QCOMPARE(elementBytes(3, 12), 4.5); // not rounded
        BufferConfig b;
        b.bytes = 1000;
        QCOMPARE(b.bits(), int64_t(8000));
        // 10 inputs + 20 outputs at 8 bits, 30 weights at 4, 5 partial sums at 32.
        const Traffic t{10, 30, 20, 5};
        const Precision p{8, 4, 32};
        QCOMPARE(trafficBytes(t, p), 30.0 + 15.0 + 20.0);
    }

    void objectiveOfANetwork() {
        const Network net = test::bundledNetwork("l2net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        const Metrics m = evaluate(net, hw, defaultSchedule(net, hw));
        QCOMPARE(objectiveValue(m, Objective::dram), double(m.totals.dram_accesses));
        QCOMPARE(objectiveValue(m, Objective::energy), m.totals.energy.total());
        QCOMPARE(objectiveValue(m, Objective::latency), double(m.totals.latency_cycles));
        QCOMPARE(objectiveValue(m, Objective::edp),
                 m.totals.energy.total() * double(m.totals.latency_cycles));
        QCOMPARE(objectiveValue(Objective::edp, 1, 2.5, 4), 10.0);
        QVERIFY(objectiveNeedsEnergy(Objective::edp) && objectiveNeedsEnergy(Objective::energy));
        QVERIFY(!objectiveNeedsEnergy(Objective::dram) &&
                !objectiveNeedsEnergy(Objective::latency));
    }

    void frontCsvRows() {
        ExploreFrontRow r;
        r.point = {1234, 4096, 36864, 0};
        r.recompute_macs = 12;
        r.energy_pj = 2.5;
        r.latency_cycles = 99;
        r.fits = true;
        r.groups = 3;
        r.fused_groups = 1;
        QCOMPARE(frontCsvHeader(), std::string("point,dram_accesses,buffer_bytes,macs,"
                                               "recompute_macs,energy_pj,latency_cycles,fits,"
                                               "groups\n"));
        QCOMPARE(frontCsvRow(7, r), std::string("7,1234,4096,36864,12,2.5,99,true,1\n"));
        QCOMPARE(frontCsv({r, r}), frontCsvHeader() + frontCsvRow(0, r) + frontCsvRow(1, r));
    }

    void frontRowsComeFromEvaluate() {
        const Network net = test::bundledNetwork("l2net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions o;
        o.max_depth = 2;
        const ExploreResult front = explore(net, hw, o);
        QVERIFY(!front.front.empty());
        const std::vector<ExploreFrontRow> rows = evaluateFront(net, hw, front);
        QCOMPARE(rows.size(), front.front.size());
        for (size_t k = 0; k < rows.size(); ++k) {
            const Metrics m = evaluate(net, hw, front.schedule(net, hw, k));
            QCOMPARE(rows[k].energy_pj, m.totals.energy.total());
            QCOMPARE(rows[k].latency_cycles, m.totals.latency_cycles);
            QCOMPARE(rows[k].groups, int(m.groups.size()));
            QCOMPARE(rows[k].fits, front.front[k].buffer_bytes <= hw.buffer.bytes);
        }
    }
};

QTEST_GUILESS_MAIN(TestSharedFigures)
#include "tst_shared_figures.moc"
