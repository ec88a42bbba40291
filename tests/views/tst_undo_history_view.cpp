// UndoHistoryView (views/history): the History dock. A long edit text (Auto-fuse names what it
// did) is elided to the dock's width with the whole text in its tooltip, where QUndoView ran
// it off the edge; choosing a row undoes or redoes to it, and the selection follows the stack.
#include "history/undo_history_view.h"
#include "text_fit/clipped_text.h"

#include <QScrollBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>
#include <QtTest>

using namespace lf;

namespace {

const bool kFixedDpi = (QCoreApplication::setAttribute(Qt::AA_Use96Dpi), true);

const QString kLong = QStringLiteral(
    "Auto-fuse (minimise DRAM accesses): 21 groups → 6 groups, DRAM −38.2 %, latency +12.4 %");

// An edit that only carries its text.
class TextCommand : public QUndoCommand {
  public:
    explicit TextCommand(const QString& text) { setText(text); }
};

void fill(QUndoStack& stack) {
    stack.push(new TextCommand(QStringLiteral("Fuse conv1 and conv2")));
    stack.push(new TextCommand(kLong));
}

QStringList clippedIn(const QWidget& w) {
    QStringList texts;
    for (const ClippedText& c : clippedTexts(&w))
        texts << describe(c);
    return texts;
}

} // namespace

class TestUndoHistoryView : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(kFixedDpi); }

    void qundoviewRunsALongTextOffTheEdge() {
        // What the History dock showed before: the detector must see it.
        QUndoStack stack;
        fill(stack);
        QWidget w;
        auto* view = new QUndoView(&stack, &w);
        (new QVBoxLayout(&w))->addWidget(view);
        w.resize(220, 200);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY(clippedIn(w).join(' ').contains(QStringLiteral("Auto-fuse")));
    }

    void aLongTextIsElidedWithTheWholeInTheTooltip() {
        QUndoStack stack;
        fill(stack);
        QWidget w;
        auto* view = new UndoHistoryView(&stack, &w);
        view->setEmptyLabel(QStringLiteral("<opened>"));
        (new QVBoxLayout(&w))->addWidget(view);
        w.resize(220, 200);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(view->model()->rowCount(), 3);
        const QModelIndex last = view->model()->index(2, 0);
        QCOMPARE(last.data(Qt::DisplayRole).toString(), kLong);
        QCOMPARE(last.data(Qt::ToolTipRole).toString(), kLong);
        QCOMPARE(view->model()->index(0, 0).data().toString(), QStringLiteral("<opened>"));
        // The row is no wider than the view: the text is elided, not cut, and readable whole.
        QVERIFY(view->visualRect(last).width() <= view->viewport()->width());
        QVERIFY(!view->horizontalScrollBar()->isVisible());
        QVERIFY2(clippedIn(w).isEmpty(), qPrintable(clippedIn(w).join('\n')));
    }

    void choosingARowUndoesAndTheSelectionFollowsTheStack() {
        QUndoStack stack;
        fill(stack);
        UndoHistoryView view(&stack);
        QCOMPARE(view.currentIndex().row(), 2);
        view.setCurrentIndex(view.model()->index(0, 0));
        QCOMPARE(stack.index(), 0);
        stack.redo();
        QCOMPARE(view.currentIndex().row(), 1);
        stack.push(new TextCommand(QStringLiteral("Reorder the loops of conv1")));
        QCOMPARE(view.model()->rowCount(), 3); // the redo branch is gone
        QCOMPARE(view.currentIndex().row(), 2);
        QCOMPARE(stack.index(), 2);
    }
};

QTEST_MAIN(TestUndoHistoryView)
#include "tst_undo_history_view.moc"
