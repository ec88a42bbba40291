#include "charts/bar_chart_paint.h"
#include "charts/chart_render.h"
#include "charts/chart_widgets.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace lf {

namespace {

// The category that draws a group, -1 when the chart does not show it (data.groups is
// ascending; empty means category = group).
int categoryOf(const BarChartData& d, int group) {
    if (group < 0) return -1;
    if (d.groups.isEmpty()) return group < d.categories.size() ? group : -1;
    auto it = std::lower_bound(d.groups.begin(), d.groups.end(), group);
    return it != d.groups.end() && *it == group ? int(it - d.groups.begin()) : -1;
}

} // namespace

struct BarChartWidget::Impl {
    BarChartData data;
    QStringList labels; // barCategoryLabels(data.categories)
    int highlight = -1;
    BarChartGeometry geometry;
    bool geometryValid = false;
};

BarChartWidget::BarChartWidget(QWidget* parent) : QWidget(parent), d_(std::make_unique<Impl>()) {
    setAttribute(Qt::WA_OpaquePaintEvent); // paintBarChart fills every pixel
    setMinimumSize(120, 100);
    setWhatsThis(tr("One bar per fusion group (the largest ones when there are many; the title "
                    "says so). Hover a bar for the group's figures, click it to select the "
                    "group on the canvas and in the inspectors. The selected group's bars are "
                    "drawn darker."));
}

BarChartWidget::~BarChartWidget() = default;

const BarChartData& BarChartWidget::data() const {
    return d_->data;
}
int BarChartWidget::highlightedCategory() const {
    return d_->highlight;
}
QWidget* BarChartWidget::viewport() const {
    return const_cast<BarChartWidget*>(this);
}
const QStringList& BarChartWidget::categoryLabels() const {
    return d_->labels;
}
int BarChartWidget::drawnSetCount() const {
    return int(d_->data.sets.size());
}
int BarChartWidget::drawnCategoryCount() const {
    return int(d_->data.categories.size());
}

void BarChartWidget::setData(const BarChartData& data) {
    Impl& d = *d_;
    if (data == d.data) return;
    if (data.categories != d.data.categories) d.labels = barCategoryLabels(data.categories);
    d.data = data;
    d.geometryValid = false;
    update();
}

void BarChartWidget::setHighlightedCategory(int group) {
    // Kept even when the chart has no such bar yet: its data may arrive later.
    if (group == d_->highlight) return;
    d_->highlight = group;
    update();
}

const BarChartGeometry& BarChartWidget::chartGeometry() const {
    Impl& d = *d_;
    if (!d.geometryValid) {
        d.geometry = layOutBarChart(d.data, d.labels, {palette(), font()}, size());
        d.geometryValid = true;
    }
    return d.geometry;
}

QPoint BarChartWidget::barCenter(int group) const {
    const int category = categoryOf(d_->data, group);
    if (category < 0) return {};
    for (int s = 0; s < int(d_->data.sets.size()); ++s)
        if (const QRectF r = chartGeometry().bar(d_->data, category, s); !r.isNull())
            return r.center().toPoint();
    return {};
}

void BarChartWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintBarChart(p, d_->data, d_->labels, chartGeometry(), {palette(), font()},
                  categoryOf(d_->data, d_->highlight));
}

void BarChartWidget::resizeEvent(QResizeEvent* event) {
    d_->geometryValid = false;
    QWidget::resizeEvent(event);
}

void BarChartWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        d_->geometryValid = false;
        update();
    }
    QWidget::changeEvent(event);
}

bool BarChartWidget::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    int set = -1;
    const int c = chartGeometry().categoryAt(d_->data, help->pos(), &set);
    if (c < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    // The column of the group: moving within it keeps the tooltip, leaving it updates it.
    const BarChartGeometry& g = chartGeometry();
    const QRect column(QPointF(g.plot.left() + c * g.slot, g.plot.top()).toPoint(),
                       QPointF(g.plot.left() + (c + 1) * g.slot, g.plot.bottom()).toPoint());
    QToolTip::showText(help->globalPos(), barToolTip(d_->data, c, set), this, column);
    return true;
}

void BarChartWidget::mousePressEvent(QMouseEvent* event) {
    const int c = event->button() == Qt::LeftButton
                      ? chartGeometry().categoryAt(d_->data, event->position(), nullptr)
                      : -1;
    if (c < 0) {
        QWidget::mousePressEvent(event);
        return;
    }
    emit categoryClicked(d_->data.groups.value(c, c));
}

QString BarChartWidget::exportImage(const QString& path, QSize size) const {
    if (!size.isValid() || size.isEmpty())
        size = isVisible() && !this->size().isEmpty() ? this->size() : kDefaultChartExportSize;
    const BarChartLook look{palette(), font()};
    const BarChartGeometry g = layOutBarChart(d_->data, d_->labels, look, size);
    return writeChartImage(
        path, size, d_->data.title, look.palette.color(QPalette::Base),
        [&](QPainter& p) { paintBarChart(p, d_->data, d_->labels, g, look, -1); });
}

} // namespace lf
