// ExploreDialog: the network-level design-space exploration of ConvFusion §V-A
// (core/search/pareto.h) in the studio — options, a run with progress and Cancel on a worker
// thread, the front as a scatter (search/pareto_chart.h) with a summary on hover, and a click
// that asks to apply the point's schedule. The open schedule is marked on the front. The
// dialog edits nothing itself: applyRequested() goes to the Document as one undo step.
#pragma once

#include "search/explore_front.h"
#include "search/pareto.h"
#include "studio_state.h"

#include <QDialog>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace lf {

class ParetoChartWidget;
class SearchTask;

class ExploreDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ExploreDialog(QWidget* parent = nullptr);
    ~ExploreDialog() override;

    // The open document. A network or hardware other than the explored one clears the front
    // (its schedules belong to the old problem); the schedule's metrics mark the open point.
    void setState(const StudioState& state);

    ExploreOptions options() const;
    void setOptions(const ExploreOptions& options);

    // Starts the exploration of the current state's network and hardware.
    bool run();
    void cancel();
    SearchTask* task() const { return task_; }
    ParetoChartWidget* chart() const { return chart_; }

    // The last complete front (empty before a run, after a cancelled first run or when the
    // problem changed).
    bool hasFront() const { return bool(result_); }
    const ExploreResult* result() const { return result_.get(); }
    const std::vector<ExploreFrontRow>& rows() const { return rows_; }
    // Whether the front was explored for this network and hardware.
    bool frontMatches(const Network& net, const Hardware& hw) const {
        return result_ && net == frontNetwork_ && hw == frontHardware_;
    }
    // The schedule of front point k for the explored network and hardware.
    Schedule scheduleOf(size_t k) const;
    // The hover text of point k.
    QString summary(int k) const;
    // Asks to apply point k (what a click on it does).
    void applyPoint(int k);

    // Write the front as CSV / the chart as PNG or SVG; empty on success, else the reason.
    QString exportCsv(const QString& path) const;
    QString exportChart(const QString& path) const;

  public slots:
    void done(int r) override; // closing cancels a running exploration

  signals:
    // Apply `schedule` (front point k) to the open document.
    void applyRequested(int k, const lf::Schedule& schedule, const QString& text);

  private:
    void buildUi();
    void onFinished(bool cancelled);
    void setRunning(bool running);
    void updateChart();
    void updateCurrent();
    void exportCsvInteractively();
    void exportChartInteractively();

    StudioState state_;
    // The problem the front belongs to.
    Network frontNetwork_;
    Hardware frontHardware_;
    std::shared_ptr<const ExploreResult> result_;
    std::vector<ExploreFrontRow> rows_;
    bool runApplied_ = false; // the last run's front is the one shown

    SearchTask* task_;
    QSpinBox* depth_;
    QComboBox* tiles_;
    QComboBox* strategy_;
    QComboBox* levels_;
    QCheckBox* recompute_;
    QCheckBox* resident_;
    QCheckBox* fitOnly_;
    QPushButton* runButton_;
    QPushButton* cancelButton_;
    QPushButton* csvButton_;
    QPushButton* imageButton_;
    QProgressBar* progress_;
    QLabel* status_;
    ParetoChartWidget* chart_;
};

} // namespace lf
