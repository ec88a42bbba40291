// StrategyComparisonView: the selected fusion group evaluated under each fusion strategy —
// recompute (ConvFusion), zero-recompute reuse buffers (HW-Flow-Fusion) and Optimus — side
// by side, the best value of each figure in bold. The three variants are evaluated by
// lf::evaluate on copies of the schedule where only that group's strategy changes, off the
// GUI thread (latest request wins); "Use" proposes the strategy as a group edit.
#pragma once

#include "studio_metatypes.h"

#include <QFutureWatcher>
#include <QWidget>

#include <array>

class QLabel;
class QPushButton;
class QTableWidget;

namespace lf {

class StrategyComparisonView : public QWidget {
    Q_OBJECT
  public:
    static constexpr std::array<Strategy, 3> kStrategies{Strategy::recompute, Strategy::reuse,
                                                         Strategy::optimus};

    explicit StrategyComparisonView(QWidget* parent = nullptr);
    ~StrategyComparisonView() override;

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);
    // Evaluations run only while active (e.g. while the tab is shown).
    void setActive(bool active);

    int shownGroup() const { return shownGroup_; }
    bool isBusy() const { return watcher_.isRunning(); }
    QTableWidget* table() const { return table_; }
    // The figures of the shown group under strategy column k (valid after comparisonReady).
    const GroupMetrics& result(int k) const { return results_[size_t(k)]; }

    struct Result {
        quint64 generation = 0;
        int group = -1;
        std::array<GroupMetrics, 3> groups;
    };

  protected:
    void showEvent(QShowEvent* event) override;

  signals:
    void groupEdited(int groupIndex, lf::FusionGroup group, QString text, int mergeId);
    // The three variants of `groupIndex` are shown.
    void comparisonReady(int groupIndex);

  private:
    void request();
    void start();
    void onFinished();
    void showResult(const Result& r);
    void showPlaceholder(const QString& text);

    StudioState state_;
    StudioSelection selection_;
    bool active_ = true;
    // What the last evaluation was for (skip repeats).
    int requestedGroup_ = -1;
    Schedule requestedSchedule_;
    Hardware requestedHardware_;
    std::string requestedNetwork_;
    quint64 generation_ = 0;
    bool pending_ = false;
    int shownGroup_ = -1;
    std::array<GroupMetrics, 3> results_{};

    QLabel* title_;
    QTableWidget* table_;
    std::array<QPushButton*, 3> use_{};
    QFutureWatcher<Result> watcher_;
};

} // namespace lf
