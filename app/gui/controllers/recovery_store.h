// Autosave and crash recovery on disk: while a document has unsaved changes its project and
// its undo history (io/edit_history_yaml.h) are written to recovery files in
// AppLocalDataLocation/recovery, next to a lock that this session holds. Files whose lock no
// live process holds were left by a session that crashed; the studio offers to restore them
// at start. Locks of dead sessions with nothing to restore are removed when a store opens.
// save() and clear() may run on another thread than the one that made the store (one at a
// time); the rest runs on the GUI thread.
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
        QString historyFile;  // its undo history (may be missing: written by an older version)
        QString originalPath; // where the document was saved before (empty: never saved)
        QDateTime when;
        QString id;
    };
    // Recovery files of sessions that ended without cleaning up, newest first.
    QList<Orphan> orphans() const;
    // Writes this session's recovery files, each atomically (history first: a project
    // without its history is restored without undo, never with another one's).
    bool save(const QByteArray& projectText, const QByteArray& historyText,
              const QString& originalPath, QString* error);
    // Removes this session's recovery file (the document was saved or closed cleanly).
    void clear();
    // Removes an orphan's files (restored or declined).
    void discard(const Orphan& orphan);

  private:
    void removeStaleLocks() const;

    QString dir_;
    QString id_;
    std::unique_ptr<QLockFile> lock_;
};

} // namespace lf
