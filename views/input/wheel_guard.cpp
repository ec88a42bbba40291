#include "input/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>

namespace lf {

namespace {

bool isField(const QObject* o) {
    return qobject_cast<const QAbstractSpinBox*>(o) || qobject_cast<const QComboBox*>(o) ||
           (qobject_cast<const QAbstractSlider*>(o) && !qobject_cast<const QScrollBar*>(o));
}

} // namespace

void WheelGuard::install() {
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    if (!app || app->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly)) return;
    app->installEventFilter(new WheelGuard(app));
}

bool WheelGuard::guards(const QWidget* w) {
    if (!w || !isField(w)) return false;
    for (const QWidget* p = w->parentWidget(); p && !p->isWindow(); p = p->parentWidget())
        if (qobject_cast<const QAbstractScrollArea*>(p)) return true;
    return false;
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::Polish:
        // Spin and combo boxes take the focus from the wheel (Qt::WheelFocus), before any
        // filter sees the wheel event: only a click or Tab gives it now.
        if (isField(watched)) {
            auto* w = static_cast<QWidget*>(watched);
            if (w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
        }
        return false;
    case QEvent::Wheel: {
        auto* w = qobject_cast<QWidget*>(watched);
        if (!guards(w) || w->hasFocus()) return false;
        // Not the field's: ignored and passed on to its parents (QApplication::notify hands an
        // ignored wheel event to the parent), up to the scroll area, which scrolls.
        event->ignore();
        return true;
    }
    default:
        return false;
    }
}

} // namespace lf
