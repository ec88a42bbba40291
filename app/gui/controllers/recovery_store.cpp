#include "controllers/recovery_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace lf {

namespace {
QString originFile(const QString& dir, const QString& id) {
    return dir + QStringLiteral("/%1.origin").arg(id);
}
QString lockFile(const QString& dir, const QString& id) {
    return dir + QStringLiteral("/%1.lock").arg(id);
}
QString projectFile(const QString& dir, const QString& id) {
    return dir + QStringLiteral("/%1.lfproj").arg(id);
}
QString historyFile(const QString& dir, const QString& id) {
    return dir + QStringLiteral("/%1.lfhistory").arg(id);
}
bool writeAtomically(const QString& path, const QByteArray& text, QString* error) {
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.commit()) return true;
    if (error) *error = f.errorString();
    return false;
}
} // namespace

RecoveryStore::RecoveryStore(const QString& directory)
    : dir_(directory.isEmpty()
               ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                     QStringLiteral("/recovery")
               : directory),
      id_(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
    QDir().mkpath(dir_);
    lock_ = std::make_unique<QLockFile>(lockFile(dir_, id_));
    lock_->setStaleLockTime(0); // our lock is only stale when this process is gone
    lock_->tryLock(0);
    removeStaleLocks();
}

void RecoveryStore::removeStaleLocks() const {
    const QDir dir(dir_);
    for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*.lock")}, QDir::Files)) {
        const QString id = fi.completeBaseName();
        if (id == id_ || QFile::exists(projectFile(dir_, id))) continue; // orphans() offers it
        QLockFile probe(fi.absoluteFilePath());
        probe.setStaleLockTime(0);
        // Succeeds only when the process that held the lock is gone (Qt checks its pid).
        if (!probe.tryLock(0)) continue;
        probe.unlock(); // removes the file
        QFile::remove(originFile(dir_, id));
        QFile::remove(historyFile(dir_, id));
    }
}

RecoveryStore::~RecoveryStore() {
    clear();
    lock_->unlock();
}

QString RecoveryStore::sessionFile() const {
    return projectFile(dir_, id_);
}

QList<RecoveryStore::Orphan> RecoveryStore::orphans() const {
    QList<Orphan> out;
    const QDir dir(dir_);
    for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*.lfproj")}, QDir::Files)) {
        const QString id = fi.completeBaseName();
        if (id == id_) continue;
        QLockFile probe(lockFile(dir_, id));
        probe.setStaleLockTime(0);
        if (!probe.tryLock(0)) continue; // a running session owns it
        probe.unlock();
        Orphan o;
        o.id = id;
        o.projectFile = fi.absoluteFilePath();
        o.historyFile = historyFile(dir_, id);
        o.when = fi.lastModified();
        QFile origin(originFile(dir_, id));
        if (origin.open(QIODevice::ReadOnly))
            o.originalPath = QString::fromUtf8(origin.readAll()).trimmed();
        out.push_back(o);
    }
    std::sort(out.begin(), out.end(),
              [](const Orphan& a, const Orphan& b) { return a.when > b.when; });
    return out;
}

bool RecoveryStore::save(const QByteArray& text, const QByteArray& history,
                         const QString& originalPath, QString* error) {
    return writeAtomically(originFile(dir_, id_), originalPath.toUtf8(), error) &&
           writeAtomically(historyFile(dir_, id_), history, error) &&
           writeAtomically(sessionFile(), text, error);
}

void RecoveryStore::clear() {
    QFile::remove(sessionFile());
    QFile::remove(historyFile(dir_, id_));
    QFile::remove(originFile(dir_, id_));
}

void RecoveryStore::discard(const Orphan& o) {
    QFile::remove(projectFile(dir_, o.id));
    QFile::remove(historyFile(dir_, o.id));
    QFile::remove(originFile(dir_, o.id));
    QFile::remove(lockFile(dir_, o.id));
}

} // namespace lf
