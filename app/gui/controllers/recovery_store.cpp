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

bool RecoveryStore::save(const QByteArray& text, const QString& originalPath, QString* error) {
    QSaveFile f(sessionFile());
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size() || !f.commit()) {
        if (error) *error = f.errorString();
        return false;
    }
    QSaveFile origin(originFile(dir_, id_));
    if (origin.open(QIODevice::WriteOnly)) {
        origin.write(originalPath.toUtf8());
        origin.commit();
    }
    return true;
}

void RecoveryStore::clear() {
    QFile::remove(sessionFile());
    QFile::remove(originFile(dir_, id_));
}

void RecoveryStore::discard(const Orphan& o) {
    QFile::remove(projectFile(dir_, o.id));
    QFile::remove(originFile(dir_, o.id));
    QFile::remove(lockFile(dir_, o.id));
}

} // namespace lf
