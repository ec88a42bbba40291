// Help ▸ Reproduce the Papers on a studio without a window (controllers/repro_controller.h):
// the report computed on the worker thread reaches the view, Open in Studio loads a row's
// network, hardware and schedule as a new document (one that evaluates), a row without a
// target or an answer of Cancel to "save changes?" changes nothing, and the report is saved
// as HTML with its plots.
#include "controllers/repro_controller.h"
#include "repro/repro_report_view.h"
#include "search/search_task.h"
#include "studio/studio.h"
#include "studio_window.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace lf;

namespace {

const QString kSpatialRow = QStringLiteral("hwff.table5.spatial-energy-vgg16-e");

struct Bare {
    Studio studio;
    QStringList errors;
    ReproController repro{&studio};
    explicit Bare(QMessageBox::StandardButton answer = QMessageBox::Discard) {
        test::quietStudio(&studio, &errors, answer);
    }
    bool reproduceHwff() {
        return repro.reproduce({repro::Paper::hwff}) && repro.task()->waitForFinished(120000) &&
               repro.view()->reports().size() == 1;
    }
};

} // namespace

class TstReproController : public QObject {
    Q_OBJECT
  private slots:
    void reportReachesTheView() {
        Bare b;
        QVERIFY(b.reproduceHwff());
        const auto& report = b.repro.view()->reports().front();
        QCOMPARE(report.paper, repro::Paper::hwff);
        QVERIFY(report.rows.size() >= 20);
        QVERIFY(b.repro.view()->visibleRowCount() == int(report.rows.size()));
        QVERIFY(b.errors.isEmpty());
    }

    void openInStudioLoadsTheRowsSetup() {
        Bare b;
        QVERIFY(b.reproduceHwff());
        QVERIFY(test::editAndWait(&b.studio, [&] { QVERIFY(b.repro.openRow(kSpatialRow)); }));
        const Document* doc = b.studio.document();
        QCOMPARE(doc->network().name(), std::string("VGG16-E"));
        int spatial = 0;
        for (const FusionGroup& g : doc->schedule().groups)
            if (g.layers.size() > 1 && g.partition.kind == PartitionKind::spatial) ++spatial;
        QCOMPARE(spatial, 6);
        QVERIFY(!doc->isModified());
        QVERIFY(b.errors.isEmpty());
    }

    void rowsWithoutTargetOrCancelledChangeNothing() {
        Bare b(QMessageBox::Cancel);
        QVERIFY(b.reproduceHwff());
        QVERIFY(!b.repro.openRow(QStringLiteral("hwff.tables3-4.presets"))); // no target
        QVERIFY(!b.repro.openRow(QStringLiteral("no.such.row")));
        const std::string before = b.studio.document()->network().name();
        b.studio.document()->markModified();
        QVERIFY(!b.repro.openRow(kSpatialRow)); // "save changes?" answered Cancel
        QCOMPARE(b.studio.document()->network().name(), before);
        QVERIFY(b.studio.document()->isModified());
    }

    void reportSavesAsHtmlWithPlots() {
        Bare b;
        QVERIFY(b.reproduceHwff());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.html"));
        QVERIFY(b.repro.saveReport(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray html = f.readAll();
        QVERIFY(html.contains("HW-Flow-Fusion"));
        QVERIFY(html.contains("<svg") || html.contains("data:image/png"));
        QVERIFY(!b.repro.saveReport(dir.filePath(QStringLiteral("missing/dir/report.html"))));
        QCOMPARE(b.errors.size(), 1);
    }
};

QTEST_MAIN(TstReproController)
#include "tst_repro_controller.moc"
