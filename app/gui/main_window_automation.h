// StudioAutomation: the studio's automatic scheduling and exchange actions, installed into a
// MainWindow through its public API (one call in its constructor):
//  - Optimize menu and toolbar: Auto-fuse (Optimus DP, seed 001 Alg. 1), Optimize Tiles
//    (core/search/tile_optimizer.h), TSO Slicing (seed 002 Algs. 1-3, per-layer dock) and
//    Explore (ConvFusion §V-A Pareto front, search/explore_dialog.h);
//  - File ▸ Import ONNX…, File ▸ Import Schedule… (network hash guard, apply by layer
//    names), File ▸ Export ▸ Schedule YAML (every layer and a metrics block), Timeloop
//    mappings (a directory of per-layer files) and Stream mapping.
// Searches run on a worker thread with a progress dialog and Cancel; a result reaches the
// Document as one undo step, and only if the document is still the one searched.
#pragma once

#include "search/automation_dialogs.h"
#include "studio_state.h"

#include <QKeySequence>
#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QMenu;
class QToolBar;

namespace lf {

class ExploreDialog;
class MainWindow;
class OnnxImportFlow;
class SearchTask;
class TsoSlicingView;

// A schedule file written for another network than the open one.
struct ScheduleMismatch {
    QString file;
    QString fileNetwork, fileHash;    // as written in the file
    QString openNetwork, openHash;    // the open network's canonical hash
    std::vector<std::string> skipped; // names in the file that the open network lacks
};

class StudioAutomation : public QObject {
    Q_OBJECT
  public:
    // Creates the actions, menus, toolbar and dock in `window` (a child of it).
    static StudioAutomation* install(MainWindow* window);
    explicit StudioAutomation(MainWindow* window);
    ~StudioAutomation() override;

    // --- searches: start on a worker thread; false when refused (reason in the status bar) ---
    bool autoFuse(const AutoFuseSettings& settings);
    bool optimizeTiles(const TileOptimizeSettings& settings);
    bool runTsoSearch(bool burstAware = true);
    // Writes the TSO tiles of the last search into the schedule (one undo step).
    bool applyTsoTiles();
    ExploreDialog* exploreDialog(); // created on first use
    void showExplore();
    SearchTask* task() const { return task_; }
    TsoSlicingView* tsoView() const { return tsoView_; }
    OnnxImportFlow* onnxImport() const { return onnx_; }
    AutoFuseSettings autoFuseSettings() const { return fuseSettings_; }
    TileOptimizeSettings tileSettings() const { return tileSettings_; }
    // What the last search or exchange reported (also shown in the status bar).
    QString lastMessage() const { return lastMessage_; }

    // --- exchange (main_window_exchange.cpp); false with `error` set on failure ---
    bool exportSchedule(const QString& path, QString* error = nullptr);
    bool importSchedule(const QString& path, QString* error = nullptr);
    bool exportTimeloop(const QString& directory, QString* error = nullptr);
    bool exportStream(const QString& directory, QString* error = nullptr);

    // Answers "apply this schedule of another network by layer names?". Unset: a dialog asks.
    std::function<bool(const ScheduleMismatch& mismatch)> applyByNamesPrompt;

  signals:
    // A search result or imported schedule became the document's schedule.
    void scheduleApplied(const QString& text);

  private:
    void createActions();
    void createMenus();
    void createDock();
    void updateActions();
    QAction* makeAction(const QString& name, const QString& text, const QString& icon,
                        const QKeySequence& shortcut, const QString& tip);
    void autoFuseInteractively();
    void optimizeTilesInteractively();
    void onDocumentChanged();
    // The groups the selection names (selected group and the groups of selected layers).
    std::vector<int> selectedGroups() const;
    QString selectionText() const;
    // Applies a search result when the document still holds what was searched.
    bool applySearched(const StudioState& searched, Schedule result, const QString& text);
    void say(const QString& message, int ms = 10000);

    // main_window_exchange.cpp
    void exportScheduleInteractively();
    void importScheduleInteractively();
    void exportTimeloopInteractively();
    void exportStreamInteractively();
    bool askApplyByNames(const ScheduleMismatch& mismatch);
    QString suggestedPath(const QString& suffix) const;

    MainWindow* window_;
    SearchTask* task_;
    OnnxImportFlow* onnx_;
    ExploreDialog* explore_ = nullptr;
    TsoSlicingView* tsoView_ = nullptr;
    QDockWidget* tsoDock_ = nullptr;
    QToolBar* toolBar_ = nullptr;
    QMenu* menu_ = nullptr;
    std::map<QString, QAction*> actions_;
    // The problem the TSO table belongs to.
    Network tsoNetwork_;
    Hardware tsoHardware_;
    AutoFuseSettings fuseSettings_;
    TileOptimizeSettings tileSettings_;
    QString lastMessage_;
};

} // namespace lf
