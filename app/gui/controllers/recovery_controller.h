// RecoveryController: autosave and crash recovery. While the document has unsaved changes
// its project is written every minute to this session's recovery file (RecoveryStore); a
// save or a clean exit removes it. At start, recovery files that a crashed session left are
// offered for restoring.
#pragma once

#include "studio/studio.h"

#include <QMessageBox>
#include <QObject>

#include <functional>
#include <memory>

class QTimer;

namespace lf {

class RecoveryStore;

class RecoveryController : public QObject {
    Q_OBJECT
  public:
    struct Options {
        bool autosave = true;      // the recovery file every minute while modified
        bool offerRecovery = true; // offerRecovery() asks about files of crashed sessions
        QString directory;         // empty: AppLocalDataLocation/recovery
        int intervalMs = 60'000;
    };
    RecoveryController(Studio* studio, const Options& options, QObject* parent = nullptr);
    ~RecoveryController() override;

    // Writes the recovery file now when there are unsaved changes, else removes it.
    void autosave();
    // Offers to restore what a crashed session left (when the options allow it).
    void offerRecovery();
    // The document was saved or the studio closes cleanly: nothing to recover.
    void clear();
    RecoveryStore* store() const { return store_.get(); }

    // Answers "restore the work of a crashed session?" (Yes / No / Ignore = ask next time).
    // Unset: a dialog asks.
    std::function<QMessageBox::StandardButton(const QString& question)> recoveryPrompt;

  private:
    Studio* studio_;
    Options options_;
    std::unique_ptr<RecoveryStore> store_;
    QTimer* timer_ = nullptr;
};

} // namespace lf
