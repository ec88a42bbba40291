#include "graph/heat_legend.h"

#include "metrics/units.h"

#include <QLinearGradient>
#include <QPainter>

#include <cmath>

namespace lf::graph {

namespace {
constexpr int kPad = 8;
constexpr int kRampWidth = 180;
constexpr int kRampHeight = 10;
} // namespace

HeatLegend::HeatLegend(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    hide();
}

void HeatLegend::setValues(ColorBy mode, const HeatValues& values) {
    mode_ = mode;
    values_ = values;
    setVisible(mode != ColorBy::group);
    resize(sizeHint());
    update();
}

QString HeatLegend::formatValue(double v) const {
    if (values_.ratio) return QString::number(std::lround(v * 100)) + QStringLiteral(" %");
    if (mode_ == ColorBy::energy) return QString::fromStdString(humanEnergy(v));
    return QString::fromStdString(humanCount(v));
}

QSize HeatLegend::sizeHint() const {
    const QFontMetrics fm(font());
    const int w = std::max(kRampWidth, fm.horizontalAdvance(values_.unit)) + 2 * kPad;
    return {w, kPad + fm.height() + 4 + kRampHeight + 3 + fm.height() + kPad};
}

void HeatLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    QColor bg = pal.color(QPalette::Base);
    bg.setAlphaF(0.92f);
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    const QFontMetrics fm(font());
    p.setPen(pal.color(QPalette::Text));
    int y = kPad;
    p.drawText(QRect(kPad, y, width() - 2 * kPad, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               values_.unit);
    y += fm.height() + 4;
    const QRect ramp(kPad, y, width() - 2 * kPad, kRampHeight);
    QLinearGradient g(ramp.topLeft(), ramp.topRight());
    for (int k = 0; k <= 10; ++k)
        g.setColorAt(k / 10.0, heatColor(k / 10.0));
    p.setPen(Qt::NoPen);
    p.setBrush(g);
    p.drawRect(ramp);
    if (values_.ratio && values_.max > 1.0) {
        // Where the buffer is exactly full.
        const int x = ramp.left() + int(ramp.width() * values_.normalized(1.0));
        p.setPen(QPen(pal.color(QPalette::Text), 2));
        p.drawLine(x, ramp.top() - 2, x, ramp.bottom() + 2);
    }
    y += kRampHeight + 3;
    p.setPen(pal.color(QPalette::Text));
    const QRect labels(kPad, y, width() - 2 * kPad, fm.height());
    const bool empty = values_.value.empty();
    p.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter,
               empty ? QString() : formatValue(values_.min));
    p.drawText(labels, Qt::AlignRight | Qt::AlignVCenter,
               empty ? tr("evaluating…") : formatValue(values_.max));
}

} // namespace lf::graph
