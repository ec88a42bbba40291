// Autosave and recovery without a window: the Document's undo history survives a history
// file, autosave follows edits by itself (debounced, written on the writer's thread), and
// locks of dead sessions are removed.
#include "controllers/autosave_writer.h"
#include "controllers/recovery_controller.h"
#include "controllers/recovery_store.h"
#include "io/edit_history_yaml.h"
#include "studio/studio.h"
#include "studio_window.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUndoStack>

using namespace lf;

namespace {

struct Bare {
    Studio studio;
    QStringList errors;
    Bare() { test::quietStudio(&studio, &errors, QMessageBox::Discard); }
    Document* doc() const { return studio.document(); }
    LayerId id(const char* name) const { return doc()->network().find(name); }
    void open(const char* network) {
        const Network net = test::bundledNetwork(network);
        const Hardware hw = test::bundledHardware("hwff-config-1");
        doc()->reset(net, hw, defaultSchedule(net, hw));
    }
};

// Three edits, one undone: a fusion, the hardware, a second fusion (undone).
void editThreeTimesUndoOnce(Bare& b) {
    QVERIFY(b.doc()->fuse({b.id("layer1.0.conv1"), b.id("layer1.0.conv2")}).ok);
    Hardware hw = b.doc()->hardware();
    hw.frequency_mhz = 333;
    QVERIFY(b.doc()->setHardware(hw, QStringLiteral("Clock"), 0).ok);
    QVERIFY(b.doc()->fuse({b.id("layer2.0.conv1"), b.id("layer2.0.conv2")}).ok);
    b.doc()->undoStack()->undo();
}

QStringList filesIn(const QString& dir, const QString& pattern) {
    return QDir(dir).entryList({pattern}, QDir::Files);
}

} // namespace

class TestRecovery : public QObject {
    Q_OBJECT
  private slots:
    void historyRestoresUndoAndRedo() {
        Bare a;
        a.open("resnet18");
        editThreeTimesUndoOnce(a);
        const Network net = a.doc()->network();
        // Through the file, as a recovery does.
        auto history = readEditHistoryYaml(writeEditHistoryYaml(net, a.doc()->history()), "h", net);
        QVERIFY(history.ok());

        Bare b;
        QSignalSpy resets(b.doc(), &Document::documentReset);
        QSignalSpy changes(b.doc(), &Document::changed);
        b.doc()->restore(net, *history, QStringLiteral("/tmp/x.lfproj"), {});
        QCOMPARE(resets.size(), 1); // one reset, no signal per replayed edit
        QCOMPARE(changes.size(), 0);
        QCOMPARE(b.doc()->filePath(), QStringLiteral("/tmp/x.lfproj"));
        QVERIFY(b.doc()->schedule() == a.doc()->schedule());
        QVERIFY(b.doc()->hardware() == a.doc()->hardware());
        QCOMPARE(b.doc()->undoStack()->count(), 3);
        QCOMPARE(b.doc()->undoStack()->index(), 2);
        QCOMPARE(b.doc()->undoStack()->text(1), QStringLiteral("Clock"));
        QVERIFY(b.doc()->isModified());
        // Every step back and forth gives the values the first document had.
        for (int k : {3, 1, 0, 2}) {
            a.doc()->undoStack()->setIndex(k);
            b.doc()->undoStack()->setIndex(k);
            QVERIFY2(b.doc()->schedule() == a.doc()->schedule(), qPrintable(QString::number(k)));
            QVERIFY2(b.doc()->hardware() == a.doc()->hardware(), qPrintable(QString::number(k)));
        }
        // The state it was opened in is the clean one, as in the first document.
        b.doc()->undoStack()->setIndex(0);
        QVERIFY(!b.doc()->isModified());
    }

    void historyKeepsTheSavedState() {
        Bare a;
        a.open("resnet18");
        QVERIFY(a.doc()->fuse({a.id("layer1.0.conv1"), a.id("layer1.0.conv2")}).ok);
        a.doc()->markSaved(QStringLiteral("/tmp/saved.lfproj"));
        QVERIFY(a.doc()->fuse({a.id("layer2.0.conv1"), a.id("layer2.0.conv2")}).ok);
        const EditHistory h = a.doc()->history();
        QCOMPARE(h.clean, 1);
        QCOMPARE(h.index, 2);
        Bare b;
        b.doc()->restore(a.doc()->network(), h, QStringLiteral("/tmp/saved.lfproj"), {});
        QVERIFY(b.doc()->isModified());
        b.doc()->undoStack()->undo();
        QVERIFY(!b.doc()->isModified()); // back at what the file holds
        // A history whose saved state is gone (past the undo limit) is modified everywhere.
        EditHistory lost = h;
        lost.clean = -1;
        Bare c;
        c.doc()->restore(a.doc()->network(), lost, {}, {});
        for (int k : {0, 1, 2}) {
            c.doc()->undoStack()->setIndex(k);
            QVERIFY(c.doc()->isModified());
        }
    }

    void autosavesAfterEditsOffTheGuiThread() {
        Bare b;
        b.open("resnet18");
        QTemporaryDir dir;
        RecoveryController::Options o;
        o.directory = dir.path();
        o.offerRecovery = false;
        o.delayMs = 200;
        RecoveryController recovery(&b.studio, o);
        QSignalSpy written(&recovery, &RecoveryController::autosaved);
        QVERIFY(b.doc()->fuse({b.id("layer1.0.conv1"), b.id("layer1.0.conv2")}).ok);
        // Nothing is written during the edit: the debounce timer runs.
        QVERIFY(recovery.autosavePending());
        QVERIFY(filesIn(dir.path(), "*.lfproj").isEmpty());
        QVERIFY(written.wait(20000));
        QCOMPARE(written.front().front().toString(), QString());
        QCOMPARE(filesIn(dir.path(), "*.lfproj").size(), 1);
        QCOMPARE(filesIn(dir.path(), "*.lfhistory").size(), 1);
        // Undoing back to the opened state removes the files again.
        b.doc()->undoStack()->undo();
        QVERIFY(!b.doc()->isModified());
        QVERIFY(written.wait(20000));
        QVERIFY(filesIn(dir.path(), "*.lfproj").isEmpty());
        QVERIFY(filesIn(dir.path(), "*.lfhistory").isEmpty());
    }

    void aBurstOfEditsIsWrittenOnce() {
        Bare b;
        b.open("resnet18");
        QTemporaryDir dir;
        RecoveryController recovery(&b.studio, {true, false, dir.path(), 300});
        QSignalSpy written(&recovery, &RecoveryController::autosaved);
        editThreeTimesUndoOnce(b);
        QVERIFY(written.wait(20000));
        QTest::qWait(600); // longer than the delay: no second write follows
        QCOMPARE(written.size(), 1);
        QFile f(dir.filePath(filesIn(dir.path(), "*.lfhistory").value(0)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto h = readEditHistoryYaml(f.readAll().toStdString(), "h", b.doc()->network());
        QVERIFY(h.ok());
        QCOMPARE(h->steps.size(), size_t(3));
        QCOMPARE(h->index, 2);
    }

    void theWriterRunsJobsOnItsThreadLatestFirst() {
        AutosaveWriter writer;
        QThread* ran = nullptr;
        QStringList order;
        std::mutex m;
        writer.submit([&] {
            QThread::msleep(100);
            const std::lock_guard lock(m);
            ran = QThread::currentThread();
            order << "first";
            return QString();
        });
        QThread::msleep(20); // the first job has started
        writer.submit([&] {
            const std::lock_guard lock(m);
            order << "dropped";
            return QString();
        });
        writer.submit([&] {
            const std::lock_guard lock(m);
            order << "latest";
            return QStringLiteral("disk full");
        });
        QSignalSpy finished(&writer, &AutosaveWriter::finished);
        writer.waitUntilIdle();
        QVERIFY(ran && ran != QThread::currentThread());
        QCOMPARE(order, QStringList({"first", "latest"}));
        QTRY_COMPARE(finished.size(), 2);
        QCOMPARE(finished.back().front().toString(), QStringLiteral("disk full"));
    }

    void locksOfDeadSessionsAreRemoved() {
        QTemporaryDir dir;
        // A lock written by a process that has ended (QLockFile's format: pid, app, host).
        QProcess gone;
        gone.start(QStringLiteral("true"));
        QVERIFY(gone.waitForStarted());
        const qint64 deadPid = gone.processId();
        QVERIFY(gone.waitForFinished());
        QVERIFY(deadPid > 0);
        const QString stale = dir.filePath(QStringLiteral("dead.lock"));
        {
            QLockFile probe(dir.filePath(QStringLiteral("template.lock")));
            QVERIFY(probe.tryLock(0));
            QFile t(dir.filePath(QStringLiteral("template.lock")));
            QVERIFY(t.open(QIODevice::ReadOnly));
            QList<QByteArray> lines = t.readAll().split('\n');
            lines[0] = QByteArray::number(deadPid);
            QFile out(stale);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(lines.join('\n'));
        }
        QFile leftover(dir.filePath(QStringLiteral("dead.origin")));
        QVERIFY(leftover.open(QIODevice::WriteOnly));
        leftover.close();
        // A session that is alive keeps its lock.
        RecoveryStore alive(dir.path());
        QCOMPARE(filesIn(dir.path(), "*.lock").size(), 1);
        QVERIFY(!QFile::exists(stale));
        QVERIFY(!QFile::exists(leftover.fileName()));
        RecoveryStore other(dir.path());
        QCOMPARE(filesIn(dir.path(), "*.lock").size(), 2);
    }
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
