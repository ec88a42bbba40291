// File ▸ Import ONNX in the studio (offscreen): a real third-party model with its dynamic
// input size asked for, a truncated model and a file that is no model (error, document
// kept), unsupported operators declined or loaded as opaque layers, a fixed-size model; the
// progress dialog never covers the shape question; the import report afterwards.
#include "controllers/exchange_controller.h"
#include "controllers/onnx_import_flow.h"
#include "net_text.h"
#include "onnx_test_helpers.h"
#include "studio_window.h"
#include "test_support.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFile>
#include <QInputDialog>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace lf;

namespace {

// The studio window and its ONNX import flow.
struct Window : test::StudioWindow {
    OnnxImportFlow* flow = w.exchange()->onnxImport();
    // Imports `path`; returns the finished() arguments (ok, message).
    std::pair<bool, QString> import(const QString& path) {
        QSignalSpy finished(flow, &OnnxImportFlow::finished);
        if (!flow->start(path)) return {false, QStringLiteral("not started")};
        if (!finished.wait(30000)) return {false, QStringLiteral("timeout")};
        return {finished.front()[0].toBool(), finished.front()[1].toString()};
    }
};

// conv → Hardmax → com.example.Foo → conv on a fixed 1×3×8×8 input.
test::OnnxModelBuilder unsupportedModel() {
    test::OnnxModelBuilder b(13);
    b.input("x", {1, 3, 8, 8});
    test::conv(b, "c1", "x", "a", {8, 3, 3, 3});
    b.node("Hardmax", {"a"}, {"h"}, "hm");
    b.valueInfo("h", {1, 8, 6, 6});
    auto& foo = b.node("Foo", {"h"}, {"f"}, "foo");
    foo.set_domain("com.example");
    test::conv(b, "c2", "f", "y", {4, 8, 1, 1});
    b.output("y");
    return b;
}

} // namespace

class TestOnnxImportFlow : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY(test::kFixedDpi);
        QStandardPaths::setTestModeEnabled(true);
    }

    void importsARealModelWithTheInputShapeAsked() {
        Window t;
        // The PaddleOCR classifier declares its input N × 3 × H × W with N, H, W dynamic
        // (tests/data/onnx/README.md): the dialog gets C = 3 from the model, 224 for the rest.
        std::vector<int64_t> suggested;
        bool dynamic = false;
        t.flow->inputShapePrompt = [&](const OnnxModelInfo& info, const std::vector<int64_t>& s,
                                       const QString&) -> std::optional<std::vector<int64_t>> {
            suggested = s;
            dynamic = info.has_dynamic_input;
            return std::vector<int64_t>{3, 48, 192};
        };
        QSignalSpy published(t.w.studio(), &Studio::statePublished);
        const auto [ok, message] =
            t.import(test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(dynamic);
        QCOMPARE(suggested, (std::vector<int64_t>{3, 224, 224}));
        const Network& net = t.w.document()->network();
        QCOMPARE(net.size(), 82); // the input and 81 layers (MobileNetV3-small 0.35, ClsHead)
        QCOMPARE(net.layer(net.inputIds().front()).out, (Shape{3, 48, 192}));
        QVERIFY(published.count() > 0 || published.wait(20000));
        QVERIFY(t.w.studio()->state().metrics);
        QCOMPARE(t.w.document()->undoStack()->count(), 0); // a new document
        QVERIFY(!t.w.isWindowModified());
        QVERIFY(t.errors.isEmpty());
        QVERIFY2(message.contains(QLatin1String(": 82 layer")), qPrintable(message));
    }

    void cancellingTheShapeQuestionChangesNothing() {
        Window t;
        QVERIFY(t.open("l2net"));
        t.flow->inputShapePrompt = [](const OnnxModelInfo&, const std::vector<int64_t>&,
                                      const QString&) {
            return std::optional<std::vector<int64_t>>();
        };
        const auto [ok, message] =
            t.import(test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY(!ok);
        QVERIFY(message.isEmpty()); // cancelled, not failed
        QVERIFY(t.errors.isEmpty());
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
    }

    void aTruncatedModelShowsAnErrorAndKeepsTheDocument() {
        Window t;
        QVERIFY(t.open("l2net"));
        t.w.document()->fuse({t.id("conv1"), t.id("conv2")});
        const Schedule before = t.w.document()->schedule();
        QTemporaryDir dir;
        // A valid model cut in the middle of its weights.
        const std::string model = test::readBytes(
            test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY(model.size() > 100000);
        const QString path = dir.filePath(QStringLiteral("truncated.onnx"));
        QVERIFY(test::writeBytes(path, model.substr(0, model.size() / 2)));
        bool asked = false;
        t.flow->inputShapePrompt = [&](const OnnxModelInfo&, const std::vector<int64_t>& s,
                                       const QString&) -> std::optional<std::vector<int64_t>> {
            asked = true;
            return s;
        };
        const auto [ok, message] = t.import(path);
        QVERIFY(!ok);
        QVERIFY(!asked); // refused while reading, before any question
        QCOMPARE(t.errors.size(), 1);
        QCOMPARE(t.errors.front(), message);
        QVERIFY2(message.startsWith(path + QLatin1Char(':')), qPrintable(message));
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
        QVERIFY(t.w.document()->schedule() == before);
        QCOMPARE(t.w.document()->undoStack()->count(), 1);
    }

    void aFileThatIsNoModelIsRefused() {
        Window t;
        QVERIFY(t.open("l2net"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("garbage.onnx"));
        QVERIFY(test::writeBytes(path, "this is not a protobuf model\n"));
        const auto [ok, message] = t.import(path);
        QVERIFY(!ok);
        QCOMPARE(t.errors.size(), 1);
        QVERIFY2(message.startsWith(path + QLatin1Char(':')), qPrintable(message));
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));
    }

    void unsupportedOperatorsAreListedAndLoadedAsOpaqueOnRequest() {
        Window t;
        QVERIFY(t.open("l2net"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("custom_ops.onnx"));
        QVERIFY(test::writeBytes(path, unsupportedModel().bytes()));
        // A fixed-size model: the shape question comes pre-filled with its own size.
        std::vector<int64_t> suggested;
        t.flow->inputShapePrompt = [&](const OnnxModelInfo& info, const std::vector<int64_t>& s,
                                       const QString&) -> std::optional<std::vector<int64_t>> {
            suggested = s;
            return info.has_dynamic_input ? std::nullopt : std::optional(s);
        };
        std::vector<OnnxUnsupportedNode> listed;
        t.flow->loadOpaquePrompt = [&](const QString& file,
                                       const std::vector<OnnxUnsupportedNode>& nodes) {
            listed = nodes;
            return file != QLatin1String("custom_ops.onnx"); // declined
        };
        auto [ok, message] = t.import(path);
        QVERIFY(!ok);
        QVERIFY(message.isEmpty()); // declined, not an error
        QCOMPARE(suggested, (std::vector<int64_t>{3, 8, 8}));
        QCOMPARE(listed.size(), size_t(2));
        QCOMPARE(listed[0].op_type, std::string("Hardmax"));
        QCOMPARE(listed[0].node, std::string("hm"));
        QCOMPARE(listed[1].op_type, std::string("com.example.Foo"));
        QCOMPARE(listed[1].node, std::string("foo"));
        QVERIFY(t.errors.isEmpty());
        QCOMPARE(t.w.document()->network().name(), std::string("L2Net"));

        t.flow->loadOpaquePrompt = [](const QString&, const std::vector<OnnxUnsupportedNode>&) {
            return true;
        };
        t.flow->askShapeOnlyWhenDynamic = true;
        suggested.clear();
        std::tie(ok, message) = t.import(path);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(suggested.empty()); // not asked: no dimension is dynamic
        const Network& net = t.w.document()->network();
        QCOMPARE(net.size(), 5);
        QCOMPARE(test::countType(net, LayerType::opaque), 2);
        QCOMPARE(test::L(net, "c2").out, (Shape{4, 6, 6}));
        QVERIFY(message.contains(QLatin1String("2 opaque")));
        // The report lists what became of the unsupported nodes.
        QVERIFY(t.flow->reportText().contains(QLatin1String("node 'foo'")));
    }

    void theProgressDialogNeverCoversTheShapeQuestion() {
        // Reading the model ends before the progress dialog's delay; its timer must not bring
        // the dialog up later, window-modal over the Input Shape dialog (which then ignored
        // every click but the progress dialog's Cancel).
        Window t;
        QVERIFY(t.open("l2net"));
        bool asked = false, shapeModal = false, progressShown = false;
        QTimer poll;
        poll.setInterval(20);
        QObject::connect(&poll, &QTimer::timeout, [&] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                if (w->objectName() != QLatin1String("onnxInputShapeDialog") || !w->isVisible())
                    continue;
                poll.stop();
                asked = true;
                QTest::qWait(900); // well past the progress dialog's 400 ms delay
                for (QWidget* other : QApplication::topLevelWidgets())
                    if (qobject_cast<QProgressDialog*>(other) && other->isVisible())
                        progressShown = true;
                shapeModal = QApplication::activeModalWidget() == w;
                static_cast<QDialog*>(w)->accept();
                return;
            }
        });
        poll.start();
        const auto [ok, message] =
            t.import(test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY(asked);
        QVERIFY(!progressShown);
        QVERIFY(shapeModal);
        QVERIFY2(ok, qPrintable(message));
    }

    void openingAModelAsksAgainForAShapeThatDoesNotRead() {
        // File ▸ Open (and the command line) on a model with a dynamic input size: a typo in
        // the shape brings the question back with what is wrong and the text as typed, instead
        // of refusing the file.
        Window t;
        t.w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&t.w));
        QStringList labels, shown;
        QTimer poll;
        poll.setInterval(20);
        QObject::connect(&poll, &QTimer::timeout, [&] {
            auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
            if (!dialog || !dialog->isVisible()) return;
            labels << dialog->labelText();
            shown << dialog->textValue();
            dialog->setTextValue(labels.size() == 1 ? QStringLiteral("3,abc")
                                                    : QStringLiteral("3,48,192"));
            dialog->accept();
            if (labels.size() == 2) poll.stop();
        });
        poll.start();
        QVERIFY(
            t.openFile(test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx"))));
        QCOMPARE(labels.size(), 2);
        QVERIFY2(labels[1].contains(QLatin1String("'abc' is not a positive integer")),
                 qPrintable(labels[1]));
        QCOMPARE(shown, (QStringList{QStringLiteral("3,224,224"), QStringLiteral("3,abc")}));
        QVERIFY2(t.errors.isEmpty(), qPrintable(t.errors.join('\n')));
        const Network& net = t.w.document()->network();
        QCOMPARE(net.layer(net.inputIds().front()).out, (Shape{3, 48, 192}));
    }

    void theImportReportIsShownAfterAnImport() {
        Window t;
        QAction* report = t.w.action(QStringLiteral("onnxReport"));
        QVERIFY(report);
        QVERIFY(!report->isEnabled()); // nothing imported yet
        t.flow->inputShapePrompt = [](const OnnxModelInfo&, const std::vector<int64_t>&,
                                      const QString&) {
            return std::optional(std::vector<int64_t>{3, 48, 192});
        };
        const auto [ok, message] =
            t.import(test::testData(QStringLiteral("onnx/ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(report->isEnabled());
        report->trigger();
        auto* dialog = t.w.findChild<QDialog*>(QStringLiteral("onnxReportDialog"));
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(!dialog->isModal()); // it may stay open beside the graph
        const QString text =
            dialog->findChild<QPlainTextEdit*>(QStringLiteral("onnxReportText"))->toPlainText();
        QVERIFY(text.startsWith(QLatin1String("Import report for ")));
        QVERIFY(text.contains(QLatin1String("ch_ppocr_mobile_v2.0_cls_infer.onnx")));
        QVERIFY(text.contains(QLatin1String("network: 82 layers")));
        QVERIFY(text.contains(QLatin1String("folded into layers: ")));
        dialog->close();
    }
};

QTEST_MAIN(TestOnnxImportFlow)
#include "tst_onnx_import_flow.moc"
