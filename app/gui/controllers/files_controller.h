// FilesController: File ▸ New from Example, Examples, Open, Open Recent, Save and Save As.
// Opens projects (.lfproj), networks (.net.yaml, .onnx), lessons (.lesson.yaml, through
// the teaching controller) and bundled examples by short name
// — each read off the GUI thread (studio/busy_task.h) and adopted whole, or reported as
// FILE:LINE:COLUMN: message with the open document untouched — and saves the project with
// the view state every part of the window contributes.
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"
#include "util/result.h"

#include <QMenu>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

namespace lf {

class RecentFiles;

class FilesController : public QObject {
    Q_OBJECT
  public:
    explicit FilesController(Studio* studio, QObject* parent = nullptr);
    ~FilesController() override;

    const ActionSet& actions() const { return actions_; }
    // File ▸ Examples (every bundled network with its description) and File ▸ Open Recent;
    // children of the studio's window when it has one.
    QMenu* examplesMenu() const { return examples_; }
    QMenu* recentMenu() const { return recentMenu_; }

    // A project, a network file or a bundled example by short name. On failure the open
    // document stays and the error is returned and shown.
    bool openPath(const QString& pathOrName, QString* error = nullptr);
    bool openBundled(const QString& name, QString* error = nullptr);
    bool saveProjectTo(const QString& path, QString* error = nullptr);
    bool save();
    bool saveAs();
    void openDialog();
    void newFromExample();
    // Remembers a file in Open Recent (and where the next file dialog starts).
    void addRecent(const QString& path);

    // File ▸ Open of a schedule file offers to import it instead: how it is imported (the
    // main window sets ExchangeController::importSchedule) and, for tests, the answer to
    // "import it now?" (unset: a question box when the window is shown, else no).
    std::function<bool(const QString& path)> importSchedule;
    std::function<bool(const QString& question)> confirmScheduleImport;
    // How a lesson file is opened (the main window sets TeachingController::openLessonFile,
    // the changes already asked about); unset: a lesson file is refused.
    std::function<bool(const QString& path, QString* error)> openLesson;

  signals:
    // The project was written to `path` (its recovery file is stale now).
    void saved(const QString& path);

  private:
    void openRecent(const QString& path);
    // Opens `network` on the hardware in use; returns what the user must know about that
    // hardware (empty: nothing), e.g. that it is the one from before a lesson.
    QString openNetwork(Network network);
    bool offerScheduleImport(const QString& path, QString* error);
    // nullopt: the user cancelled the import.
    std::optional<Result<Network>> importOnnx(const QString& path);
    void populateExamplesMenu();
    void updateActions();

    Studio* studio_;
    ActionSet actions_;
    QPointer<QMenu> examples_;
    QPointer<QMenu> recentMenu_;
    RecentFiles* recent_;
};

} // namespace lf
