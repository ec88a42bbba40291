// The docks of the studio: each holds one view of views/ that follows the Studio (its state,
// the selection, and its edit intents become Document edits), named by its object name so
// that the window's layout is saved and restored.
#pragma once

#include "studio/studio.h"

#include <QString>

class QDockWidget;
class QWidget;

namespace lf {

// A closable, movable, floatable dock holding `content`, a child of `window`. With
// `scrollable`, forms taller or wider than the dock scroll instead of forcing its size.
QDockWidget* makeDock(QWidget* window, QWidget* content, const QString& title,
                      const QString& objectName, bool scrollable = false);

// A dock around `view`, which follows `studio`.
template <class View>
QDockWidget* studioDock(Studio* studio, QWidget* window, View* view, const QString& title,
                        const QString& objectName, bool scrollable = false) {
    studio->follow(view);
    return makeDock(window, view, title, objectName, scrollable);
}

} // namespace lf
