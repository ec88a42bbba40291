// LessonsView: every bundled lesson opens (its network, hardware and starting schedule leave
// through lessonOpened), reports "not met" on its start, shows "Target met" once its known
// solution (from "Show solution") is applied; hints come one at a time.
#include "examples/bundled.h"
#include "models/evaluate.h"
#include "studio_states.h"
#include "teaching/lessons_view.h"
#include "test_support.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

using namespace lf;

namespace {

int bundledLessonCount() {
    int n = 0;
    for (const BundledFile& f : bundledFiles())
        n += f.kind == BundledKind::lesson ? 1 : 0;
    return n;
}

QPushButton* button(QWidget& w, const QString& text) {
    for (QPushButton* b : w.findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

} // namespace

class TestTeachingLessons : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        registerStudioMetaTypes();
        qRegisterMetaType<lf::Network>("lf::Network");
        qRegisterMetaType<lf::Schedule>("lf::Schedule");
    }
    void listsEveryBundledLesson();
    void eachLessonStartsNotMetAndItsSolutionMeets();
    void firstLessonShowsActualValues();
    void hintsOneAtATime();
    void anotherNetworkIsNotTheLesson();
};

void TestTeachingLessons::listsEveryBundledLesson() {
    LessonsView view;
    QVERIFY(view.lessonCount() >= 5);
    QCOMPARE(view.lessonCount(), bundledLessonCount());
    QCOMPARE(view.lessonList()->count(), view.lessonCount());
    for (int k = 0; k < view.lessonCount(); ++k) {
        QVERIFY2(view.lesson(k), qPrintable(view.loadError(k)));
        QCOMPARE(view.lessonList()->item(k)->text(), QString::fromStdString(view.lesson(k)->title));
    }
}

void TestTeachingLessons::eachLessonStartsNotMetAndItsSolutionMeets() {
    LessonsView view;
    QSignalSpy opened(&view, &LessonsView::lessonOpened);
    QSignalSpy replaced(&view, &LessonsView::scheduleReplaced);
    for (int k = 0; k < view.lessonCount(); ++k) {
        const QString name = view.lessonName(k);
        view.lessonList()->setCurrentRow(k);
        QCOMPARE(view.currentLesson(), k);
        QVERIFY(!view.taskBrowser()->toPlainText().isEmpty());
        // Open: the Document would load what the signal carries.
        button(view, QStringLiteral("Open lesson"))->click();
        QCOMPARE(opened.count(), 1);
        const auto net = opened.at(0).at(0).value<Network>();
        const auto hw = opened.at(0).at(1).value<Hardware>();
        const auto start = opened.at(0).at(2).value<Schedule>();
        opened.clear();
        QCOMPARE(net.canonicalHash(), view.lesson(k)->network.canonicalHash());
        QVERIFY(start == view.lesson(k)->start);
        view.setState(test::evaluatedState(net, hw, start));
        QVERIFY2(view.isActive(), qPrintable(name));
        QVERIFY2(!view.targetMet(), qPrintable(name));
        QVERIFY2(view.statusText().contains(QLatin1String("Not met")),
                 qPrintable(name + ": " + view.statusText()));
        QVERIFY(!view.banner()->text().contains(QLatin1String("Target met")));
        bool someCross = false;
        for (int t = 0; t < view.targetList()->topLevelItemCount(); ++t)
            someCross =
                someCross || view.targetList()->topLevelItem(t)->text(0) == QStringLiteral("✗");
        QVERIFY2(someCross, qPrintable(name));

        // Show solution: the schedule the Document would apply.
        button(view, QStringLiteral("Show solution"))->click();
        QCOMPARE(replaced.count(), 1);
        const auto solution = replaced.at(0).at(0).value<Schedule>();
        replaced.clear();
        QVERIFY(solution == view.lesson(k)->solution);
        view.setState(test::evaluatedState(net, hw, solution));
        QVERIFY2(view.targetMet(), qPrintable(name + ": " + view.statusText()));
        QVERIFY(view.banner()->isVisibleTo(&view));
        QVERIFY(view.banner()->text().contains(QLatin1String("Target met")));
        for (int t = 0; t < view.targetList()->topLevelItemCount(); ++t)
            QCOMPARE(view.targetList()->topLevelItem(t)->text(0), QStringLiteral("✓"));
    }
}

void TestTeachingLessons::firstLessonShowsActualValues() {
    LessonsView view;
    int k = -1;
    for (int i = 0; i < view.lessonCount(); ++i)
        if (view.lessonName(i) == QLatin1String("1-loop-order-and-reuse")) k = i;
    QVERIFY(k >= 0);
    view.setCurrentLesson(k);
    const Lesson* l = view.lesson(k);
    view.setState(test::evaluatedState(l->network, l->hardware, l->start));
    // conv2 at z,y,x,i with X at yi: 256 windows of 72 = 18,432 inputs (target ≤ 4,608), Buf_X
    // = 72.
    QTreeWidgetItem* input = view.targetList()->topLevelItem(0);
    QCOMPARE(input->text(0), QStringLiteral("✗"));
    QCOMPARE(input->text(2), QStringLiteral("18,432"));
    QCOMPARE(view.targetList()->topLevelItem(1)->text(2), QStringLiteral("72"));
    QCOMPARE(view.targetList()->topLevelItem(1)->text(0), QStringLiteral("✓"));
    QVERIFY(view.statusText().contains(QLatin1String("1 of 2")));
    // y, x, z, i: 64 windows of 72 = 4,608.
    view.setState(test::evaluatedState(l->network, l->hardware, l->solution));
    QCOMPARE(view.targetList()->topLevelItem(0)->text(2), QStringLiteral("4,608"));
    QVERIFY(view.targetMet());
}

void TestTeachingLessons::hintsOneAtATime() {
    LessonsView view;
    view.setCurrentLesson(0);
    const int n = int(view.lesson(0)->hints.size());
    QVERIFY(n >= 1);
    QCOMPARE(view.hintsShown(), 0);
    for (int h = 1; h <= n; ++h) {
        view.showNextHint();
        QCOMPARE(view.hintsShown(), h);
    }
    view.showNextHint();
    QCOMPARE(view.hintsShown(), n);
    // Another lesson starts with its hints hidden again.
    view.setCurrentLesson(1);
    QCOMPARE(view.hintsShown(), 0);
}

void TestTeachingLessons::anotherNetworkIsNotTheLesson() {
    LessonsView view;
    QSignalSpy replaced(&view, &LessonsView::scheduleReplaced);
    view.setCurrentLesson(0);
    const Network other = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    QVERIFY(other.canonicalHash() != view.lesson(0)->network.canonicalHash());
    view.setState(test::evaluatedState(other, hw, defaultSchedule(other, hw)));
    QVERIFY(!view.isActive());
    QVERIFY(!view.targetMet());
    QVERIFY(view.statusText().contains(QLatin1String("Open this lesson")));
    // No solution for a network that is not the lesson's.
    view.showSolution();
    QCOMPARE(replaced.count(), 0);
}

QTEST_MAIN(TestTeachingLessons)
#include "tst_teaching_lessons.moc"
