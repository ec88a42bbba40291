#include "search/pareto_chart.h"

#include "metrics/units.h"

#include "charts/chart_render.h"

#include <QChart>
#include <QChartView>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

namespace lf {

namespace {

constexpr int kMaxBands = 6;

// A perceptually ordered ramp (after matplotlib's viridis) that reads on light and dark
// backgrounds; the markers get a darker outline.
QColor rampColor(double t) {
    static constexpr std::array<std::array<int, 3>, 5> stops{
        {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
    t = std::clamp(t, 0.0, 1.0) * double(stops.size() - 1);
    const size_t i = std::min(stops.size() - 2, size_t(t));
    const double f = t - double(i);
    auto mix = [&](size_t c) {
        return int(std::lround(stops[i][c] * (1 - f) + stops[i + 1][c] * f));
    };
    return QColor(mix(0), mix(1), mix(2));
}

struct Band {
    double lo = 0, hi = 0;
    std::vector<int> members; // front indices
};

QString bandName(const Band& b) {
    const QString lo = QString::fromStdString(humanCount(b.lo));
    const QString hi = QString::fromStdString(humanCount(b.hi));
    return lo == hi ? QObject::tr("%1 MACs").arg(lo) : QObject::tr("%1 – %2 MACs").arg(lo, hi);
}

} // namespace

// Where the open schedule stands in all three objectives: a point below or left of the
// plotted front is not better than it when it spends more MACs, which the 2-D plot hides.
QString currentPointNote(const std::vector<ParetoChartPoint>& front, const ParetoChartPoint& cur) {
    QString note =
        QObject::tr("open schedule · %1 MACs").arg(QString::fromStdString(humanCount(cur.macs)));
    bool beyond = false;
    double leastMacs = 0;
    for (const ParetoChartPoint& p : front)
        if (p.buffer_bytes >= cur.buffer_bytes && p.dram_accesses >= cur.dram_accesses &&
            (p.buffer_bytes > cur.buffer_bytes || p.dram_accesses > cur.dram_accesses)) {
            leastMacs = beyond ? std::min(leastMacs, p.macs) : p.macs;
            beyond = true;
        }
    if (!beyond) return note;
    if (cur.macs > leastMacs && leastMacs > 0)
        return note +
               QObject::tr(" — off the plotted front by %1 % more MACs (recompute)")
                   .arg(QString::fromStdString(fixedText((cur.macs / leastMacs - 1) * 100, 0)));
    return note + QObject::tr(" — beyond the front: the exploration's space did not hold it");
}

namespace {

// Up to kMaxBands equal-width MAC ranges; empty ones are dropped, so every legend entry
// (the colour bar) names points that are drawn.
std::vector<Band> colourBands(const std::vector<ParetoChartPoint>& pts) {
    if (pts.empty()) return {};
    double lo = pts.front().macs, hi = lo;
    std::set<double> distinct;
    for (const ParetoChartPoint& p : pts) {
        lo = std::min(lo, p.macs);
        hi = std::max(hi, p.macs);
        if (distinct.size() <= size_t(kMaxBands)) distinct.insert(p.macs);
    }
    const int n = std::max(1, std::min(kMaxBands, int(distinct.size())));
    std::vector<Band> bands(static_cast<size_t>(n));
    const double width = (hi - lo) / n;
    for (int b = 0; b < n; ++b) {
        bands[size_t(b)].lo = lo + width * b;
        bands[size_t(b)].hi = b == n - 1 ? hi : lo + width * (b + 1);
    }
    for (size_t k = 0; k < pts.size(); ++k) {
        const int b = width > 0 ? std::min(n - 1, int((pts[k].macs - lo) / width)) : 0;
        bands[size_t(b)].members.push_back(int(k));
    }
    // The members' own range names a band (the edges are arbitrary numbers).
    std::vector<Band> used;
    for (Band& b : bands) {
        if (b.members.empty()) continue;
        b.lo = b.hi = pts[size_t(b.members.front())].macs;
        for (int k : b.members) {
            b.lo = std::min(b.lo, pts[size_t(k)].macs);
            b.hi = std::max(b.hi, pts[size_t(k)].macs);
        }
        // Bands the legend cannot tell apart ("1.58 G MACs" three times) are one.
        if (!used.empty() && bandName(used.back()) == bandName(b)) {
            used.back().hi = b.hi;
            used.back().members.insert(used.back().members.end(), b.members.begin(),
                                       b.members.end());
            continue;
        }
        used.push_back(std::move(b));
    }
    return used;
}

QChart* newChart(const QPalette& pal) {
    auto* chart = new QChart;
    chart->setBackgroundRoundness(0);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    applyChartPalette(chart, pal);
    return chart;
}

struct Built {
    std::vector<QScatterSeries*> bands;
    std::vector<std::vector<int>> members; // per band: front indices, in series order
    QScatterSeries* current = nullptr;
    QLineSeries* capacity = nullptr;
};

// Fills an empty chart with the front (bulk replace(): thousands of points in milliseconds).
Built build(QChart* chart, const ParetoChartData& d, const std::optional<ParetoChartPoint>& cur,
            int selected, const QPalette& pal) {
    Built b;
    chart->setTitle(d.title);
    auto* x = new QLogValueAxis;
    x->setBase(10);
    x->setLabelFormat(QStringLiteral("%g"));
    x->setTitleText(QObject::tr("On-chip buffer (bytes)"));
    auto* y = new QLogValueAxis;
    y->setBase(10);
    y->setLabelFormat(QStringLiteral("%g"));
    y->setTitleText(QObject::tr("DRAM accesses"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    // Log axes drop values <= 0: such values are drawn at 1.
    auto pos = [](const ParetoChartPoint& p) {
        return QPointF(std::max(1.0, p.buffer_bytes), std::max(1.0, p.dram_accesses));
    };
    double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
    bool any = false;
    auto extend = [&](QPointF q) {
        xmin = any ? std::min(xmin, q.x()) : q.x();
        xmax = any ? std::max(xmax, q.x()) : q.x();
        ymin = any ? std::min(ymin, q.y()) : q.y();
        ymax = any ? std::max(ymax, q.y()) : q.y();
        any = true;
    };
    for (const ParetoChartPoint& p : d.points)
        extend(pos(p));
    if (cur) extend(pos(*cur));
    if (d.capacity_bytes > 0 && any) extend(QPointF(d.capacity_bytes, ymin));
    if (!any) xmin = ymin = 1, xmax = ymax = 1000;
    xmin /= 1.6, xmax *= 1.6, ymin /= 1.6, ymax *= 1.6;

    const std::vector<Band> bands = colourBands(d.points);
    for (size_t bi = 0; bi < bands.size(); ++bi) {
        auto* s = new QScatterSeries;
        s->setName(bandName(bands[bi]));
        const QColor c = rampColor(bands.size() > 1 ? double(bi) / double(bands.size() - 1) : 0.35);
        s->setColor(c);
        s->setBorderColor(c.darker(160));
        s->setMarkerSize(9);
        s->setSelectedColor(QColor(0xf5, 0x85, 0x18));
        QList<QPointF> pts;
        pts.reserve(qsizetype(bands[bi].members.size()));
        for (int k : bands[bi].members)
            pts << pos(d.points[size_t(k)]);
        s->replace(pts);
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        b.bands.push_back(s);
        b.members.push_back(bands[bi].members);
        for (size_t m = 0; m < bands[bi].members.size(); ++m)
            if (bands[bi].members[m] == selected) s->selectPoint(int(m));
    }
    if (d.capacity_bytes > 0) {
        b.capacity = new QLineSeries;
        b.capacity->setName(QObject::tr("buffer capacity (%1)")
                                .arg(QString::fromStdString(humanBytes(d.capacity_bytes))));
        QPen pen(QColor(0xe0, 0x3a, 0x3a));
        pen.setWidthF(1.5);
        pen.setStyle(Qt::DashLine);
        b.capacity->setPen(pen);
        b.capacity->replace({QPointF(d.capacity_bytes, ymin), QPointF(d.capacity_bytes, ymax)});
        chart->addSeries(b.capacity);
        b.capacity->attachAxis(x);
        b.capacity->attachAxis(y);
    }
    if (cur) {
        b.current = new QScatterSeries;
        b.current->setName(currentPointNote(d.points, *cur));
        b.current->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        b.current->setMarkerSize(15);
        b.current->setBrush(Qt::NoBrush);
        QPen pen(pal.color(QPalette::Text));
        pen.setWidthF(2.2);
        b.current->setPen(pen);
        b.current->replace({pos(*cur)});
        chart->addSeries(b.current);
        b.current->attachAxis(x);
        b.current->attachAxis(y);
    }
    x->setRange(xmin, xmax);
    y->setRange(ymin, ymax);
    applyChartPalette(chart, pal);
    return b;
}

} // namespace

struct ParetoChartWidget::Impl {
    ParetoChartData data;
    std::optional<ParetoChartPoint> current;
    int selected = -1;
    QChartView* view = nullptr;
    Built built;

    // The front index of a point of band `b` (the nearest on the log-log plane).
    int indexAt(size_t b, const QPointF& p) const {
        int best = -1;
        double bestDist = 0;
        for (int k : built.members[b]) {
            const ParetoChartPoint& q = data.points[size_t(k)];
            const double dist = std::hypot(std::log10(std::max(1.0, q.buffer_bytes) / p.x()),
                                           std::log10(std::max(1.0, q.dram_accesses) / p.y()));
            if (best < 0 || dist < bestDist) {
                best = k;
                bestDist = dist;
            }
        }
        return best;
    }
};

ParetoChartWidget::ParetoChartWidget(QWidget* parent)
    : QWidget(parent), d_(std::make_unique<Impl>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    d_->view = new QChartView(newChart(palette()), this);
    d_->view->setRenderHint(QPainter::Antialiasing);
    d_->view->setFrameShape(QFrame::NoFrame);
    d_->view->setMinimumSize(360, 260);
    v->addWidget(d_->view);
    rebuild();
}

ParetoChartWidget::~ParetoChartWidget() = default;

void ParetoChartWidget::rebuild() {
    QChart* chart = d_->view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a);
        delete a;
    }
    d_->built = build(chart, d_->data, d_->current, d_->selected, palette());
    for (size_t b = 0; b < d_->built.bands.size(); ++b) {
        QScatterSeries* s = d_->built.bands[b];
        connect(s, &QScatterSeries::clicked, this, [this, b](const QPointF& p) {
            if (b < d_->built.members.size())
                if (const int k = d_->indexAt(b, p); k >= 0) emit pointClicked(k);
        });
        connect(s, &QScatterSeries::hovered, this, [this, b](const QPointF& p, bool on) {
            emit pointHovered(on && b < d_->built.members.size() ? d_->indexAt(b, p) : -1);
        });
    }
}

void ParetoChartWidget::setData(const ParetoChartData& data) {
    if (data == d_->data) return;
    d_->data = data;
    if (d_->selected >= int(data.points.size())) d_->selected = -1;
    rebuild();
}

const ParetoChartData& ParetoChartWidget::data() const {
    return d_->data;
}

void ParetoChartWidget::setCurrent(const std::optional<ParetoChartPoint>& current) {
    if (current == d_->current) return;
    d_->current = current;
    rebuild();
}

std::optional<ParetoChartPoint> ParetoChartWidget::current() const {
    return d_->current;
}

void ParetoChartWidget::setSelectedPoint(int k) {
    if (k < -1 || k >= int(d_->data.points.size())) k = -1;
    d_->selected = k;
    for (size_t b = 0; b < d_->built.bands.size(); ++b) {
        QScatterSeries* s = d_->built.bands[b];
        s->deselectAllPoints();
        const auto& m = d_->built.members[b];
        for (size_t i = 0; i < m.size(); ++i)
            if (m[i] == k) s->selectPoint(int(i));
    }
}

int ParetoChartWidget::selectedPoint() const {
    return d_->selected;
}

int ParetoChartWidget::drawnPointCount() const {
    int n = 0;
    for (QScatterSeries* s : d_->built.bands)
        n += int(s->count());
    return n;
}

int ParetoChartWidget::colourBandCount() const {
    return int(d_->built.bands.size());
}

QStringList ParetoChartWidget::colourBandNames() const {
    QStringList names;
    for (QScatterSeries* s : d_->built.bands)
        names << s->name();
    return names;
}

bool ParetoChartWidget::currentShown() const {
    return d_->built.current && d_->built.current->count() == 1;
}

QString ParetoChartWidget::currentName() const {
    return d_->built.current ? d_->built.current->name() : QString();
}

QScatterSeries* ParetoChartWidget::seriesOfPoint(int k, QPointF* value) const {
    for (size_t b = 0; b < d_->built.bands.size(); ++b) {
        const auto& m = d_->built.members[b];
        for (size_t i = 0; i < m.size(); ++i)
            if (m[i] == k) {
                if (value) *value = d_->built.bands[b]->at(qsizetype(i));
                return d_->built.bands[b];
            }
    }
    return nullptr;
}

QPoint ParetoChartWidget::pointPosition(int k) const {
    QPointF value;
    QScatterSeries* s = seriesOfPoint(k, &value);
    if (!s) return {};
    return d_->view->mapFromScene(d_->view->chart()->mapToPosition(value, s));
}

QWidget* ParetoChartWidget::viewport() const {
    return d_->view->viewport();
}

QString ParetoChartWidget::exportImage(const QString& path, QSize size) const {
    if (!size.isValid() || size.isEmpty())
        size =
            isVisible() && !d_->view->size().isEmpty() ? d_->view->size() : kDefaultChartExportSize;
    QChart* chart = newChart(palette());
    build(chart, d_->data, d_->current, d_->selected, palette());
    return renderChart(chart, path, size);
}

void ParetoChartWidget::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) rebuild();
    QWidget::changeEvent(event);
}

} // namespace lf
