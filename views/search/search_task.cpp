#include "search/search_task.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QProgressDialog>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <exception>

namespace lf {

namespace {
// Progress reports closer together than this are dropped (the last one always passes).
constexpr auto kProgressInterval = std::chrono::milliseconds(40);
} // namespace

SearchTask::SearchTask(QObject* parent)
    : QObject(parent), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    // One search at a time; the searches start their own threads where they use both cores.
    pool_.setMaxThreadCount(1);
    connect(&watcher_, &QFutureWatcher<std::function<void()>>::finished, this, &SearchTask::onDone);
}

SearchTask::~SearchTask() {
    cancel_->store(true);
    watcher_.disconnect(this);
    watcher_.waitForFinished();
    pool_.waitForDone();
}

bool SearchTask::start(const QString& title, Work work) {
    if (running_) return false;
    // A fresh flag per run: a late cancel() of the previous run cannot reach this one.
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    running_ = true;
    title_ = title;
    step_.clear();
    error_.clear();
    fraction_ = 0;
    elapsedMs_ = -1;
    timer_.start();
    emit started(title);

    auto flag = cancel_;
    watcher_.setFuture(QtConcurrent::run(&pool_, [this, flag, work = std::move(work)]() {
        SearchControl control;
        control.cancel = flag.get();
        auto last = std::make_shared<std::chrono::steady_clock::time_point>();
        control.progress = [this, flag, last](double f, const std::string& what) {
            const auto now = std::chrono::steady_clock::now();
            if (f < 1.0 && now - *last < kProgressInterval) return;
            *last = now;
            // Queued to the GUI thread; the destructor waits for this worker, so `this` lives.
            QMetaObject::invokeMethod(
                this,
                [this, flag, f, w = QString::fromStdString(what)] {
                    if (!running_ || flag != cancel_) return; // a report of an earlier run
                    fraction_ = f;
                    step_ = w;
                    emit progress(f, w);
                },
                Qt::QueuedConnection);
        };
        try {
            return work(control);
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            return std::function<void()>([this, message] { error_ = message; });
        } catch (...) {
            return std::function<void()>([this] { error_ = tr("the search failed"); });
        }
    }));
    return true;
}

void SearchTask::cancel() {
    if (running_) cancel_->store(true);
}

void SearchTask::onDone() {
    const std::function<void()> apply = watcher_.result();
    elapsedMs_ = timer_.elapsed();
    running_ = false;
    const bool cancelled = cancel_->load();
    if (apply) apply();
    if (!error_.isEmpty()) emit failed(error_);
    emit finished(cancelled);
}

bool SearchTask::waitForFinished(int timeoutMs) {
    if (!running_) return true;
    QEventLoop loop;
    connect(this, &SearchTask::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return !running_;
}

QProgressDialog* attachProgressDialog(SearchTask* task, QWidget* parent, int delayMs) {
    auto* dialog = new QProgressDialog(task->title(), QObject::tr("Cancel"), 0, 1000, parent);
    dialog->setObjectName(QStringLiteral("searchProgressDialog"));
    dialog->setWindowTitle(task->title());
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    dialog->setMinimumDuration(delayMs);
    dialog->setMinimumWidth(420);
    dialog->setValue(0);
    const QString title = task->title();
    QObject::connect(
        task, &SearchTask::progress, dialog, [dialog, title](double f, const QString& step) {
            dialog->setLabelText(step.isEmpty() ? title : title + QStringLiteral("\n") + step);
            dialog->setValue(int(f * 1000.0));
        });
    QObject::connect(dialog, &QProgressDialog::canceled, task, [task, dialog] {
        dialog->setLabelText(QObject::tr("Cancelling…"));
        task->cancel();
    });
    QObject::connect(task, &SearchTask::finished, dialog, [task, dialog] {
        // reset() stops the timer that shows the dialog after delayMs: a task that ended
        // sooner must not bring it up later, over (and blocking) the next question asked —
        // a question the result asks runs a nested event loop, where deleteLater waits.
        QObject::disconnect(task, nullptr, dialog, nullptr);
        dialog->reset();
        dialog->hide();
        dialog->deleteLater();
    });
    return dialog;
}

} // namespace lf
