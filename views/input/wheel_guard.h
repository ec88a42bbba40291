// WheelGuard: the mouse wheel scrolls a panel, never a value it passes over. Installed on the
// application, it keeps the spin boxes, combo boxes and sliders that sit in a scroll area (the
// hardware editor, the inspectors, the partition editor) from taking the wheel until they have
// the keyboard focus — a click or Tab gives it, the wheel no longer does — so that scrolling a
// form does not change the field that happens to pass under the pointer; the wheel scrolls the
// form instead. A focused field takes the wheel as before, and so does one outside any scroll
// area (a toolbar's combo box).
#pragma once

#include <QObject>

class QWidget;

namespace lf {

class WheelGuard : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;
    // Installs one guard on the application (again: nothing more).
    static void install();
    // Whether `w` is a field the guard keeps from an unfocused wheel.
    static bool guards(const QWidget* w);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace lf
