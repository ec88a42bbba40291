// The studio for the tests of app/ (header-only: only those tests link the studio). A quiet
// MainWindow — no saved settings, no autosave, no recovery question — whose errors are
// collected instead of shown and whose "save changes?" question has a fixed answer, and
// waiting until an edit's metrics reached the views (and its layout the canvas). Fonts are
// measured at 96 DPI whatever the machine says, so that geometry is the same everywhere.
#pragma once

#include "controllers/files_controller.h"
#include "graph/graph_canvas.h"
#include "graph/graph_scene.h"
#include "main_window.h"
#include "studio/studio.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>

#include <vector>

namespace lf::test {

inline const bool kFixedDpi = (QCoreApplication::setAttribute(Qt::AA_Use96Dpi), true);

inline MainWindow::Options quietWindowOptions() {
    MainWindow::Options o;
    o.restoreSettings = false;
    o.autosave = false;
    o.offerRecovery = false;
    return o;
}

// Runs `edit` and waits until a state with metrics reached every view of `studio`.
template <class F> bool editAndWait(Studio* studio, F&& edit, int timeoutMs = 20000) {
    QSignalSpy spy(studio, &Studio::statePublished);
    edit();
    return spy.wait(timeoutMs);
}

// The canvas lays out off the GUI thread: waits until the layouts asked for are applied.
inline bool waitForLayouts(const MainWindow& w, int timeoutMs = 20000) {
    QElapsedTimer waited;
    waited.start();
    while (w.canvas()->scene()->layoutPending() && waited.elapsed() < timeoutMs)
        QTest::qWait(5);
    return !w.canvas()->scene()->layoutPending();
}

// Runs `edit`, waits until its metrics reached every view and its layout the canvas.
template <class F> bool editAndWait(const MainWindow& w, F&& edit, int timeoutMs = 20000) {
    return editAndWait(w.studio(), std::forward<F>(edit), timeoutMs) &&
           waitForLayouts(w, timeoutMs);
}

// Errors go to `errors`, "save changes?" gets `saveAnswer`.
inline void quietStudio(Studio* studio, QStringList* errors,
                        QMessageBox::StandardButton saveAnswer) {
    studio->errorSink = [errors](const QString&, const QString& message) { *errors << message; };
    studio->savePrompt = [saveAnswer](const QString&) { return saveAnswer; };
}

struct StudioWindow {
    MainWindow w;
    QStringList errors;
    explicit StudioWindow(QMessageBox::StandardButton saveAnswer = QMessageBox::Discard,
                          const MainWindow::Options& options = quietWindowOptions())
        : w(options) {
        quietStudio(w.studio(), &errors, saveAnswer);
    }
    Studio* studio() const { return w.studio(); }
    template <class F> bool editAndWait(F&& edit, int timeoutMs = 20000) {
        return test::editAndWait(w, std::forward<F>(edit), timeoutMs);
    }
    bool open(const char* name) {
        return editAndWait([&] { w.files()->openBundled(QString::fromLatin1(name)); });
    }
    bool openFile(const QString& path) {
        return editAndWait([&] { w.files()->openPath(path); });
    }
    LayerId id(const char* name) const { return w.document()->network().find(name); }
    void select(std::vector<LayerId> layers) { w.studio()->setSelection({std::move(layers), -1}); }
};

} // namespace lf::test
