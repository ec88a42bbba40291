#include "charts/chart_widgets.h"

#include "charts/chart_render.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lf {

namespace {

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

QChartView* newView(QChart* chart, QWidget* parent) {
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing, true);
    view->setRenderHint(QPainter::TextAntialiasing, true);
    view->setFrameShape(QFrame::NoFrame);
    return view;
}

} // namespace

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
    d_->view = newView(chart, this);
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
