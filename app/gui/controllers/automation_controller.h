// AutomationController: the studio's automatic scheduling, Optimize ▸ and its toolbar:
//  - Auto-fuse (Optimus Alg. 1, the bottom-up DP over the DAG, then optionally the tiles);
//  - Optimize Tiles (core/search/tile_optimizer.h) of the selected groups or of all;
//  - Explore Pareto Front (ConvFusion §V-A, search/explore_dialog.h), click a point to apply;
//  - TSO Slicing Search (TSO Alg. 1-3) with its per-layer table (tsoView()).
// Searches run on a worker thread with a progress dialog and Cancel; a result reaches the
// Document as one undo step, and only if the document is still the one searched.
#pragma once

#include "search/automation_dialogs.h"
#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

namespace lf {

class ExploreDialog;
class SearchTask;
class TsoSlicingView;

class AutomationController : public QObject {
    Q_OBJECT
  public:
    explicit AutomationController(Studio* studio, QObject* parent = nullptr);
    ~AutomationController() override;

    // autoFuse, optimizeTiles, explore, tsoSlicing.
    const ActionSet& actions() const { return actions_; }

    // --- searches: start on a worker thread; false when refused (reason in the status bar) ---
    bool autoFuse(const AutoFuseSettings& settings);
    bool optimizeTiles(const TileOptimizeSettings& settings);
    bool runTsoSearch(bool burstAware = true);
    // Writes the TSO tiles of the last search into the schedule (one undo step).
    bool applyTsoTiles();
    ExploreDialog* exploreDialog(); // created on first use
    void showExplore();

    SearchTask* task() const { return task_; }
    // The TSO slicing table (a child of the studio's window; the window docks it).
    TsoSlicingView* tsoView() const;
    AutoFuseSettings autoFuseSettings() const { return fuseSettings_; }
    TileOptimizeSettings tileSettings() const { return tileSettings_; }
    // What the last search reported (also shown in the status bar).
    QString lastMessage() const { return lastMessage_; }

    // Before an Auto-fuse result is applied: every figure before and after, and what the
    // search minimised; true applies it. Unset: the trade-off dialog asks when the window is
    // shown (else the result is applied).
    std::function<bool(const Metrics& before, const Metrics& after, const QString& objective)>
        confirmTradeOff;

  signals:
    // A search result became the document's schedule.
    void scheduleApplied(const QString& text);
    // The TSO table holds a new result: show it.
    void tsoResultReady();

  private:
    void createActions();
    void updateActions();
    void autoFuseInteractively();
    void optimizeTilesInteractively();
    void onDocumentChanged();
    QString selectionText() const;
    // Applies a search result when the document still holds what was searched.
    bool applySearched(const StudioState& searched, Schedule result, const QString& text);
    bool refuseWhenBusy();
    bool acceptTradeOff(const Metrics& before, const Metrics& after, const QString& objective);
    void say(const QString& message, int ms = 10000);

    Studio* studio_;
    ActionSet actions_;
    SearchTask* task_;
    QPointer<ExploreDialog> explore_;
    QPointer<TsoSlicingView> tsoView_; // the window may own and delete it first
    // The problem the TSO table belongs to.
    Network tsoNetwork_;
    Hardware tsoHardware_;
    AutoFuseSettings fuseSettings_;
    TileOptimizeSettings tileSettings_;
    QString lastMessage_;
};

} // namespace lf
