// Project files (.lfproj): save → load round trips and bad files reported FILE:LINE:COLUMN.
#include "edits/schedule_edits.h"
#include "io/project_yaml.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace lf;

namespace {

Project sampleProject() {
    Project p;
    p.network = test::bundledNetwork("resnet18");
    p.hardware = test::bundledHardware("hwff-config-1");
    p.schedule = defaultSchedule(p.network, p.hardware);
    const auto id = [&](const char* n) { return p.network.find(n); };
    ScheduleEdit e = fuseLayers(p.network, p.hardware, p.schedule,
                                {id("layer1.0.conv1"), id("layer1.0.conv2"), id("layer1.0.add")});
    if (!e.ok) throw std::runtime_error(e.reason);
    p.schedule = e.schedule;
    FusionGroup& g = p.schedule.groups[size_t(p.schedule.groupOf(id("layer1.0.conv1")))];
    g.strategy = Strategy::reuse;
    g.weights_resident = true;
    g.partition.kind = PartitionKind::temporal;
    g.partition.rf_share[id("layer1.0.conv1")] = RfShare{0.25, 0.5, 0.5};
    p.schedule.layers[size_t(id("conv1"))].tile[size_t(Dim::z)] = 16;
    p.schedule.explicit_layer[size_t(id("conv1"))] = 1;
    p.view.zoom = 0.75;
    p.view.center = std::make_pair(120.5, -33.0);
    p.view.color_by = "energy";
    p.view.selected_group = g.name;
    p.view.selected_layers = {"layer1.0.conv1", "layer1.0.conv2", "layer1.0.add"};
    p.view.dock_state = "AAAA/wAAAAD9AAAAAg==";
    return p;
}

// Writes `text` to a file in `dir` and loads it as a project.
Result<Project> loadText(const QTemporaryDir& dir, const std::string& text,
                         QString* path = nullptr) {
    const QString file = dir.filePath(QStringLiteral("bad.lfproj"));
    QFile f(file);
    f.open(QIODevice::WriteOnly);
    f.write(QByteArray::fromStdString(text));
    f.close();
    if (path) *path = file;
    return loadProjectFile(file.toStdString());
}

} // namespace

class TestProjectYaml : public QObject {
    Q_OBJECT
  private slots:
    void roundTripIsIdentical() {
        const Project p = sampleProject();
        const std::string text = writeProjectYaml(p);
        QVERIFY(text.rfind("format: layerfuse/project@1\n", 0) == 0);
        auto back = readProjectYaml(text, "mem.lfproj");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QVERIFY(back->network == p.network);
        QVERIFY(back->hardware == p.hardware);
        QVERIFY(back->schedule.groups == p.schedule.groups);
        QVERIFY(back->schedule.layers == p.schedule.layers);
        QVERIFY(back->schedule.explicit_layer == p.schedule.explicit_layer);
        QVERIFY(back->view == p.view);
        QCOMPARE(writeProjectYaml(*back), text);
    }

    void bundledReferenceRoundTrips() {
        Project p = sampleProject();
        p.network_ref = NetworkRef::bundled;
        p.network_source = "resnet18";
        const std::string text = writeProjectYaml(p);
        QVERIFY(text.find("bundled: resnet18") != std::string::npos);
        QVERIFY(text.find("layers:\n  - name: conv1") == std::string::npos); // not inline
        auto back = readProjectYaml(text, "mem.lfproj");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QVERIFY(back->network == p.network);
        QVERIFY(back->schedule.groups == p.schedule.groups);
        QCOMPARE(writeProjectYaml(*back), text);
    }

    void fileReferenceIsRelativeToTheProject() {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath(QStringLiteral("nets")));
        QFile net(dir.filePath(QStringLiteral("nets/tiny.net.yaml")));
        QVERIFY(net.open(QIODevice::WriteOnly));
        net.write("format: layerfuse/network@1\nname: Tiny\ninputs:\n  - {name: x, channels: 3, "
                  "height: 8, width: 8}\n"
                  "layers:\n  - {name: c1, type: conv, inputs: [x], out_channels: 4, kernel: 3}\n");
        net.close();
        const std::string text =
            "format: layerfuse/project@1\nnetwork: {file: nets/tiny.net.yaml}\n"
            "hardware: {name: h}\n";
        auto p = loadText(dir, text);
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().toString().c_str());
        QCOMPARE(p->network.name(), std::string("Tiny"));
        QCOMPARE(p->network_ref, NetworkRef::file);
        QCOMPARE(p->schedule.groups.size(), size_t(1)); // default schedule: one layer, one group
    }

    void badFilesReportWhere_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        const QString hw = QStringLiteral("hardware: {name: h}\n");
        const QString inlineNet = QStringLiteral(
            "network:\n  format: layerfuse/network@1\n  name: T\n  inputs:\n    - {name: x, "
            "channels: 3, height: 8, width: 8}\n"
            "  layers:\n    - {name: c1, type: conv, inputs: [x], out_channels: 4, kernel: 3}\n");
        QTest::newRow("newer major")
            << QStringLiteral("format: layerfuse/project@2\n") << 1 << 9 << QStringLiteral("newer");
        QTest::newRow("other kind") << QStringLiteral("format: layerfuse/network@1\n") << 1 << 9
                                    << QStringLiteral("project");
        QTest::newRow("unknown key") << QStringLiteral("format: layerfuse/project@1\n") +
                                            inlineNet + hw + QStringLiteral("colour: red\n")
                                     << 10 << 1 << QStringLiteral("unknown key 'colour'");
        QTest::newRow("no hardware") << QStringLiteral("format: layerfuse/project@1\n") + inlineNet
                                     << 1 << 1 << QStringLiteral("hardware");
        QTest::newRow("layer input unknown")
            << QStringLiteral(
                   "format: layerfuse/project@1\nnetwork:\n  format: layerfuse/network@1\n  name: "
                   "T\n  inputs:\n"
                   "    - {name: x, channels: 3, height: 8, width: 8}\n  layers:\n"
                   "    - {name: c1, type: conv, inputs: [y], out_channels: 4, kernel: 3}\n") +
                   hw
            << 8 << 0 << QStringLiteral("'y'");
        QTest::newRow("unknown bundled")
            << QStringLiteral("format: layerfuse/project@1\nnetwork: {bundled: nosuchnet}\n") + hw
            << 2 << 20 << QStringLiteral("no bundled network");
        QTest::newRow("hash mismatch")
            << QStringLiteral(
                   "format: layerfuse/project@1\nnetwork: {bundled: l2net, sha256: 0123}\n") +
                   hw
            << 2 << 35 << QStringLiteral("has changed");
        QTest::newRow("group names unknown layer")
            << QStringLiteral("format: layerfuse/project@1\n") + inlineNet + hw +
                   QStringLiteral("schedule:\n  groups:\n    - {name: g0, layers: [c1, c9]}\n")
            << 12 << 31 << QStringLiteral("c9");
        QTest::newRow("bad zoom") << QStringLiteral("format: layerfuse/project@1\n") + inlineNet +
                                         hw + QStringLiteral("view: {zoom: -1}\n")
                                  << 10 << 14 << QStringLiteral("zoom");
        QTest::newRow("selected layer unknown")
            << QStringLiteral("format: layerfuse/project@1\n") + inlineNet + hw +
                   QStringLiteral("view: {selected_layers: [c1, c2]}\n")
            << 10 << 30 << QStringLiteral("no layer named 'c2'");
        QTest::newRow("not yaml") << QStringLiteral("format: layerfuse/project@1\nnetwork: [\n")
                                  << -1 << 0 << QString();
    }

    void badFilesReportWhere() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString path;
        auto p = loadText(dir, text.toStdString(), &path);
        QVERIFY(!p.ok());
        const Error& e = p.error();
        const QString shown = QString::fromStdString(e.toString());
        QVERIFY2(shown.startsWith(path + QLatin1Char(':')), qPrintable(shown));
        if (line > 0)
            QCOMPARE(e.line, line);
        else
            QVERIFY(e.line > 0);
        if (column > 0) QCOMPARE(e.column, column);
        QVERIFY2(shown.contains(message), qPrintable(shown));
    }
};

QTEST_GUILESS_MAIN(TestProjectYaml)
#include "tst_project_yaml.moc"
