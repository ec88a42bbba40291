// RecoveryController: autosave and crash recovery. A few seconds after an edit (debounced:
// a burst of edits is written once, and never later than kMaxAutosaveWaitMs after the first
// unsaved one) the project and its undo history are written to this session's recovery
// files (RecoveryStore) on the AutosaveWriter's thread: the GUI thread only takes a snapshot
// of shared values. A save or a clean exit removes them. At start, the files a crashed
// session left are offered for restoring, with their undo and redo.
#pragma once

#include "studio/studio.h"

#include <QElapsedTimer>
#include <QMessageBox>
#include <QObject>

#include <functional>
#include <memory>

class QTimer;

namespace lf {

class AutosaveWriter;
class RecoveryStore;

class RecoveryController : public QObject {
    Q_OBJECT
  public:
    static constexpr int kMaxAutosaveWaitMs = 10'000;

    struct Options {
        bool autosave = true;      // the recovery files a few seconds after each edit
        bool offerRecovery = true; // offerRecovery() asks about files of crashed sessions
        QString directory;         // empty: AppLocalDataLocation/recovery
        int delayMs = 2'000;       // quiet time after an edit before it is written
    };
    RecoveryController(Studio* studio, const Options& options, QObject* parent = nullptr);
    ~RecoveryController() override;

    // Writes the recovery files now (off the GUI thread) when there are unsaved changes,
    // else removes them.
    void autosave();
    // Offers to restore what a crashed session left (when the options allow it).
    void offerRecovery();
    // The document was saved or the studio closes cleanly: nothing to recover.
    void clear();
    // Waits until the writes asked for so far are on disk (tests; a clean exit).
    void waitForWrites();
    RecoveryStore* store() const { return store_.get(); }
    // Whether an autosave is due (the debounce timer runs).
    bool autosavePending() const;

    // Answers "restore the work of a crashed session?" (Yes / No / Ignore = ask next time).
    // Unset: a dialog asks.
    std::function<QMessageBox::StandardButton(const QString& question)> recoveryPrompt;

  signals:
    // An autosave reached the disk (or failed: `error` says why).
    void autosaved(const QString& error);

  private:
    void scheduleAutosave();
    void restore(Project project, const QString& historyFile, const QString& originalPath);

    Studio* studio_;
    Options options_;
    std::unique_ptr<RecoveryStore> store_;
    std::unique_ptr<AutosaveWriter> writer_; // destroyed first: finishes its write
    QTimer* timer_ = nullptr;
    QElapsedTimer sinceFirstUnsaved_;
};

} // namespace lf
