#include "charts/chart_render.h"

#include <QAbstractAxis>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QPainter>
#include <QPalette>
#include <QSvgGenerator>

namespace lf {

void applyChartPalette(QChart* chart, const QPalette& pal) {
    const QColor text = pal.color(QPalette::Text);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(90);
    chart->setBackgroundBrush(pal.color(QPalette::Base));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis* a : chart->axes()) {
        a->setLabelsColor(text);
        a->setTitleBrush(text);
        a->setGridLineColor(grid);
        a->setMinorGridLineColor(grid);
        a->setLinePenColor(pal.color(QPalette::Mid));
    }
}

QString writeChartImage(const QString& path, QSize size, const QString& title,
                        const QColor& background, const std::function<void(QPainter&)>& paint) {
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        QPainter p;
        if (!p.begin(&svg)) return QObject::tr("cannot write %1").arg(path);
        paint(p);
        p.end();
        return QFileInfo(path).isFile() ? QString() : QObject::tr("cannot write %1").arg(path);
    }
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(background);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        paint(p);
    }
    if (!image.save(path))
        return QObject::tr("cannot write %1 (unknown image format or unwritable place)").arg(path);
    return {};
}

QString renderChart(QChart* chart, const QString& path, QSize size) {
    QGraphicsScene scene; // owns the chart from here on
    scene.addItem(chart);
    chart->resize(size);
    if (QGraphicsLayout* l = chart->layout()) l->activate();
    const QRectF area(QPointF(0, 0), QSizeF(size));
    scene.setSceneRect(area);
    return writeChartImage(path, size, chart->title(), chart->backgroundBrush().color(),
                           [&](QPainter& p) { scene.render(&p, area, area); });
}

} // namespace lf
