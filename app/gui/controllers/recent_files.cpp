#include "controllers/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace lf {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    rebuildMenu();
}

QStringList RecentFiles::files() const {
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::store(const QStringList& files) {
    QSettings().setValue(kKey, files);
    rebuildMenu();
}

void RecentFiles::add(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMax)
        list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = files();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    store(list);
}

void RecentFiles::clear() {
    store({});
}

void RecentFiles::rebuildMenu() {
    if (!menu_) return;
    menu_->clear();
    const QStringList list = files();
    int n = 0;
    for (const QString& path : list) {
        ++n;
        const QString label = QStringLiteral("&%1  %2").arg(n % 10).arg(QFileInfo(path).fileName());
        QAction* a = menu_->addAction(label);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    if (list.isEmpty()) menu_->addAction(tr("No recent files"))->setEnabled(false);
    menu_->addSeparator();
    QAction* clearAction = menu_->addAction(tr("Clear List"));
    clearAction->setEnabled(!list.isEmpty());
    connect(clearAction, &QAction::triggered, this, &RecentFiles::clear);
    menu_->setToolTipsVisible(true);
}

} // namespace lf
