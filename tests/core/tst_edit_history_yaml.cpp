// Edit history files (layerfuse/history@1): every state of a history comes back exactly
// after write → read, and histories of another network or with impossible indices are
// refused FILE:LINE:COLUMN.
#include "edits/schedule_edits.h"
#include "io/edit_history_yaml.h"
#include "models/evaluate.h"
#include "test_support.h"

#include <QTest>

using namespace lf;

namespace {

struct Sample {
    Network net = test::bundledNetwork("resnet18");
    EditHistory history;
    LayerId id(const char* name) const { return net.find(name); }
};

// Four edits: a fusion, a layer's tiles, the hardware, a second fusion; two applied.
Sample sample() {
    Sample s;
    EditHistory& h = s.history;
    h.base_hardware = test::bundledHardware("hwff-config-1");
    h.base_schedule = defaultSchedule(s.net, h.base_hardware);
    ScheduleEdit fused = fuseLayers(s.net, h.base_hardware, h.base_schedule,
                                    {s.id("layer1.0.conv1"), s.id("layer1.0.conv2")});
    if (!fused.ok) throw std::runtime_error(fused.reason);
    h.steps.push_back({"Fuse 2 layers", nullptr, std::make_shared<Schedule>(fused.schedule)});
    Schedule tiled = fused.schedule;
    tiled.layers[size_t(s.id("conv1"))].tile[size_t(Dim::z)] = 16;
    tiled.explicit_layer[size_t(s.id("conv1"))] = 1;
    h.steps.push_back({"Edit conv1", nullptr, std::make_shared<Schedule>(tiled)});
    Hardware bigger = h.base_hardware;
    bigger.frequency_mhz *= 2;
    h.steps.push_back({"Edit hardware", std::make_shared<Hardware>(bigger), nullptr});
    ScheduleEdit again =
        fuseLayers(s.net, bigger, tiled, {s.id("layer2.0.conv1"), s.id("layer2.0.conv2")});
    if (!again.ok) throw std::runtime_error(again.reason);
    h.steps.push_back(
        {"Fuse \"two\": layers", nullptr, std::make_shared<Schedule>(again.schedule)});
    h.index = 2;
    h.clean = 1;
    return s;
}

} // namespace

class TestEditHistoryYaml : public QObject {
    Q_OBJECT
  private slots:
    void everyStateRoundTrips() {
        const Sample s = sample();
        const std::string text = writeEditHistoryYaml(s.net, s.history);
        auto back = readEditHistoryYaml(text, "h.yaml", s.net);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->index, 2);
        QCOMPARE(back->clean, 1);
        QCOMPARE(back->steps.size(), size_t(4));
        QCOMPARE(back->steps[3].text, std::string("Fuse \"two\": layers"));
        QVERIFY(back->steps[2].hardware && !back->steps[2].schedule);
        QVERIFY(!back->steps[0].hardware && back->steps[0].schedule);
        for (int k = 0; k <= 4; ++k) {
            const auto want = historyStateAt(s.history, k);
            const auto got = historyStateAt(*back, k);
            QVERIFY2(got.first == want.first, qPrintable(QString::number(k)));
            QVERIFY2(got.second == want.second, qPrintable(QString::number(k)));
        }
        // Deterministic, and a step stores only the layers it changed.
        QCOMPARE(writeEditHistoryYaml(s.net, *back), text);
        const size_t step2 = text.find("text: \"Edit conv1\"");
        const size_t step3 = text.find("text: \"Edit hardware\"");
        QVERIFY(step2 != std::string::npos && step3 != std::string::npos);
        const std::string edit = text.substr(step2, step3 - step2);
        QVERIFY(edit.find("conv1:") != std::string::npos);
        QVERIFY(edit.find("layer4.1.conv2:") == std::string::npos);
    }

    void stateAtCountsEdits() {
        const Sample s = sample();
        QVERIFY(historyStateAt(s.history, 0).second == s.history.base_schedule);
        QVERIFY(historyStateAt(s.history, 2).second == *s.history.steps[1].schedule);
        QVERIFY(historyStateAt(s.history, 3).first == *s.history.steps[2].hardware);
        QVERIFY(historyStateAt(s.history, 3).second == *s.history.steps[1].schedule);
    }

    void refusesAnotherNetwork() {
        const Sample s = sample();
        auto r = readEditHistoryYaml(writeEditHistoryYaml(s.net, s.history), "h.yaml",
                                     test::bundledNetwork("resnet50"));
        QVERIFY(!r.ok());
        QVERIFY(r.error().toString().starts_with("h.yaml:2:"));
        QVERIFY(r.error().toString().find("another network") != std::string::npos);
    }

    void refusesAnIndexPastTheSteps() {
        const Sample s = sample();
        std::string text = writeEditHistoryYaml(s.net, s.history);
        text.replace(text.find("index: 2"), 8, "index: 9");
        auto r = readEditHistoryYaml(text, "h.yaml", s.net);
        QVERIFY(!r.ok());
        QVERIFY(r.error().toString().starts_with("h.yaml:3:"));
    }
};

QTEST_GUILESS_MAIN(TestEditHistoryYaml)
#include "tst_edit_history_yaml.moc"
