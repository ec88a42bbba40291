// The studio's automatic scheduling end to end (offscreen): Auto-fuse through its action and
// undo, the Explore dialog's front, click-to-apply and exports, cancelling a long
// exploration, Optimize Tiles on a selection, TSO slicing, and where the actions sit.
#include "controllers/automation_controller.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "search/explore_dialog.h"
#include "search/explore_front.h"
#include "search/pareto_chart.h"
#include "search/search_task.h"
#include "search/tso_slicing_view.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>

using namespace lf;

namespace {

// The studio window and its automation controller.
struct Window : test::StudioWindow {
    AutomationController* automation = w.automation();
    // Runs a search of the automation and waits until its result reached the views.
    template <class F> bool searchAndWait(F&& start) {
        QSignalSpy published(w.studio(), &Studio::statePublished);
        QSignalSpy finished(automation->task(), &SearchTask::finished);
        if (!start()) return false;
        if (!finished.wait(30000)) return false;
        return published.count() > 0 || published.wait(20000);
    }
};

// Accepts the next modal dialog (the options dialog an action opens) with its defaults.
void acceptNextDialog() {
    QTimer::singleShot(0, [] {
        if (auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget())) d->accept();
    });
}

int fusedGroups(const Schedule& s) {
    return int(std::count_if(s.groups.begin(), s.groups.end(),
                             [](const FusionGroup& g) { return g.layers.size() > 1; }));
}

} // namespace

class TestAutomation : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void actionsSitInTheMenusAndToolbar() {
        Window t;
        QVERIFY(t.automation);
        QVERIFY(t.open("l2net"));
        auto act = [&](const char* name) {
            return t.w.findChild<QAction*>(QString::fromLatin1(name));
        };
        for (const char* name : {"autoFuse", "optimizeTiles", "explore", "tsoSlicing", "importOnnx",
                                 "exportTimeloop", "exportStream"})
            QVERIFY2(act(name), name);
        QCOMPARE(act("autoFuse")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
        QCOMPARE(act("explore")->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
        QCOMPARE(act("importOnnx")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_I));
        // Optimize sits before Help; Import ONNX right after Open; the tool exports under Export.
        QStringList titles;
        for (QAction* a : t.w.menuBar()->actions())
            titles << a->text();
        QVERIFY2(titles.indexOf(QStringLiteral("&Optimize")) == titles.size() - 2,
                 qPrintable(titles.join(',')));
        auto* optimize = t.w.findChild<QMenu*>(QStringLiteral("optimizeMenu"));
        QVERIFY(optimize);
        QVERIFY(optimize->actions().contains(act("autoFuse")));
        QMenu* file = t.w.menuBar()->actions().front()->menu();
        const auto fileActions = file->actions();
        QCOMPARE(fileActions.indexOf(act("importOnnx")),
                 fileActions.indexOf(t.w.action(QStringLiteral("open"))) + 1);
        bool inExport = false;
        for (QAction* a : fileActions)
            if (a->menu() && a->menu()->actions().contains(act("exportTimeloop")) &&
                a->menu()->actions().contains(act("exportStream")))
                inExport =
                    a->menu()->actions().contains(t.w.action(QStringLiteral("exportSchedule")));
        QVERIFY(inExport);
        auto* bar = t.w.findChild<QToolBar*>(QStringLiteral("automationToolBar"));
        QVERIFY(bar);
        QVERIFY(bar->actions().contains(act("autoFuse")));
        // TSO needs a multicore preset; the default hardware has none.
        QVERIFY(!t.w.document()->hardware().cores);
        QVERIFY(!act("tsoSlicing")->isEnabled());
        QVERIFY(act("autoFuse")->isEnabled());
    }

    void autoFuseResNet18ThroughTheActionAndUndo() {
        Window t;
        QVERIFY(t.open("resnet18"));
        const Schedule before = t.w.document()->schedule();
        QCOMPARE(fusedGroups(before), 0);
        const int64_t dramBefore = t.w.studio()->state().metrics->totals.dram_accesses;
        QAction* autoFuse = t.w.findChild<QAction*>(QStringLiteral("autoFuse"));
        QVERIFY(t.searchAndWait([&] {
            acceptNextDialog(); // the options dialog, defaults: Optimus Eq. 3, Optimus groups
            autoFuse->trigger();
            return t.automation->task()->isRunning();
        }));
        const Schedule& after = t.w.document()->schedule();
        QVERIFY(fusedGroups(after) > 0);
        for (const FusionGroup& g : after.groups)
            if (g.layers.size() > 1) QCOMPARE(g.strategy, Strategy::optimus);
        QVERIFY(t.w.studio()->state().schedule == after);
        const int64_t dramAfter = t.w.studio()->state().metrics->totals.dram_accesses;
        QVERIFY2(dramAfter < dramBefore,
                 qPrintable(QStringLiteral("%1 vs %2").arg(dramAfter).arg(dramBefore)));
        QCOMPARE(t.w.document()->undoStack()->count(), 1); // one undo step
        QVERIFY(t.w.document()->undoStack()->undoText().startsWith(QLatin1String("Auto-fuse")));
        QVERIFY(t.automation->lastMessage().contains(QLatin1String("DRAM")));

        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("undo"))->trigger(); }));
        QVERIFY(t.w.document()->schedule() == before);
        QCOMPARE(t.w.studio()->state().metrics->totals.dram_accesses, dramBefore);
        QVERIFY(!t.w.isWindowModified());
    }

    void autoFuseWithAnEvaluateObjective() {
        Window t;
        QVERIFY(t.open("resnet18"));
        const int64_t dramBefore = t.w.studio()->state().metrics->totals.dram_accesses;
        AutoFuseSettings s;
        s.objective = AutoFuseObjective::dram;
        s.strategy = Strategy::recompute;
        QVERIFY(t.searchAndWait([&] { return t.automation->autoFuse(s); }));
        QVERIFY(fusedGroups(t.w.document()->schedule()) > 0);
        for (const FusionGroup& g : t.w.document()->schedule().groups)
            QCOMPARE(g.strategy, Strategy::recompute);
        QVERIFY(t.w.studio()->state().metrics->totals.dram_accesses < dramBefore);
        QCOMPARE(t.automation->autoFuseSettings().objective, AutoFuseObjective::dram);
    }

    void exploreL3NetShowsTheFrontAndAppliesAClickedPoint() {
        Window t;
        QVERIFY(t.open("l3net"));
        const Metrics defaults = *t.w.studio()->state().metrics;
        ExploreDialog* dialog = t.automation->exploreDialog();
        dialog->setState(t.w.studio()->state());
        // The open schedule is marked before any exploration.
        QVERIFY(dialog->chart()->currentShown());
        QCOMPARE(dialog->chart()->current()->dram_accesses, double(defaults.totals.dram_accesses));
        QSignalSpy finished(dialog->task(), &SearchTask::finished);
        QVERIFY(dialog->run());
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().front().toBool(), false);
        QVERIFY(dialog->hasFront());
        const ExploreResult& r = *dialog->result();
        QVERIFY(r.front.size() > 3);
        QCOMPARE(dialog->rows().size(), r.front.size());
        // The rows are costed without schedules: they are what evaluate() gives each point.
        const std::vector<ExploreFrontRow> evaluated =
            evaluateFront(t.w.document()->network(), t.w.document()->hardware(), r);
        for (size_t i = 0; i < evaluated.size(); ++i) {
            const ExploreFrontRow &a = dialog->rows()[i], &b = evaluated[i];
            QCOMPARE(a.recompute_macs, b.recompute_macs);
            QCOMPARE(a.energy_pj, b.energy_pj);
            QCOMPARE(a.latency_cycles, b.latency_cycles);
            QCOMPARE(a.latency_s, b.latency_s);
            QCOMPARE(a.groups, b.groups);
            QCOMPARE(a.fused_groups, b.fused_groups);
            QCOMPARE(a.fits, b.fits);
        }
        // One scatter point per front point, coloured by MACs in bands named in the legend.
        ParetoChartWidget* chart = dialog->chart();
        QCOMPARE(chart->drawnPointCount(), int(r.front.size()));
        QVERIFY(chart->colourBandCount() >= 1);
        for (const QString& name : chart->colourBandNames())
            QVERIFY2(name.endsWith(QLatin1String("MACs")), qPrintable(name));
        // The front is a front: no point dominates another.
        for (const ExplorePoint& a : r.front)
            for (const ExplorePoint& b : r.front)
                QVERIFY(!(a.dram_accesses <= b.dram_accesses && a.buffer_bytes <= b.buffer_bytes &&
                          a.macs <= b.macs &&
                          (a.dram_accesses < b.dram_accesses || a.buffer_bytes < b.buffer_bytes ||
                           a.macs < b.macs)));

        // Click the point with the least DRAM traffic whose buffer fits.
        int k = -1;
        for (size_t i = 0; i < r.front.size(); ++i)
            if (r.front[i].buffer_bytes <= t.w.document()->hardware().buffer.bytes &&
                (k < 0 || r.front[i].dram_accesses < r.front[size_t(k)].dram_accesses))
                k = int(i);
        QVERIFY(k >= 0);
        QVERIFY(r.front[size_t(k)].dram_accesses < defaults.totals.dram_accesses);
        QVERIFY(dialog->summary(k).contains(QLatin1String("DRAM")));
        QVERIFY(dialog->summary(k).contains(QLatin1String("Energy")));
        QPointF value;
        QScatterSeries* series = chart->seriesOfPoint(k, &value);
        QVERIFY(series);
        QVERIFY(t.editAndWait([&] { emit series->clicked(value); }));
        QCOMPARE(t.w.document()->undoStack()->count(), 1);
        QVERIFY(t.w.document()->undoStack()->undoText().startsWith(
            QLatin1String("Apply Pareto point")));
        const Totals& now = t.w.studio()->state().metrics->totals;
        QCOMPARE(now.dram_accesses, r.front[size_t(k)].dram_accesses);
        QCOMPARE(now.buffer_peak_bytes, r.front[size_t(k)].buffer_bytes);
        QCOMPARE(now.macs, r.front[size_t(k)].macs);
        // The open schedule's marker moved onto the clicked point.
        QCOMPARE(chart->current()->dram_accesses, double(r.front[size_t(k)].dram_accesses));
        QCOMPARE(chart->selectedPoint(), k);

        // Exports: the CSV has a header and one row per point; the chart as PNG and SVG.
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("front.csv"));
        QCOMPARE(dialog->exportCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), qsizetype(r.front.size() + 1));
        QVERIFY(lines.front().startsWith("point,dram_accesses,buffer_bytes,macs,"));
        QCOMPARE(lines[k + 1].split(',')[1].toLongLong(),
                 qlonglong(r.front[size_t(k)].dram_accesses));
        const QString png = dir.filePath(QStringLiteral("front.png"));
        QCOMPARE(dialog->exportChart(png), QString());
        QCOMPARE(QImage(png).size(), QSize(960, 600));
        const QString svg = dir.filePath(QStringLiteral("front.svg"));
        QCOMPARE(dialog->exportChart(svg), QString());
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        QVERIFY(s.readAll().contains("<svg"));

        // Another network makes the front stale: it is cleared, never applied there.
        QVERIFY(t.open("l2net"));
        QVERIFY(!dialog->hasFront());
        QCOMPARE(chart->drawnPointCount(), 0);
    }

    void cancellingALongExplorationIsPromptAndChangesNothing() {
        Window t;
        QVERIFY(t.open("vgg16"));
        const Schedule before = t.w.document()->schedule();
        ExploreDialog* dialog = t.automation->exploreDialog();
        dialog->setState(t.w.studio()->state());
        ExploreOptions o;
        o.max_depth = 3;
        o.tiles = TileSet::divisors;
        dialog->setOptions(o);
        QSignalSpy progress(dialog->task(), &SearchTask::progress);
        QSignalSpy finished(dialog->task(), &SearchTask::finished);
        QVERIFY(dialog->run());
        QVERIFY(progress.wait(10000)); // running for real
        QTest::qWait(300);
        QVERIFY(dialog->task()->isRunning());
        QElapsedTimer clock;
        clock.start();
        dialog->cancel();
        QVERIFY(finished.wait(5000));
        const qint64 ms = clock.elapsed();
        QVERIFY2(ms < 500, qPrintable(QStringLiteral("cancel took %1 ms").arg(ms)));
        QCOMPARE(finished.front().front().toBool(), true);
        QVERIFY(!dialog->hasFront());
        QCOMPARE(dialog->chart()->drawnPointCount(), 0);
        QVERIFY(t.w.document()->schedule() == before);
        QCOMPARE(t.w.document()->undoStack()->count(), 0);
    }

    void cancellingAnAutomationSearchChangesNothing() {
        Window t;
        QVERIFY(t.open("resnet18"));
        const Schedule before = t.w.document()->schedule();
        TileOptimizeSettings s;
        s.scope = TileScope::all;
        s.search.tiles = TileSet::all;
        QSignalSpy finished(t.automation->task(), &SearchTask::finished);
        QVERIFY(t.automation->optimizeTiles(s));
        QVERIFY(!t.w.findChild<QAction*>(QStringLiteral("autoFuse"))
                     ->isEnabled()); // one search at a time
        QVERIFY(!t.automation->autoFuse({}));
        // The progress dialog appears once the search takes a while; its Cancel stops it.
        QProgressDialog* progress = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (progress = t.w.findChild<QProgressDialog*>(QStringLiteral("searchProgressDialog"))) &&
                progress->isVisible(),
            5000);
        QVERIFY(progress->labelText().contains(QLatin1String("Optimizing tiles")));
        auto* cancel = progress->findChild<QPushButton*>();
        QVERIFY(cancel);
        QElapsedTimer clock;
        clock.start();
        cancel->click();
        QVERIFY(finished.wait(5000));
        QVERIFY(clock.elapsed() < 500);
        QCOMPARE(finished.front().front().toBool(), true);
        QVERIFY(t.w.document()->schedule() == before);
        QCOMPARE(t.w.document()->undoStack()->count(), 0);
        QVERIFY(t.automation->lastMessage().contains(QLatin1String("cancelled")));
        QVERIFY(t.w.findChild<QAction*>(QStringLiteral("autoFuse"))->isEnabled());
    }

    void optimizeTilesOfTheSelectedLayer() {
        Window t;
        QVERIFY(t.open("l3net"));
        const LayerId conv2 = t.id("conv2");
        t.w.studio()->setSelection({{conv2}, -1});
        const Schedule before = t.w.document()->schedule();
        const int64_t dramBefore = t.w.studio()->state().metrics->totals.dram_accesses;
        TileOptimizeSettings s;
        s.scope = TileScope::selection;
        QVERIFY(t.searchAndWait([&] { return t.automation->optimizeTiles(s); }));
        const Schedule& after = t.w.document()->schedule();
        QCOMPARE(t.w.document()->undoStack()->count(), 1);
        // Only the selected layer changed, and it is marked as edited.
        for (LayerId id : t.w.document()->network().computeIds())
            if (id != conv2) QVERIFY(after.layers[size_t(id)] == before.layers[size_t(id)]);
        QCOMPARE(after.explicit_layer[size_t(conv2)], char(1));
        QVERIFY(t.w.studio()->state().metrics->totals.dram_accesses <= dramBefore);
        QVERIFY(t.w.studio()->state().metrics->totals.fits);
        // With nothing selected the selection scope is refused and nothing runs.
        t.w.studio()->setSelection({});
        QVERIFY(!t.automation->optimizeTiles(s));
        QCOMPARE(t.w.document()->undoStack()->count(), 1);
    }

    void tsoSlicingOnTheMulticorePreset() {
        Window t;
        QVERIFY(t.open("resnet18"));
        QVERIFY(t.editAndWait(
            [&] { t.w.document()->setHardware(test::bundledHardware("tso-nmp"), {}, 0); }));
        QAction* tso = t.w.findChild<QAction*>(QStringLiteral("tsoSlicing"));
        QVERIFY(tso->isEnabled());
        QSignalSpy finished(t.automation->task(), &SearchTask::finished);
        tso->trigger();
        QVERIFY(finished.wait(30000));
        TsoSlicingView* view = t.automation->tsoView();
        QVERIFY(view->hasResult());
        // One row per conv and fc layer of the network.
        const Network& net = t.w.document()->network();
        int convs = 0;
        for (const Layer& l : net.layers())
            convs += l.type == LayerType::conv || l.type == LayerType::fc;
        QCOMPARE(view->table()->rowCount(), convs);
        QCOMPARE(view->table()->item(0, 0)->text(),
                 QString::fromStdString(net.layer(view->result().layers[0].id).name));

        const int undoBefore = t.w.document()->undoStack()->count();
        QVERIFY(t.editAndWait([&] { QVERIFY(t.automation->applyTsoTiles()); }));
        QCOMPARE(t.w.document()->undoStack()->count(), undoBefore + 1);
        // The first conv (3 → 64 channels, G = 1) carries its TSO tile: z = T_M, i = T_N,
        // y = T_R, x = T_C.
        const TsoLayerChoice& c = view->result().layers[0];
        QCOMPARE(layerDims(net, c.id).G, int64_t(1));
        const LayerSchedule& ls = t.w.document()->schedule().layers[size_t(c.id)];
        QCOMPARE(ls.T(Dim::z), c.tile.tm);
        QCOMPARE(ls.T(Dim::i), c.tile.tn);
        QCOMPARE(ls.T(Dim::y), c.tile.tr);
        QCOMPARE(ls.T(Dim::x), c.tile.tc);

        // Back to a single-core preset: the table is cleared and the action disabled.
        QVERIFY(t.editAndWait(
            [&] { t.w.document()->setHardware(test::bundledHardware("hwff-config-1"), {}, 0); }));
        QVERIFY(!view->hasResult());
        QVERIFY(!tso->isEnabled());
        QVERIFY(!t.automation->applyTsoTiles());
    }
};

QTEST_MAIN(TestAutomation)
#include "tst_automation.moc"
