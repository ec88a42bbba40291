// HelpController: Help ▸ — the user manual (bundled HTML in a window of its own: the first
// five minutes, every dock, every metric with its paper and equation, the keyboard
// shortcuts), Keyboard Shortcuts (a table made from the window's real actions, so it is
// never out of date), What's This (Shift+F1) and About LayerFuse.
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>

class QDialog;

namespace lf {

class HelpController : public QObject {
    Q_OBJECT
  public:
    explicit HelpController(Studio* studio, QObject* parent = nullptr);

    const ActionSet& actions() const { return actions_; }
    void about();
    // Opens (or raises) the manual at `anchor` ("walkthrough", "metrics"; empty: the top).
    QDialog* showManual(const QString& anchor = {});
    QDialog* showShortcuts();

    // The manual's HTML with its shortcut table filled in.
    QString manualHtml() const;
    // Every action of the window that has a shortcut, as an HTML table (menu text, keys).
    QString shortcutsHtml() const;

  private:
    QDialog* helpWindow(const QString& objectName, const QString& title, const QString& html);

    Studio* studio_;
    ActionSet actions_;
};

} // namespace lf
