// ParetoChartWidget: the network Pareto front of the exploration (ConvFusion §V-A,
// ConvFusion Fig. 7 style) as a Qt Charts scatter — DRAM accesses over buffer bytes on log axes,
// points coloured by MACs in a few bands named in the legend (the colour bar), the open schedule
// marked, the buffer capacity drawn as a line. Reports clicks and hovers by front index.
// Like views/charts, this file pair is the only place that knows Qt Charts for the front.
#pragma once

#include <QPoint>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QScatterSeries;

namespace lf {

struct ParetoChartPoint {
    double dram_accesses = 0; // y
    double buffer_bytes = 0;  // x
    double macs = 0;          // colour
    friend bool operator==(const ParetoChartPoint&, const ParetoChartPoint&) = default;
};

struct ParetoChartData {
    QString title;
    std::vector<ParetoChartPoint> points; // the front, in front order
    double capacity_bytes = 0;            // > 0: a line at the buffer capacity
    friend bool operator==(const ParetoChartData&, const ParetoChartData&) = default;
};

// The open schedule's legend entry: its MACs, and when it lies below or left of the plotted
// front, whether that is because it spends more MACs than the front points it passes
// (recompute: the third objective the plot does not show).
QString currentPointNote(const std::vector<ParetoChartPoint>& front, const ParetoChartPoint& cur);

class ParetoChartWidget : public QWidget {
    Q_OBJECT
  public:
    explicit ParetoChartWidget(QWidget* parent = nullptr);
    ~ParetoChartWidget() override;

    void setData(const ParetoChartData& data);
    const ParetoChartData& data() const;
    // The open schedule's point (empty: not shown).
    void setCurrent(const std::optional<ParetoChartPoint>& current);
    std::optional<ParetoChartPoint> current() const;
    // Highlights front point k (-1: none).
    void setSelectedPoint(int k);
    int selectedPoint() const;

    // What the chart draws: front points over all colour bands, the bands, the current marker.
    int drawnPointCount() const;
    int colourBandCount() const;
    QStringList colourBandNames() const;
    bool currentShown() const;
    QString currentName() const; // the open schedule's legend entry
    // The series drawing front point k and the point's value in it (tests emit its signals).
    QScatterSeries* seriesOfPoint(int k, QPointF* value = nullptr) const;
    // Front point k in viewport() coordinates.
    QPoint pointPosition(int k) const;
    QWidget* viewport() const;

    // Writes the chart as SVG (.svg) or a raster image of the suffix's format, at `size`
    // (default: as shown, or 960 × 600 when hidden). Empty on success, else the reason.
    QString exportImage(const QString& path, QSize size = {}) const;

  signals:
    void pointClicked(int k);
    void pointHovered(int k); // -1 when the pointer left the point

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rebuild();
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace lf
