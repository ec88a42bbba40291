// UndoKeysToDocument: Undo and Redo (Ctrl+Z, Ctrl+Shift+Z) undo the last edit of the document even
// while a field has the keyboard focus — the tile just typed into the Layer inspector, the burst
// in the Hardware editor — unless something is typed in that field and not yet entered: then
// they undo the typing, as in any text field. Installed on the application (before the fields
// are made); a field counts as typed into from the user's first key (QLineEdit::isModified) until
// the typing is entered (Return, or the focus leaves) or the text is set again.
#pragma once

#include <QObject>

class QLineEdit;

namespace lf {

class UndoKeysToDocument : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;
    // Installs one on the application (again: nothing more).
    static void install();
    // The line edit a field types into: a line edit, a spin box's or an editable combo box's.
    static QLineEdit* typedInto(QObject* field);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace lf
