#include "metrics/metric_format.h"

#include "metrics/units.h"

#include <cmath>

namespace lf {

QString formatBytes(double bytes) {
    return QString::fromStdString(humanBytes(bytes));
}
QString formatCount(double n) {
    return QString::fromStdString(humanCount(n));
}
QString formatEnergy(double pj) {
    return QString::fromStdString(humanEnergy(pj));
}

QString formatCycles(double cycles, double frequency_mhz) {
    QString s = formatCount(cycles) + QStringLiteral(" cycles");
    if (frequency_mhz > 0)
        s += QStringLiteral(" (") +
             QString::fromStdString(humanTime(cycles / (frequency_mhz * 1e6))) + QLatin1Char(')');
    return s;
}

QString formatPercent(double fraction) {
    return QString::number(fraction * 100, 'f', 1) + QStringLiteral(" %");
}

QString formatRatio(double v) {
    if (v == 0) return QStringLiteral("0");
    const int digits = std::max(0, 2 - int(std::floor(std::log10(std::abs(v)))));
    return QString::number(v, 'f', std::min(digits, 6));
}

QColor MetricDelta::color() const {
    if (improved) return improvedColor();
    if (worsened) return worsenedColor();
    return {};
}

namespace {

// |change| in percent with `decimals`; a change too small for one decimal is still one.
QString percentDigits(double pct, int decimals) {
    return pct < 0.05 ? QStringLiteral("<0.1") : QString::number(pct, 'f', decimals);
}

} // namespace

MetricDelta metricDelta(double current, std::optional<double> previous, Better better) {
    MetricDelta d;
    if (!previous || !std::isfinite(current) || !std::isfinite(*previous)) return d;
    const double prev = *previous;
    // Relative tolerance: figures that differ only by rounding noise are "unchanged".
    const double scale = std::max(std::abs(current), std::abs(prev));
    if (current == prev || std::abs(current - prev) <= 1e-12 * scale) return d;
    d.direction = current > prev ? 1 : -1;
    const QString arrow = d.direction > 0 ? QStringLiteral("▲") : QStringLiteral("▼");
    if (prev != 0) {
        const double pct = std::abs(current - prev) / std::abs(prev) * 100;
        d.text =
            arrow + QLatin1Char(' ') + percentDigits(pct, pct < 10 ? 1 : 0) + QStringLiteral(" %");
    } else {
        d.text = arrow;
    }
    if (better == Better::lower) {
        d.improved = d.direction < 0;
        d.worsened = d.direction > 0;
    } else if (better == Better::higher) {
        d.improved = d.direction > 0;
        d.worsened = d.direction < 0;
    }
    return d;
}

QString percentChange(double was, double now) {
    if (now == was) return QStringLiteral("=");
    const QString sign = now > was ? QStringLiteral("+") : QStringLiteral("-");
    return sign + percentDigits(std::abs(now / was - 1) * 100, 1) + QStringLiteral(" %");
}

QColor improvedColor() {
    return QColor(0x2e, 0x9d, 0x4a);
}
QColor worsenedColor() {
    return QColor(0xd0, 0x45, 0x3a);
}

} // namespace lf
