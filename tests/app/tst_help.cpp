// Help (offscreen): the manual names every dock of the real window, gives every network
// figure its paper and equation, and embeds the keyboard shortcuts; Help ▸ Keyboard Shortcuts
// lists every action that has a shortcut, with its keys; F1 opens the manual.
#include "controllers/help_controller.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

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
};

QTEST_MAIN(TestHelp)
#include "tst_help.moc"
