// SearchTask: runs one long search of core/search (Optimus DP, tile optimizer, Pareto
// exploration, TSO slicing, an import) on a worker thread for the studio. The search gets a
// SearchControl whose cancel flag is the task's and whose progress reports reach the GUI
// thread (at most every 40 ms); what the work returns runs afterwards on the GUI thread, so
// results are applied where the Document lives. Nothing in the search knows about Qt.
#pragma once

#include "search/search_types.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

class QProgressDialog;
class QWidget;

namespace lf {

class SearchTask : public QObject {
    Q_OBJECT
  public:
    explicit SearchTask(QObject* parent = nullptr);
    // Cancels a running search and waits for it; its result is dropped.
    ~SearchTask() override;

    // The work runs on the worker thread and returns what to do with its result on the GUI
    // thread (may be empty). An exception thrown by the work ends the task with failed().
    using Work = std::function<std::function<void()>(const SearchControl& control)>;
    // Refused (false) while another search of this task runs.
    bool start(const QString& title, Work work);
    // Asks the search to stop; it returns within milliseconds (the searches poll the flag).
    void cancel();

    bool isRunning() const { return running_; }
    bool cancelRequested() const { return cancel_->load(); }
    QString title() const { return title_; }
    double fraction() const { return fraction_; }
    QString step() const { return step_; }
    // Wall time of the running or the last search.
    qint64 elapsedMs() const { return elapsedMs_ >= 0 ? elapsedMs_ : timer_.elapsed(); }
    // Processes events until the task is idle; false on timeout (tests, scripted use).
    bool waitForFinished(int timeoutMs = 60000);

  signals:
    void started(const QString& title);
    void progress(double fraction, const QString& step);
    // After the result's continuation ran (or was skipped on failure).
    void finished(bool cancelled);
    void failed(const QString& message);

  private:
    void onDone();

    QThreadPool pool_;
    QFutureWatcher<std::function<void()>> watcher_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QString title_, step_, error_;
    double fraction_ = 0;
    bool running_ = false;
    QElapsedTimer timer_;
    qint64 elapsedMs_ = -1;
};

// A window-modal progress dialog that follows `task` while it runs: the title, the search's
// current step and fraction, and Cancel (which cancels the task). It appears only when a
// search takes longer than `delayMs`, and closes itself when the task finishes.
QProgressDialog* attachProgressDialog(SearchTask* task, QWidget* parent, int delayMs = 400);

} // namespace lf
