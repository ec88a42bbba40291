// The teaching docks inside the studio, as a student uses them: open a lesson from its dock,
// read the task, change the loop order and store level of conv2, watch the loop nest and the
// targets follow, reach "Target met"; undo goes back; "Show solution" is one undoable edit;
// the compare dock names the group an edit changed; hovering a loop outlines it on the
// tile pyramid; a lesson file opens through File ▸ Open and Open Recent as a lesson.
#include "controllers/teaching_controller.h"
#include "graph/graph_canvas.h"
#include "graph/graph_items.h"
#include "graph/graph_scene.h"
#include "panels/teaching_panel.h"
#include "studio_window.h"
#include "teaching/compare_view.h"
#include "teaching/explain_view.h"
#include "teaching/lessons_view.h"
#include "teaching/loop_nest_view.h"
#include "teaching/tile_pyramid_scene.h"
#include "teaching/tile_pyramid_view.h"
#include "test_support.h"

#include "bundled/bundled_files.h"
#include "controllers/files_controller.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

using namespace lf;

namespace {

MainWindow::Options quietOptions() {
    return test::quietWindowOptions();
}

// Runs `edit` and waits until the state with its metrics reached the views.
template <class F> bool editAndWait(MainWindow& w, F&& edit) {
    return test::editAndWait(w.studio(), std::forward<F>(edit), 10000);
}

int lessonIndex(const LessonsView& v, const char* name) {
    for (int k = 0; k < v.lessonCount(); ++k)
        if (v.lessonName(k) == QLatin1String(name)) return k;
    return -1;
}

} // namespace

class TestTeachingPanel : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { registerStudioMetaTypes(); }
    void docksExist();
    void lessonFromOpenToTargetMet();
    void showSolutionIsOneUndoableEdit();
    void compareNamesTheEditedGroup();
    void hoveredLoopReachesThePyramid();
    void teacherSavesALessonAndExportsPictures();
    void fileOpenOfALessonOpensTheLesson();
};

void TestTeachingPanel::docksExist() {
    MainWindow w(quietOptions());
    for (const char* name :
         {"loopNestDock", "tilePyramidDock", "explainDock", "compareDock", "lessonsDock"})
        QVERIFY2(w.findChild<QDockWidget*>(QString::fromLatin1(name)), name);
    QVERIFY(w.findChild<LoopNestView*>());
    QVERIFY(w.findChild<LessonsView*>());
}

void TestTeachingPanel::lessonFromOpenToTargetMet() {
    MainWindow w(quietOptions());
    w.studio()->savePrompt = [](const QString&) { return QMessageBox::Discard; };
    auto* lessons = w.findChild<LessonsView*>();
    auto* nest = w.findChild<LoopNestView*>();
    const int k = lessonIndex(*lessons, "1-loop-order-and-reuse");
    QVERIFY(k >= 0);
    lessons->setCurrentLesson(k);
    QVERIFY(editAndWait(w, [&] { lessons->openCurrentLesson(); }));
    QCOMPARE(QString::fromStdString(w.document()->network().name()), QStringLiteral("L2Net"));
    QVERIFY(lessons->isActive());
    QVERIFY(!lessons->targetMet());
    QVERIFY(lessons->statusText().contains(QLatin1String("Not met")));

    const LayerId conv2 = w.document()->network().find("conv2");
    w.studio()->setSelection({{conv2}, -1});
    QVERIFY(nest->codeText().contains(QLatin1String("Vol_X = 72, Trans_X = 256")));

    // The student moves z inside x (order y, x, z, i) and keeps X at yi, as the inspector would.
    LayerSchedule s = w.document()->schedule().layers[size_t(conv2)];
    s.order = {Dim::y, Dim::x, Dim::z, Dim::i};
    s.store = {Level::l1, Level::l1, Level::tile};
    s.compute = s.store;
    QVERIFY(editAndWait(
        w, [&] { w.document()->setLayerSchedule(conv2, s, QStringLiteral("Loop order"), 0); }));
    // Trans_X = D_y · ⌈D_x/T_x⌉ = 16 · 4 = 64 windows of 72: 4,608 inputs.
    QVERIFY2(nest->codeText().contains(QLatin1String("Vol_X = 72, Trans_X = 64")),
             qPrintable(nest->codeText()));
    QVERIFY(lessons->targetMet());
    QVERIFY(lessons->statusText().contains(QLatin1String("Target met")));
    // The "why" dock agrees.
    auto* why = w.findChild<ExplainView*>();
    QVERIFY(why->formulaItem(QStringLiteral("Acc_X")));
    QCOMPARE(why->formulaItem(QStringLiteral("Acc_X"))->text(ExplainView::cValue),
             QStringLiteral("4,608 elements"));

    // Undo: back to the start, not met.
    QVERIFY(editAndWait(w, [&] { w.document()->undoStack()->undo(); }));
    QVERIFY(!lessons->targetMet());
    QVERIFY(nest->codeText().contains(QLatin1String("Trans_X = 256")));
}

void TestTeachingPanel::showSolutionIsOneUndoableEdit() {
    MainWindow w(quietOptions());
    w.studio()->savePrompt = [](const QString&) { return QMessageBox::Discard; };
    auto* lessons = w.findChild<LessonsView*>();
    const int k = lessonIndex(*lessons, "4-recompute-vs-reuse");
    QVERIFY(k >= 0);
    lessons->setCurrentLesson(k);
    QVERIFY(editAndWait(w, [&] { lessons->openCurrentLesson(); }));
    QVERIFY(!lessons->targetMet());
    const int before = w.document()->undoStack()->count();
    QVERIFY(editAndWait(w, [&] { lessons->showSolution(); }));
    QCOMPARE(w.document()->undoStack()->count(), before + 1);
    QVERIFY(w.document()->schedule() == lessons->lesson(k)->solution);
    QVERIFY2(lessons->targetMet(), qPrintable(lessons->statusText()));
    QVERIFY(editAndWait(w, [&] { w.document()->undoStack()->undo(); }));
    QVERIFY(!lessons->targetMet());
}

void TestTeachingPanel::compareNamesTheEditedGroup() {
    MainWindow w(quietOptions());
    QVERIFY(editAndWait(w, [&] { w.files()->openBundled(QStringLiteral("l3net")); }));
    auto* compare = w.findChild<CompareView*>();
    QVERIFY(compare->takeSnapshot());
    QSignalSpy differ(compare, &CompareView::groupsDiffer);
    const LayerId conv2 = w.document()->network().find("conv2");
    LayerSchedule s = w.document()->schedule().layers[size_t(conv2)];
    s.tile[size_t(Dim::x)] = s.tile[size_t(Dim::x)] > 1 ? 1 : 2;
    QVERIFY(editAndWait(
        w, [&] { w.document()->setLayerSchedule(conv2, s, QStringLiteral("Tile"), 0); }));
    QVERIFY(differ.count() >= 1);
    QCOMPARE(differ.last().at(0).value<QList<int>>(),
             QList<int>{w.document()->schedule().groupOf(conv2)});
    // The canvas outlines exactly that group: conv2's node, no other.
    const std::vector<int> expected{w.document()->schedule().groupOf(conv2)};
    QCOMPARE(w.canvas()->scene()->highlightedGroups(), expected);
    for (LayerId id = 0; id < w.document()->network().size(); ++id)
        QCOMPARE(w.canvas()->scene()->node(id)->look().highlighted, id == conv2);
    // Clearing the snapshot clears the outline.
    compare->clearSnapshot();
    QVERIFY(w.canvas()->scene()->highlightedGroups().empty());
    QVERIFY(!w.canvas()->scene()->node(conv2)->look().highlighted);
}

void TestTeachingPanel::hoveredLoopReachesThePyramid() {
    MainWindow w(quietOptions());
    QVERIFY(editAndWait(w, [&] { w.files()->openBundled(QStringLiteral("l3net")); }));
    const LayerId conv2 = w.document()->network().find("conv2");
    w.studio()->setSelection({{conv2}, -1});
    auto* nest = w.findChild<LoopNestView*>();
    auto* pyramid = w.findChild<TilePyramidView*>();
    QCOMPARE(pyramid->shownGroup(), w.document()->schedule().groupOf(conv2));
    QVERIFY(pyramid->scene()->highlightItems().empty());
    int yLoop = -1;
    for (int k = 0; k < int(nest->loopNest().lines.size()); ++k)
        if (nest->loopNest().lines[size_t(k)].kind == CodeLine::Kind::loop &&
            nest->loopNest().lines[size_t(k)].dim == int(Dim::y))
            yLoop = k;
    QVERIFY(yLoop >= 0);
    nest->hoverLine(yLoop);
    QVERIFY(!pyramid->scene()->highlightItems().empty());
    nest->hoverLine(-1);
    QVERIFY(pyramid->scene()->highlightItems().empty());
}

// File ▸ Save as Lesson writes what is open (the schedule as the solution); File ▸ Open
// Lesson brings it back as a lesson that starts at the default schedule and is met by its
// solution. The loop nest and the pyramid's steps are written as pictures for slides.
void TestTeachingPanel::teacherSavesALessonAndExportsPictures() {
    MainWindow w(quietOptions());
    w.studio()->savePrompt = [](const QString&) { return QMessageBox::Discard; };
    QVERIFY(editAndWait(w, [&] { w.files()->openBundled(QStringLiteral("l3net")); }));
    const Network& net = w.document()->network();
    QVERIFY(editAndWait(w, [&] {
        w.document()->fuse({net.find("conv1"), net.find("conv2"), net.find("conv3")});
    }));
    // Output tiles of 4 × 4: a pyramid of 16 steps.
    const LayerId conv3 = net.find("conv3");
    LayerSchedule ls = w.document()->schedule().layers[size_t(conv3)];
    ls.tile[size_t(Dim::y)] = 4;
    ls.tile[size_t(Dim::x)] = 4;
    QVERIFY(editAndWait(
        w, [&] { w.document()->setLayerSchedule(conv3, ls, QStringLiteral("Tiles"), 0); }));
    const Schedule solution = w.document()->schedule();
    auto* teaching = w.findChild<TeachingController*>();
    QVERIFY(teaching);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("fuse-l3net.lesson.yaml"));
    const std::vector<LessonTarget> targets = teaching->proposedTargets();
    QVERIFY(!targets.empty());
    QVERIFY(teaching->saveLessonTo(path, QStringLiteral("Fuse L3Net"),
                                   QStringLiteral("Fuse the three layers."), targets));

    // The pictures, while the fused group is shown.
    auto* panel = w.teachingPanel();
    w.studio()->setSelection({{net.find("conv1")}, -1});
    for (const char* suffix : {".svg", ".png"}) {
        const QString file = dir.filePath(QStringLiteral("nest") + QLatin1String(suffix));
        QVERIFY(panel->exportLoopNest(file));
        QVERIFY(QFileInfo(file).size() > 200);
    }
    QFile svg(dir.filePath(QStringLiteral("nest.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("<svg") && text.contains("for"));
    const int steps = panel->pyramid()->stepCount();
    QVERIFY(steps > 1);
    QVERIFY(
        panel->exportPyramidSteps(dir.filePath(QStringLiteral("steps")), QStringLiteral(".png")));
    const QStringList pictures = QDir(dir.filePath(QStringLiteral("steps")))
                                     .entryList({QStringLiteral("pyramid-step-*.png")});
    QCOMPARE(pictures.size(), std::min(steps, int(TeachingPanel::kMaxPyramidPictures)));

    // Another network, then the saved lesson.
    QVERIFY(editAndWait(w, [&] { w.files()->openBundled(QStringLiteral("l2net")); }));
    auto* lessons = w.findChild<LessonsView*>();
    const int before = lessons->lessonCount();
    QVERIFY(editAndWait(w, [&] { QVERIFY(teaching->openLessonFile(path)); }));
    QCOMPARE(lessons->lessonCount(), before + 1);
    QCOMPARE(lessons->currentLesson(), before);
    QCOMPARE(QString::fromStdString(w.document()->network().name()), QStringLiteral("L3Net"));
    QVERIFY(lessons->isActive());
    QVERIFY(!lessons->targetMet());
    QVERIFY(editAndWait(w, [&] { lessons->showSolution(); }));
    QVERIFY(w.document()->schedule().groups == solution.groups);
    QVERIFY2(lessons->targetMet(), qPrintable(lessons->statusText()));
}

// File ▸ Open (and `layerfuse FILE`, which opens through the same openPath) of a lesson file
// opened it as a project and failed ("expected a network"); it is a lesson: the Lessons view
// gets it and the document becomes its network and hardware at its start schedule, without
// asking about unsaved changes a second time. Opened again (by another file name, from Open
// Recent) it is listed once; a bad lesson changes nothing.
void TestTeachingPanel::fileOpenOfALessonOpensTheLesson() {
    QStandardPaths::setTestModeEnabled(true);
    MainWindow w(quietOptions());
    int asked = 0;
    w.studio()->savePrompt = [&](const QString&) {
        ++asked;
        return QMessageBox::Discard;
    };
    QStringList errors;
    w.studio()->errorSink = [&](const QString&, const QString& m) { errors << m; };
    QVERIFY(editAndWait(w, [&] { w.files()->openBundled(QStringLiteral("resnet18")); }));
    w.document()->markModified();

    const BundledFile* bundled = findBundled(BundledKind::lesson, "3-fusion-pyramid");
    QVERIFY(bundled);
    std::string text = bundled->text;
    const size_t at = text.find("name: 3-fusion-pyramid");
    QVERIFY(at != std::string::npos);
    text.replace(at, 22, "name: my-pyramid");
    QTemporaryDir dir;
    auto* lessons = w.findChild<LessonsView*>();
    const int bundledCount = lessons->lessonCount();
    // By its suffix, and by its format line under a plain .yaml name.
    for (const char* name : {"pyramid.lesson.yaml", "pyramid-copy.yaml"}) {
        const QString path = dir.filePath(QLatin1String(name));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.data(), qint64(text.size()));
        f.close();
        QVERIFY(editAndWait(w, [&] { QVERIFY(w.files()->openPath(path)); }));
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QCOMPARE(lessons->lessonCount(), bundledCount + 1);
        QCOMPARE(lessons->currentLesson(), bundledCount);
        QVERIFY(lessons->isActive());
        const Lesson* lesson = lessons->lesson(lessons->currentLesson());
        QCOMPARE(lesson->name, std::string("my-pyramid"));
        QVERIFY(w.document()->network() == lesson->network);
        QVERIFY(w.document()->hardware() == lesson->hardware);
        QVERIFY(w.document()->schedule().groups == lesson->start.groups);
        QVERIFY(w.document()->lessonOrigin().has_value());
        QVERIFY(w.teachingPanel()->lessonsDock()->isVisibleTo(&w));
        QVERIFY(
            w.files()->recentMenu()->actions().front()->toolTip().endsWith(QLatin1String(name)));
    }
    QCOMPARE(asked, 0); // openPath's callers ask (File ▸ Open, Open Recent); the lesson not again

    // Open Recent: the lesson again, after the "save changes?" question.
    w.document()->markModified();
    QVERIFY(editAndWait(w, [&] { w.files()->recentMenu()->actions().front()->trigger(); }));
    QCOMPARE(asked, 1);
    QCOMPARE(lessons->lessonCount(), bundledCount + 1);
    QVERIFY(w.document()->schedule().groups ==
            lessons->lesson(lessons->currentLesson())->start.groups);

    // A bad lesson: FILE:LINE:COLUMN, nothing changed.
    const QString bad = dir.filePath(QStringLiteral("bad.lesson.yaml"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("format: layerfuse/lesson@1\nname: x\ntitle: [unclosed\n");
    f.close();
    const Schedule kept = w.document()->schedule();
    QString error;
    QVERIFY(!w.files()->openPath(bad, &error));
    QVERIFY2(error.contains(QLatin1String("bad.lesson.yaml:")), qPrintable(error));
    QCOMPARE(errors.size(), 1);
    QCOMPARE(lessons->lessonCount(), bundledCount + 1);
    QVERIFY(w.document()->schedule() == kept);
}

QTEST_MAIN(TestTeachingPanel)
#include "tst_teaching_panel.moc"
