// ChartsPanel: the studio's charts in tabs — per-group stacked DRAM traffic, per-group stacked
// energy, the roofline and per-group latency (compute vs memory). Clicking a bar or point asks
// to select that group; the selected group is highlighted. Charts not on screen are brought
// up to date when their tab is shown (or exported).
#pragma once

#include "studio_metatypes.h"

#include <QWidget>

#include <array>

class QLabel;
class QTabWidget;

namespace lf {

class BarChartWidget;
class RooflineChartWidget;

enum class ChartKind { traffic = 0, energy = 1, roofline = 2, latency = 3 };

class ChartsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    void showChart(ChartKind kind);
    ChartKind currentChart() const;
    // Writes a chart as PNG/SVG (by suffix); returns an empty string on success, else the reason.
    QString exportChart(ChartKind kind, const QString& path, QSize size = {});

    BarChartWidget* barChart(ChartKind kind) const; // traffic, energy or latency
    RooflineChartWidget* rooflineChart() const { return roofline_; }
    QTabWidget* tabs() const { return tabs_; }

  signals:
    void selectionRequested(lf::StudioSelection selection);

  private:
    void bringUpToDate(ChartKind kind);
    void onCategoryClicked(int group);

    StudioState state_;
    std::shared_ptr<const Metrics> drawn_; // the metrics the charts show
    Hardware drawnHardware_;               // and the hardware they were computed for
    StudioSelection selection_;
    std::array<bool, 4> stale_{true, true, true, true};
    QTabWidget* tabs_;
    QLabel* status_;
    BarChartWidget* traffic_;
    BarChartWidget* energy_;
    RooflineChartWidget* roofline_;
    BarChartWidget* latency_;
};

} // namespace lf
