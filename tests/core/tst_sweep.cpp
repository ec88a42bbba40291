// Sweeps (sweep/sweep_yaml.h, sweep/sweep.h): the spec reader and its located errors, the grid
// of points, and every row against the Optimus DP and evaluate() run by hand for that point.
#include "test_support.h"

#include "models/evaluate.h"
#include "search/optimus_fuser.h"
#include "search/work_pool.h"
#include "sweep/sweep.h"
#include "util/format.h"

#include <QtTest>

#include <set>

using namespace lf;

namespace {

const char* kGrid = "format: layerfuse/sweep@1\n"
                    "networks: [squeezenet1.1, resnet18]\n"
                    "hardware: [hwff-config-1]\n"
                    "parameters:\n"
                    "  buffer_bytes: [32768, 524288]\n"
                    "  pe_cols: [8, 16]\n"
                    "strategies: [optimus, recompute]\n"
                    "objective: energy\n";

QStringList fields(const std::string& row) {
    return QString::fromStdString(row).trimmed().split(',');
}

} // namespace

class TstSweep : public QObject {
    Q_OBJECT
  private slots:
    void readsTheGrid() {
        auto spec = readSweepYaml(kGrid, "g.sweep.yaml");
        if (!spec) QFAIL(spec.error().toString().c_str());
        QCOMPARE(spec->networks.size(), size_t(2));
        QCOMPARE(spec->networks[1].name, std::string("resnet18"));
        QCOMPARE(spec->networks[1].pos.line, 2);
        QCOMPARE(spec->buffer_bytes, (std::vector<int64_t>{32768, 524288}));
        QVERIFY(spec->pe_rows.empty());
        QCOMPARE(spec->objective, Objective::energy);
        auto in = loadSweepInputs(*spec);
        QVERIFY(in);
        const auto points = sweepPoints(*spec, *in);
        QCOMPARE(points.size(), size_t(2 * 1 * 2 * 2 * 2));
        // Networks outermost, strategies innermost.
        QCOMPARE(points[0].network, size_t(0));
        QCOMPARE(points[1].strategy, Strategy::recompute);
        QCOMPARE(points[2].pe_cols, int64_t(16));
        QCOMPARE(points[4].buffer_bytes, int64_t(524288));
        QCOMPARE(points[8].network, size_t(1));
    }

    void refusesBadSpecsWhereTheyAreBad() {
        struct Case {
            const char* text;
            int line, column;
            const char* says;
        };
        const Case cases[] = {
            {"format: layerfuse/sweep@1\nnetworks: []\nhardware: [x]\n", 2, 11, "at least one"},
            {"format: layerfuse/sweep@1\nnetworks: [vgg16]\nhardware: [hwff-config-1]\n"
             "strategies: [fast]\n",
             4, 14, "strategy"},
            {"format: layerfuse/sweep@1\nnetworks: [vgg16]\nhardware: [hwff-config-1]\n"
             "parameters: {pe_cols: [0]}\n",
             4, 24, "pe_cols"},
            {"format: layerfuse/sweep@1\nnetworks: [vgg16]\nhardware: [hwff-config-1]\n"
             "colour: red\n",
             4, 1, "colour"},
        };
        for (const Case& c : cases) {
            auto spec = readSweepYaml(c.text, "bad.sweep.yaml");
            QVERIFY2(!spec, c.text);
            QCOMPARE(spec.error().line, c.line);
            QCOMPARE(spec.error().column, c.column);
            QVERIFY2(spec.error().message.find(c.says) != std::string::npos,
                     spec.error().message.c_str());
        }
        // A network that is neither bundled nor a file: refused at its entry.
        auto spec = readSweepYaml("format: layerfuse/sweep@1\nnetworks: [vgg16, no-such-net]\n"
                                  "hardware: [hwff-config-1]\n",
                                  "/nowhere/s.sweep.yaml");
        QVERIFY(spec);
        auto in = loadSweepInputs(*spec);
        QVERIFY(!in);
        QCOMPARE(in.error().line, 2);
        QCOMPARE(in.error().column, 19);
        QCOMPARE(in.error().file, std::string("/nowhere/s.sweep.yaml"));
    }

    void everyRowIsWhatTheOptimusDpChoosesForItsPoint() {
        auto spec = readSweepYaml(kGrid, "g.sweep.yaml");
        QVERIFY(spec);
        auto in = loadSweepInputs(*spec);
        QVERIFY(in);
        WorkPool pool(2);
        const std::vector<std::string> rows = runSweep(*spec, *in, &pool);
        const auto points = sweepPoints(*spec, *in);
        QCOMPARE(rows.size(), points.size());
        QCOMPARE(fields(sweepCsvHeader()).size(), 15);
        std::set<std::string> differ;
        for (size_t k = 0; k < points.size(); ++k) {
            const SweepPoint& p = points[k];
            const Network& net = in->networks[p.network];
            Hardware hw = in->hardware[p.hardware];
            hw.buffer.bytes = p.buffer_bytes;
            hw.pe_array.cols = int(p.pe_cols);
            OptimusFuserOptions fo;
            fo.cost = FuserCost::evaluate;
            fo.objective = Objective::energy;
            fo.strategy = p.strategy;
            const Metrics m = evaluate(net, hw, optimusFuse(net, hw, fo).schedule);
            const QStringList f = fields(rows[k]);
            QCOMPARE(f.size(), 15);
            QCOMPARE(f[0].toStdString(), net.name());
            QCOMPARE(f[2].toLongLong(), p.buffer_bytes);
            QCOMPARE(f[3].toLongLong(), p.pe_cols);
            QCOMPARE(f[4].toLongLong(), int64_t(hw.pe_array.rows));
            QCOMPARE(f[6], QString(toString(p.strategy)));
            QCOMPARE(f[7], QString("energy"));
            QCOMPARE(f[8].toLongLong(), m.totals.dram_accesses);
            QCOMPARE(f[9].toStdString(), formatDouble(m.totals.energy.total()));
            QCOMPARE(f[10].toLongLong(), m.totals.latency_cycles);
            QCOMPARE(f[11].toLongLong(), m.totals.buffer_peak_bytes);
            QCOMPARE(f[12], QString(m.totals.fits ? "true" : "false"));
            differ.insert(rows[k].substr(rows[k].find(",energy,")));
        }
        // The grid matters: the points do not all give the same figures.
        QVERIFY(differ.size() > points.size() / 2);
    }
};

QTEST_GUILESS_MAIN(TstSweep)
#include "tst_sweep.moc"
