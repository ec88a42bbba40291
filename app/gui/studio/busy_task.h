// runBusy: runs a piece of work that returns a Result<T> (reading a file, importing a
// model) on a worker thread while the window stays responsive. User input is held back
// for a short grace period, so quick loads look synchronous; after it a window-modal
// progress dialog with Cancel appears. Cancel returns at once: the work cannot be
// interrupted (a YAML parse has no cancellation point), so it finishes in the background
// and its result is dropped. Nothing of the document changes until the result is back.
#pragma once

#include "util/result.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFutureWatcher>
#include <QPointer>
#include <QProgressDialog>
#include <QThreadPool>
#include <QTimer>
#include <QWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace lf::gui {

// How long user input is held back before the progress dialog shows.
inline constexpr int kBusyGraceMs = 300;

// Runs work() off the GUI thread; returns its result, or nullopt when the user cancelled.
// An exception thrown by work() becomes an Error. work must own everything it reads.
template <class T>
std::optional<Result<T>> runBusy(QWidget* parent, const QString& label,
                                 std::function<Result<T>()> work) {
    // The slot outlives this call when the user cancels: the worker still writes to it.
    auto slot = std::make_shared<std::optional<Result<T>>>();
    QFutureWatcher<void> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<void>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(
        QtConcurrent::run(QThreadPool::globalInstance(), [slot, work = std::move(work)]() {
            try {
                slot->emplace(work());
            } catch (const std::exception& e) {
                slot->emplace(Error(std::string("internal error: ") + e.what()));
            } catch (...) {
                slot->emplace(Error("internal error"));
            }
        }));

    // Grace period: paint and timers run, clicks and keys wait.
    if (!watcher.isFinished()) {
        QTimer grace;
        grace.setSingleShot(true);
        QObject::connect(&grace, &QTimer::timeout, &loop, &QEventLoop::quit);
        grace.start(kBusyGraceMs);
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    }

    bool cancelled = false;
    if (!watcher.isFinished()) {
        QProgressDialog dialog(label, QObject::tr("Cancel"), 0, 0, parent);
        dialog.setWindowTitle(QApplication::applicationDisplayName());
        dialog.setWindowModality(parent ? Qt::WindowModal : Qt::ApplicationModal);
        dialog.setMinimumDuration(0);
        dialog.setAutoClose(false);
        dialog.setAutoReset(false);
        QObject::connect(&dialog, &QProgressDialog::canceled, &loop, [&] {
            cancelled = true;
            loop.quit();
        });
        dialog.show();
        // The future may have finished while the dialog was being shown.
        if (!watcher.isFinished()) loop.exec();
        dialog.hide();
    }
    if (cancelled && !watcher.future().isFinished()) return std::nullopt;
    // Finished (possibly at the same moment as Cancel: the result wins, nothing is lost).
    watcher.waitForFinished();
    return std::move(*slot);
}

} // namespace lf::gui
