// FieldGuard (views/input/field_guard.h): the wheel over a field of a scrolling form scrolls the
// form and leaves the field's value alone unless the field has the focus.
#include "focused_window.h"
#include "input/field_guard.h"

#include <QComboBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtTest/qtestspontaneevent.h>
#include <QtTest>

using namespace lf;

namespace {

// One notch of the wheel, down, over the centre of `target` (delivered as the window system
// would: to the innermost widget there, passed on to its parents while ignored).
void wheelDown(QWidget* target) {
    QWidget* inner = target->childAt(target->rect().center());
    QWidget* receiver = inner ? inner : target;
    const QPointF local = QPointF(receiver->mapFrom(target, target->rect().center()));
    QWheelEvent e(local, receiver->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&e); // as QTest's mouse events: from the window system
    qApp->notify(receiver, &e);
}

struct Form {
    QWidget window;
    QScrollArea* area = nullptr;
    QSpinBox* spin = nullptr;
    QComboBox* combo = nullptr;
    QSlider* slider = nullptr;
    QLineEdit* elsewhere = nullptr; // outside the form: where the focus is
    Form() {
        auto* outer = new QVBoxLayout(&window);
        elsewhere = new QLineEdit(&window);
        outer->addWidget(elsewhere);
        area = new QScrollArea(&window);
        outer->addWidget(area);
        auto* content = new QWidget;
        auto* v = new QVBoxLayout(content);
        spin = new QSpinBox(content);
        spin->setRange(0, 100);
        spin->setValue(50);
        combo = new QComboBox(content);
        combo->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        combo->setCurrentIndex(1);
        slider = new QSlider(Qt::Horizontal, content);
        slider->setRange(0, 100);
        slider->setValue(50);
        v->addWidget(spin);
        v->addWidget(combo);
        v->addWidget(slider);
        v->addSpacing(2000); // taller than the area: it scrolls
        area->setWidget(content);
        area->setWidgetResizable(true);
        window.resize(300, 200);
    }
};

} // namespace

class TestFieldGuardWheel : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { FieldGuard::install(); }

    void wheelScrollsTheFormNotItsFields() {
        Form f;
        QVERIFY(test::showWithFocusOn(&f.window, f.elsewhere));
        QScrollBar* bar = f.area->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        for (QWidget* field : {static_cast<QWidget*>(f.spin), static_cast<QWidget*>(f.combo),
                               static_cast<QWidget*>(f.slider)}) {
            QVERIFY(FieldGuard::guardsWheel(field));
            bar->setValue(0);
            wheelDown(field);
            QVERIFY2(bar->value() > 0, field->metaObject()->className());
            QVERIFY2(!field->hasFocus(), field->metaObject()->className());
        }
        QCOMPARE(f.spin->value(), 50);
        QCOMPARE(f.combo->currentIndex(), 1);
        QCOMPARE(f.slider->value(), 50);
        // The wheel no longer gives these fields the focus; a click or Tab still does.
        QCOMPARE(f.spin->focusPolicy(), Qt::StrongFocus);
        QCOMPARE(f.combo->focusPolicy(), Qt::StrongFocus);
    }

    void focusedFieldTakesTheWheel() {
        Form f;
        QVERIFY(test::showWithFocusOn(&f.window, f.spin));
        wheelDown(f.spin);
        QCOMPARE(f.spin->value(), 49);
        f.combo->setFocus();
        QTRY_VERIFY(f.combo->hasFocus());
        wheelDown(f.combo);
        QCOMPARE(f.combo->currentIndex(), 2);
    }

    void fieldOutsideAScrollAreaKeepsTheWheel() {
        QWidget window;
        auto* spin = new QSpinBox(&window);
        spin->setRange(0, 100);
        spin->setValue(50);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!FieldGuard::guardsWheel(spin));
        wheelDown(spin);
        QCOMPARE(spin->value(), 49);
        // The scroll bars themselves are not fields.
        QScrollArea area;
        QVERIFY(!FieldGuard::guardsWheel(area.verticalScrollBar()));
    }
};

QTEST_MAIN(TestFieldGuardWheel)
#include "tst_field_guard_wheel.moc"
