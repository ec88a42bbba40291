// PartitionEditor: how the selected fusion group shares the hardware (docs/models/hw-flow-fusion.md
// "Partitions"). Spatial: the PE array as a grid with one rectangle per layer to drag and
// resize. Temporal: per-layer register-file share sliders. A toggle switches the kind; every
// change leaves as a groupEdited intent (drags carry one mergeId). Below, each layer's PEs,
// compute cycles and utilization from the metrics.
#pragma once

#include "studio_metatypes.h"

#include <QWidget>

class QButtonGroup;
class QLabel;
class QPushButton;
class QRadioButton;
class QStackedWidget;
class QTableWidget;

namespace lf {

class RfShareEditor;
class SubArrayCanvas;
enum class RfSection;

class PartitionEditor : public QWidget {
    Q_OBJECT
  public:
    explicit PartitionEditor(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    int group() const { return group_; }
    SubArrayCanvas* canvas() const { return canvas_; }
    RfShareEditor* rfEditor() const { return rf_; }
    QRadioButton* temporalButton() const { return temporal_; }
    QRadioButton* spatialButton() const { return spatial_; }
    QTableWidget* resultTable() const { return table_; }

  signals:
    void groupEdited(int groupIndex, lf::FusionGroup group, QString text, int mergeId);
    void selectionRequested(lf::StudioSelection selection);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void refresh();
    void refreshTable();
    void fitColumns();
    const FusionGroup* current() const;
    void propose(const FusionGroup& g, const QString& text, int mergeId);
    void onKindChosen(bool spatial);
    void onSubArrayEdited(LayerId layer, const SubArray& rect, bool resized, int mergeId);
    void onSharesEdited(RfSection section, const std::vector<double>& fractions, int mergeId);
    void onResetClicked();

    StudioState state_;
    StudioSelection selection_;
    int group_ = -1;
    bool updating_ = false;

    QStackedWidget* pages_;
    QLabel* placeholder_;
    QLabel* title_;
    QRadioButton* temporal_;
    QRadioButton* spatial_;
    QLabel* hint_;
    QLabel* snapNote_;
    QStackedWidget* kindPages_;
    SubArrayCanvas* canvas_;
    RfShareEditor* rf_;
    QPushButton* reset_;
    QLabel* problems_;
    QTableWidget* table_;
};

} // namespace lf
