#include "input/field_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QScrollBar>

namespace lf {

namespace {

// A field that the wheel changes (a scroll bar scrolls: it is no field).
bool wheelField(const QObject* o) {
    return qobject_cast<const QAbstractSpinBox*>(o) || qobject_cast<const QComboBox*>(o) ||
           (qobject_cast<const QAbstractSlider*>(o) && !qobject_cast<const QScrollBar*>(o));
}

// Once a field is made: the wheel no longer gives it the focus, and entering its typing clears
// the line edit's typed mark.
void prepare(QObject* o) {
    if (wheelField(o)) {
        // Spin and combo boxes take the focus from the wheel (Qt::WheelFocus) before any filter
        // sees the wheel event.
        auto* w = static_cast<QWidget*>(o);
        if (w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
    }
    if (auto* edit = qobject_cast<QLineEdit*>(o)) {
        QObject::connect(edit, &QLineEdit::editingFinished, edit,
                         [edit] { edit->setModified(false); });
    } else if (auto* spin = qobject_cast<QAbstractSpinBox*>(o)) {
        // A spin box takes Return itself (its line edit never sees it) and says so.
        if (QLineEdit* edit = FieldGuard::typedInto(spin))
            QObject::connect(spin, &QAbstractSpinBox::editingFinished, edit,
                             [edit] { edit->setModified(false); });
    }
}

} // namespace

void FieldGuard::install() {
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    if (!app || app->findChild<FieldGuard*>(QString(), Qt::FindDirectChildrenOnly)) return;
    app->installEventFilter(new FieldGuard(app));
}

bool FieldGuard::guardsWheel(const QWidget* w) {
    if (!w || !wheelField(w)) return false;
    for (const QWidget* p = w->parentWidget(); p && !p->isWindow(); p = p->parentWidget())
        if (qobject_cast<const QAbstractScrollArea*>(p)) return true;
    return false;
}

QLineEdit* FieldGuard::typedInto(QObject* field) {
    if (auto* edit = qobject_cast<QLineEdit*>(field)) return edit;
    if (qobject_cast<QAbstractSpinBox*>(field)) // its line edit is a child of its own
        return field->findChild<QLineEdit*>(QString(), Qt::FindDirectChildrenOnly);
    if (auto* combo = qobject_cast<QComboBox*>(field)) return combo->lineEdit();
    return nullptr;
}

bool FieldGuard::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::Polish: // once per widget (QWidget::ensurePolished), before it is first shown
        prepare(watched);
        return false;
    case QEvent::Wheel: {
        auto* w = qobject_cast<QWidget*>(watched);
        if (!guardsWheel(w) || w->hasFocus()) return false;
        // Not the field's: ignored and passed on to its parents (QApplication::notify hands an
        // ignored wheel event to the parent), up to the scroll area, which scrolls.
        event->ignore();
        return true;
    }
    case QEvent::ShortcutOverride: {
        // Before a key reaches the focused widget as a shortcut, the widget is asked whether it
        // wants the key itself; a line edit wants Undo and Redo. Kept from a field with nothing
        // typed, the keys go to the window's Undo and Redo.
        const auto* key = static_cast<QKeyEvent*>(event);
        if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo)) return false;
        const QLineEdit* edit = typedInto(watched);
        if (!edit || edit->isModified()) return false;
        event->ignore();
        return true;
    }
    default:
        return false;
    }
}

} // namespace lf
