// The papers reproduced (core/repro): every row that matches its paper is checked here with
// the printed value and the tolerance the row states (so a model change that breaks a match
// fails this test); every row that differs has its reason in docs/model-notes.md; the rows
// and plots are well formed and every row's studio target opens and evaluates.
//
// Cost: one reproduction of all five papers (about 10 s of CPU, the ConvFusion fronts most).

#include "metrics/metrics.h"
#include "models/evaluate.h"
#include "repro/repro.h"
#include "test_support.h"

#include <QFile>
#include <QtTest>

#include <cmath>
#include <set>

using namespace lf;
using namespace lf::repro;

namespace {

// The rows that match: id, the value as the paper prints it, the tolerance.
struct Expected {
    const char* id;
    double paper;
    double tolerance;
};
constexpr Expected kMatches[] = {
    {"convfusion.table6.dims", 90, 0},
    {"convfusion.sec6a.baseline-minimum", 6, 0},
    {"convfusion.sec6a.tiling-dominates", 6, 0},
    {"convfusion.sec6b.dmcnn-vd", 99.75, 0.0005},
    {"convfusion.sec7b.optimum-l3net-4k", 1000, 2}, // a factor
    {"convfusion.sec7a.turn-l3net-wide", 5000, 2},  // a factor
    {"optimus.tables2-3.presets", 38, 0},
    {"optimus.table5.operators-vgg16", 18, 0},
    {"optimus.table5.groups-vgg16", 171, 0},
    {"optimus.table5.operators-squeezenet1.0", 38, 0},
    {"tso.fig1.bursts-a", 1024, 0},
    {"tso.fig1.bursts-b", 512, 0},
    {"tso.fig1.bursts-c", 256, 0},
    {"tso.sec6.printed-burst-tile", 70, 0},
    {"tso.sec6.printed-noburst-tile", 176, 0},
    {"stoutchinin.sec2a.alexnet2-buffer", 284, 0.0035},
    {"stoutchinin.sec2a.alexnet2-line-buffer", 256, 0},
    {"stoutchinin.sec1.hwc-over-hwce-windows", 12, 1.0 / 6.0},
    {"stoutchinin.sec5c.hwce-too-small", 3, 0}, // at least
    {"hwff.tables3-4.presets", 48, 0},
    {"hwff.table6.rf-weight", 192, 0},
    {"hwff.table6.rf-input", 12, 0},
    {"hwff.table5.temporal-latency-vgg16-e", 61, 0.1},
    {"hwff.table5.temporal-volume-vgg16-e", 49, 0.1},
    {"hwff.table5.spatial-volume-vgg16-e", 49, 0.1},
    {"hwff.table5.temporal-energy-vgg16-e", 94, 0.1},
    {"hwff.table5.spatial-energy-vgg16-e", 94, 0.1},
    {"hwff.table5.temporal-energy-resnet18", 91, 0.1},
    {"hwff.table5.spatial-energy-resnet18", 90, 0.1},
    {"hwff.table5.spatial-latency-resnet18", 118, 0.1},
    {"hwff.fig13.saving-max", 22, 0.2},
    {"hwff.sec5-3.temporal-latency-resnet18", 1, 0}, // at most
    {"hwff.sec5-3.temporal-latency-vgg16-e", 1, 0},  // at most
};

} // namespace

class TstRepro : public QObject {
    Q_OBJECT
    std::vector<PaperReport> reports_;

    const Row* row(const std::string& id) const {
        for (const PaperReport& p : reports_)
            for (const Row& r : p.rows)
                if (r.id == id) return &r;
        return nullptr;
    }

  private slots:
    void initTestCase() {
        std::vector<Paper> done;
        ReproOptions opt;
        opt.progress = [&](Paper p, bool finished, const PaperReport*) {
            if (finished) done.push_back(p);
        };
        reports_ = reproduce({kAllPapers.begin(), kAllPapers.end()}, opt);
        QCOMPARE(reports_.size(), size_t(5));
        QCOMPARE(done.size(), size_t(5)); // one progress report per paper
    }

    void classifyFollowsTheRelation() {
        QCOMPARE(classify(100, 100, Relation::equal, 0), RowStatus::match);
        QCOMPARE(classify(100, 109, Relation::equal, 0.1), RowStatus::match);
        QCOMPARE(classify(100, 120, Relation::equal, 0.1), RowStatus::close);
        QCOMPARE(classify(100, 126, Relation::equal, 0.1), RowStatus::differs);
        QCOMPARE(classify(1, 0.3, Relation::at_most, 0), RowStatus::match);
        QCOMPARE(classify(1, 3, Relation::at_most, 0), RowStatus::differs);
        QCOMPARE(classify(3, 5, Relation::at_least, 0), RowStatus::match);
        QCOMPARE(classify(5000, 2600, Relation::within_factor, 2), RowStatus::match);
        QCOMPARE(classify(5000, 2400, Relation::within_factor, 2), RowStatus::close);
        QCOMPARE(classify(5000, 1717, Relation::within_factor, 2), RowStatus::differs);
        QCOMPARE(classify(1, 1, Relation::timing, 0), RowStatus::differs); // never a match
        QCOMPARE(classify(1, std::nan(""), Relation::equal, 1), RowStatus::differs);
    }

    void matchingRowsMatchTheirPaperValue() {
        for (const Expected& e : kMatches) {
            const Row* r = row(e.id);
            QVERIFY2(r, e.id);
            QCOMPARE(r->paper_value, e.paper); // the printed value, not an adjusted one
            QCOMPARE(r->tolerance, e.tolerance);
            QVERIFY2(r->status == RowStatus::match, e.id);
            const double ratio = r->ours / r->paper_value;
            switch (r->relation) {
            case Relation::equal:
                QVERIFY2(std::fabs(ratio - 1) <= e.tolerance + 1e-12, e.id);
                break;
            case Relation::at_most:
                QVERIFY2(r->ours <= e.paper, e.id);
                break;
            case Relation::at_least:
                QVERIFY2(r->ours >= e.paper, e.id);
                break;
            case Relation::within_factor:
                QVERIFY2(ratio <= e.tolerance && ratio >= 1 / e.tolerance, e.id);
                break;
            case Relation::timing:
                QFAIL(e.id);
            }
        }
        // No other row matches: a new match needs its line above.
        size_t matches = 0;
        for (const PaperReport& p : reports_)
            for (const Row& r : p.rows)
                matches += r.status == RowStatus::match;
        QCOMPARE(matches, std::size(kMatches));
    }

    void rowsAreWellFormed() {
        std::set<std::string> ids;
        size_t total = 0;
        for (const PaperReport& p : reports_) {
            QVERIFY(!p.rows.empty());
            for (const Row& r : p.rows) {
                ++total;
                QVERIFY2(ids.insert(r.id).second, r.id.c_str());
                QVERIFY2(r.id.rfind(paperKey(p.paper), 0) == 0, r.id.c_str());
                QVERIFY(!r.where.empty() && !r.measured.empty() && !r.paper_text.empty());
                QVERIFY(!r.tolerance_why.empty() && !r.setup.empty());
                QVERIFY2(std::isfinite(r.ours), r.id.c_str());
                if (r.status != RowStatus::match) QVERIFY2(!r.note.empty(), r.id.c_str());
            }
        }
        QVERIFY(total >= 25);
    }

    void everyDifferingRowIsExplainedInTheModelNotes() {
        QFile f(QStringLiteral(LAYERFUSE_SOURCE_DIR "/docs/model-notes.md"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string notes = f.readAll().toStdString();
        for (const PaperReport& p : reports_)
            for (const Row& r : p.rows)
                if (r.status == RowStatus::differs)
                    QVERIFY2(notes.find("`" + r.id + "`") != std::string::npos, r.id.c_str());
    }

    void plotsHaveData() {
        std::set<std::string> ids;
        for (const PaperReport& p : reports_)
            for (const Plot& pl : p.plots) {
                QVERIFY2(ids.insert(pl.id).second, pl.id.c_str());
                QVERIFY(!pl.series.empty() && !pl.where.empty());
                size_t points = 0;
                for (const Series& s : pl.series)
                    points += s.points.size();
                QVERIFY2(points > 0, pl.id.c_str());
                for (const Series& s : pl.series)
                    for (const auto& [x, y] : s.points)
                        if (!pl.categories.empty())
                            QVERIFY(x >= 0 && x < double(pl.categories.size()));
            }
        QVERIFY(ids.count("convfusion-fig6e-l3net-4k"));
        QVERIFY(ids.count("tso-fig1-slice-width"));
    }

    void targetsOpenAndEvaluate() {
        int opened = 0;
        for (const PaperReport& p : reports_)
            for (const Row& r : p.rows) {
                if (!r.open) continue;
                auto t = loadTarget(*r.open);
                QVERIFY2(t.ok(), r.id.c_str());
                QVERIFY2(checkSchedule(t->network, t->hardware, t->schedule).empty(), r.id.c_str());
                const Metrics m = evaluate(t->network, t->hardware, t->schedule);
                QVERIFY(m.totals.dram_accesses > 0);
                ++opened;
            }
        QVERIFY(opened >= 10);
    }

    // A row of spatial fusion opens the pairs fused spatially, one of temporal fusion the
    // pairs fused temporally: each fused group's partition is of the row's kind.
    void fusionRowsOpenTheirOwnPartitionKind() {
        int checked = 0;
        for (const PaperReport& p : reports_)
            for (const Row& r : p.rows) {
                const bool spatial = r.id.rfind("hwff.table5.spatial-", 0) == 0;
                const bool temporal = r.id.rfind("hwff.table5.temporal-", 0) == 0;
                if (!spatial && !temporal) continue;
                QVERIFY2(r.open && r.open->schedule, r.id.c_str());
                int fused = 0;
                for (const FusionGroup& g : r.open->schedule->groups) {
                    if (g.layers.size() < 2) continue;
                    ++fused;
                    QCOMPARE(g.partition.kind,
                             spatial ? PartitionKind::spatial : PartitionKind::temporal);
                }
                QVERIFY2(fused == 6, r.id.c_str()); // the six pairs of HWFF Tables 6-7
                // The set-up says which pairs exceed the buffer, as the opened schedule shows.
                auto t = loadTarget(*r.open);
                QVERIFY(t.ok());
                const Metrics m = evaluate(t->network, t->hardware, t->schedule);
                bool allFit = true;
                for (const GroupMetrics& g : m.groups)
                    allFit = allFit && g.fits;
                QVERIFY2(r.setup.find(allFit ? "every pair fits" : "no tile fits") !=
                             std::string::npos,
                         r.setup.c_str());
                ++checked;
            }
        QCOMPARE(checked, 12); // energy, latency, volume × temporal, spatial × two networks
    }

    void cancelStopsAtOnce() {
        std::atomic<bool> stop{true};
        ReproOptions opt;
        opt.cancel = &stop;
        QVERIFY(reproduce({Paper::convfusion}, opt).empty());
    }
};

QTEST_GUILESS_MAIN(TstRepro)
#include "tst_repro.moc"
