// Schedules in and out of the studio (offscreen): export → import round trip, a schedule of
// another network applied by layer names (or declined), a schedule that breaks a constraint,
// Timeloop and Stream exports; File ▸ Import Hardware of a ZigZag accelerator and of a bad
// file.
#include "controllers/exchange_controller.h"
#include "io/schedule_yaml.h"
#include "net_text.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <yaml-cpp/yaml.h>

#include <algorithm>

using namespace lf;

namespace {

// The studio window and its exchange controller.
struct Window : test::StudioWindow {
    ExchangeController* exchange = w.exchange();
};

// The groups and layer schedules (what a schedule says), without the explicit-layer marks.
bool sameSchedule(const Schedule& a, const Schedule& b) {
    return a.groups == b.groups && a.layers == b.layers;
}

} // namespace

class TestExchange : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void scheduleExportImportRoundTrip() {
        Window t;
        QVERIFY(t.open("resnet18"));
        Document* doc = t.w.document();
        QVERIFY(t.editAndWait([&] {
            doc->fuse({t.id("layer1.0.conv1"), t.id("layer1.0.conv2"), t.id("layer1.0.add")});
        }));
        LayerSchedule ls = doc->schedule().layers[size_t(t.id("conv1"))];
        ls.tile[size_t(Dim::x)] = 7;
        ls.order = {Dim::y, Dim::z, Dim::x, Dim::i};
        QVERIFY(t.editAndWait([&] { doc->setLayerSchedule(t.id("conv1"), ls, {}, 0); }));
        const Schedule chosen = doc->schedule();
        const int64_t dram = t.w.studio()->state().metrics->totals.dram_accesses;

        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.sched.yaml"));
        QVERIFY(t.exchange->exportSchedule(a));
        // Every compute layer is written, and the metrics of this schedule.
        const YAML::Node root = YAML::LoadFile(a.toStdString());
        QCOMPARE(root["layers"].size(), doc->network().computeIds().size());
        QCOMPARE(root["metrics"]["dram_accesses"].as<int64_t>(), dram);
        QCOMPARE(root["network"]["sha256"].as<std::string>(), doc->network().canonicalHash());

        // Back to the default schedule, then import: the chosen schedule returns in one step.
        QVERIFY(t.editAndWait([&] {
            doc->setSchedule(defaultSchedule(doc->network(), doc->hardware()),
                             QStringLiteral("reset"));
        }));
        QVERIFY(!sameSchedule(doc->schedule(), chosen));
        const int undoBefore = doc->undoStack()->count();
        bool asked = false;
        t.exchange->applyByNamesPrompt = [&](const ScheduleMismatch&) { return asked = true; };
        QVERIFY(t.editAndWait([&] { QVERIFY(t.exchange->importSchedule(a)); }));
        QVERIFY(!asked); // same network: no question
        QVERIFY(sameSchedule(doc->schedule(), chosen));
        QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
        QCOMPARE(t.w.studio()->state().metrics->totals.dram_accesses, dram);
        // And the file round-trips byte for byte.
        const QString b = dir.filePath(QStringLiteral("b.sched.yaml"));
        QVERIFY(t.exchange->exportSchedule(b));
        QCOMPARE(test::readBytes(b), test::readBytes(a));
        QVERIFY(t.errors.isEmpty());
    }

    void anEditedHardwareTravelsWithTheSchedule() {
        Window t;
        QVERIFY(t.open("l2net"));
        Document* doc = t.w.document();
        const Hardware preset = doc->hardware();
        Hardware edited = preset;
        edited.buffer.bytes = 4096;
        QVERIFY(t.editAndWait([&] { doc->setHardware(edited, {}, 0); }));
        QVERIFY(t.editAndWait([&] { doc->fuse({t.id("conv1"), t.id("conv2")}); }));
        const Schedule chosen = doc->schedule();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("edited.sched.yaml"));
        QVERIFY(t.exchange->exportSchedule(path));
        // Not the preset as shipped: the whole hardware block is written.
        const YAML::Node root = YAML::LoadFile(path.toStdString());
        QCOMPARE(root["hardware"]["buffer"]["bytes"].as<int64_t>(), int64_t(4096));

        QVERIFY(t.editAndWait([&] { doc->undoStack()->undo(); }));
        QVERIFY(t.editAndWait([&] { doc->undoStack()->undo(); }));
        QVERIFY(doc->hardware() == preset);
        QVERIFY(t.editAndWait([&] { QVERIFY(t.exchange->importSchedule(path)); }));
        QVERIFY(doc->hardware() == edited);
        QVERIFY(sameSchedule(doc->schedule(), chosen));
        // Hardware and schedule came back in one undo step, which the undo history (what
        // autosave and crash recovery write) reads as such; it was a QUndoStack macro that
        // history() took for a document command.
        QCOMPARE(doc->undoStack()->index(), 1);
        const EditHistory h = doc->history();
        QCOMPARE(h.steps.size(), size_t(1));
        QVERIFY(h.steps[0].hardware && *h.steps[0].hardware == edited);
        QVERIFY(h.steps[0].schedule && sameSchedule(*h.steps[0].schedule, chosen));
        QVERIFY(h.base_hardware == preset);
        QVERIFY(t.editAndWait([&] { doc->undoStack()->undo(); }));
        QVERIFY(doc->hardware() == preset);
        QCOMPARE(doc->schedule().groups.size(), size_t(2));
    }

    void aScheduleOfAnotherNetworkIsAppliedByLayerNamesOrDeclined() {
        QTemporaryDir dir;
        const QString sched = dir.filePath(QStringLiteral("l3net.sched.yaml"));
        FusionGroup writtenGroup;
        LayerSchedule writtenConv2;
        {
            Window t;
            QVERIFY(t.open("l3net"));
            QVERIFY(t.editAndWait([&] { t.w.document()->fuse({t.id("conv1"), t.id("conv2")}); }));
            const Schedule& written = t.w.document()->schedule();
            writtenGroup = written.groups[size_t(written.groupOf(t.id("conv1")))];
            writtenConv2 = written.layers[size_t(t.id("conv2"))];
            QVERIFY(t.exchange->exportSchedule(sched));
        }
        // L3Net with its last layer renamed: another canonical hash, two names in common.
        const QString net = dir.filePath(QStringLiteral("renamed.net.yaml"));
        QVERIFY(test::writeBytes(net, R"(format: layerfuse/network@1
name: L3NetRenamed
inputs:
  - {name: image, channels: 3, height: 22, width: 22}
layers:
  - {name: conv1, type: conv, inputs: [image], out_channels: 4, kernel: 3}
  - {name: conv2, type: conv, inputs: [conv1], out_channels: 4, kernel: 3}
  - {name: head, type: conv, inputs: [conv2], out_channels: 4, kernel: 3}
)"));
        Window t;
        QVERIFY(t.openFile(net));
        Document* doc = t.w.document();
        const Schedule before = doc->schedule();

        // Declined: nothing changes.
        ScheduleMismatch seen;
        t.exchange->applyByNamesPrompt = [&](const ScheduleMismatch& m) {
            seen = m;
            return false;
        };
        QString error;
        QVERIFY(!t.exchange->importSchedule(sched, &error));
        QCOMPARE(seen.fileNetwork, QStringLiteral("L3Net"));
        QCOMPARE(seen.openNetwork, QStringLiteral("L3NetRenamed"));
        QVERIFY(seen.fileHash != seen.openHash);
        QCOMPARE(seen.openHash, QString::fromStdString(doc->network().canonicalHash()));
        QCOMPARE(seen.skipped, std::vector<std::string>{"conv3"});
        QVERIFY(doc->schedule() == before);
        QCOMPARE(doc->undoStack()->count(), 0);
        QVERIFY(t.errors.isEmpty()); // declining is not an error

        // Accepted: the group of conv1 and conv2 and their layer schedules apply by name.
        t.exchange->applyByNamesPrompt = [](const ScheduleMismatch&) { return true; };
        QVERIFY(t.editAndWait([&] { QVERIFY(t.exchange->importSchedule(sched)); }));
        QCOMPARE(doc->undoStack()->count(), 1);
        const Schedule& now = doc->schedule();
        const int gi = now.groupOf(t.id("conv1"));
        QVERIFY(gi >= 0);
        QCOMPARE(now.groups[size_t(gi)].layers,
                 (std::vector<LayerId>{t.id("conv1"), t.id("conv2")}));
        QCOMPARE(now.groups[size_t(gi)].name, writtenGroup.name);
        QCOMPARE(now.groups[size_t(gi)].strategy, writtenGroup.strategy);
        QVERIFY(now.layers[size_t(t.id("conv2"))] == writtenConv2);
        QVERIFY(now.layers[size_t(t.id("head"))] == before.layers[size_t(t.id("head"))]);
        QVERIFY(t.exchange->lastMessage().contains(QLatin1String("conv3")));
    }

    void aScheduleThatBreaksAConstraintIsRefusedWithItsPosition() {
        Window t;
        QVERIFY(t.open("l2net"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.sched.yaml"));
        // conv2 of L2Net has 16 output columns: a tile of 40 breaks 1 <= T <= D.
        QVERIFY(test::writeBytes(path, R"(format: layerfuse/schedule@1
network: {name: L2Net}
layers:
  conv2:
    order: [z, y, x, i]
    tiles: {z: 4, y: 4, x: 40, i: 4}
    store: {X: tile, Y: tile, W: tile}
    compute: {X: tile, Y: tile, W: tile}
)"));
        const Schedule before = t.w.document()->schedule();
        QString error;
        QVERIFY(!t.exchange->importSchedule(path, &error));
        QVERIFY2(error.startsWith(path + QStringLiteral(":5:")), qPrintable(error));
        QVERIFY(error.contains(QLatin1String("conv2")));
        QCOMPARE(t.errors.size(), 1);
        QVERIFY(t.w.document()->schedule() == before);
        QCOMPARE(t.w.document()->undoStack()->count(), 0);
    }

    void timeloopZigZagAndStreamExports() {
        Window t;
        QVERIFY(t.open("resnet18"));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("timeloop"));
        QVERIFY(t.exchange->exportTimeloop(out));
        // The default schedule fuses nothing: one file per conv and fc layer.
        int expected = 0;
        for (const Layer& l : t.w.document()->network().layers())
            expected += l.type == LayerType::conv || l.type == LayerType::fc;
        QCOMPARE(expected, 21); // ResNet-18: 20 convolutions and the classifier
        const QStringList files = QDir(out).entryList({QStringLiteral("*.yaml")}, QDir::Files);
        QCOMPARE(files.size(), expected);
        const std::string one = test::readBytes(QDir(out).filePath(files.front()));
        QVERIFY(one.find("mapping") != std::string::npos);
        QVERIFY(one.find("permutation") != std::string::npos);

        QVERIFY(t.editAndWait([&] {
            t.w.document()->fuse({t.id("layer1.0.conv1"), t.id("layer1.0.conv2")});
        }));
        const QString stream = dir.filePath(QStringLiteral("stream"));
        QVERIFY(t.exchange->exportStream(stream));
        QVERIFY(QFile::exists(stream + QStringLiteral("/workload.onnx")));
        const YAML::Node s =
            YAML::LoadFile((stream + QStringLiteral("/mapping.yaml")).toStdString());
        bool fusedPair = false; // the two convolutions (and the first one's ReLU)
        for (const YAML::Node& g : s["fused_groups"])
            fusedPair = fusedPair || g["layers"].size() == 3;
        QVERIFY(fusedPair);
        QVERIFY(t.exchange->lastMessage().contains(QStringLiteral("Stream")));
        // ZigZag: the three files; the fused pair is named in the workload's header and the
        // status message counts the notes.
        const QString zz = dir.filePath(QStringLiteral("zigzag"));
        QVERIFY(t.exchange->exportZigZag(zz));
        for (const char* f : {"workload.yaml", "accelerator.yaml", "mapping.yaml"})
            QVERIFY2(QFile::exists(zz + QLatin1Char('/') + QLatin1String(f)), f);
        QVERIFY(test::readBytes(zz + QStringLiteral("/workload.yaml"))
                    .find("(layer1.0.conv1, layer1.0.conv2)") != std::string::npos);
        QVERIFY(t.exchange->lastMessage().contains(QStringLiteral("note")));
        // The fused layers are no longer exported to Timeloop.
        const QString out2 = dir.filePath(QStringLiteral("timeloop2"));
        QVERIFY(t.exchange->exportTimeloop(out2));
        QCOMPARE(QDir(out2).entryList({QStringLiteral("*.yaml")}, QDir::Files).size(),
                 expected - 2);
        QVERIFY(t.errors.isEmpty());

        // A network Stream cannot take: an error, nothing written.
        QVERIFY(t.open("mobilenetv2"));
        QString why;
        QVERIFY(!t.exchange->exportStream(dir.filePath(QStringLiteral("mb")), &why));
        QVERIFY2(why.contains(QStringLiteral("depthwise")), qPrintable(why));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("mb"))));
        QCOMPARE(t.errors.size(), 1);
    }

    // File ▸ Import Hardware of a ZigZag accelerator (14 × 12 PEs): one undo step, also for
    // the spatial partition drawn for the 32 × 16 array, which no longer fits and is redrawn
    // as equal strips; the notes say what the import mapped and left out. Undo restores both.
    void aZigZagAcceleratorIsImportedAsOneUndoStep() {
        Window t;
        QVERIFY(t.open("l2net"));
        Document* doc = t.w.document();
        QCOMPARE(doc->hardware().pe_array.cols, 32);
        QVERIFY(t.editAndWait([&] { doc->fuse({t.id("conv1"), t.id("conv2")}); }));
        const int gi = doc->schedule().groupOf(t.id("conv1"));
        FusionGroup g = doc->schedule().groups[size_t(gi)];
        QCOMPARE(g.layers.size(), size_t(2));
        g.partition.kind = PartitionKind::spatial;
        g.partition.subarrays = {{g.layers[0], {0, 0, 16, 16}}, {g.layers[1], {16, 0, 16, 16}}};
        QVERIFY(
            t.editAndWait([&] { QVERIFY(doc->setGroup(gi, g, QStringLiteral("split"), 0).ok); }));
        const Hardware hw0 = doc->hardware();
        const Schedule s0 = doc->schedule();
        const int steps = doc->undoStack()->count();

        const QString path = test::testData(QStringLiteral("zigzag/small_eyeriss.yaml"));
        QVERIFY(t.editAndWait([&] { QVERIFY(t.exchange->importHardware(path)); }));
        QVERIFY2(t.errors.isEmpty(), qPrintable(t.errors.join('\n')));
        QCOMPARE(doc->undoStack()->count(), steps + 1);
        QCOMPARE(doc->hardware().name, std::string("small_eyeriss"));
        QCOMPARE(doc->hardware().pe_array.cols, 14);
        QCOMPARE(doc->hardware().pe_array.rows, 12);
        QVERIFY(doc->schedule().groups[size_t(gi)].partition.subarrays.empty());
        QVERIFY(checkSchedule(doc->network(), doc->hardware(), doc->schedule()).empty());
        QCOMPARE(t.w.studio()->state().hardware.name, std::string("small_eyeriss"));
        const QStringList notes = t.exchange->hardwareImportNotes();
        QVERIFY(notes.size() > 1);
        QVERIFY2(notes.last().contains(QStringLiteral("did not fit the 14 × 12 PE array")),
                 qPrintable(notes.join('\n')));
        QVERIFY2(t.exchange->lastMessage().contains(QLatin1String("ZigZag accelerator")) &&
                     t.exchange->lastMessage().contains(QLatin1String("note")),
                 qPrintable(t.exchange->lastMessage()));
        QMessageBox* box = t.exchange->showHardwareImportNotes();
        QVERIFY(box);
        for (const QString& n : notes)
            QVERIFY2(box->informativeText().contains(n.toHtmlEscaped()), qPrintable(n));
        box->close();

        const EditHistory h = doc->history();
        QCOMPARE(h.steps.size(), size_t(steps + 1));
        QVERIFY(h.steps.back().hardware && *h.steps.back().hardware == doc->hardware());
        QVERIFY(h.steps.back().schedule && *h.steps.back().schedule == doc->schedule());
        QVERIFY(t.editAndWait([&] { doc->undoStack()->undo(); }));
        QVERIFY(doc->hardware() == hw0);
        QVERIFY(doc->schedule() == s0);
        QVERIFY(t.editAndWait([&] { doc->undoStack()->redo(); }));
        QCOMPARE(doc->hardware().name, std::string("small_eyeriss"));
    }

    // A ZigZag accelerator with a misspelt key, and a file that is not YAML: FILE:LINE:COLUMN
    // in a dialog, the document and its undo history untouched.
    void aBadHardwareFileChangesNothing() {
        Window t;
        QVERIFY(t.open("l2net"));
        Document* doc = t.w.document();
        const Hardware hw0 = doc->hardware();
        const Schedule s0 = doc->schedule();
        std::string text =
            test::readBytes(test::testData(QStringLiteral("zigzag/small_eyeriss.yaml")));
        const size_t at = text.find("    size: 1600");
        QVERIFY(at != std::string::npos);
        text.replace(at, 8, "    sise");
        const int line = int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1;
        QTemporaryDir dir;
        const QString misspelt = dir.filePath(QStringLiteral("misspelt.yaml"));
        const QString broken = dir.filePath(QStringLiteral("broken.hw.yaml"));
        QVERIFY(test::writeBytes(misspelt, text));
        QVERIFY(test::writeBytes(broken, "format: layerfuse/hardware@1\nname: [unclosed\n"));
        QString error;
        QVERIFY(!t.exchange->importHardware(misspelt, &error));
        QVERIFY2(error.startsWith(QStringLiteral("%1:%2:5: ").arg(misspelt).arg(line)),
                 qPrintable(error));
        QVERIFY(error.contains(QLatin1String("sise")));
        QVERIFY(!t.exchange->importHardware(broken, &error));
        QVERIFY2(QRegularExpression(
                     QStringLiteral("^%1:\\d+:\\d+: ").arg(QRegularExpression::escape(broken)))
                     .match(error)
                     .hasMatch(),
                 qPrintable(error));
        QCOMPARE(t.errors.size(), 2);
        QVERIFY(doc->hardware() == hw0);
        QVERIFY(doc->schedule() == s0);
        QCOMPARE(doc->undoStack()->count(), 0);
    }
};

QTEST_MAIN(TestExchange)
#include "tst_exchange.moc"
