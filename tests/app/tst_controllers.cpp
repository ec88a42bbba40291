// The studio's controllers on their own: each one works on a Studio (document, evaluator,
// selection) without any MainWindow — the searches, the exports and imports, opening and
// saving, autosave, the fusion edits and the lessons — as the panels and controllers of
// other features will be built and tested.
#include "controllers/automation_controller.h"
#include "controllers/edit_controller.h"
#include "controllers/exchange_controller.h"
#include "controllers/files_controller.h"
#include "controllers/recovery_controller.h"
#include "controllers/teaching_controller.h"
#include "examples/bundled.h"
#include "metrics/units.h"
#include "models/evaluate.h"
#include "net_text.h"
#include "qt_text.h"
#include "search/search_task.h"
#include "search/trade_off_dialog.h"
#include "studio/studio.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QHeaderView>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace lf;

namespace {

// Checks inside a callback that returns a value (QVERIFY returns void).
#define EXPECT_TRUE(cond)                                                                          \
    do {                                                                                           \
        if (!(cond)) QTest::qFail(#cond, __FILE__, __LINE__);                                      \
    } while (false)

// A studio with no window: errors collected, "save changes?" answered Discard.
struct Bare {
    Studio studio;
    QStringList errors;
    Bare() { test::quietStudio(&studio, &errors, QMessageBox::Discard); }
    bool open(const char* network) {
        return test::editAndWait(&studio, [&] {
            Network net = test::bundledNetwork(network);
            Hardware hw = test::bundledHardware("hwff-config-1");
            Schedule s = defaultSchedule(net, hw);
            studio.document()->reset(std::move(net), std::move(hw), std::move(s));
        });
    }
    LayerId id(const char* name) const { return studio.document()->network().find(name); }
    Document* doc() { return studio.document(); }
};

int fusedGroups(const Schedule& s) {
    return int(std::count_if(s.groups.begin(), s.groups.end(),
                             [](const FusionGroup& g) { return g.layers.size() > 1; }));
}

bool noWindowExists() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (qobject_cast<QMainWindow*>(w)) return false;
    return true;
}

} // namespace

class TestControllers : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void automationSearchesAndAppliesOneUndoStep() {
        Bare b;
        AutomationController automation(&b.studio);
        QVERIFY(b.open("resnet18"));
        const Schedule before = b.doc()->schedule();
        const int64_t dramBefore = b.studio.state().metrics->totals.dram_accesses;
        AutoFuseSettings settings;
        settings.objective = AutoFuseObjective::dram;
        settings.strategy = Strategy::recompute;
        QSignalSpy applied(&automation, &AutomationController::scheduleApplied);
        // The trade-off is shown before anything is applied: discarding keeps the schedule.
        int asked = 0;
        automation.confirmTradeOff = [&](const Metrics& was, const Metrics& would,
                                         const QString& objective) {
            ++asked;
            // The figures the dialog shows are the open schedule's and the result's.
            EXPECT_TRUE(was.totals.dram_accesses == dramBefore);
            EXPECT_TRUE(would.totals.dram_accesses < dramBefore);
            EXPECT_TRUE(objective == objectiveTitle(AutoFuseObjective::dram));
            TradeOffDialog dialog(was, would, objective);
            EXPECT_TRUE(dialog.table()->rowCount() == 8);
            // Energy × delay in the one reading used everywhere (it read "… T pJ·cycles").
            const double edp = would.totals.energy.total() * double(would.totals.latency_cycles);
            EXPECT_TRUE(dialog.table()->item(7, 0)->text() == QStringLiteral("Energy × delay"));
            EXPECT_TRUE(dialog.table()->item(7, 2)->text() ==
                        QString::fromStdString(humanEdp(edp)));
            EXPECT_TRUE(dialog.table()->item(7, 2)->text().contains(QLatin1Char('e')));
            EXPECT_TRUE(!dialog.worse().contains(QStringLiteral("DRAM accesses")));
            // Shown, every row fits without a blank below them and the columns fill the width.
            dialog.show();
            QCoreApplication::processEvents();
            const QTableWidget* t = dialog.table();
            const int rows = t->verticalHeader()->length();
            EXPECT_TRUE(t->viewport()->height() >= rows);
            EXPECT_TRUE(t->viewport()->height() - rows < t->rowHeight(0));
            EXPECT_TRUE(t->horizontalHeader()->length() == t->viewport()->width());
            dialog.hide();
            return asked > 1;
        };
        QVERIFY(automation.autoFuse(settings));
        QVERIFY(automation.task()->waitForFinished(60000));
        QTRY_COMPARE(asked, 1);
        QVERIFY(b.doc()->schedule() == before);
        QCOMPARE(applied.count(), 0);
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(automation.autoFuse(settings));
            QVERIFY(automation.task()->waitForFinished(60000));
        }));
        QCOMPARE(asked, 2);
        QCOMPARE(applied.count(), 1);
        QVERIFY(fusedGroups(b.doc()->schedule()) > 0);
        QVERIFY(b.studio.state().metrics->totals.dram_accesses < dramBefore);
        QCOMPARE(b.doc()->undoStack()->count(), 1);
        b.doc()->undoStack()->undo();
        QVERIFY(b.doc()->schedule() == before);
        // A TSO search needs a multicore preset: refused with the reason, nothing runs.
        QVERIFY(!automation.runTsoSearch());
        QVERIFY(automation.lastMessage().contains(QLatin1String("multicore")));
        QVERIFY(b.errors.isEmpty());
        QVERIFY(noWindowExists());
    }

    void exchangeExportsEveryFormatAndImportsBack() {
        Bare b;
        ExchangeController exchange(&b.studio);
        QVERIFY(b.open("l3net"));
        const Schedule saved = b.doc()->schedule();
        QTemporaryDir dir;
        // The Export menu is made of the formats, in their order.
        QStringList names;
        for (QAction* a : exchange.exportActions())
            names << a->objectName();
        QStringList formats;
        for (const ExportFormat& f : exportFormats())
            formats << f.name;
        QCOMPARE(names, formats);
        for (const ExportFormat& f : exportFormats()) {
            const QString path = dir.filePath(f.name + (f.directory ? QString() : f.suffix));
            QVERIFY2(exchange.exportTo(f.name, path), qPrintable(f.name));
            if (f.directory)
                QVERIFY(!QDir(path).entryList(QDir::Files).isEmpty());
            else
                QVERIFY(QFileInfo(path).size() > 0);
        }
        QVERIFY(!exchange.exportTo(QStringLiteral("noSuchExport"), dir.filePath("x")));
        QCOMPARE(b.errors.size(), 1);
        // The schedule comes back from its file as one undo step.
        QVERIFY(test::editAndWait(&b.studio, [&] {
            b.doc()->fuse({b.id("conv1"), b.id("conv2")});
        }));
        QVERIFY(!(b.doc()->schedule() == saved));
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(exchange.importSchedule(dir.filePath("exportSchedule.sched.yaml")));
        }));
        QVERIFY(b.doc()->schedule().groups == saved.groups);
        QCOMPARE(b.doc()->undoStack()->count(), 2);
        QVERIFY(noWindowExists());

        // File ▸ Open of a schedule says where schedules go, and imports it when asked to.
        FilesController files(&b.studio);
        files.importSchedule = [&](const QString& p) { return exchange.importSchedule(p); };
        QStringList asked;
        files.confirmScheduleImport = [&](const QString& q) {
            asked << q;
            return asked.size() > 1; // no the first time, yes the second
        };
        const QString sched = dir.filePath("exportSchedule.sched.yaml");
        QVERIFY(test::editAndWait(&b.studio, [&] {
            b.doc()->fuse({b.id("conv2"), b.id("conv3")});
        }));
        const Schedule fusedAgain = b.doc()->schedule();
        QString error;
        QVERIFY(!files.openPath(sched, &error));
        QVERIFY2(error.contains(QStringLiteral("File ▸ Import Schedule")), qPrintable(error));
        QCOMPARE(asked.size(), 1);
        QVERIFY(b.doc()->schedule() == fusedAgain); // nothing changed
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(files.openPath(sched)); }));
        QVERIFY(b.doc()->schedule().groups == saved.groups);
        QCOMPARE(b.doc()->network().name(), std::string("L3Net")); // the network stays
    }

    // File ▸ Import Hardware without a window: a ZigZag accelerator is one undo step, undo
    // brings the previous hardware back; a corrupt file changes nothing.
    void exchangeImportsAZigZagAcceleratorAsOneStep() {
        Bare b;
        ExchangeController exchange(&b.studio);
        QVERIFY(b.open("l3net"));
        const Hardware before = b.doc()->hardware();
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(exchange.importHardware(test::testData("zigzag/small_eyeriss.yaml")));
        }));
        QCOMPARE(b.doc()->undoStack()->count(), 1);
        QCOMPARE(b.studio.state().hardware.name, std::string("small_eyeriss"));
        QVERIFY(!exchange.hardwareImportNotes().isEmpty());
        QVERIFY(test::editAndWait(&b.studio, [&] { b.doc()->undoStack()->undo(); }));
        QVERIFY(b.doc()->hardware() == before);

        QTemporaryDir dir;
        const QString corrupt = dir.filePath(QStringLiteral("corrupt.yaml"));
        QVERIFY(test::writeBytes(corrupt, "memories: {dram: [1, 2\noperational_array: {}\n"));
        QString error;
        QVERIFY(!exchange.importHardware(corrupt, &error));
        QVERIFY2(error.startsWith(corrupt + QLatin1Char(':')), qPrintable(error));
        QCOMPARE(b.errors.size(), 1);
        QVERIFY(b.doc()->hardware() == before);
        QCOMPARE(b.doc()->undoStack()->index(), 0);
        QVERIFY(noWindowExists());
    }

    void filesOpenSaveAndRecoverWithoutAWindow() {
        Bare b;
        FilesController files(&b.studio);
        QTemporaryDir dir;
        RecoveryController recovery(&b.studio, {true, true, dir.filePath("recovery"), 60'000});
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(files.openBundled("l2net")); }));
        const QString project = dir.filePath(QStringLiteral("a.lfproj"));
        QVERIFY(files.saveProjectTo(project));
        QVERIFY(!b.doc()->isModified());
        QVERIFY(test::editAndWait(&b.studio, [&] {
            b.doc()->fuse({b.id("conv1"), b.id("conv2")});
        }));
        recovery.autosave();
        recovery.waitForWrites();
        QCOMPARE(QDir(dir.filePath("recovery")).entryList({"*.lfproj"}).size(), 1);
        // Opening the saved project (changes discarded) brings back its two groups.
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(files.openPath(project)); }));
        QCOMPARE(b.doc()->schedule().groups.size(), size_t(2));
        QCOMPARE(b.doc()->filePath(), QFileInfo(project).absoluteFilePath());
        QString error;
        QVERIFY(!files.openPath(dir.filePath("missing.net.yaml"), &error));
        QVERIFY(error.contains(QLatin1String("missing.net.yaml")));
        QVERIFY(noWindowExists());
    }

    void editsFollowTheSelection() {
        Bare b;
        EditController edits(&b.studio);
        QVERIFY(b.open("l3net"));
        QAction* fuse = edits.actions()[QStringLiteral("fuse")];
        QVERIFY(!fuse->isEnabled());
        b.studio.setSelection({{b.id("conv1"), b.id("conv2")}, -1});
        QVERIFY(fuse->isEnabled());
        QVERIFY(test::editAndWait(&b.studio, [&] { fuse->trigger(); }));
        QCOMPARE(b.doc()->schedule().groups.size(), size_t(2));
        QCOMPARE(b.studio.selection().group, b.doc()->schedule().groupOf(b.id("conv1")));
        QVERIFY(edits.actions()[QStringLiteral("ungroup")]->isEnabled());
        QVERIFY(test::editAndWait(&b.studio, [&] { edits.actions()["undo"]->trigger(); }));
        QCOMPARE(b.doc()->schedule().groups.size(), size_t(3));
    }

    void teachingOpensALessonAndNamesDifferences() {
        Bare b;
        TeachingController teaching(&b.studio);
        QVERIFY(b.open("l3net"));
        QSignalSpy highlight(&teaching, &TeachingController::highlightRequested);
        teaching.showDifferences({0, 2});
        QCOMPARE(highlight.count(), 1);
        QCOMPARE(highlight.front().front().value<QList<int>>(), (QList<int>{0, 2}));
        const Network l2 = test::bundledNetwork("l2net");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(teaching.openLesson(l2, hw, defaultSchedule(l2, hw), QStringLiteral("L2")));
        }));
        QCOMPARE(b.doc()->network().name(), std::string("L2Net"));
    }

    // After a lesson, opening a network returns to the hardware in use before the lesson and
    // says so; hardware the user chose during the lesson stays.
    void networkAfterALessonGetsTheHardwareBack() {
        Bare b;
        TeachingController teaching(&b.studio);
        FilesController files(&b.studio);
        QStringList status;
        connect(&b.studio, &Studio::statusMessage, this,
                [&](const QString& m, int) { status << m; });
        QVERIFY(b.open("l3net")); // on hwff-config-1
        const Network l3 = test::bundledNetwork("l3net");
        const Hardware lessonHw = test::bundledHardware("convfusion-40nm");
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(teaching.openLesson(l3, lessonHw, defaultSchedule(l3, lessonHw),
                                        QStringLiteral("Fusion")));
        }));
        QCOMPARE(b.doc()->hardware().name, lessonHw.name);
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(files.openBundled("resnet18")); }));
        QCOMPARE(b.doc()->hardware().name, std::string("hwff-config-1"));
        QVERIFY2(status.last().contains(QLatin1String("before the lesson")) &&
                     status.last().contains(qs(lessonHw.name)),
                 qPrintable(status.last()));
        // A second network keeps hwff-config-1 (the lesson is over) and says nothing more.
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(files.openBundled("l2net")); }));
        QCOMPARE(b.doc()->hardware().name, std::string("hwff-config-1"));
        QVERIFY(!status.last().contains(QLatin1String("lesson")));

        // Hardware changed during the lesson is the user's choice: it stays.
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(teaching.openLesson(l3, lessonHw, defaultSchedule(l3, lessonHw),
                                        QStringLiteral("Fusion")));
        }));
        Hardware mine = lessonHw;
        mine.name = "mine";
        mine.buffer.bytes *= 2;
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(b.doc()->setHardware(mine, QStringLiteral("Bigger buffer"), 0).ok);
        }));
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(files.openBundled("resnet18")); }));
        QCOMPARE(b.doc()->hardware().name, std::string("mine"));
    }
};

QTEST_MAIN(TestControllers)
#include "tst_controllers.moc"
