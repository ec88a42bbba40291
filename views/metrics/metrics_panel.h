// MetricsPanel: the whole network's figures plus those of the selected group and layer, in
// human units, each with its change ▲▼ against the metrics before the last edit (green when
// better, red when worse). What's This on a figure says what it is and asks for its "Why
// this number" entry (explainRequested). Shows; never edits.
#pragma once

#include "studio_state.h"

#include <QWidget>

class QLabel;
class QScrollArea;

namespace lf {

class MetricGrid;

class MetricsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit MetricsPanel(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    const MetricGrid* totalsGrid() const { return totals_; }
    const MetricGrid* groupGrid() const { return group_; }
    const MetricGrid* layerGrid() const { return layer_; }

  signals:
    // What's This on the figure `key` ("layer.buf_x", "group.buffer", "total.macs").
    void explainRequested(const QString& key);

  private:
    void refresh();

    StudioState state_;
    StudioSelection selection_;
    bool everShown_ = false;
    QScrollArea* scroll_;
    QLabel* status_;
    MetricGrid* totals_;
    QLabel* groupTitle_;
    MetricGrid* group_;
    QLabel* warnings_;
    QLabel* layerTitle_;
    MetricGrid* layer_;
};

// The group a selection refers to: its group, else the group of its single layer (-1: none).
int selectedGroupIndex(const StudioState& state, const StudioSelection& sel);

} // namespace lf
