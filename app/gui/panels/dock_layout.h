// DockLayout: the arrangement of the window's docks and how large its text is. On a first
// start the window and its docks take sizes from the screen (the side docks get the width
// their forms need, the canvas the rest); panels taller or wider than their dock scroll;
// View ▸ Reset Layout brings the first-start arrangement back; View ▸ Presenter Mode
// enlarges every font for a projector (kept in the settings).
#pragma once

#include "studio/action_set.h"

#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QSettings;

namespace lf {

class DockLayout : public QObject {
    Q_OBJECT
  public:
    // The docks are placed already; `left`, `right`, `rightBottom` and `bottom` are the
    // docks whose sizes set the others' (a side dock, the dock under it, a bottom dock).
    DockLayout(QMainWindow* window, QDockWidget* left, QDockWidget* right, QDockWidget* rightBottom,
               QDockWidget* bottom);

    const ActionSet& actions() const { return actions_; }

    // The window's size and the docks' for the screen it is on, or for a screen whose
    // available area is `available`.
    void applyDefaultSizes();
    void applyDefaultSizes(const QRect& available);
    // The first-start arrangement: every dock back in its place and size.
    void resetLayout();
    void setPresenterMode(bool on);
    bool presenterMode() const { return presenter_; }
    // Font scale of presenter mode.
    static constexpr double kPresenterScale = 1.4;

    void readSettings(const QSettings& settings);
    void writeSettings(QSettings& settings) const;
    // The saved layout was restored: the first show keeps it.
    void setRestored(bool restored) { restored_ = restored; }
    // Called by the window when it is first shown (the docks settle then).
    void windowShown();

  private:
    void boundDockSizes();

    QMainWindow* window_;
    QDockWidget *left_, *right_, *rightBottom_, *bottom_;
    ActionSet actions_;
    QByteArray initialState_;
    double baseFontSize_ = 0;
    bool presenter_ = false;
    bool restored_ = false;
    bool shown_ = false;
};

} // namespace lf
