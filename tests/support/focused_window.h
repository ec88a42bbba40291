// For widget tests that send keys or the wheel as a user would: shows `window`, waits until it
// is active, and gives `w` the keyboard focus (header-only: only widget tests include it).
#pragma once

#include <QTest>
#include <QWidget>

namespace lf::test {

inline bool showWithFocusOn(QWidget* window, QWidget* w) {
    window->show();
    if (!QTest::qWaitForWindowActive(window)) return false;
    w->setFocus();
    return QTest::qWaitFor([w] { return w->hasFocus(); });
}

} // namespace lf::test
