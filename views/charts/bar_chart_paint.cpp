#include "charts/bar_chart_paint.h"

#include <QFontMetricsF>
#include <QHash>
#include <QPainter>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <map>

namespace lf {

namespace {

constexpr int kMaxLabelledCategories = 40;
constexpr qsizetype kMaxLabelLength = 12;
constexpr double kMargin = 6;
constexpr double kBarWidth = 0.5; // of a category's width, as Qt Charts draws bars

QString elideMiddle(const QString& c, qsizetype len) {
    if (c.size() <= len) return c;
    const qsizetype head = (len - 1) / 3, tail = len - 1 - head;
    return c.left(head) + QStringLiteral("…") + c.right(tail);
}

QFont titleFont(const QFont& base) {
    QFont f = base;
    f.setBold(true);
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 1.2);
    else
        f.setPixelSize(int(f.pixelSize() * 1.2));
    return f;
}

QColor gridColor(const QPalette& pal) {
    QColor c = pal.color(QPalette::Mid);
    c.setAlpha(90);
    return c;
}

double maxExtent(const BarChartData& d) {
    double m = 0;
    for (qsizetype c = 0; c < d.categories.size(); ++c) {
        double s = 0;
        for (const BarSetData& set : d.sets)
            s = d.stacked ? s + std::max(0.0, set.values.value(c))
                          : std::max(s, set.values.value(c));
        m = std::max(m, s);
    }
    return m;
}

// A round number near x: 1, 2 or 5 times a power of ten (at least x when `ceiling`).
double niceNumber(double x, bool ceiling) {
    const double z = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / z;
    if (ceiling) return (q <= 1 ? 1 : q <= 2 ? 2 : q <= 5 ? 5 : 10) * z;
    return (q < 1.5 ? 1 : q < 3 ? 2 : q < 7 ? 5 : 10) * z;
}

// Ticks from 0 to a round value at or above `top`, about `count` of them.
std::vector<double> niceTicks(double top, int count) {
    const double step = niceNumber(niceNumber(top, true) / (count - 1), false);
    const int steps = std::max(1, int(std::ceil(top / step - 1e-9)));
    std::vector<double> ticks;
    for (int k = 0; k <= steps; ++k)
        ticks.push_back(k * step);
    return ticks;
}

QString tickText(double v) {
    return QString::number(v, 'g', 3);
}

// Legend entries laid out in rows centred in `width`; returns each entry's left edge and row.
struct LegendEntry {
    double x;
    int row;
};
std::vector<LegendEntry> legendEntries(const BarChartData& d, const QFontMetricsF& fm, double width,
                                       double* rows) {
    const double marker = fm.height() * 0.7, gap = fm.height();
    std::vector<LegendEntry> out;
    std::vector<double> rowWidths{0};
    for (const BarSetData& s : d.sets) {
        const double w = marker + 4 + fm.horizontalAdvance(s.name);
        double& row = rowWidths.back();
        if (row > 0 && row + gap + w > width) rowWidths.push_back(0);
        double& cur = rowWidths.back();
        out.push_back({cur > 0 ? cur + gap : 0, int(rowWidths.size()) - 1});
        cur = out.back().x + w;
    }
    for (LegendEntry& e : out)
        e.x += (width - rowWidths[size_t(e.row)]) / 2;
    if (rows) *rows = double(rowWidths.size());
    return out;
}

// Whole pixels, so that neighbouring bars and their borders stay crisp.
QRectF snapped(const QRectF& r) {
    const double l = std::round(r.left()), t = std::round(r.top());
    const double rr = std::max(l + 1, std::round(r.right()));
    const double b = std::max(t + 1, std::round(r.bottom()));
    return QRectF(QPointF(l, t), QPointF(rr, b));
}

} // namespace

QStringList barCategoryLabels(const QStringList& categories) {
    if (categories.size() > kMaxLabelledCategories) return {};
    // Per elision length, how many different names each elided text stands for.
    std::map<qsizetype, QHash<QString, QSet<QString>>> namesOf;
    auto clashes = [&](const QString& c, qsizetype len, const QString& t) {
        auto [it, fresh] = namesOf.try_emplace(len);
        if (fresh)
            for (const QString& o : categories)
                it->second[elideMiddle(o, len)].insert(o);
        const QSet<QString>& names = it->second[t];
        return names.size() > 1 || (names.size() == 1 && !names.contains(c));
    };
    QStringList labels;
    QSet<QString> seen;
    for (const QString& c : categories) {
        // The shortest elision that tells the name from every other at the same length.
        QString l;
        for (qsizetype len = kMaxLabelLength;; len += 4) {
            const QString t = elideMiddle(c, len);
            if (!clashes(c, len, t) || c.size() <= len) {
                if (!seen.contains(t)) l = t;
                break;
            }
        }
        for (int k = 2; l.isEmpty(); ++k) {
            const QString t = QStringLiteral("%1 #%2").arg(c).arg(k);
            if (!seen.contains(t)) l = t;
        }
        seen.insert(l);
        labels << l;
    }
    return labels;
}

QRectF BarChartGeometry::bar(const BarChartData& d, int category, int set) const {
    const double v = d.sets[size_t(set)].values.value(category);
    if (!(v > 0) || ticks.empty()) return {};
    const double scale = plot.height() / ticks.back();
    const double centre = plot.left() + (category + 0.5) * slot;
    const double w = kBarWidth * slot;
    if (d.stacked) {
        double base = 0;
        for (int s = 0; s < set; ++s)
            base += std::max(0.0, d.sets[size_t(s)].values.value(category));
        return QRectF(QPointF(centre - w / 2, plot.bottom() - (base + v) * scale),
                      QPointF(centre + w / 2, plot.bottom() - base * scale));
    }
    const double each = w / double(d.sets.size());
    const double left = centre - w / 2 + set * each;
    return QRectF(QPointF(left, plot.bottom() - v * scale), QPointF(left + each, plot.bottom()));
}

int BarChartGeometry::categoryAt(const BarChartData& d, QPointF p, int* set) const {
    if (set) *set = -1;
    const qsizetype n = d.categories.size();
    if (n == 0 || slot <= 0 || !plot.contains(p)) return -1;
    const int c = std::clamp(int((p.x() - plot.left()) / slot), 0, int(n) - 1);
    for (int s = 0; set && s < int(d.sets.size()); ++s)
        if (snapped(bar(d, c, s)).adjusted(-1, -1, 1, 1).contains(p)) *set = s;
    return c;
}

BarChartGeometry layOutBarChart(const BarChartData& d, const QStringList& labels,
                                const BarChartLook& look, QSize size) {
    BarChartGeometry g;
    g.bounds = QRectF(QPointF(0, 0), QSizeF(size));
    const QFontMetricsF fm(look.font), tfm(titleFont(look.font));
    const double lh = fm.height(), w = size.width(), h = size.height();
    double top = kMargin, bottom = h - kMargin;
    if (!d.title.isEmpty()) {
        g.title = QRectF(kMargin, kMargin, w - 2 * kMargin, tfm.height());
        top = g.title.bottom() + 6;
    }
    top += lh / 2; // room for the top tick's label
    if (!d.sets.empty()) {
        double rows = 1;
        legendEntries(d, fm, w - 2 * kMargin, &rows);
        g.legend = QRectF(kMargin, bottom - rows * lh, w - 2 * kMargin, rows * lh);
        bottom = g.legend.top() - 6;
    }
    // Group names when they can be read: level when they fit side by side, upright when the
    // chart is tall enough, else none.
    const qsizetype n = d.categories.size();
    double widest = 0;
    for (const QString& l : labels)
        widest = std::max(widest, fm.horizontalAdvance(l));
    const double perCategory = n > 0 ? 0.85 * w / double(n) : 0;
    if (!labels.isEmpty() && perCategory >= widest + 6)
        g.labels = BarChartGeometry::Labels::level;
    else if (!labels.isEmpty() && perCategory >= lh + 2 && h >= 3 * widest + 120)
        g.labels = BarChartGeometry::Labels::upright;
    if (g.labels == BarChartGeometry::Labels::level) g.labelDepth = lh + 4;
    if (g.labels == BarChartGeometry::Labels::upright) g.labelDepth = widest + 6;
    bottom -= g.labelDepth;

    const double extent = maxExtent(d);
    const int count = std::clamp(int((bottom - top) / (2.5 * lh)) + 1, 2, 5);
    g.ticks = niceTicks(extent > 0 ? extent * 1.05 : 1, count);
    double tickWidth = 0;
    for (double t : g.ticks)
        tickWidth = std::max(tickWidth, fm.horizontalAdvance(tickText(t)));
    const double left = kMargin + (d.valueTitle.isEmpty() ? 0 : lh + 6) + tickWidth + 6;
    g.plot = QRectF(QPointF(left, top),
                    QPointF(std::max(left + 1, w - kMargin - 4), std::max(top + 1, bottom)));
    g.slot = n > 0 ? g.plot.width() / double(n) : 0;
    return g;
}

void paintBarChart(QPainter& p, const BarChartData& d, const QStringList& labels,
                   const BarChartGeometry& g, const BarChartLook& look, int highlight) {
    const QPalette& pal = look.palette;
    const QColor text = pal.color(QPalette::Text);
    const QFontMetricsF fm(look.font);
    const double lh = fm.height();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(g.bounds, pal.color(QPalette::Base));
    if (!d.title.isEmpty()) {
        const QFont tf = titleFont(look.font);
        p.setFont(tf);
        p.setPen(text);
        p.drawText(g.title, Qt::AlignCenter,
                   QFontMetricsF(tf).elidedText(d.title, Qt::ElideRight, g.title.width()));
    }
    p.setFont(look.font);

    // Value axis: grid, tick labels, title.
    const double scale = g.ticks.empty() ? 0 : g.plot.height() / g.ticks.back();
    for (double t : g.ticks) {
        const double y = std::round(g.plot.bottom() - t * scale);
        p.setPen(gridColor(pal));
        p.drawLine(QPointF(g.plot.left(), y), QPointF(g.plot.right(), y));
        p.setPen(text);
        p.drawText(QRectF(0, y - lh / 2, g.plot.left() - 6, lh), Qt::AlignRight | Qt::AlignVCenter,
                   tickText(t));
    }
    if (!d.valueTitle.isEmpty()) {
        p.save();
        p.translate(kMargin, g.plot.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-g.plot.height() / 2, 0, g.plot.height(), lh), Qt::AlignCenter,
                   d.valueTitle);
        p.restore();
    }

    // Bars, one set (one colour) at a time.
    const bool borders =
        g.slot * kBarWidth / double(d.stacked ? 1 : std::max<size_t>(1, d.sets.size())) >= 4;
    for (int s = 0; s < int(d.sets.size()); ++s) {
        const QColor fill = d.sets[size_t(s)].color;
        const QPen border(fill.darker(130), 0);
        for (int c = 0; c < int(d.categories.size()); ++c) {
            const QRectF r = g.bar(d, c, s);
            if (r.isNull()) continue;
            const QRectF px = snapped(r);
            p.fillRect(px, c == highlight ? fill.darker(170) : fill);
            if (!borders) continue;
            p.setPen(border);
            p.setBrush(Qt::NoBrush);
            p.drawRect(px.adjusted(0, 0, -1, -1));
        }
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(g.plot.bottomLeft(), g.plot.bottomRight());
    p.drawLine(g.plot.bottomLeft(), g.plot.topLeft());

    // Group names.
    p.setPen(text);
    for (int c = 0; c < int(labels.size()) && g.labels != BarChartGeometry::Labels::none; ++c) {
        const double centre = g.plot.left() + (c + 0.5) * g.slot;
        if (g.labels == BarChartGeometry::Labels::level) {
            p.drawText(QRectF(centre - g.slot / 2, g.plot.bottom() + 3, g.slot, lh),
                       Qt::AlignHCenter | Qt::AlignTop, labels[c]);
            continue;
        }
        p.save();
        p.translate(centre, g.plot.bottom() + 4);
        p.rotate(-90);
        p.drawText(QRectF(-g.labelDepth, -lh / 2, g.labelDepth, lh),
                   Qt::AlignRight | Qt::AlignVCenter, labels[c]);
        p.restore();
    }

    // Legend.
    const std::vector<LegendEntry> entries = legendEntries(d, fm, g.legend.width(), nullptr);
    const double marker = lh * 0.7;
    for (size_t s = 0; s < entries.size(); ++s) {
        const double x = g.legend.left() + entries[s].x;
        const double y = g.legend.top() + entries[s].row * lh;
        const QColor colour = d.sets[s].color;
        const QRectF m = snapped(QRectF(x, y + (lh - marker) / 2, marker, marker));
        p.fillRect(m, colour);
        p.setPen(QPen(colour.darker(130), 0));
        p.drawRect(m.adjusted(0, 0, -1, -1));
        p.setPen(text);
        p.drawText(QRectF(x + marker + 4, y, g.legend.right() - x, lh),
                   Qt::AlignLeft | Qt::AlignVCenter, d.sets[s].name);
    }
    p.restore();
}

QString barToolTip(const BarChartData& d, int category, int set) {
    if (category < 0 || category >= d.categories.size()) return {};
    QString text = QStringLiteral("<b>%1</b>").arg(d.categories[category].toHtmlEscaped());
    double total = 0;
    for (size_t k = 0; k < d.sets.size(); ++k) {
        const double v = d.sets[k].values.value(category);
        total += v;
        const QString line =
            QStringLiteral("%1: %2 %3").arg(d.sets[k].name).arg(v, 0, 'g', 4).arg(d.unit);
        text +=
            QStringLiteral("<br>") + (int(k) == set ? QStringLiteral("<b>%1</b>").arg(line) : line);
    }
    if (d.stacked) text += QStringLiteral("<br>total: %1 %2").arg(total, 0, 'g', 4).arg(d.unit);
    return text;
}

} // namespace lf
