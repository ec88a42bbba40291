// The legend of a colour-by heatmap: caption, colour ramp and its range (drawn over the
// canvas' top-right corner; hidden when colouring by group).
#pragma once

#include "graph/color_scale.h"

#include <QWidget>

namespace lf::graph {

class HeatLegend : public QWidget {
    Q_OBJECT
  public:
    explicit HeatLegend(QWidget* parent = nullptr);
    void setValues(ColorBy mode, const HeatValues& values);
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QString formatValue(double v) const;
    ColorBy mode_ = ColorBy::group;
    HeatValues values_;
};

} // namespace lf::graph
