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
#include "models/evaluate.h"
#include "search/search_task.h"
#include "studio/studio.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMainWindow>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace lf;

namespace {

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
        QVERIFY(test::editAndWait(&b.studio, [&] {
            QVERIFY(automation.autoFuse(settings));
            QVERIFY(automation.task()->waitForFinished(60000));
        }));
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
};

QTEST_MAIN(TestControllers)
#include "tst_controllers.moc"
