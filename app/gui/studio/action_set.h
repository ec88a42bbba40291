// The named actions of one part of the studio (a panel or a controller). The name is the
// action's object name ("fuse", "exportStream"): the window puts actions into its menus and
// toolbars by name, and tests find them the same way. Actions are children of the part
// that owns them and do what that part does; the window only places them.
#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

#include <map>

class QAction;
class QObject;

namespace lf {

class ActionSet {
  public:
    explicit ActionSet(QObject* owner) : owner_(owner) {}

    // A new action; with a shortcut its tooltip names it ("Fuse Selection (Ctrl+G)"), the
    // icon is studioIcon(icon) and the status bar shows `statusTip` while pointing at it.
    QAction* add(const QString& name, const QString& text, const QString& icon = {},
                 const QKeySequence& shortcut = {}, const QString& statusTip = {});
    // An action made elsewhere (the undo stack's undo and redo) under `name`.
    QAction* adopt(QAction* action, const QString& name);

    QAction* get(const QString& name) const; // nullptr when there is none
    QAction* operator[](const QString& name) const { return get(name); }
    QList<QAction*> all() const { return list_; }
    // Enables or disables the named actions together.
    void setEnabled(std::initializer_list<const char*> names, bool enabled) const;

  private:
    QObject* owner_;
    std::map<QString, QAction*> byName_;
    QList<QAction*> list_;
};

} // namespace lf
