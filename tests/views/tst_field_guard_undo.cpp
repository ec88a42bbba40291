// FieldGuard (views/input/field_guard.h): Ctrl+Z and Ctrl+Shift+Z in a field with nothing
// typed reach the window's Undo and Redo; with something typed they undo the typing.
#include "focused_window.h"
#include "input/field_guard.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtTest>

using namespace lf;

namespace {

// A window with Undo and Redo actions (counting their triggers) and the fields of an inspector.
struct Panel {
    QWidget window;
    QSpinBox* spin = nullptr;
    QLineEdit* name = nullptr;
    int undone = 0, redone = 0;
    Panel() {
        auto* v = new QVBoxLayout(&window);
        spin = new QSpinBox(&window);
        spin->setRange(1, 112);
        spin->setValue(112);
        spin->setKeyboardTracking(false); // as the inspectors: entered with Return
        name = new QLineEdit(QStringLiteral("g0"), &window);
        v->addWidget(spin);
        v->addWidget(name);
        auto* undo = new QAction(&window);
        undo->setShortcut(QKeySequence::Undo);
        QObject::connect(undo, &QAction::triggered, [this] { ++undone; });
        auto* redo = new QAction(&window);
        redo->setShortcut(QKeySequence::Redo);
        QObject::connect(redo, &QAction::triggered, [this] { ++redone; });
        window.addActions({undo, redo});
    }
};

// The platform's first Undo and Redo keys (Ctrl+Z and Ctrl+Shift+Z on X11; the actions get
// the first of them).
void press(QWidget* w, QKeySequence::StandardKey standard) {
    const QKeyCombination k = QKeySequence(standard)[0];
    QTest::keyClick(w, k.key(), k.keyboardModifiers());
}
void undoKeys(QWidget* w) {
    press(w, QKeySequence::Undo);
}
void redoKeys(QWidget* w) {
    press(w, QKeySequence::Redo);
}

} // namespace

class TestFieldGuardUndo : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { FieldGuard::install(); }

    void enteredValueThenUndoReachesTheDocument() {
        Panel p;
        QVERIFY(test::showWithFocusOn(&p.window, p.spin));
        QVERIFY(FieldGuard::typedInto(p.spin));
        // A value typed and entered: the field shows the value, nothing is left typed.
        p.spin->selectAll();
        QTest::keyClicks(p.spin, QStringLiteral("28"));
        QTest::keyClick(p.spin, Qt::Key_Return);
        QCOMPARE(p.spin->value(), 28);
        undoKeys(p.spin);
        QCOMPARE(p.undone, 1);
        redoKeys(p.spin);
        QCOMPARE(p.redone, 1);
        QCOMPARE(p.spin->value(), 28); // the field itself untouched
    }

    void typingNotEnteredIsUndoneInTheField() {
        Panel p;
        QVERIFY(test::showWithFocusOn(&p.window, p.name));
        QTest::keyClicks(p.name, QStringLiteral("x"));
        QCOMPARE(p.name->text(), QStringLiteral("g0x"));
        undoKeys(p.name);
        QCOMPARE(p.name->text(), QStringLiteral("g0")); // the typing undone
        QCOMPARE(p.undone, 0);
        // Typed and entered, the field passes the keys on.
        QTest::keyClicks(p.name, QStringLiteral("y"));
        QTest::keyClick(p.name, Qt::Key_Return);
        undoKeys(p.name);
        QCOMPARE(p.undone, 1);
        QCOMPARE(p.name->text(), QStringLiteral("g0y"));
    }
};

QTEST_MAIN(TestFieldGuardUndo)
#include "tst_field_guard_undo.moc"
