// clippedTexts (views/text_fit): what the layout tests and the studio's --ui-report count as a
// text that cannot be read whole — and what they must not count (a text elided with its
// whole in the tooltip, a column scrolled out of sight, a widget tabbed away).
#include "text_fit/clipped_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QtTest>

using namespace lf;

namespace {

const bool kFixedDpi = (QCoreApplication::setAttribute(Qt::AA_Use96Dpi), true);

// A table of one row: a long name and three numbers.
QStandardItemModel* tableModel(QObject* parent) {
    auto* m = new QStandardItemModel(1, 4, parent);
    m->setHorizontalHeaderLabels({"Layer", "MACs", "DRAM words", "Energy"});
    m->setItem(0, 0, new QStandardItem("layer4.0.downsample"));
    m->setItem(0, 1, new QStandardItem("6.42 M"));
    m->setItem(0, 2, new QStandardItem("199 K"));
    m->setItem(0, 3, new QStandardItem("61.8 µJ"));
    return m;
}

} // namespace

class TestClippedText : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(kFixedDpi); }

    void aLabelNarrowerThanItsTextIsClipped() {
        QWidget w;
        auto* label = new QLabel("Spatial — split the PE array between the layers", &w);
        label->setObjectName("kind");
        label->setGeometry(0, 0, 60, 20);
        w.resize(200, 100);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QList<ClippedText> c = clippedTexts(&w);
        QCOMPARE(c.size(), 1);
        QVERIFY(c[0].widget.endsWith(QLatin1String("kind")));
        QVERIFY(describe(c[0]).contains(QStringLiteral("“Spatial — split")));
        label->resize(label->sizeHint());
        QVERIFY(clippedTexts(&w).isEmpty());
    }

    void aWrappedLabelShorterThanItsLinesIsClipped() {
        QWidget w;
        auto* label = new QLabel(QString("a long lesson text that wraps ").repeated(6), &w);
        label->setWordWrap(true);
        label->setGeometry(0, 0, 120, 20);
        w.resize(200, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(clippedTexts(&w).size(), 1);
        label->resize(120, label->heightForWidth(120));
        QVERIFY(clippedTexts(&w).isEmpty());
    }

    void aColumnCutByTheEdgeIsClippedOneOutOfSightIsNot() {
        QWidget w;
        auto* table = new QTableView(&w);
        table->setModel(tableModel(table));
        table->setWordWrap(false);
        table->verticalHeader()->hide();
        table->resizeColumnsToContents();
        const int first = table->columnWidth(0) + table->columnWidth(1);
        // The DRAM column half in sight: its text and header are cut.
        w.resize(first + table->columnWidth(2) + 60, 150);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        table->resize(first + table->columnWidth(2) / 2 + 2 * table->frameWidth(), 120);
        QList<ClippedText> c = clippedTexts(&w);
        QVERIFY(!c.isEmpty());
        bool dram = false;
        for (const ClippedText& t : c)
            dram |= t.text == QLatin1String("199 K") || t.text == QLatin1String("DRAM words");
        QVERIFY2(dram, qPrintable(describe(c.front())));
        // Exactly two columns in sight: the others are there to scroll to.
        table->resize(first + 2 * table->frameWidth(), 120);
        QTRY_VERIFY2(clippedTexts(&w).isEmpty(), qPrintable(describe(clippedTexts(&w).value(0))));
    }

    void elidedWithTheWholeTextInTheTooltipIsReadable() {
        QWidget w;
        auto* table = new QTableView(&w);
        auto* m = tableModel(table);
        table->setModel(m);
        table->setTextElideMode(Qt::ElideMiddle);
        table->resizeColumnsToContents();
        table->setColumnWidth(0, 40); // "layer4.0.downsample" cannot fit
        table->setGeometry(0, 0, 400, 120);
        w.resize(420, 140);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList texts;
        for (const ClippedText& t : clippedTexts(&w))
            texts << t.text;
        QVERIFY(texts.contains("layer4.0.downsample"));
        m->item(0, 0)->setToolTip("layer4.0.downsample");
        texts.clear();
        for (const ClippedText& t : clippedTexts(&w))
            texts << t.text;
        QVERIFY(!texts.contains("layer4.0.downsample"));
    }

    void aWidgetTabbedAwayIsNotOnTheScreen() {
        QTabWidget tabs;
        auto* hidden = new QLabel("a text far too long for the space it was given");
        hidden->setFixedWidth(30);
        tabs.addTab(new QLabel("ok"), "first");
        tabs.addTab(hidden, "second");
        tabs.resize(300, 100);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        QVERIFY(clippedTexts(&tabs).isEmpty());
        tabs.setCurrentIndex(1);
        QTRY_COMPARE(clippedTexts(&tabs).size(), 1);
    }
};

QTEST_MAIN(TestClippedText)
#include "tst_clipped_text.moc"
