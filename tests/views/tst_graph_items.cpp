// Edge labels: the anchor a few pixels down the route (found from the route's start only)
// is that far along the route to within half a pixel, short routes anchor at their middle, and
// label widths (measured once per text) follow the edge font.
#include "graph/color_scale.h"
#include "graph/graph_items.h"

#include <QFontMetricsF>
#include <QtTest>

using namespace lf;
using namespace lf::graph;

namespace {

// The point `distance` along the path (or its middle when it is shorter than twice that),
// walked on a fine flattening of the whole path, plus the label's offset right of the route.
// (QPainterPath::pointAtPercent maps a length to a curve parameter linearly, which is off by
// about a pixel on a bent spline, so it is no reference.)
QPointF referenceAnchor(const QPainterPath& path, double distance) {
    QPolygonF pts;
    QPointF last = path.elementAt(0);
    pts << last;
    for (int i = 1; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        if (e.type == QPainterPath::CurveToElement) {
            const QPointF c1 = e, c2 = path.elementAt(i + 1), p3 = path.elementAt(i + 2);
            for (int k = 1; k <= 4000; ++k) {
                const double t = k / 4000.0, u = 1 - t;
                pts << u * u * u * last + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p3;
            }
            i += 2;
        } else {
            pts << QPointF(e);
        }
        last = pts.back();
    }
    double length = 0;
    for (qsizetype k = 1; k < pts.size(); ++k)
        length += QLineF(pts[k - 1], pts[k]).length();
    const double target = std::min(distance, length / 2);
    double walked = 0;
    for (qsizetype k = 1; k < pts.size(); ++k) {
        const double step = QLineF(pts[k - 1], pts[k]).length();
        if (walked + step >= target)
            return QLineF(pts[k - 1], pts[k]).pointAt((target - walked) / step) + QPointF(5, 0);
        walked += step;
    }
    return pts.back() + QPointF(5, 0);
}

bool near(QPointF a, QPointF b, double tolerance) {
    return QLineF(a, b).length() <= tolerance;
}

} // namespace

class TestGraphItems : public QObject {
    Q_OBJECT
  private slots:
    void anchorIsThatFarAlongTheRoute();
    void labelWidthFollowsTheFont();
};

void TestGraphItems::anchorIsThatFarAlongTheRoute() {
    CanvasTheme theme;
    ItemStyle style;
    style.theme = &theme;
    style.edgeFont = QFont(QStringLiteral("DejaVu Sans"), 8);
    const double distance = QFontMetricsF(style.edgeFont).ascent() + 3;

    // A long spline leaving its producer sideways, as dot routes edges to a far consumer.
    QPainterPath curve(QPointF(100, 50));
    curve.cubicTo(QPointF(100, 90), QPointF(300, 60), QPointF(320, 200));
    curve.cubicTo(QPointF(330, 300), QPointF(200, 350), QPointF(210, 420));
    // A straight polyline (large networks route edges so) and a route shorter than 2 × distance.
    QPainterPath polyline(QPointF(0, 0));
    polyline.lineTo(QPointF(3, 4));
    polyline.lineTo(QPointF(3, 40));
    polyline.lineTo(QPointF(60, 80));
    QPainterPath shortRoute(QPointF(10, 10));
    shortRoute.cubicTo(QPointF(12, 12), QPointF(14, 14), QPointF(16, 18));
    for (const QPainterPath& path : {curve, polyline, shortRoute}) {
        EdgeItem e(0, 1, &style);
        e.setRoute(path, std::nullopt);
        const QPointF mine = e.labelAnchor(), qt = referenceAnchor(path, distance);
        QVERIFY2(near(mine, qt, 0.5), qPrintable(QStringLiteral("(%1, %2) vs (%3, %4)")
                                                     .arg(mine.x())
                                                     .arg(mine.y())
                                                     .arg(qt.x())
                                                     .arg(qt.y())));
    }
    EdgeItem none(0, 1, &style);
    QCOMPARE(none.labelAnchor(), QPointF());
}

void TestGraphItems::labelWidthFollowsTheFont() {
    ItemStyle style;
    style.edgeFont = QFont(QStringLiteral("DejaVu Sans"), 8);
    const QString text = QStringLiteral("784 KB");
    QCOMPARE(style.edgeLabelWidth(text), QFontMetricsF(style.edgeFont).horizontalAdvance(text));
    QCOMPARE(style.edgeLabelWidth(text), QFontMetricsF(style.edgeFont).horizontalAdvance(text));
    style.edgeFont.setPointSizeF(16);
    QCOMPARE(style.edgeLabelWidth(text), QFontMetricsF(style.edgeFont).horizontalAdvance(text));
    QVERIFY(style.edgeLabelWidth(text) > style.edgeLabelWidth(QStringLiteral("784")));
}

QTEST_MAIN(TestGraphItems)
#include "tst_graph_items.moc"
