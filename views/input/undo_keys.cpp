#include "input/undo_keys.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>

namespace lf {

namespace {
constexpr const char* kWatched = "lfUndoKeysWatched";
} // namespace

void UndoKeysToDocument::install() {
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    if (!app || app->findChild<UndoKeysToDocument*>(QString(), Qt::FindDirectChildrenOnly)) return;
    app->installEventFilter(new UndoKeysToDocument(app));
}

QLineEdit* UndoKeysToDocument::typedInto(QObject* field) {
    if (auto* edit = qobject_cast<QLineEdit*>(field)) return edit;
    if (qobject_cast<QAbstractSpinBox*>(field)) // its line edit is a child of its own
        return field->findChild<QLineEdit*>(QString(), Qt::FindDirectChildrenOnly);
    if (auto* combo = qobject_cast<QComboBox*>(field)) return combo->lineEdit();
    return nullptr;
}

bool UndoKeysToDocument::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Polish) {
        // Entered (Return, or the focus left it): what was typed is the field's value now, not
        // typing to undo. (Once a line edit: Polish comes once per widget.)
        // A spin box takes Return itself (its line edit never sees it) and says so.
        if (watched->property(kWatched).toBool()) return false;
        if (auto* edit = qobject_cast<QLineEdit*>(watched)) {
            watched->setProperty(kWatched, true);
            connect(edit, &QLineEdit::editingFinished, edit, [edit] { edit->setModified(false); });
        } else if (auto* spin = qobject_cast<QAbstractSpinBox*>(watched)) {
            watched->setProperty(kWatched, true);
            if (QLineEdit* edit = typedInto(spin))
                connect(spin, &QAbstractSpinBox::editingFinished, edit,
                        [edit] { edit->setModified(false); });
        }
        return false;
    }
    // Before a key reaches the widget with the focus as a shortcut, the widget is asked whether
    // it wants the key itself (ShortcutOverride); a line edit wants Undo and Redo. Kept from a
    // field with nothing typed, the keys go to the window's Undo and Redo.
    if (event->type() != QEvent::ShortcutOverride) return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (!key->matches(QKeySequence::Undo) && !key->matches(QKeySequence::Redo)) return false;
    const QLineEdit* edit = typedInto(watched);
    if (!edit || edit->isModified()) return false;
    event->ignore();
    return true;
}

} // namespace lf
