#include "charts/chart_widgets.h"

#include "charts/chart_render.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetrics>
#include <QHash>
#include <QImage>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QSet>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace lf {

namespace {

constexpr int kMaxLabelledCategories = 40;
constexpr qsizetype kMaxLabelLength = 12;
constexpr int kMaxInPlaceChanges = 8;

QChart* newChart(const QPalette& pal, const QString& title) {
    auto* chart = new QChart;
    applyChartPalette(chart, pal);
    chart->setBackgroundRoundness(0);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

// --- bars -----------------------------------------------------------------------------------

// Category labels: long names elided in the middle, keeping their start and more of their
// end (where "layer1.0.conv1" and "layer1.1.conv1" differ), longer where needed to stay
// unique (the category axis drops repeated labels); hovering a bar names it whole.
QString elideMiddle(const QString& c, qsizetype len) {
    if (c.size() <= len) return c;
    const qsizetype head = (len - 1) / 3, tail = len - 1 - head;
    return c.left(head) + QStringLiteral("…") + c.right(tail);
}

QStringList axisLabels(const QStringList& categories) {
    if (categories.size() > kMaxLabelledCategories) {
        // The axis never shows so many labels, yet lays each one out on every change: short
        // stand-ins (the bars' positions) cost nothing there; tooltips name the groups.
        QStringList numbers;
        for (qsizetype k = 0; k < categories.size(); ++k)
            numbers << QString::number(k + 1);
        return numbers;
    }
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
            const bool clash = clashes(c, len, t);
            if (!clash || c.size() <= len) {
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

// Group names under the bars when they can be read at this chart size: level when they fit
// side by side, upright when the chart is tall enough, else none (each bar's tooltip names
// its group).
void fitCategoryLabels(QBarCategoryAxis* x, QSize size) {
    const qsizetype n = x->count();
    const QFontMetrics fm(x->labelsFont());
    int widest = 0;
    for (const QString& c : x->categories())
        widest = std::max(widest, fm.horizontalAdvance(c));
    const double perCategory = n > 0 ? 0.85 * size.width() / double(n) : 0;
    const bool level = n <= kMaxLabelledCategories && perCategory >= widest + 6;
    const bool upright = n <= kMaxLabelledCategories && perCategory >= fm.height() + 2 &&
                         size.height() >= 3 * widest + 120;
    x->setLabelsAngle(level ? 0 : -90);
    x->setLabelsVisible(level || upright);
    x->setTitleVisible(false);
}

struct Bars {
    QAbstractBarSeries* series = nullptr;
    QList<QBarSet*> sets;
    QBarCategoryAxis* x = nullptr;
    QValueAxis* y = nullptr;
};

// The category that draws a group, -1 when the chart does not show it (data.groups is
// ascending; empty means category = group).
int categoryOf(const BarChartData& d, int group) {
    if (group < 0) return -1;
    if (d.groups.isEmpty()) return group < d.categories.size() ? group : -1;
    auto it = std::lower_bound(d.groups.begin(), d.groups.end(), group);
    return it != d.groups.end() && *it == group ? int(it - d.groups.begin()) : -1;
}

double maxExtent(const BarChartData& d) {
    double m = 0;
    for (qsizetype c = 0; c < d.categories.size(); ++c) {
        double s = 0;
        for (const BarSetData& set : d.sets)
            s = d.stacked ? s + set.values.value(c) : std::max(s, set.values.value(c));
        m = std::max(m, s);
    }
    return m;
}

void updateValueAxis(QValueAxis* y, const BarChartData& d) {
    const double m = maxExtent(d);
    y->setRange(0, m > 0 ? m * 1.05 : 1);
    y->setTitleText(d.valueTitle);
    y->applyNiceNumbers();
}

Bars buildBars(QChart* chart, const BarChartData& d, int highlight, const QPalette& pal,
               QSize size) {
    Bars b;
    b.series = d.stacked ? static_cast<QAbstractBarSeries*>(new QStackedBarSeries)
                         : static_cast<QAbstractBarSeries*>(new QBarSeries);
    for (const BarSetData& s : d.sets) {
        auto* set = new QBarSet(s.name);
        set->append(s.values); // in bulk
        set->setColor(s.color);
        set->setBorderColor(s.color.darker(130));
        set->setSelectedColor(s.color.darker(170));
        b.sets << set;
    }
    b.series->append(b.sets);
    chart->addSeries(b.series);
    b.x = new QBarCategoryAxis;
    // The whole name is in the bar's tooltip.
    b.x->append(axisLabels(d.categories));
    fitCategoryLabels(b.x, size);
    b.y = new QValueAxis;
    b.y->setLabelFormat(QStringLiteral("%.3g"));
    updateValueAxis(b.y, d);
    chart->addAxis(b.x, Qt::AlignBottom);
    chart->addAxis(b.y, Qt::AlignLeft);
    b.series->attachAxis(b.x);
    b.series->attachAxis(b.y);
    if (const int c = categoryOf(d, highlight); c >= 0)
        for (QBarSet* set : b.sets)
            set->selectBar(c);
    applyChartPalette(chart, pal);
    return b;
}

// --- roofline -------------------------------------------------------------------------------

struct Roof {
    QScatterSeries* points = nullptr;
    QLineSeries* roof = nullptr;
    QLogValueAxis* x = nullptr;
    QLogValueAxis* y = nullptr;
};

void fillRoofline(Roof& r, const RooflineData& d) {
    const double P = std::max(d.computeRoof, 1e-9);
    const double bw = std::max(d.bandwidth, 1e-9);
    const double ridge = P / bw;
    double xmin = ridge, xmax = ridge, ymin = P, ymax = P;
    QList<QPointF> pts;
    pts.reserve(qsizetype(d.points.size()));
    for (const RooflinePoint& p : d.points) {
        pts << QPointF(p.ctc, p.macsPerCycle);
        xmin = std::min(xmin, p.ctc);
        xmax = std::max(xmax, p.ctc);
        ymin = std::min(ymin, p.macsPerCycle);
        ymax = std::max(ymax, p.macsPerCycle);
    }
    xmin /= 4;
    xmax *= 4;
    ymin = std::min(ymin, bw * xmin) / 2;
    ymax *= 2;
    r.points->replace(pts); // in bulk
    QList<QPointF> roof;
    roof << QPointF(xmin, std::min(P, bw * xmin));
    if (ridge > xmin && ridge < xmax) roof << QPointF(ridge, P);
    roof << QPointF(xmax, std::min(P, bw * xmax));
    r.roof->replace(roof);
    r.roof->setName(QObject::tr("roof: %1 MAC/cycle, %2 B/cycle")
                        .arg(d.computeRoof, 0, 'g', 4)
                        .arg(d.bandwidth, 0, 'g', 4));
    r.x->setRange(xmin, xmax);
    r.y->setRange(ymin, ymax);
}

Roof buildRoofline(QChart* chart, const RooflineData& d, int highlight, const QPalette& pal) {
    Roof r;
    r.roof = new QLineSeries;
    r.roof->setColor(QColor(0xe4, 0x57, 0x56));
    QPen pen = r.roof->pen();
    pen.setWidthF(2);
    r.roof->setPen(pen);
    r.points = new QScatterSeries;
    r.points->setName(QObject::tr("groups"));
    r.points->setMarkerSize(11);
    r.points->setColor(QColor(0x4c, 0x78, 0xa8));
    r.points->setSelectedColor(QColor(0xf5, 0x85, 0x18));
    chart->addSeries(r.roof);
    chart->addSeries(r.points);
    r.x = new QLogValueAxis;
    r.x->setBase(10);
    r.x->setLabelFormat(QStringLiteral("%g"));
    r.x->setTitleText(QObject::tr("CTC (MAC / DRAM byte)"));
    r.y = new QLogValueAxis;
    r.y->setBase(10);
    r.y->setLabelFormat(QStringLiteral("%g"));
    r.y->setTitleText(QObject::tr("MAC / cycle"));
    chart->addAxis(r.x, Qt::AlignBottom);
    chart->addAxis(r.y, Qt::AlignLeft);
    for (QXYSeries* s : {static_cast<QXYSeries*>(r.roof), static_cast<QXYSeries*>(r.points)}) {
        s->attachAxis(r.x);
        s->attachAxis(r.y);
    }
    fillRoofline(r, d);
    for (size_t i = 0; i < d.points.size(); ++i)
        if (d.points[i].category == highlight) r.points->selectPoint(int(i));
    applyChartPalette(chart, pal);
    return r;
}

QChartView* newView(QChart* chart, QWidget* parent, bool antialias) {
    auto* view = new QChartView(chart, parent);
    // Bars are axis-aligned rectangles: antialiasing them only costs paint time (a chart of
    // ResNet-50's groups repaints on every edit). Curves and points keep it.
    view->setRenderHint(QPainter::Antialiasing, antialias);
    view->setRenderHint(QPainter::TextAntialiasing, true);
    view->setFrameShape(QFrame::NoFrame);
    return view;
}

} // namespace

// === BarChartWidget ==========================================================================

struct BarChartWidget::Impl {
    BarChartData data;
    int highlight = -1;
    QChartView* view = nullptr;
    Bars bars;
};

BarChartWidget::BarChartWidget(QWidget* parent) : QWidget(parent), d_(std::make_unique<Impl>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    d_->view = newView(newChart(palette(), {}), this, false);
    v->addWidget(d_->view);
}

BarChartWidget::~BarChartWidget() = default;

const BarChartData& BarChartWidget::data() const {
    return d_->data;
}
int BarChartWidget::highlightedCategory() const {
    return d_->highlight;
}
QWidget* BarChartWidget::viewport() const {
    return d_->view->viewport();
}

void BarChartWidget::setData(const BarChartData& data) {
    Impl& d = *d_;
    QChart* chart = d.view->chart();
    chart->setTitle(data.title);
    bool sameShape = d.bars.series && data.categories == d.data.categories &&
                     data.groups == d.data.groups && data.stacked == d.data.stacked &&
                     data.sets.size() == d.data.sets.size();
    int changed = 0;
    for (size_t s = 0; sameShape && s < data.sets.size(); ++s) {
        sameShape = data.sets[s].name == d.data.sets[s].name;
        for (qsizetype c = 0; sameShape && c < data.sets[s].values.size(); ++c)
            changed += data.sets[s].values[c] != d.data.sets[s].values.value(c);
    }
    // Each changed value re-lays out every bar: a few are updated in place (an edit of one
    // group), more are faster to draw anew.
    if (sameShape && changed <= kMaxInPlaceChanges) {
        for (size_t s = 0; s < data.sets.size(); ++s) {
            QBarSet* set = d.bars.sets[qsizetype(s)];
            for (qsizetype c = 0; c < data.sets[s].values.size(); ++c)
                if (set->at(c) != data.sets[s].values[c]) set->replace(c, data.sets[s].values[c]);
        }
        d.data = data;
        updateValueAxis(d.bars.y, data);
        return;
    }
    d.data = data;
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    d.bars = buildBars(chart, data, d.highlight, palette(), d.view->size());
    for (qsizetype s = 0; s < d.bars.sets.size(); ++s) {
        QBarSet* set = d.bars.sets[s];
        connect(set, &QBarSet::clicked, this,
                [this](int index) { emit categoryClicked(d_->data.groups.value(index, index)); });
        connect(set, &QBarSet::hovered, this, [this, s](bool on, int index) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            const BarChartData& cd = d_->data;
            if (index < 0 || index >= cd.categories.size()) return;
            QString text = QStringLiteral("<b>%1</b>").arg(cd.categories[index].toHtmlEscaped());
            double total = 0;
            for (size_t k = 0; k < cd.sets.size(); ++k) {
                const double v = cd.sets[k].values.value(index);
                total += v;
                const QString line =
                    QStringLiteral("%1: %2 %3").arg(cd.sets[k].name).arg(v, 0, 'g', 4).arg(cd.unit);
                text += QStringLiteral("<br>") +
                        (qsizetype(k) == s ? QStringLiteral("<b>%1</b>").arg(line) : line);
            }
            if (cd.stacked)
                text += QStringLiteral("<br>total: %1 %2").arg(total, 0, 'g', 4).arg(cd.unit);
            QToolTip::showText(QCursor::pos(), text, d_->view);
        });
    }
}

void BarChartWidget::setHighlightedCategory(int category) {
    // Kept even when the chart has no such bar yet: its data may arrive later.
    Impl& d = *d_;
    if (category == d.highlight) return;
    d.highlight = category;
    const int c = categoryOf(d.data, category);
    for (QBarSet* set : d.bars.sets) {
        set->deselectAllBars();
        if (c >= 0 && c < set->count()) set->selectBar(c);
    }
}

void BarChartWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (d_->bars.x) fitCategoryLabels(d_->bars.x, event->size()); // the view fills the widget
}

void BarChartWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) applyChartPalette(d_->view->chart(), palette());
    QWidget::changeEvent(event);
}

int BarChartWidget::drawnSetCount() const {
    return d_->bars.series ? int(d_->bars.series->count()) : 0;
}

int BarChartWidget::drawnCategoryCount() const {
    return d_->bars.x ? int(d_->bars.x->count()) : 0;
}

QPoint BarChartWidget::barCenter(int group) const {
    const Impl& d = *d_;
    const int category = categoryOf(d.data, group);
    if (!d.bars.series || category < 0) return {};
    const int n = int(d.data.sets.size());
    for (int s = 0; s < n; ++s) {
        // Segments before the first non-empty one are empty, so its centre is at v / 2.
        const double v = d.data.sets[size_t(s)].values.value(category);
        if (v <= 0) continue;
        double x = category;
        if (!d.data.stacked) {
            const double w = d.bars.series->barWidth();
            x = category - w / 2 + w * (s + 0.5) / n;
        }
        const QPointF scene = d.view->chart()->mapToPosition(QPointF(x, v / 2), d.bars.series);
        return d.view->mapFromScene(scene);
    }
    return {};
}

QString BarChartWidget::exportImage(const QString& path, QSize size) const {
    if (!size.isValid() || size.isEmpty())
        size =
            isVisible() && !d_->view->size().isEmpty() ? d_->view->size() : kDefaultChartExportSize;
    QChart* chart = newChart(palette(), d_->data.title);
    buildBars(chart, d_->data, -1, palette(), size);
    return renderChart(chart, path, size);
}

// === RooflineChartWidget =====================================================================

struct RooflineChartWidget::Impl {
    RooflineData data;
    int highlight = -1;
    QChartView* view = nullptr;
    Roof roof;
};

RooflineChartWidget::RooflineChartWidget(QWidget* parent)
    : QWidget(parent), d_(std::make_unique<Impl>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    QChart* chart = newChart(palette(), tr("Roofline"));
    d_->view = newView(chart, this, true);
    v->addWidget(d_->view);
    d_->roof = buildRoofline(chart, d_->data, -1, palette());
    connect(d_->roof.points, &QScatterSeries::clicked, this, [this](const QPointF& p) {
        // The clicked marker: the nearest point on the log-log plane.
        int best = -1;
        double bestDist = 0;
        for (size_t i = 0; i < d_->data.points.size(); ++i) {
            const RooflinePoint& q = d_->data.points[i];
            const double dist =
                std::hypot(std::log10(q.ctc / p.x()), std::log10(q.macsPerCycle / p.y()));
            if (best < 0 || dist < bestDist) {
                best = int(i);
                bestDist = dist;
            }
        }
        if (best >= 0) emit categoryClicked(d_->data.points[size_t(best)].category);
    });
    connect(d_->roof.points, &QScatterSeries::hovered, this, [this](const QPointF& p, bool on) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        for (const RooflinePoint& q : d_->data.points)
            if (std::abs(std::log10(q.ctc / p.x())) < 1e-9 &&
                std::abs(std::log10(q.macsPerCycle / p.y())) < 1e-9) {
                QToolTip::showText(QCursor::pos(),
                                   tr("<b>%1</b><br>CTC %2 MAC/B<br>%3 MAC/cycle")
                                       .arg(q.label.toHtmlEscaped())
                                       .arg(q.ctc, 0, 'g', 4)
                                       .arg(q.macsPerCycle, 0, 'g', 4),
                                   d_->view);
                return;
            }
    });
}

RooflineChartWidget::~RooflineChartWidget() = default;

const RooflineData& RooflineChartWidget::data() const {
    return d_->data;
}
int RooflineChartWidget::highlightedCategory() const {
    return d_->highlight;
}
QWidget* RooflineChartWidget::viewport() const {
    return d_->view->viewport();
}
void RooflineChartWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) applyChartPalette(d_->view->chart(), palette());
    QWidget::changeEvent(event);
}

int RooflineChartWidget::drawnPointCount() const {
    return int(d_->roof.points->count());
}

void RooflineChartWidget::setData(const RooflineData& data) {
    if (data == d_->data) return;
    d_->data = data;
    d_->view->chart()->setTitle(data.title);
    d_->roof.points->deselectAllPoints();
    fillRoofline(d_->roof, data);
    const int h = d_->highlight;
    d_->highlight = -2; // force re-selection
    setHighlightedCategory(h);
}

void RooflineChartWidget::setHighlightedCategory(int category) {
    if (category == d_->highlight) return;
    d_->highlight = category;
    d_->roof.points->deselectAllPoints();
    for (size_t i = 0; i < d_->data.points.size(); ++i)
        if (d_->data.points[i].category == category) d_->roof.points->selectPoint(int(i));
}

QPoint RooflineChartWidget::pointPosition(int category) const {
    for (const RooflinePoint& q : d_->data.points)
        if (q.category == category)
            return d_->view->mapFromScene(
                d_->view->chart()->mapToPosition(QPointF(q.ctc, q.macsPerCycle), d_->roof.points));
    return {};
}

QString RooflineChartWidget::exportImage(const QString& path, QSize size) const {
    if (!size.isValid() || size.isEmpty())
        size =
            isVisible() && !d_->view->size().isEmpty() ? d_->view->size() : kDefaultChartExportSize;
    QChart* chart = newChart(palette(), d_->data.title);
    buildRoofline(chart, d_->data, -1, palette());
    return renderChart(chart, path, size);
}

} // namespace lf
