// The rows of an explored front (search/front_rows.h) are what evaluate() reports for each
// point's schedule — recompute, energy (bit for bit), latency, groups — without building the
// schedules: on networks with forks and joins, under every strategy, on hardware with and
// without a register file and with the sqrt SRAM energy that depends on the peak buffer. The
// CSV writer (search/front_csv.h) streams the same rows whatever the thread count.
#include "test_support.h"

#include "models/evaluate.h"
#include "search/front_csv.h"
#include "search/front_rows.h"
#include "search/work_pool.h"
#include "util/format.h"

#include <QtTest>

#include <sstream>

using namespace lf;

class TstFrontRows : public QObject {
    Q_OBJECT
  private slots:
    void rowsAreWhatEvaluateReports() {
        struct Case {
            const char* net;
            const char* hw;
            Strategy strategy;
            int depth;
        };
        for (const Case& c :
             {Case{"resnet18", "hwff-config-1", Strategy::recompute, 2},
              Case{"l3net", "convfusion-40nm", Strategy::recompute, 3},
              Case{"squeezenet1.1", "convfusion-40nm-banked", Strategy::recompute, 2},
              Case{"l2net", "hwff-config-3", Strategy::reuse, 2},
              Case{"l2net", "optimus-default", Strategy::optimus, 2}}) {
            const Network net = test::bundledNetwork(c.net);
            const Hardware hw = test::bundledHardware(c.hw);
            ExploreOptions opt;
            opt.strategy = c.strategy;
            opt.max_depth = c.depth;
            const ExploreResult r = explore(net, hw, opt);
            QVERIFY(!r.front.empty());
            std::vector<size_t> all(r.front.size());
            for (size_t k = 0; k < all.size(); ++k)
                all[k] = k;
            FrontRows rows(net, hw, r);
            rows.prepare(all);
            // Every point of the small fronts, a spread of the large ones'.
            const size_t step = std::max<size_t>(1, r.front.size() / 150);
            for (size_t k = 0; k < r.front.size(); k += step) {
                const FrontRow row = rows.row(k);
                const Schedule s = r.schedule(net, hw, k);
                const Metrics m = evaluate(net, hw, s);
                const QString where = QString("%1 on %2, point %3").arg(c.net, c.hw).arg(k);
                QVERIFY2(row.energy_pj == m.totals.energy.total(), qPrintable(where));
                QVERIFY2(row.latency_cycles == m.totals.latency_cycles, qPrintable(where));
                QVERIFY2(row.latency_s == m.totals.latency_s, qPrintable(where));
                QVERIFY2(row.recompute_macs == m.totals.recompute_macs, qPrintable(where));
                QCOMPARE(row.groups, int(m.groups.size()));
                int fused = 0;
                for (const GroupMetrics& g : m.groups)
                    fused += g.layers.size() > 1;
                QCOMPARE(row.fused_groups, fused);
                QCOMPARE(row.point.dram_accesses, m.totals.dram_accesses);
                QCOMPARE(row.point.buffer_bytes, m.totals.buffer_peak_bytes);
                QCOMPARE(row.fits, row.point.buffer_bytes <= hw.buffer.bytes);
            }
        }
    }

    void csvStreamsTheSameRowsForAnyThreadCount() {
        const Network net = test::bundledNetwork("resnet18");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt;
        opt.max_depth = 2;
        const ExploreResult r = explore(net, hw, opt);
        std::vector<size_t> points;
        for (size_t k = 0; k < r.front.size(); k += 2) // a subset, renumbered from 0
            points.push_back(k);
        std::string expected = frontCsvHeader();
        {
            FrontRows rows(net, hw, r);
            rows.prepare(points);
            for (size_t k = 0; k < points.size(); ++k) {
                const FrontRow row = rows.row(points[k]);
                expected +=
                    std::to_string(k) + ',' + std::to_string(row.point.dram_accesses) + ',' +
                    std::to_string(row.point.buffer_bytes) + ',' + std::to_string(row.point.macs) +
                    ',' + std::to_string(row.recompute_macs) + ',' + formatDouble(row.energy_pj) +
                    ',' + std::to_string(row.latency_cycles) + ',' + (row.fits ? "true" : "false") +
                    ',' + std::to_string(row.fused_groups) + '\n';
            }
        }
        QVERIFY(expected.rfind("point,dram_accesses,buffer_bytes,macs,recompute_macs,energy_pj,"
                               "latency_cycles,fits,groups\n",
                               0) == 0);
        for (int threads : {1, 2, 3}) {
            WorkPool pool(threads);
            FrontRows rows(net, hw, r);
            std::ostringstream out;
            QVERIFY(writeFrontCsv(out, rows, points, threads > 1 ? &pool : nullptr));
            QCOMPARE(out.str(), expected);
        }
        // A failed stream is reported.
        std::ostringstream bad;
        bad.setstate(std::ios::badbit);
        FrontRows rows(net, hw, r);
        QVERIFY(!writeFrontCsv(bad, rows, points));
    }
};

QTEST_GUILESS_MAIN(TstFrontRows)
#include "tst_front_rows.moc"
