// The window's layout (offscreen, fonts at 96 DPI): at 1280×800 and at 1920×1080 no dock
// clips a text that must be read — every dock raised in turn, with a fused group, a spatial
// partition and a layer selected, so that every panel shows its tables — View ▸ Reset Layout
// brings closed and floating docks back, Presenter Mode enlarges the fonts and is kept.
#include "graph/graph_canvas.h"
#include "panels/dock_layout.h"
#include "studio_window.h"
#include "test_support.h"
#include "text_fit/clipped_text.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace lf;

class TestDockLayout : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void noDockClipsItsText_data() {
        QTest::addColumn<QSize>("screen");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void noDockClipsItsText() {
        QFETCH(QSize, screen);
        test::StudioWindow t;
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        t.w.dockLayout()->applyDefaultSizes(QRect(QPoint(0, 0), screen));
        // 1280 × 800 where the screen has room, else more, but never more than the screen.
        QVERIFY(t.w.width() >= 1280 && t.w.width() <= screen.width());
        QVERIFY(t.w.height() >= 800 && t.w.height() <= screen.height());
        QVERIFY(t.open("resnet18"));
        // What fills the panels: a fused group of two, spatially partitioned, and one of its
        // layers selected.
        QVERIFY(t.editAndWait([&] {
            t.w.document()->fuse({t.id("layer1.0.conv1"), t.id("layer1.0.conv2")});
        }));
        t.select({t.id("layer1.0.conv1")});
        auto* spatial = t.w.findChild<QRadioButton*>(QStringLiteral("spatial"));
        QVERIFY(spatial);
        const QList<QDockWidget*> docks = t.w.findChildren<QDockWidget*>();
        QVERIFY(docks.size() >= 13);
        auto check = [&](const QString& when) {
            for (QDockWidget* dock : docks) {
                dock->show();
                dock->raise();
                if (dock->objectName() == QLatin1String("partitionEditorDock") &&
                    !spatial->isChecked()) {
                    QVERIFY(t.editAndWait([&] { spatial->click(); }));
                    dock->raise();
                }
                QTest::qWait(30);
                QStringList clipped;
                for (const ClippedText& c : clippedTexts(&t.w))
                    clipped << describe(c);
                QVERIFY2(clipped.isEmpty(),
                         qPrintable(when + QStringLiteral(", ") + dock->objectName() +
                                    QStringLiteral(":\n") + clipped.join(QLatin1Char('\n'))));
            }
        };
        check(QStringLiteral("a fused group"));
    }

    void resetLayoutBringsEveryDockBack() {
        test::StudioWindow t;
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        QTest::qWait(30); // the first-start sizes settle after the first show
        auto* lessons = t.w.findChild<QDockWidget*>(QStringLiteral("lessonsDock"));
        auto* metrics = t.w.findChild<QDockWidget*>(QStringLiteral("metricsDock"));
        lessons->close();
        metrics->setFloating(true);
        QVERIFY(lessons->isHidden());
        t.w.action(QStringLiteral("resetLayout"))->trigger();
        QVERIFY(!lessons->isHidden());
        QVERIFY(!metrics->isFloating());
        QCOMPARE(t.w.dockWidgetArea(metrics), Qt::RightDockWidgetArea);
        QVERIFY(metrics->geometry().x() > t.w.width() / 2);
    }

    void presenterModeEnlargesTheFontsAndIsKept() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        const double base = QApplication::font().pointSizeF();
        {
            test::StudioWindow t;
            QAction* presenter = t.w.action(QStringLiteral("presenterMode"));
            QVERIFY(presenter && presenter->isCheckable());
            presenter->trigger();
            QVERIFY(t.w.dockLayout()->presenterMode());
            QCOMPARE(QApplication::font().pointSizeF(), base * DockLayout::kPresenterScale);
            t.w.show();
            QTRY_VERIFY(t.w.canvas()->font().pointSizeF() > base * 1.3);
            t.w.dockLayout()->writeSettings(settings);
            presenter->trigger();
            QCOMPARE(QApplication::font().pointSizeF(), base);
        }
        test::StudioWindow again;
        QVERIFY(!again.w.dockLayout()->presenterMode());
        again.w.dockLayout()->readSettings(settings);
        QVERIFY(again.w.dockLayout()->presenterMode());
        QVERIFY(again.w.action(QStringLiteral("presenterMode"))->isChecked());
        QCOMPARE(QApplication::font().pointSizeF(), base * DockLayout::kPresenterScale);
        again.w.action(QStringLiteral("presenterMode"))->trigger();
        QCOMPARE(QApplication::font().pointSizeF(), base);
    }
};

QTEST_MAIN(TestDockLayout)
#include "tst_dock_layout.moc"
