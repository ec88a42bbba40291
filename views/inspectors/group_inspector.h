// GroupInspector: the selected fusion group — name, layers, strategy (recompute | reuse |
// optimus), output tile, weight residency, partition kind — with its metrics, deltas, the
// evaluator's warnings and the constraint violations of lf::checkGroup. Edits leave as
// groupEdited intents.
#pragma once

#include "studio_metatypes.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace lf {

class MetricGrid;
class UnchangedNote;

class GroupInspector : public QWidget {
    Q_OBJECT
  public:
    explicit GroupInspector(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    int group() const { return group_; } // -1 when none is shown

    QLineEdit* nameEdit() const { return name_; }
    QListWidget* layerList() const { return layers_; }
    QComboBox* strategyComboBox() const { return strategy_; }
    QCheckBox* autoTileCheckBox() const { return autoTile_; }
    QSpinBox* tileHeightSpinBox() const { return tileH_; }
    QSpinBox* tileWidthSpinBox() const { return tileW_; }
    QCheckBox* weightsResidentCheckBox() const { return resident_; }
    QComboBox* partitionComboBox() const { return partition_; }
    QLabel* problemsLabel() const { return problems_; }
    const MetricGrid* metricGrid() const { return metrics_; }
    // Over capacity: the nearest output tile that fits and the button that applies it.
    QLabel* fitHintLabel() const { return fitHint_; }
    QPushButton* fitApplyButton() const { return fitApply_; }
    // Why the last edit of this group moved no figure (hidden when it moved one).
    QLabel* unchangedNote() const;

  signals:
    void groupEdited(int groupIndex, lf::FusionGroup group, QString text, int mergeId);
    // The nearest fitting tile of a recompute group is its bottom layer's T_y × T_x.
    void layerScheduleEdited(lf::LayerId layer, lf::LayerSchedule schedule, QString text,
                             int mergeId);
    void selectionRequested(lf::StudioSelection selection);

  private:
    QWidget* buildEditor();
    void refresh();
    void refreshMetrics();
    const FusionGroup* current() const;
    void propose(const FusionGroup& g, const QString& text, int mergeId);

    void onNameEdited();
    void onStrategyChosen(int index);
    void onTileEdited();
    void onResidentToggled(bool on);
    void onPartitionChosen(int index);
    void refreshFit();
    void applyFit();

    StudioState state_;
    StudioSelection selection_;
    int group_ = -1;
    bool updating_ = false;

    QStackedWidget* pages_;
    QLabel* placeholder_;
    QLineEdit* name_;
    QLabel* nameError_;
    QListWidget* layers_;
    QComboBox* strategy_;
    QCheckBox* autoTile_;
    QSpinBox* tileH_;
    QSpinBox* tileW_;
    QLabel* tileHint_;
    QWidget* fitRow_;
    QLabel* fitHint_;
    QPushButton* fitApply_;
    UnchangedNote* unchanged_;
    QCheckBox* resident_;
    QComboBox* partition_;
    QLabel* problems_;
    QLabel* metricsStatus_;
    MetricGrid* metrics_;
};

} // namespace lf
