// CompareView: "Snapshot as A" keeps the current state; while the user goes on editing (B is
// always the current state) A and B stand side by side — the network totals and every
// group's figures with their change ▲▼ (green better, red worse) — and the groups of B that
// differ from A (layers, strategy, output tile, partition or any layer schedule) are named
// through groupsDiffer() so the canvas can highlight them. A second tab compares the
// strategies on the selected group (StrategyComparisonView). Shows only: every figure comes
// from lf::Metrics.
#pragma once

#include "metrics/metric_format.h"
#include "studio_metatypes.h"
#include "teaching/schedule_diff.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace lf {

class StrategyComparisonView;

class CompareView : public QWidget {
    Q_OBJECT
  public:
    explicit CompareView(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    // Keeps the current state as A (needs its metrics); clearing forgets it.
    bool takeSnapshot();
    void clearSnapshot();
    bool hasSnapshot() const { return a_.has_value(); }
    const std::optional<StudioState>& snapshot() const { return a_; }

    // B's groups that differ from A (indices into the current schedule's groups).
    QList<int> differingGroups() const { return differing_; }

    // Rows by key: "total.<figure>", "group.<B index>", "group.<B index>.<figure>".
    QTreeWidgetItem* item(const QString& key) const;
    QTreeWidget* tree() const { return tree_; }
    QTabWidget* tabs() const { return tabs_; }
    StrategyComparisonView* strategies() const { return strategies_; }
    QPushButton* snapshotButton() const { return snapshot_; }

    enum Column { cFigure, cA, cB, cDelta, cColumns };

  signals:
    // Whenever the set of B groups that differ from A changes (empty: none, or no A).
    void groupsDiffer(QList<int> groupIndices);
    void groupEdited(int groupIndex, lf::FusionGroup group, QString text, int mergeId);
    void selectionRequested(lf::StudioSelection selection);

  private:
    void refresh();
    void rebuildTree();
    QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& key, const QString& label);
    void setDelta(QTreeWidgetItem* row, double b, std::optional<double> a, Better better);
    void publishDiffer(const QList<int>& groups);
    void updateButtons();

    StudioState b_;
    std::optional<StudioState> a_;
    QDateTime snapshotTime_;
    StudioSelection selection_;
    QList<int> differing_;
    QHash<QString, QTreeWidgetItem*> rows_;
    QHash<QString, bool> expanded_; // the user's choice per row key
    bool rebuilding_ = false;

    QPushButton* snapshot_;
    QPushButton* clear_;
    QLabel* status_;
    QTabWidget* tabs_;
    QTreeWidget* tree_;
    StrategyComparisonView* strategies_;
};

} // namespace lf
