// Help (offscreen): the manual names every dock of the real window, gives every network
// figure its paper and equation, and embeds the keyboard shortcuts; Help ▸ Keyboard Shortcuts
// lists every action that has a shortcut, with its keys; F1 opens the manual; What's This on
// a figure of the metrics panel opens its "Why this number" entry.
#include "controllers/help_controller.h"
#include "metrics/metric_grid.h"
#include "metrics/metrics_panel.h"
#include "panels/teaching_panel.h"
#include "studio_window.h"
#include "teaching/explain_view.h"
#include "test_support.h"

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QWhatsThis>

using namespace lf;

namespace {

HelpController* help(MainWindow& w) {
    return w.findChild<HelpController*>(QStringLiteral("helpController"));
}

} // namespace

class TestHelp : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void theManualDescribesEveryDock() {
        test::StudioWindow t;
        const QString html = help(t.w)->manualHtml();
        QVERIFY(html.contains(QLatin1String("The first five minutes")));
        const QList<QDockWidget*> docks = t.w.findChildren<QDockWidget*>();
        QVERIFY(docks.size() >= 13);
        for (QDockWidget* d : docks)
            QVERIFY2(html.contains(QStringLiteral("<dt><b>%1</b>").arg(d->windowTitle())),
                     qPrintable(d->windowTitle()));
    }

    void everyFigureCitesItsSource() {
        test::StudioWindow t;
        const QString html = help(t.w)->manualHtml();
        const QRegularExpression citation(
            QStringLiteral("(ConvFusion|Optimus|TSO|Stoutchinin|HWFF) (Eq\\.|Alg\\.|§)"));
        for (const char* figure :
             {"MACs", "Buffer (recompute)", "Buffer (reuse)", "Buffer (optimus)", "DRAM traffic",
              "DRAM accesses", "Latency", "Energy"}) {
            const QString cell = QStringLiteral("<tr><td>%1</td>").arg(QLatin1String(figure));
            const qsizetype at = html.indexOf(cell);
            QVERIFY2(at >= 0, figure);
            const QString row = html.mid(at, html.indexOf(QLatin1String("</tr>"), at) - at);
            QVERIFY2(citation.match(row).hasMatch(), qPrintable(row));
        }
    }

    void theShortcutsComeFromTheRealActions() {
        test::StudioWindow t;
        const QString table = help(t.w)->shortcutsHtml();
        int listed = 0;
        for (const QAction* a : t.w.findChildren<QAction*>()) {
            if (a->shortcut().isEmpty() || a->text().isEmpty()) continue;
            QString text = a->text();
            text.remove(QLatin1Char('&'));
            text.remove(QStringLiteral("…"));
            QVERIFY2(table.contains(text.toHtmlEscaped()), qPrintable(text));
            QVERIFY2(
                table.contains(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped()),
                qPrintable(text));
            ++listed;
        }
        QVERIFY(listed >= 15); // fuse, undo, find, zoom, auto-fuse, ...
        QVERIFY(table.contains(QLatin1String("Fuse Selection")));
        QVERIFY(table.contains(QLatin1String("Ctrl+G")));
        // The manual carries the same table.
        const QString manual = help(t.w)->manualHtml();
        QVERIFY(!manual.contains(QLatin1String("<!--shortcuts-->")));
        QVERIFY(manual.contains(table));
    }

    void f1OpensTheManual() {
        test::StudioWindow t;
        QAction* manual = t.w.action(QStringLiteral("manual"));
        QVERIFY(manual);
        QCOMPARE(manual->shortcut(), QKeySequence(QKeySequence::HelpContents));
        manual->trigger();
        auto* dialog = t.w.findChild<QDialog*>(QStringLiteral("manualWindow"));
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!dialog->isModal());
        auto* browser = dialog->findChild<QTextBrowser*>();
        QVERIFY(browser->toPlainText().contains(QLatin1String("Keyboard shortcuts")));
        manual->trigger(); // raised again, not a second window
        QCOMPARE(t.w.findChildren<QDialog*>(QStringLiteral("manualWindow")).size(), 1);
        t.w.action(QStringLiteral("shortcuts"))->trigger();
        auto* shortcuts = t.w.findChild<QDialog*>(QStringLiteral("shortcutsWindow"));
        QVERIFY(shortcuts && shortcuts->isVisible());
        QVERIFY(t.w.action(QStringLiteral("whatsThis")));
    }

    // Help ▸ What's This (Shift+F1), then a click on a figure: its text pops up and Why This
    // Number comes forward with the figure's formula selected — the layer's Buf_X, the fused
    // group's Buffer. A network total has no formula of its own: the popup says where to look.
    void whatsThisOnAMetricOpensItsWhyThisNumberEntry() {
        test::StudioWindow t;
        t.w.resize(1280, 800);
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        QVERIFY(t.open("l3net"));
        QVERIFY(t.editAndWait([&] { t.w.document()->fuse({t.id("conv1"), t.id("conv2")}); }));
        auto* metrics = t.w.findChild<MetricsPanel*>();
        QVERIFY(metrics);
        for (const MetricGrid* g :
             {metrics->totalsGrid(), metrics->groupGrid(), metrics->layerGrid()})
            for (const QString& key : g->keys())
                QVERIFY2(
                    g->labelWidget(key)->whatsThis().contains(g->labelText(key).toHtmlEscaped()),
                    qPrintable(key));
        ExplainView* explain = t.w.teachingPanel()->explain();
        auto* explainDock = t.w.findChild<QDockWidget*>(QStringLiteral("explainDock"));
        auto* chartsDock = t.w.findChild<QDockWidget*>(QStringLiteral("chartsDock"));
        chartsDock->raise(); // Why This Number is behind another tab
        QTest::qWait(10);
        QVERIFY(explainDock->visibleRegion().isEmpty());

        auto whatsThisClick = [&](const MetricGrid* grid, const QString& key) {
            QWidget* label = grid->labelWidget(key);
            QVERIFY2(label && label->isVisible(), qPrintable(key));
            t.w.action(QStringLiteral("whatsThis"))->trigger();
            QVERIFY(QWhatsThis::inWhatsThisMode());
            QTest::mouseClick(label, Qt::LeftButton, {}, label->rect().center());
            QVERIFY(!QWhatsThis::inWhatsThisMode());
        };
        auto current = [&] {
            QTreeWidgetItem* item = explain->tree()->currentItem();
            return item ? item->text(ExplainView::cFigure) : QString();
        };

        t.select({t.id("conv2")});
        whatsThisClick(metrics->layerGrid(), QStringLiteral("layer.buf_x"));
        QVERIFY(explainDock->isVisible());
        QVERIFY(!explainDock->visibleRegion().isEmpty()); // raised over the charts
        QCOMPARE(explain->tree()->currentItem(), explain->formulaItem(QStringLiteral("Buf_X")));
        QVERIFY2(current().startsWith(QLatin1String("Buf_X = ")), qPrintable(current()));
        QVERIFY(explain->tree()->currentItem()->isExpanded()); // its terms show
        QWhatsThis::hideText();

        whatsThisClick(metrics->groupGrid(), QStringLiteral("group.buffer"));
        QCOMPARE(explain->tree()->currentItem(),
                 explain->formulaItem(QStringLiteral("Buffer"), true));
        QWhatsThis::hideText();

        // A figure of the layer that a one-layer group shows as its own: the layer's formula.
        t.select({t.id("conv3")});
        QVERIFY(!explain->groupExplanation());
        whatsThisClick(metrics->groupGrid(), QStringLiteral("group.macs"));
        QCOMPARE(explain->tree()->currentItem(), explain->formulaItem(QStringLiteral("MACs")));
        QWhatsThis::hideText();

        QVERIFY(!t.w.teachingPanel()->explainMetric(QStringLiteral("total.macs")));
        QVERIFY(metrics->totalsGrid()
                    ->labelWidget(QStringLiteral("total.macs"))
                    ->whatsThis()
                    .contains(QLatin1String("Select a group or a layer")));
    }
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
