// Document, its undoable fusion edits and the background Evaluator (no window).
#include "models/evaluate.h"
#include "network/dims.h"
#include "studio/document.h"
#include "studio/evaluator.h"
#include "studio_metatypes.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

using namespace lf;

namespace {

// A residual pattern: a feeds b and c, b feeds c. Fusing {a, c} leaves through b and comes
// back: Optimus ISValid calls that a cycle.
const char* kSkipNet = R"(format: layerfuse/network@1
name: Skip
inputs:
  - {name: image, channels: 8, height: 16, width: 16}
layers:
  - {name: a, type: conv, inputs: [image], out_channels: 8, kernel: 3, padding: [1, 1]}
  - {name: b, type: conv, inputs: [a], out_channels: 8, kernel: 3, padding: [1, 1]}
  - {name: c, type: add, inputs: [a, b]}
)";

struct Session {
    Document doc;
    Evaluator eval;
    Session(const char* network, const char* hardware = "hwff-config-1") {
        QObject::connect(&doc, &Document::changed, &eval, [this] { eval.request(doc.state()); });
        QObject::connect(&doc, &Document::documentReset, &eval,
                         [this] { eval.request(doc.state()); });
        Network net = test::bundledNetwork(network);
        Hardware hw = test::bundledHardware(hardware);
        Schedule s = defaultSchedule(net, hw);
        doc.reset(net, hw, s);
    }
    Session(Network net, Hardware hw) {
        QObject::connect(&doc, &Document::changed, &eval, [this] { eval.request(doc.state()); });
        Schedule s = defaultSchedule(net, hw);
        doc.reset(net, hw, s);
        eval.request(doc.state());
    }
    LayerId id(const char* name) const { return doc.network().find(name); }
    // Waits for the metrics of the document as it is now.
    std::shared_ptr<const Metrics> metrics() {
        eval.waitForIdle();
        const StudioState& s = eval.latest();
        if (!s.metrics || !(s.schedule == doc.schedule()) || !(s.hardware == doc.hardware()))
            return nullptr;
        return s.metrics;
    }
    const FusionGroup& groupOf(const char* layer) const {
        return doc.schedule().groups[size_t(doc.schedule().groupOf(id(layer)))];
    }
};

} // namespace

class TestDocument : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        registerStudioMetaTypes();
    }

    void fuseMakesOneGroupAndUndoRestores() {
        Session st("l3net");
        const Schedule before = st.doc.schedule();
        QCOMPARE(before.groups.size(), size_t(3));
        const auto r = st.doc.fuse({st.id("conv1"), st.id("conv2")});
        QVERIFY2(r.ok, qPrintable(r.message));
        QCOMPARE(st.doc.schedule().groups.size(), size_t(2));
        const FusionGroup& g = st.groupOf("conv1");
        QCOMPARE(g.layers, (std::vector<LayerId>{st.id("conv1"), st.id("conv2")}));
        QCOMPARE(QString::fromStdString(g.name), QStringLiteral("g0"));
        QCOMPARE(r.focusGroup, QStringLiteral("g0"));
        QCOMPARE(st.doc.undoStack()->undoText(), QStringLiteral("Fuse 2 layers"));
        QVERIFY(st.doc.isModified());
        // conv2 is fed inside the group: it computes all 4 input channels at once (Ti = Di).
        QCOMPARE(st.doc.schedule().layers[size_t(st.id("conv2"))].T(Dim::i), int64_t(4));
        QVERIFY(checkSchedule(st.doc.network(), st.doc.hardware(), st.doc.schedule()).empty());
        const Schedule fused = st.doc.schedule();
        st.doc.undoStack()->undo();
        QVERIFY(st.doc.schedule() == before);
        QVERIFY(!st.doc.isModified());
        st.doc.undoStack()->redo();
        QVERIFY(st.doc.schedule() == fused);
    }

    void disconnectedFusionIsRefused() {
        Session st("l3net");
        QSignalSpy refused(&st.doc, &Document::editRefused);
        const Schedule before = st.doc.schedule();
        const auto r = st.doc.fuse({st.id("conv1"), st.id("conv3")});
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QLatin1String("not connected")), qPrintable(r.message));
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.at(0).at(0).toString(), r.message);
        QVERIFY(st.doc.schedule() == before);
        QCOMPARE(st.doc.undoStack()->count(), 0);
    }

    void cyclicFusionIsRefused() {
        Session st(test::networkFromYaml(kSkipNet), test::bundledHardware("hwff-config-1"));
        const auto r = st.doc.fuse({st.id("a"), st.id("c")});
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QLatin1String("cycle")) &&
                     r.message.contains(QLatin1String("through b")),
                 qPrintable(r.message));
        QCOMPARE(st.doc.undoStack()->count(), 0);
        // The whole block is fine.
        QVERIFY(st.doc.fuse({st.id("a"), st.id("b"), st.id("c")}).ok);
    }

    void splitInsideAResidualBlock() {
        Session st(test::networkFromYaml(kSkipNet), test::bundledHardware("hwff-config-1"));
        QVERIFY(st.doc.fuse({st.id("a"), st.id("b"), st.id("c")}).ok);
        const Schedule before = st.doc.schedule();
        const auto r = st.doc.splitAt(st.id("b"));
        // Split before b: {a} and {b, c} — both valid.
        QVERIFY2(r.ok, qPrintable(r.message));
        st.doc.undoStack()->undo();
        QVERIFY(st.doc.schedule() == before);
    }

    void splitUngroupMergeMove() {
        Session st("l3net");
        QVERIFY(st.doc.fuse({st.id("conv1"), st.id("conv2"), st.id("conv3")}).ok);
        QCOMPARE(st.doc.schedule().groups.size(), size_t(1));

        auto first = st.doc.splitAt(st.id("conv1"));
        QVERIFY(!first.ok);
        QVERIFY2(first.message.contains(QLatin1String("first layer")), qPrintable(first.message));

        QVERIFY(st.doc.splitAt(st.id("conv2")).ok);
        QCOMPARE(st.doc.schedule().groups.size(), size_t(2));
        QCOMPARE(st.groupOf("conv1").layers.size(), size_t(1));
        QCOMPARE(st.groupOf("conv1").name, std::string("conv1")); // back to its implicit group
        QCOMPARE(st.groupOf("conv2").layers,
                 (std::vector<LayerId>{st.id("conv2"), st.id("conv3")}));
        QVERIFY(st.doc.undoStack()->undoText().startsWith(QLatin1String("Split g0 at conv2")));

        const int g23 = st.doc.schedule().groupOf(st.id("conv2"));
        QVERIFY(st.doc.ungroup(g23).ok);
        QCOMPARE(st.doc.schedule().groups.size(), size_t(3));
        QVERIFY(!st.doc.ungroup(0).ok); // a single layer

        QVERIFY(st.doc
                    .mergeGroups({st.doc.schedule().groupOf(st.id("conv1")),
                                  st.doc.schedule().groupOf(st.id("conv2"))})
                    .ok);
        QCOMPARE(st.groupOf("conv1").layers,
                 (std::vector<LayerId>{st.id("conv1"), st.id("conv2")}));
        QCOMPARE(st.doc.undoStack()->undoText(), QStringLiteral("Merge 2 groups"));

        QVERIFY(st.doc.moveLayer(st.id("conv3"), st.doc.schedule().groupOf(st.id("conv1"))).ok);
        QCOMPARE(st.doc.schedule().groups.size(), size_t(1));
        QCOMPARE(st.doc.undoStack()->undoText(),
                 QStringLiteral("Move conv3 to ") +
                     QString::fromStdString(st.groupOf("conv1").name));
        QVERIFY(!st.doc.moveLayer(st.id("conv2"), -1).ok); // no such group
        for (int k = 0; k < 5; ++k)
            st.doc.undoStack()->undo();
        QCOMPARE(st.doc.schedule().groups.size(), size_t(3));
        QVERIFY(!st.doc.isModified());
    }

    void fusionChangesMetricsAndUndoRestoresThem() {
        Session st("l2net");
        auto before = st.metrics();
        QVERIFY(before);
        // ConvFusion §III/ConvFusion §IV: unfused, each layer writes its whole output (conv1
        // 18x18x4 = 1296, conv2 16x16x4 = 1024 words); fused, conv1's output stays on chip.
        QCOMPARE(before->totals.dram.output, int64_t(1296 + 1024));
        QCOMPARE(before->totals.macs, int64_t(18 * 18 * 4 * 3 * 9 + 16 * 16 * 4 * 4 * 9));
        QVERIFY(st.doc.fuse({st.id("conv1"), st.id("conv2")}).ok);
        auto fused = st.metrics();
        QVERIFY(fused);
        QCOMPARE(fused->groups.size(), size_t(1));
        QCOMPARE(fused->totals.dram.output, int64_t(1024));
        st.doc.undoStack()->undo();
        auto undone = st.metrics();
        QVERIFY(undone);
        QCOMPARE(undone->groups.size(), size_t(2));
        QCOMPARE(undone->totals.dram.output, int64_t(1296 + 1024));
    }

    void overCapacityGroupsAreAllowedButFlagged() {
        Hardware tiny = test::bundledHardware("hwff-config-1");
        tiny.buffer.bytes = 256;
        Session st(test::bundledNetwork("l3net"), tiny);
        const auto r = st.doc.fuse({st.id("conv1"), st.id("conv2"), st.id("conv3")});
        QVERIFY2(r.ok, qPrintable(r.message));
        auto m = st.metrics();
        QVERIFY(m);
        QCOMPARE(m->groups.size(), size_t(1));
        QVERIFY(m->groups[0].buffer_bytes > 256);
        QVERIFY(!m->groups[0].fits);
    }

    void hardwareEditReevaluatesAndMerges() {
        Session st("l2net");
        QVERIFY(st.metrics());
        const Hardware original = st.doc.hardware();
        QSignalSpy ready(&st.eval, &Evaluator::stateReady);
        Hardware hw = original;
        hw.buffer.bytes = 1 << 20;
        QVERIFY(st.doc.setHardware(hw, QStringLiteral("Buffer size"), 77).ok);
        QVERIFY(ready.wait(5000));
        QCOMPARE(st.eval.latest().metrics->totals.buffer_capacity_bytes, int64_t(1) << 20);
        QVERIFY(st.eval.latest().previous);
        QCOMPARE(st.eval.latest().previous->totals.buffer_capacity_bytes, original.buffer.bytes);
        // Scrubbing the same field merges into one step ...
        hw.buffer.bytes = 2 << 20;
        QVERIFY(st.doc.setHardware(hw, QStringLiteral("Buffer size"), 77).ok);
        QCOMPARE(st.doc.undoStack()->count(), 1);
        // ... another field is another step; a scrub back to the start leaves nothing.
        hw.frequency_mhz = 400;
        QVERIFY(st.doc.setHardware(hw, QStringLiteral("Frequency"), 78).ok);
        QCOMPARE(st.doc.undoStack()->count(), 2);
        hw.frequency_mhz = original.frequency_mhz;
        QVERIFY(st.doc.setHardware(hw, QStringLiteral("Frequency"), 78).ok);
        QCOMPARE(st.doc.undoStack()->count(), 1);
        st.doc.undoStack()->undo();
        QVERIFY(st.doc.hardware() == original);
        // An invalid hardware is refused with the validator's reason.
        Hardware bad = original;
        bad.pe_array.cols = 0;
        const auto r = st.doc.setHardware(bad, {}, 0);
        QVERIFY(!r.ok);
        QVERIFY(!r.message.isEmpty());
    }

    void illegalLayerScheduleIsRefused() {
        Session st("l2net");
        LayerSchedule ls = st.doc.schedule().layers[size_t(st.id("conv2"))];
        ls.tile[size_t(Dim::z)] = 0;
        const auto r = st.doc.setLayerSchedule(st.id("conv2"), ls, {}, 0);
        QVERIFY(!r.ok);
        QVERIFY2(r.message.contains(QLatin1String("tile Tz = 0")), qPrintable(r.message));
        ls.tile[size_t(Dim::z)] = 2;
        QVERIFY(st.doc.setLayerSchedule(st.id("conv2"), ls, QStringLiteral("Tz"), 5).ok);
        QCOMPARE(st.doc.schedule().layers[size_t(st.id("conv2"))].T(Dim::z), int64_t(2));
        QVERIFY(st.doc.schedule().explicit_layer[size_t(st.id("conv2"))]);
    }

    void latestRequestWins() {
        Session st("l2net");
        QVERIFY(st.metrics());
        QSignalSpy ready(&st.eval, &Evaluator::stateReady);
        StudioState s = st.doc.state();
        for (int64_t bytes : {1000, 2000, 3000}) {
            s.hardware.buffer.bytes = bytes;
            st.eval.request(s);
        }
        st.eval.waitForIdle();
        // The first request was already running: its result is dropped; the second was
        // replaced by the third before it started.
        QCOMPARE(ready.count(), 1);
        QCOMPARE(st.eval.latest().metrics->totals.buffer_capacity_bytes, int64_t(3000));
        QCOMPARE(st.eval.latest().hardware.buffer.bytes, int64_t(3000));
    }
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
