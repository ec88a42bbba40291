// The painted bar chart of the groups: the bars on screen stand for the data's values, also
// after an edit changes them or the number of groups; the selected group is drawn darker; the
// palette (light or dark) is followed; a click or hover finds the group under the mouse; and
// data equal to what is shown repaints nothing.
#include "charts/bar_chart_paint.h"
#include "charts/chart_widgets.h"

#include <QFile>
#include <QImage>
#include <QPalette>
#include <QTemporaryDir>
#include <QtTest>

using namespace lf;

namespace {

const QColor kInput(0x4c, 0x78, 0xa8), kWeight(0xf5, 0x85, 0x18);

BarChartData twoSets(QList<double> input, QList<double> weight, bool stacked = true) {
    BarChartData d;
    d.title = QStringLiteral("DRAM traffic per group (KB)");
    d.valueTitle = d.unit = QStringLiteral("KB");
    for (qsizetype c = 0; c < input.size(); ++c) {
        d.categories << QStringLiteral("g%1").arg(c);
        d.groups << int(c);
    }
    d.totalGroups = int(input.size());
    d.sets = {{QStringLiteral("input"), kInput, input},
              {QStringLiteral("weight"), kWeight, weight}};
    d.stacked = stacked;
    return d;
}

// Pixels of `colour` in the vertical run through p (a bar's fill, inside its border).
int runThrough(const QImage& img, QPoint p, const QColor& colour) {
    if (img.pixelColor(p) != colour) return 0;
    int top = p.y(), bottom = p.y();
    while (top > 0 && img.pixelColor(p.x(), top - 1) == colour)
        --top;
    while (bottom + 1 < img.height() && img.pixelColor(p.x(), bottom + 1) == colour)
        ++bottom;
    return bottom - top + 1;
}

// A point in the first run of `colour` above p.
QPoint firstAbove(const QImage& img, QPoint p, const QColor& colour) {
    int y = p.y();
    while (y >= 0 && img.pixelColor(p.x(), y) == img.pixelColor(p))
        --y;
    while (y >= 0 && img.pixelColor(p.x(), y) != colour)
        --y;
    return QPoint(p.x(), std::max(0, y));
}

// A segment's height in pixels: its fill plus the border above and below.
int segment(const QImage& img, QPoint p, const QColor& colour) {
    return runThrough(img, p, colour) + 2;
}

class PaintCounter : public QObject {
  public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* e) override {
        paints += e->type() == QEvent::Paint;
        return false;
    }
};

} // namespace

class TestBarChart : public QObject {
    Q_OBJECT
  private slots:
    void barsFollowTheValuesAfterAnEdit();
    void sideBySideBarsKeepTheirOrder();
    void selectedGroupIsDarker();
    void followsThePalette();
    void findsTheBarUnderThePointer();
    void sameDataRepaintsNothing();
    void exportsSvgWithItsTexts();
    void paintsAtTwiceThePixelDensity();
};

// Heights are proportional to the values; a merge of two groups (one category fewer, new
// values) moves the bars and their heights with it.
void TestBarChart::barsFollowTheValuesAfterAnEdit() {
    BarChartWidget w;
    w.resize(600, 400);
    w.setData(twoSets({10, 20, 40}, {30, 0, 40}));
    QImage img = w.grab().toImage();
    const double unit = segment(img, w.barCenter(2), kInput) / 40.0;
    QVERIFY2(unit > 2, qPrintable(QString::number(unit)));
    QVERIFY(std::abs(segment(img, w.barCenter(0), kInput) - 10 * unit) <= 2);
    QVERIFY(std::abs(segment(img, w.barCenter(1), kInput) - 20 * unit) <= 2);
    QVERIFY(std::abs(segment(img, firstAbove(img, w.barCenter(0), kWeight), kWeight) - 30 * unit) <=
            2);

    // Groups 0 and 1 fused: the first bar is now 5 + 25, the second is the former third.
    w.setData(twoSets({5, 40}, {25, 40}));
    QCOMPARE(w.drawnCategoryCount(), 2);
    QVERIFY(w.barCenter(2).isNull());
    img = w.grab().toImage();
    const double u = segment(img, w.barCenter(1), kInput) / 40.0;
    QVERIFY(std::abs(u - unit) <= 0.1); // the same value axis: the largest stack is still 80
    QVERIFY(std::abs(segment(img, w.barCenter(0), kInput) - 5 * u) <= 2);
    QVERIFY(std::abs(segment(img, firstAbove(img, w.barCenter(0), kWeight), kWeight) - 25 * u) <=
            2);
    QVERIFY(std::abs(segment(img, firstAbove(img, w.barCenter(1), kWeight), kWeight) - 40 * u) <=
            2);
}

void TestBarChart::sideBySideBarsKeepTheirOrder() {
    BarChartWidget w;
    w.resize(500, 300);
    w.setData(twoSets({10, 0}, {0, 20}, false));
    const QImage img = w.grab().toImage();
    // Group 0 has only an input bar, group 1 only a weight bar, twice as tall.
    QCOMPARE(img.pixelColor(w.barCenter(0)), kInput);
    QCOMPARE(img.pixelColor(w.barCenter(1)), kWeight);
    QVERIFY(w.barCenter(1).y() < w.barCenter(0).y());
    QVERIFY(w.barCenter(1).x() > w.barCenter(0).x());
}

void TestBarChart::selectedGroupIsDarker() {
    BarChartWidget w;
    w.resize(500, 300);
    w.setData(twoSets({10, 10}, {10, 10}));
    w.setHighlightedCategory(1);
    const QImage img = w.grab().toImage();
    QCOMPARE(img.pixelColor(w.barCenter(0)), kInput);
    QCOMPARE(img.pixelColor(w.barCenter(1)).rgb(), kInput.darker(170).rgb());
    w.setHighlightedCategory(-1);
    QCOMPARE(w.grab().toImage().pixelColor(w.barCenter(1)), kInput);
}

// Background, text and grid come from the palette; the series keep their colours.
void TestBarChart::followsThePalette() {
    BarChartWidget w;
    w.resize(500, 300);
    w.setData(twoSets({10, 10}, {10, 10}));
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x66));
    w.setPalette(dark);
    const QImage img = w.grab().toImage();
    QCOMPARE(img.pixelColor(1, 1), dark.color(QPalette::Base));
    QCOMPARE(img.pixelColor(w.barCenter(0)), kInput);
    // Some text is drawn in the light text colour (title, ticks, legend).
    bool lightText = false;
    for (int y = 0; y < img.height() && !lightText; ++y)
        for (int x = 0; x < img.width() && !lightText; ++x)
            lightText = img.pixelColor(x, y).lightness() > 200;
    QVERIFY(lightText);
}

void TestBarChart::findsTheBarUnderThePointer() {
    BarChartData d = twoSets({10, 30}, {20, 10});
    d.groups = {3, 7}; // the chart shows two of more groups
    BarChartWidget w;
    w.resize(500, 300);
    w.setData(d);
    QVERIFY(w.barCenter(0).isNull());
    const QPoint p = w.barCenter(7);
    QVERIFY(!p.isNull());
    const BarChartGeometry g =
        layOutBarChart(d, w.categoryLabels(), {w.palette(), w.font()}, w.size());
    int set = -1;
    QCOMPARE(g.categoryAt(d, p, &set), 1);
    QCOMPARE(set, 0); // the input segment, at the bottom of the stack
    QCOMPARE(g.categoryAt(d, g.bar(d, 1, 1).center(), &set), 1);
    QCOMPARE(set, 1);
    QCOMPARE(g.categoryAt(d, QPointF(1, 1), &set), -1);
    const QString tip = barToolTip(d, 1, 1);
    QVERIFY(tip.contains(QStringLiteral("<b>g1</b>")));
    QVERIFY(tip.contains(QStringLiteral("<b>weight: 10 KB</b>")));
    QVERIFY(tip.contains(QStringLiteral("total: 40 KB")));
    // A click reports the group, not the category.
    QSignalSpy spy(&w, &BarChartWidget::categoryClicked);
    QTest::mouseClick(w.viewport(), Qt::LeftButton, {}, p);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 7);
}

// An evaluation whose figures for the drawn groups did not change leaves the chart alone.
void TestBarChart::sameDataRepaintsNothing() {
    BarChartWidget w;
    w.resize(400, 300);
    w.setData(twoSets({1, 2}, {3, 4}));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    PaintCounter counter;
    w.installEventFilter(&counter);
    w.setData(twoSets({1, 2}, {3, 4}));
    QCoreApplication::processEvents();
    QCOMPARE(counter.paints, 0);
    w.setData(twoSets({1, 2}, {3, 5}));
    QTRY_COMPARE(counter.paints, 1);
}

void TestBarChart::exportsSvgWithItsTexts() {
    BarChartWidget w; // never shown
    w.setData(twoSets({10, 20}, {30, 0}));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("traffic.svg"));
    QCOMPARE(w.exportImage(path), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    QVERIFY(svg.contains("viewBox=\"0 0 960 600\"")); // the default size when not on screen
    for (const char* text : {"DRAM traffic per group (KB)", "weight", "g1"})
        QVERIFY2(svg.contains(text), text);
    QVERIFY(svg.contains(kWeight.name().toLatin1()));
}

// On a HiDPI screen the chart fills the device pixels: bars where they belong, the
// background everywhere else, nothing drawn at half size in a corner.
void TestBarChart::paintsAtTwiceThePixelDensity() {
    BarChartWidget w;
    w.resize(500, 300);
    w.setData(twoSets({10, 20}, {30, 40}));
    QImage img(1000, 600, QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(2);
    img.fill(Qt::black);
    w.render(&img);
    const QImage once = w.grab().toImage();
    for (int g : {0, 1}) {
        const QPoint c = w.barCenter(g);
        QCOMPARE(img.pixelColor(2 * c), kInput);
        QCOMPARE(img.pixelColor(2 * c + QPoint(1, 1)), kInput);
    }
    QCOMPARE(img.pixelColor(999, 599), once.pixelColor(499, 299));
    QCOMPARE(img.pixelColor(999, 599), w.palette().color(QPalette::Base));
}

QTEST_MAIN(TestBarChart)
#include "tst_bar_chart.moc"
