// The studio's chart widgets, fed from the plain data of chart_data.h: stacked or grouped
// bars per fusion group (painted by bar_chart_paint.h: they are redrawn on every edit) and a
// log-log roofline (Qt Charts, deprecated from Qt 6.10 on; moving to Qt Graphs touches
// chart_widgets.cpp and chart_render.cpp only). Both report clicks by category (fusion group),
// highlight one category and export PNG or SVG.
#pragma once

#include "charts/chart_data.h"

#include <QPoint>
#include <QSize>
#include <QWidget>

#include <memory>

namespace lf {

struct BarChartGeometry;

class BarChartWidget : public QWidget {
    Q_OBJECT
  public:
    explicit BarChartWidget(QWidget* parent = nullptr);
    ~BarChartWidget() override;

    void setData(const BarChartData& data);
    const BarChartData& data() const;
    // Categories are named by their group index (BarChartData::groups): clicks report it,
    // highlighting and barCenter take it, also when the chart draws only some groups.
    void setHighlightedCategory(int group); // -1: none
    int highlightedCategory() const;

    // What the chart draws.
    int drawnSetCount() const;
    int drawnCategoryCount() const;
    // The names under the bars (elided, unique) when the size lets them be read; none when
    // there are too many groups to label.
    const QStringList& categoryLabels() const;
    // Centre of a group's first non-empty bar in viewport() coordinates (null if the chart
    // does not draw that group or its bars are empty).
    QPoint barCenter(int group) const;
    QWidget* viewport() const; // the widget itself

    // Writes the chart as SVG when `path` ends in .svg, else as a raster image of that
    // suffix (png, jpg...), at `size` (default: as shown, or 960 × 600 when hidden).
    // Returns an empty string on success, else the reason.
    QString exportImage(const QString& path, QSize size = {}) const;

  signals:
    void categoryClicked(int category);

  protected:
    bool event(QEvent* event) override; // tooltips
    void changeEvent(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    const BarChartGeometry& chartGeometry() const;

    struct Impl;
    std::unique_ptr<Impl> d_;
};

class RooflineChartWidget : public QWidget {
    Q_OBJECT
  public:
    explicit RooflineChartWidget(QWidget* parent = nullptr);
    ~RooflineChartWidget() override;

    void setData(const RooflineData& data);
    const RooflineData& data() const;
    void setHighlightedCategory(int category);
    int highlightedCategory() const;

    int drawnPointCount() const;
    // A group's point in viewport() coordinates (null if the group is not plotted).
    QPoint pointPosition(int category) const;
    QWidget* viewport() const;

    QString exportImage(const QString& path, QSize size = {}) const;

  signals:
    void categoryClicked(int category);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace lf
