#include "studio/action_set.h"

#include "studio/studio_style.h"

#include <QAction>

namespace lf {

QAction* ActionSet::add(const QString& name, const QString& text, const QString& icon,
                        const QKeySequence& shortcut, const QString& statusTip) {
    auto* a = new QAction(text, owner_);
    if (!icon.isEmpty()) a->setIcon(gui::studioIcon(icon));
    const QString plain = QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    a->setIconText(plain);
    if (!shortcut.isEmpty()) {
        a->setShortcut(shortcut);
        a->setToolTip(
            QStringLiteral("%1 (%2)").arg(plain, shortcut.toString(QKeySequence::NativeText)));
    }
    if (!statusTip.isEmpty()) a->setStatusTip(statusTip);
    return adopt(a, name);
}

QAction* ActionSet::adopt(QAction* a, const QString& name) {
    a->setObjectName(name);
    byName_[name] = a;
    list_ << a;
    return a;
}

QAction* ActionSet::get(const QString& name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
}

void ActionSet::setEnabled(std::initializer_list<const char*> names, bool enabled) const {
    for (const char* n : names)
        if (QAction* a = get(QString::fromLatin1(n))) a->setEnabled(enabled);
}

} // namespace lf
