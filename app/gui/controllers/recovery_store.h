// Autosave and crash recovery: while a document has unsaved changes its project text is
// written every minute to a recovery file in AppLocalDataLocation/recovery, next to a lock
// that this session holds. Files whose lock no live process holds were left by a session
// that crashed; the studio offers to restore them at start.
#pragma once

#include <QDateTime>
#include <QList>
#include <QLockFile>
#include <QObject>
#include <QString>

#include <memory>

namespace lf {

class RecoveryStore {
  public:
    // `directory` empty: AppLocalDataLocation/recovery.
    explicit RecoveryStore(const QString& directory = {});
    ~RecoveryStore();

    QString directory() const { return dir_; }
    QString sessionFile() const;

    struct Orphan {
        QString projectFile;  // the recovery project
        QString originalPath; // where the document was saved before (empty: never saved)
        QDateTime when;
        QString id;
    };
    // Recovery files of sessions that ended without cleaning up, newest first.
    QList<Orphan> orphans() const;
    // Writes this session's recovery file (atomically).
    bool save(const QByteArray& projectText, const QString& originalPath, QString* error);
    // Removes this session's recovery file (the document was saved or closed cleanly).
    void clear();
    // Removes an orphan's files (restored or declined).
    void discard(const Orphan& orphan);

  private:
    QString dir_;
    QString id_;
    std::unique_ptr<QLockFile> lock_;
};

} // namespace lf
