// FieldGuard: the studio's fields (spin boxes, combo boxes, sliders, line edits) as a user of a
// desktop tool expects them, for every panel at once. Installed on the application before the
// fields are made (MainWindow does), it sees their events first:
// - The wheel scrolls a panel, never a value it passes over: the spin boxes, combo boxes and
//   sliders that sit in a scroll area (the hardware editor, the inspectors, the partition
//   editor) take the wheel only once they have the keyboard focus — a click or Tab gives it,
//   the wheel no longer does. Elsewhere (a toolbar's combo box) they take it as Qt's do.
// - Undo and Redo (Ctrl+Z, Ctrl+Shift+Z) undo the document's last edit even while a field has
//   the focus — the tile just entered in the Layer inspector — unless something is typed there
//   and not yet entered: then they undo the typing, as in any text field. A field counts as
//   typed into from the user's first key (QLineEdit::isModified) until the typing is entered
//   (Return, or the focus leaves) or its text is set again.
#pragma once

#include <QObject>

class QLineEdit;
class QWidget;

namespace lf {

class FieldGuard : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;
    // Installs one on the application (again: nothing more).
    static void install();
    // Whether `w` is a field that takes the wheel only with the focus.
    static bool guardsWheel(const QWidget* w);
    // The line edit a field types into: a line edit, a spin box's or an editable combo box's.
    static QLineEdit* typedInto(QObject* field);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace lf
