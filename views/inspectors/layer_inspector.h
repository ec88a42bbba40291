// LayerInspector: the selected layer's dimensions and schedule — tiles Tx/Ty/Tz/Ti, loop
// order, store/compute level of X, Y, W (only legal choices offered), spatial unrolling — and
// its own metrics with deltas. Edits leave as layerScheduleEdited intents; nothing is changed
// in place and nothing is costed here.
#pragma once

#include "inspectors/layer_levels.h"
#include "studio_metatypes.h"

#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;

namespace lf {

class DivisorSpinBox;
class LoopOrderList;
class MetricGrid;
class UnchangedNote;

class LayerInspector : public QWidget {
    Q_OBJECT
  public:
    explicit LayerInspector(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    // The layer shown (kNoLayer unless exactly one compute layer is selected).
    LayerId layer() const { return layer_; }
    void setSnapToDivisors(bool snap);
    bool snapsToDivisors() const;

    DivisorSpinBox* tileSpinBox(Dim d) const { return tiles_[size_t(d)]; }
    QComboBox* levelComboBox(Arr a, LevelKind k) const {
        return (k == LevelKind::store ? store_ : compute_)[size_t(a)];
    }
    LoopOrderList* loopOrderList() const { return order_; }
    QComboBox* unrollComboBox() const { return unroll_; }
    const MetricGrid* metricGrid() const { return metrics_; }
    // Why the last edit of this layer moved no figure (hidden when it moved one).
    QLabel* unchangedNote() const;

  signals:
    void layerScheduleEdited(lf::LayerId layer, lf::LayerSchedule schedule, QString text,
                             int mergeId);
    void selectionRequested(lf::StudioSelection selection);

  private:
    QWidget* buildEditor();
    void refresh();
    void refreshLevels(const LayerSchedule& s);
    void refreshUnroll(const LayerSchedule& s);
    void refreshMetrics();
    const LayerSchedule* current() const;
    void propose(const LayerSchedule& s, const QString& text, int mergeId);

    void onTileChanged(Dim d, int value);
    void onOrderEdited(const std::array<Dim, 4>& order);
    void onLevelChosen(Arr a, LevelKind k, int index);
    void onUnrollEntered();

    StudioState state_;
    StudioSelection selection_;
    LayerId layer_ = kNoLayer;
    bool updating_ = false;

    QStackedWidget* pages_;
    QLabel* placeholder_;
    QLabel* title_;
    QLabel* groupLink_;
    std::array<QLabel*, 8> dims_{};
    std::array<DivisorSpinBox*, 4> tiles_{};
    std::array<QLabel*, 4> tileLimits_{};
    QCheckBox* snap_;
    LoopOrderList* order_;
    std::array<QComboBox*, 3> store_{};
    std::array<QComboBox*, 3> compute_{};
    QComboBox* unroll_;
    QLabel* unrollError_;
    QLabel* violations_;
    UnchangedNote* unchanged_;
    QLabel* metricsStatus_;
    MetricGrid* metrics_;
};

} // namespace lf
