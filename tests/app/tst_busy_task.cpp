// gui::runBusy (app/gui/busy_task.h): results, errors and exceptions of the work come back
// unchanged; quick work shows no dialog; slow work shows a progress dialog whose Cancel
// returns at once while the work finishes in the background; the event loop keeps running
// (timers fire, the window repaints) while the work runs.

#include "studio/busy_task.h"

#include <QApplication>
#include <QProgressDialog>
#include <QPushButton>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

using namespace lf;

namespace {

QProgressDialog* visibleProgressDialog() {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* d = qobject_cast<QProgressDialog*>(w); d && d->isVisible()) return d;
    return nullptr;
}

} // namespace

class TstBusyTask : public QObject {
    Q_OBJECT
  private slots:
    void valueComesBack() {
        QWidget window;
        auto r = gui::runBusy<int>(&window, QStringLiteral("x"), [] { return Result<int>(42); });
        QVERIFY(r.has_value());
        QVERIFY(r->ok());
        QCOMPARE(**r, 42);
    }

    void errorComesBack() {
        QWidget window;
        auto r = gui::runBusy<int>(&window, QStringLiteral("x"), [] {
            return Result<int>(Error("net.yaml", SourcePos{3, 7}, "bad kernel"));
        });
        QVERIFY(r.has_value());
        QVERIFY(!r->ok());
        QCOMPARE(QString::fromStdString(r->error().toString()),
                 QStringLiteral("net.yaml:3:7: bad kernel"));
    }

    void exceptionBecomesError() {
        QWidget window;
        auto r = gui::runBusy<int>(&window, QStringLiteral("x"),
                                   []() -> Result<int> { throw std::runtime_error("boom"); });
        QVERIFY(r.has_value());
        QVERIFY(!r->ok());
        QVERIFY(r->error().message.find("boom") != std::string::npos);
    }

    // Work that ends within the grace period never shows the dialog.
    void quickWorkShowsNoDialog() {
        QWidget window;
        bool sawDialog = false;
        QTimer probe;
        connect(&probe, &QTimer::timeout, [&] { sawDialog |= visibleProgressDialog() != nullptr; });
        probe.start(5);
        auto r = gui::runBusy<int>(&window, QStringLiteral("x"), [] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            return Result<int>(1);
        });
        QVERIFY(r && r->ok());
        QVERIFY(!sawDialog);
    }

    // Slow work: the dialog appears after the grace period, timers keep firing, Cancel
    // returns nullopt at once although the work is still running.
    void cancelReturnsAtOnce() {
        QWidget window;
        window.show();
        auto release = std::make_shared<std::atomic<bool>>(false);
        auto finished = std::make_shared<std::atomic<bool>>(false);
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
        ticker.start(10);
        QString label;
        QElapsedTimer sinceCancel;
        QTimer::singleShot(gui::kBusyGraceMs + 300, [&] {
            QProgressDialog* d = visibleProgressDialog();
            QVERIFY(d);
            label = d->labelText();
            sinceCancel.start();
            auto* cancel = d->findChild<QPushButton*>();
            QVERIFY(cancel);
            cancel->click();
        });
        auto r = gui::runBusy<int>(
            &window, QStringLiteral("Opening big.net.yaml…"), [release, finished] {
                while (!release->load())
                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                finished->store(true);
                return Result<int>(7);
            });
        const qint64 afterCancel = sinceCancel.isValid() ? sinceCancel.elapsed() : -1;
        QVERIFY(!r.has_value());
        QCOMPARE(label, QStringLiteral("Opening big.net.yaml…"));
        QVERIFY2(afterCancel >= 0 && afterCancel < 100, qPrintable(QString::number(afterCancel)));
        QVERIFY2(ticks > 20, qPrintable(QString::number(ticks)));
        QVERIFY(!finished->load());
        QVERIFY(!visibleProgressDialog());
        release->store(true);
        QTRY_VERIFY(finished->load());
    }

    // Slow work that finishes by itself closes the dialog and returns its result.
    void slowWorkFinishes() {
        QWidget window;
        window.show();
        bool sawDialog = false;
        QTimer probe;
        connect(&probe, &QTimer::timeout, [&] { sawDialog |= visibleProgressDialog() != nullptr; });
        probe.start(10);
        auto r = gui::runBusy<int>(&window, QStringLiteral("x"), [] {
            std::this_thread::sleep_for(std::chrono::milliseconds(gui::kBusyGraceMs + 300));
            return Result<int>(5);
        });
        QVERIFY(r && r->ok());
        QCOMPARE(**r, 5);
        QVERIFY(sawDialog);
        QVERIFY(!visibleProgressDialog());
    }
};

QTEST_MAIN(TstBusyTask)
#include "tst_busy_task.moc"
