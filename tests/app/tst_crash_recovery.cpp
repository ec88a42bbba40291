// Kill -9 in the middle of editing: a real studio (the layerfuse binary) makes fusion edits
// given on its standard input, is killed with SIGKILL once its autosave delay has passed,
// and the next start restores the edits with their undo and redo, and removes the dead
// session's files and lock.
#include "controllers/recovery_controller.h"
#include "main_window.h"
#include "studio_window.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace lf;

namespace {

// The first file under `dir` matching `pattern` (the studio's AppLocalDataLocation is below
// XDG_DATA_HOME).
QString findFile(const QString& dir, const QString& pattern) {
    QDirIterator it(dir, {pattern}, QDir::Files, QDirIterator::Subdirectories);
    return it.hasNext() ? it.next() : QString();
}

bool sameGroup(const Document* doc, const char* a, const char* b) {
    const Network& net = doc->network();
    return doc->schedule().groupOf(net.find(a)) == doc->schedule().groupOf(net.find(b));
}

} // namespace

class TestCrashRecovery : public QObject {
    Q_OBJECT
  private slots:
    void killedMidEditRestoresEditsAndUndo() {
        QTemporaryDir home;
        QProcess studio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
        studio.setProcessEnvironment(env);
        studio.start(QStringLiteral(LAYERFUSE_STUDIO_PATH),
                     {QStringLiteral("--no-recovery"), QStringLiteral("--edits-from-stdin"),
                      QStringLiteral("resnet18")});
        QVERIFY(studio.waitForStarted(30000));
        // Three fusions, the last one undone: the studio answers each line.
        const char* script[] = {"fuse layer1.0.conv1 layer1.0.conv2",
                                "fuse layer2.0.conv1 layer2.0.conv2",
                                "fuse layer3.0.conv1 layer3.0.conv2", "undo"};
        const char* answers[] = {"ok 1", "ok 2", "ok 3", "ok 2"};
        for (int k = 0; k < 4; ++k) {
            studio.write(QByteArray(script[k]) + '\n');
            QByteArray line;
            while (!line.contains('\n') && studio.waitForReadyRead(60000))
                line += studio.readLine();
            QCOMPARE(line.trimmed(), QByteArray(answers[k]));
        }
        // Past the autosave delay the history file reflects every edit and the project
        // snapshot is there (an autosave writes the history first: a kill between the two
        // left no session to recover); then kill -9.
        QString history;
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 60000) {
            history = findFile(home.path(), QStringLiteral("*.lfhistory"));
            QFile f(history);
            if (!history.isEmpty() && f.open(QIODevice::ReadOnly) &&
                f.readAll().contains("index: 2") &&
                !findFile(QFileInfo(history).absolutePath(), QStringLiteral("*.lfproj")).isEmpty())
                break;
            QTest::qWait(100);
        }
        QVERIFY2(!history.isEmpty(), "no autosave");
        studio.kill(); // SIGKILL
        QVERIFY(studio.waitForFinished(30000));
        QCOMPARE(studio.exitStatus(), QProcess::CrashExit);
        const QString recoveryDir = QFileInfo(history).absolutePath();
        QVERIFY(!findFile(recoveryDir, QStringLiteral("*.lock")).isEmpty()); // left behind

        // The next start.
        MainWindow::Options o = test::quietWindowOptions();
        o.offerRecovery = true;
        o.autosave = true;
        o.recoveryDirectory = recoveryDir;
        MainWindow w(o);
        int asked = 0;
        w.recovery()->recoveryPrompt = [&](const QString&) {
            ++asked;
            return QMessageBox::Yes;
        };
        QSignalSpy published(w.studio(), &Studio::statePublished);
        w.recovery()->offerRecovery();
        QCOMPARE(asked, 1);
        QVERIFY(published.wait(30000));
        const Document* doc = w.document();
        QCOMPARE(doc->network().name(), std::string("ResNet-18"));
        QVERIFY(doc->isModified());
        QVERIFY(sameGroup(doc, "layer1.0.conv1", "layer1.0.conv2"));
        QVERIFY(sameGroup(doc, "layer2.0.conv1", "layer2.0.conv2"));
        QVERIFY(!sameGroup(doc, "layer3.0.conv1", "layer3.0.conv2"));
        QUndoStack* undo = doc->undoStack();
        QCOMPARE(undo->count(), 3);
        QCOMPARE(undo->index(), 2);
        undo->redo(); // the undone edit is there to redo
        QVERIFY(sameGroup(doc, "layer3.0.conv1", "layer3.0.conv2"));
        undo->setIndex(0); // and the edits before it to undo
        QVERIFY(!sameGroup(doc, "layer1.0.conv1", "layer1.0.conv2"));
        QVERIFY(!sameGroup(doc, "layer2.0.conv1", "layer2.0.conv2"));
        // The dead session's files and lock are gone; this session's own lock is the only one.
        QVERIFY(!QFile::exists(history));
        QDir dir(recoveryDir);
        QCOMPARE(dir.entryList({QStringLiteral("*.lock")}, QDir::Files).size(), 1);
    }
};

QTEST_MAIN(TestCrashRecovery)
#include "tst_crash_recovery.moc"
