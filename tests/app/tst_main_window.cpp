// The studio window end to end (offscreen): open, fuse through the action, undo, refuse,
// edit hardware from its dock, save and reopen, bad files, recovery, a rendered screenshot.
#include "controllers/recovery_controller.h"
#include "edits/schedule_edits.h"
#include "graph/graph_canvas.h"
#include "graph/graph_scene.h"
#include "hardware/hardware_editor.h"
#include "inspectors/layer_inspector.h"
#include "io/project_yaml.h"
#include "layers/layer_list.h"
#include "models/evaluate.h"
#include "panels/elided_label.h"
#include "panels/status_panel.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <set>

using namespace lf;

namespace {

// The studio window; "save changes?" is answered Cancel unless a test says otherwise.
struct Window : test::StudioWindow {
    Window() : StudioWindow(QMessageBox::Cancel) {}
};

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void opensAnExample() {
        Window t;
        QVERIFY(t.open("resnet18"));
        const StudioState& s = t.w.studio()->state();
        QVERIFY(s.metrics);
        QCOMPARE(s.network.name(), std::string("ResNet-18"));
        QCOMPARE(t.w.canvas()->scene()->nodes().size(), size_t(s.network.size()));
        QCOMPARE(t.w.layerList()->model()->rowCount(), s.network.size());
        QVERIFY(t.w.windowTitle().startsWith(QLatin1String("ResNet-18")));
        QAbstractItemModelTester tester(t.w.layerList()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(t.open("l2net"));
        QCOMPARE(t.w.layerList()->model()->rowCount(), 3);
    }

    void fuseThroughTheActionAndUndo() {
        Window t;
        QVERIFY(t.open("l2net"));
        const int64_t outputBefore = t.w.studio()->state().metrics->totals.dram.output;
        QCOMPARE(outputBefore, int64_t(18 * 18 * 4 + 16 * 16 * 4)); // every layer writes its output
        QAction* fuse = t.w.action(QStringLiteral("fuse"));
        QVERIFY(!fuse->isEnabled());
        t.select({t.id("conv1"), t.id("conv2")});
        QVERIFY(fuse->isEnabled());
        QCOMPARE(fuse->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_G));
        QVERIFY(t.editAndWait([&] { fuse->trigger(); }));
        QCOMPARE(t.w.document()->schedule().groups.size(), size_t(1));
        QCOMPARE(t.w.studio()->state().schedule.groups.size(), size_t(1));
        // conv1's output stays on chip (ConvFusion §IV-E): only conv2's 16x16x4 goes out.
        QCOMPARE(t.w.studio()->state().metrics->totals.dram.output, int64_t(16 * 16 * 4));
        QCOMPARE(t.w.canvas()->scene()->groupItems().size(), size_t(1));
        QCOMPARE(t.w.studio()->selection().group, 0); // the new group is selected
        QVERIFY(t.w.isWindowModified());
        QVERIFY(t.w.action(QStringLiteral("ungroup"))->isEnabled());

        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("undo"))->trigger(); }));
        QCOMPARE(t.w.document()->schedule().groups.size(), size_t(2));
        QCOMPARE(t.w.studio()->state().metrics->totals.dram.output, outputBefore);
        QCOMPARE(t.w.canvas()->scene()->groupItems().size(), size_t(0));
        QVERIFY(!t.w.isWindowModified());
        QVERIFY(t.w.studio()->state().previous); // deltas compare with the fused schedule
        QCOMPARE(t.w.studio()->state().previous->totals.dram.output, int64_t(16 * 16 * 4));
    }

    void invalidFusionIsRefusedWithItsReason() {
        Window t;
        QVERIFY(t.open("l3net"));
        t.select({t.id("conv1"), t.id("conv3")});
        QAction* fuse = t.w.action(QStringLiteral("fuse"));
        QVERIFY(fuse->isEnabled());
        fuse->trigger();
        QCOMPARE(t.w.document()->undoStack()->count(), 0);
        QCOMPARE(t.w.document()->schedule().groups.size(), size_t(3));
        const QString shown = t.w.findChild<StatusPanel*>()->shownText();
        QVERIFY2(shown.contains(QLatin1String("not connected")), qPrintable(shown));
        // The group was never made: the reason names the layers, not a group name.
        QVERIFY2(shown.contains(QLatin1String("conv1, conv3")) && !shown.contains("g0") &&
                     !shown.contains("g1"),
                 qPrintable(shown));
    }

    // A long message takes the summary's place, elided left of "Evaluated in …" and the
    // other figures; QStatusBar would paint it across them.
    void longStatusMessagesStayLeftOfTheFigures() {
        Window t;
        QVERIFY(t.open("l3net"));
        t.w.resize(1280, 800);
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        auto* panel = t.w.findChild<StatusPanel*>();
        QVERIFY(!panel->evaluationLabel()->text().isEmpty());
        const QString message = QStringLiteral("A long message ").repeated(30);
        t.w.studio()->showStatus(message, 60000);
        QCOMPARE(panel->shownText(), message);
        QVERIFY(t.w.statusBar()->currentMessage().isEmpty());
        QApplication::processEvents();
        QVERIFY(panel->messageLabel()->geometry().right() <
                panel->evaluationLabel()->geometry().left());
        // A status tip (menus, toolbar buttons) goes the same way.
        t.w.statusBar()->showMessage(QStringLiteral("Fuse the selected layers"));
        QCOMPARE(panel->shownText(), QStringLiteral("Fuse the selected layers"));
        QVERIFY(t.w.statusBar()->currentMessage().isEmpty());
        // Cleared: the summary again.
        panel->showMessage({}, 0);
        QVERIFY(panel->shownText().contains(QLatin1String("layers")));
    }

    void splitMergeAndUngroupActions() {
        Window t;
        QVERIFY(t.open("l3net"));
        t.select({t.id("conv1"), t.id("conv2"), t.id("conv3")});
        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("fuse"))->trigger(); }));
        t.select({t.id("conv3")});
        QVERIFY(t.w.action(QStringLiteral("split"))->isEnabled());
        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("split"))->trigger(); }));
        QCOMPARE(t.w.document()->schedule().groups.size(), size_t(2));
        t.select({t.id("conv2"), t.id("conv3")});
        QVERIFY(t.w.action(QStringLiteral("merge"))->isEnabled());
        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("merge"))->trigger(); }));
        QCOMPARE(t.w.document()->schedule().groups.size(), size_t(1));
        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("ungroup"))->trigger(); }));
        QCOMPARE(t.w.document()->schedule().groups.size(), size_t(3));
        QCOMPARE(t.w.document()->undoStack()->count(), 4);
    }

    void hardwareEditFromItsDockReevaluates() {
        Window t;
        QVERIFY(t.open("l2net"));
        auto* editor = t.w.findChild<HardwareEditor*>();
        QVERIFY(editor);
        Hardware hw = t.w.document()->hardware();
        hw.buffer.bytes = 12345;
        QVERIFY(t.editAndWait(
            [&] { emit editor->hardwareEdited(hw, QStringLiteral("Buffer size"), 0); }));
        QCOMPARE(t.w.studio()->state().metrics->totals.buffer_capacity_bytes, int64_t(12345));
        QCOMPARE(t.w.document()->undoStack()->undoText(), QStringLiteral("Buffer size"));
    }

    void layerScheduleEditFromTheInspector() {
        Window t;
        QVERIFY(t.open("l2net"));
        auto* inspector = t.w.findChild<LayerInspector*>();
        QVERIFY(inspector);
        LayerSchedule ls = t.w.document()->schedule().layers[size_t(t.id("conv2"))];
        ls.tile[size_t(Dim::x)] = 2;
        QVERIFY(t.editAndWait([&] {
            emit inspector->layerScheduleEdited(t.id("conv2"), ls, QStringLiteral("Tx"), 0);
        }));
        QCOMPARE(t.w.studio()->state().schedule.layers[size_t(t.id("conv2"))].T(Dim::x),
                 int64_t(2));
    }

    void projectSavesAndReopensIdentical() {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.lfproj"));
        ProjectViewState view;
        std::string textA;
        Schedule schedule;
        Hardware hardware;
        {
            Window t;
            QVERIFY(t.open("resnet18"));
            t.select({t.id("layer1.0.conv1"), t.id("layer1.0.conv2"), t.id("layer1.0.add")});
            QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("fuse"))->trigger(); }));
            Hardware hw = t.w.document()->hardware();
            hw.frequency_mhz = 350;
            QVERIFY(t.editAndWait([&] { t.w.document()->setHardware(hw, {}, 0); }));
            t.w.action(QStringLiteral("colorBy-energy"))->trigger();
            QVERIFY(t.w.files()->saveProjectTo(a));
            QVERIFY(!t.w.isWindowModified());
            QCOMPARE(t.w.document()->filePath(), QFileInfo(a).absoluteFilePath());
            view = t.w.studio()->viewState();
            schedule = t.w.document()->schedule();
            hardware = t.w.document()->hardware();
            QFile f(a);
            QVERIFY(f.open(QIODevice::ReadOnly));
            textA = f.readAll().toStdString();
        }
        Window t;
        QVERIFY(t.editAndWait([&] { QVERIFY(t.w.files()->openPath(a)); }));
        QVERIFY(t.w.document()->schedule().groups == schedule.groups);
        QVERIFY(t.w.document()->schedule().layers == schedule.layers);
        QVERIFY(t.w.document()->hardware() == hardware);
        QCOMPARE(t.w.document()->hardware().frequency_mhz, 350.0);
        QCOMPARE(t.w.canvas()->colorBy(), graph::ColorBy::energy);
        QCOMPARE(t.w.studio()->selection().group,
                 t.w.document()->schedule().groupOf(t.id("layer1.0.conv1")));
        QVERIFY(!t.w.isWindowModified());
        // Written again with the same view, the file is byte for byte the same.
        QCOMPARE(writeProjectYaml(t.w.document()->project(view)), textA);
    }

    void badFileKeepsTheDocument() {
        Window t;
        QVERIFY(t.open("l2net"));
        QVERIFY(t.editAndWait([&] { t.w.document()->fuse({t.id("conv1"), t.id("conv2")}); }));
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.net.yaml"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("format: layerfuse/network@1\nname: Bad\ninputs:\n  - {name: x, channels: 3, "
                "height: 8, width: 8}\n"
                "layers:\n  - {name: a, type: conv, inputs: [nope], out_channels: 4, kernel: 3}\n");
        f.close();
        QString error;
        QVERIFY(!t.w.files()->openPath(bad, &error));
        QVERIFY2(error.startsWith(bad + QStringLiteral(":6:")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("nope")));
        QCOMPARE(t.errors.size(), 1);
        QCOMPARE(t.errors.front(), error);
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
        QCOMPARE(t.w.document()->undoStack()->count(), 1);
        QVERIFY(t.w.isWindowModified());
        // A bad project: reported where it is wrong, nothing replaced.
        const QString badProject = dir.filePath(QStringLiteral("bad.lfproj"));
        QFile p(badProject);
        QVERIFY(p.open(QIODevice::WriteOnly));
        p.write("format: layerfuse/project@1\nnetwork: {bundled: l3net}\nhardware: {name: h, "
                "frequency_mhz: fast}\n");
        p.close();
        QVERIFY(!t.w.files()->openPath(badProject, &error));
        QVERIFY2(error.startsWith(badProject + QStringLiteral(":3:")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("frequency_mhz")));
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
        QCOMPARE(t.w.document()->undoStack()->count(), 1);
        QVERIFY(!t.w.files()->openPath(QStringLiteral("no-such-network")));
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
    }

    void unsavedChangesArePromptedFor() {
        Window t;
        QVERIFY(t.open("l2net"));
        QVERIFY(t.editAndWait([&] { t.w.document()->fuse({t.id("conv1"), t.id("conv2")}); }));
        QAction* example = t.w.findChild<QAction*>(QStringLiteral("example-l3net"));
        QVERIFY(example);
        QVERIFY2(example->text().startsWith(QStringLiteral("l3net — ConvFusion")),
                 qPrintable(example->text()));
        QStringList asked;
        t.w.studio()->savePrompt = [&](const QString& q) {
            asked << q;
            return QMessageBox::Cancel;
        };
        example->trigger();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
        t.w.studio()->savePrompt = [&](const QString&) { return QMessageBox::Discard; };
        QVERIFY(t.editAndWait([&] { example->trigger(); }));
        QCOMPARE(t.w.document()->network().name(), std::string("L3Net"));
        QVERIFY(!t.w.isWindowModified());
    }

    void restoresWorkLeftByACrash() {
        QTemporaryDir dir;
        // What a crashed session left: its autosaved project, where it came from, no live lock.
        Project p;
        p.network = test::bundledNetwork("l3net");
        p.hardware = test::bundledHardware("hwff-config-1");
        ScheduleEdit fused =
            fuseLayers(p.network, p.hardware, defaultSchedule(p.network, p.hardware),
                       {p.network.find("conv1"), p.network.find("conv2")});
        QVERIFY(fused.ok);
        p.schedule = fused.schedule;
        p.schedule.groups[size_t(p.schedule.groupOf(p.network.find("conv1")))].name = "g7";
        QFile f(dir.filePath(QStringLiteral("crashed.lfproj")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(writeProjectYaml(p)));
        f.close();
        QFile origin(dir.filePath(QStringLiteral("crashed.origin")));
        QVERIFY(origin.open(QIODevice::WriteOnly));
        origin.write("/home/someone/work.lfproj");
        origin.close();

        MainWindow::Options o = test::quietWindowOptions();
        o.offerRecovery = true;
        o.autosave = true;
        o.recoveryDirectory = dir.path();
        MainWindow w(o);
        QString question;
        w.recovery()->recoveryPrompt = [&](const QString& q) {
            question = q;
            return QMessageBox::Yes;
        };
        QSignalSpy spy(w.studio(), &Studio::statePublished);
        w.recovery()->offerRecovery();
        QVERIFY(question.contains(QLatin1String("work.lfproj")));
        QVERIFY(spy.wait(10000));
        QCOMPARE(w.document()->network().name(), std::string("L3Net"));
        QCOMPARE(w.document()->schedule().groups.front().name, std::string("g7"));
        QVERIFY(w.document()->isModified());
        QCOMPARE(w.document()->filePath(), QStringLiteral("/home/someone/work.lfproj"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("crashed.lfproj"))));
        // The restored work is autosaved by this session at once.
        w.recovery()->waitForWrites();
        const QStringList now = QDir(dir.path()).entryList({QStringLiteral("*.lfproj")});
        QCOMPARE(now.size(), 1);
        auto again = loadProjectFile(dir.filePath(now.front()).toStdString());
        QVERIFY(again.ok());
        QCOMPARE(again->schedule.groups.front().name, std::string("g7"));
    }

    void fitsA1280x800Screen() {
        Window t;
        QVERIFY(t.w.minimumSizeHint().width() <= 1280 && t.w.minimumSizeHint().height() <= 800);
        t.w.resize(1280, 800);
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        QVERIFY(t.open("resnet50"));
        QTest::qWait(20);
        QCOMPARE(t.w.size(), QSize(1280, 800));
        // The canvas keeps a useful share of the window.
        QVERIFY(t.w.canvas()->width() >= 500);
        QVERIFY(t.w.canvas()->height() >= 350);
        // Every visible label in the window has the room its text needs.
        for (QLabel* label : t.w.findChildren<QLabel*>()) {
            if (!label->isVisible() || label->wordWrap() || label->text().isEmpty()) continue;
            if (label->textFormat() == Qt::RichText || Qt::mightBeRichText(label->text())) continue;
            QVERIFY2(label->width() >= label->minimumSizeHint().width(),
                     qPrintable(QStringLiteral("“%1” is clipped: %2 < %3")
                                    .arg(label->text())
                                    .arg(label->width())
                                    .arg(label->minimumSizeHint().width())));
        }
    }

    void mainWindowRendersToPng() {
        Window t;
        t.w.resize(1280, 800);
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        QVERIFY(t.open("resnet18"));
        t.select({t.id("layer1.0.conv1"), t.id("layer1.0.conv2"), t.id("layer1.0.add")});
        QVERIFY(t.editAndWait([&] { t.w.action(QStringLiteral("fuse"))->trigger(); }));
        QTest::qWait(50);
        const QImage img = t.w.grab().toImage();
        QCOMPARE(img.size(), QSize(1280, 800));
        const QString dir = QStringLiteral(LAYERFUSE_BINARY_DIR "/tests/artifacts");
        QDir().mkpath(dir);
        QVERIFY(img.save(dir + QStringLiteral("/studio-main-window.png")));
        std::set<QRgb> colours;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2)
                colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() > 200, qPrintable(QString::number(colours.size())));
        // The canvas itself shows the graph, not a blank area.
        const QImage canvas = t.w.canvas()->grab().toImage();
        std::set<QRgb> canvasColours;
        for (int y = 0; y < canvas.height(); y += 2)
            for (int x = 0; x < canvas.width(); x += 2)
                canvasColours.insert(canvas.pixel(x, y));
        QVERIFY(canvasColours.size() > 50);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
