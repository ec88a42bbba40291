#include "repro_plots/repro_plots.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBuffer>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

namespace lf::repro {

namespace {

const QSize kSize(760, 500);
// Above this many points an SVG grows past a few hundred kilobytes (QSvgGenerator writes
// one styled element per marker): draw a PNG.
constexpr size_t kSvgPointLimit = 300;

// Colour-blind-safe series colours (Okabe and Ito); the paper's points are black.
const QColor kColours[] = {QColor(0, 114, 178),   QColor(230, 159, 0),  QColor(0, 158, 115),
                           QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0),
                           QColor(240, 228, 66)};

QApplication* ensureApplication() {
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) return app;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "layerfuse-cli";
    static char* argv[] = {name, nullptr};
    // Start-up notes of a display-less process (no XDG runtime directory) are not the
    // report's business: silence them while the application starts.
    const QtMessageHandler previous =
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& msg) {
            if (type >= QtCriticalMsg) fprintf(stderr, "%s\n", qPrintable(msg));
        });
    static std::unique_ptr<QApplication> app(new QApplication(argc, argv));
    qInstallMessageHandler(previous);
    return app.get();
}

QAbstractAxis* valueAxis(bool log, double lo, double hi, const std::string& title) {
    if (log) {
        auto* a = new QLogValueAxis;
        a->setBase(10);
        a->setLabelFormat("%.3g");
        a->setMinorTickCount(-1);
        a->setRange(std::pow(10.0, std::floor(std::log10(lo))),
                    std::pow(10.0, std::ceil(std::log10(hi))));
        a->setTitleText(QString::fromStdString(title));
        return a;
    }
    auto* a = new QValueAxis;
    const double pad = hi > lo ? 0.05 * (hi - lo) : std::max(1.0, std::fabs(hi) * 0.1);
    a->setRange(lo >= 0 ? 0.0 : lo - pad, hi + pad);
    a->applyNiceNumbers();
    a->setLabelFormat("%.4g");
    a->setTitleText(QString::fromStdString(title));
    return a;
}

QChart* barChart(const Plot& p) {
    auto* chart = new QChart;
    auto* bars = new QBarSeries;
    double hi = 0, lo = 0;
    int k = 0;
    for (const Series& s : p.series) {
        auto* set = new QBarSet(QString::fromStdString(s.name));
        std::vector<double> v(p.categories.size(), 0.0);
        for (const auto& [x, y] : s.points) {
            const auto i = size_t(std::lround(x));
            if (i < v.size()) v[i] = y;
            hi = std::max(hi, y);
            lo = std::min(lo, y);
        }
        for (double y : v)
            set->append(y);
        set->setColor(s.from_paper ? QColor(60, 60, 60) : kColours[k++ % 7]);
        bars->append(set);
    }
    chart->addSeries(bars);
    auto* x = new QBarCategoryAxis;
    for (const std::string& c : p.categories)
        x->append(QString::fromStdString(c));
    x->setTitleText(QString::fromStdString(p.x_label));
    if (p.categories.size() > 10) x->setLabelsAngle(-90);
    chart->addAxis(x, Qt::AlignBottom);
    bars->attachAxis(x);
    QAbstractAxis* y = valueAxis(false, lo, hi, p.y_label);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(y);
    return chart;
}

QChart* xyChart(const Plot& p) {
    auto* chart = new QChart;
    const double inf = std::numeric_limits<double>::infinity();
    double x0 = inf, x1 = -inf, y0 = inf, y1 = -inf;
    std::vector<QXYSeries*> made;
    int k = 0;
    for (const Series& s : p.series) {
        QList<QPointF> pts;
        for (const auto& [x, y] : s.points) {
            if (!std::isfinite(x) || !std::isfinite(y)) continue;
            if ((p.log_x && x <= 0) || (p.log_y && y <= 0)) continue; // log axes drop them
            pts.append(QPointF(x, y));
            x0 = std::min(x0, x);
            x1 = std::max(x1, x);
            y0 = std::min(y0, y);
            y1 = std::max(y1, y);
        }
        QXYSeries* xy;
        if (s.line) {
            auto* l = new QLineSeries;
            QPen pen(kColours[k % 7]);
            pen.setWidthF(2);
            l->setPen(pen);
            xy = l;
        } else {
            auto* sc = new QScatterSeries;
            if (s.from_paper) {
                sc->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
                sc->setMarkerSize(11);
                sc->setColor(Qt::black);
                sc->setBorderColor(Qt::black);
            } else {
                // Later series are drawn on top: each a little smaller, so the ones below
                // stay visible where fronts coincide.
                sc->setMarkerSize(std::max(4.0, 11.0 - 2.5 * k) * (pts.size() > 500 ? 0.7 : 1.0));
                sc->setColor(kColours[k % 7]);
                sc->setBorderColor(kColours[k % 7].darker(130));
            }
            xy = sc;
        }
        if (!s.from_paper) ++k;
        xy->setName(QString::fromStdString(s.name));
        xy->replace(pts); // in bulk: appending one by one is quadratic
        chart->addSeries(xy);
        made.push_back(xy);
    }
    if (x0 > x1) x0 = x1 = y0 = y1 = 1;
    QAbstractAxis* x = valueAxis(p.log_x, x0, x1, p.x_label);
    QAbstractAxis* y = valueAxis(p.log_y, y0, y1, p.y_label);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QXYSeries* s : made) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    return chart;
}

size_t pointCount(const Plot& p) {
    size_t n = 0;
    for (const Series& s : p.series)
        n += s.points.size();
    return n;
}

} // namespace

QChart* makePlotChart(const Plot& plot) {
    QChart* chart = plot.categories.empty() ? xyChart(plot) : barChart(plot);
    chart->setTitle(QString::fromStdString(plot.where + ": " + plot.title));
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

std::string renderPlot(const Plot& plot) {
    ensureApplication();
    QChart* chart = makePlotChart(plot);
    chart->setBackgroundBrush(Qt::white);
    QGraphicsScene scene; // owns the chart
    scene.addItem(chart);
    chart->resize(kSize);
    if (QGraphicsLayout* l = chart->layout()) l->activate();
    const QRectF area(QPointF(0, 0), QSizeF(kSize));
    scene.setSceneRect(area);
    QBuffer buf;
    buf.open(QIODevice::WriteOnly);
    if (pointCount(plot) <= kSvgPointLimit) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buf);
        svg.setSize(kSize);
        svg.setViewBox(QRect(QPoint(0, 0), kSize));
        svg.setTitle(chart->title());
        QPainter painter(&svg);
        scene.render(&painter, area, area);
        painter.end();
        return buf.data().toStdString();
    }
    QImage image(kSize, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, QRectF(image.rect()), area);
    }
    image.save(&buf, "PNG");
    return "data:image/png;base64," + buf.data().toBase64().toStdString();
}

std::map<std::string, std::string> renderPlots(const std::vector<PaperReport>& reports) {
    std::map<std::string, std::string> out;
    for (const PaperReport& r : reports)
        for (const Plot& p : r.plots)
            out[p.id] = renderPlot(p);
    return out;
}

} // namespace lf::repro
