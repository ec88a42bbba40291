// Mutation fuzzing of the YAML readers: thousands of corrupted copies of valid files
// (byte flips, insertions, deletions, truncations, duplicated lines) must each either load
// whole or be refused with a located error — never crash, hang or half-load.
#include "examples/bundled.h"
#include "io/hardware_yaml.h"
#include "io/network_yaml.h"
#include "io/schedule_yaml.h"
#include "models/evaluate.h"
#include "teaching/lesson.h"
#include "test_support.h"

#include <QtTest>

#include <random>

using namespace lf;

namespace {

std::string mutate(const std::string& s, std::mt19937& rng) {
    std::string out = s;
    const int edits = 1 + int(rng() % 4);
    static const char alphabet[] = " \n\t:-[]{},#&*!|>'\"%@`0123456789abcxyz.";
    for (int e = 0; e < edits && !out.empty(); ++e) {
        const size_t at = rng() % out.size();
        switch (rng() % 6) {
        case 0:
            out[at] = char(rng() % 256);
            break;
        case 1:
            out[at] = alphabet[rng() % (sizeof alphabet - 1)];
            break;
        case 2:
            out.insert(at, 1, alphabet[rng() % (sizeof alphabet - 1)]);
            break;
        case 3:
            out.erase(at, 1 + rng() % 8);
            break;
        case 4:
            out.resize(at);
            break;
        case 5: {
            const size_t nl = out.find('\n', at);
            if (nl != std::string::npos) {
                const size_t start = out.rfind('\n', at);
                const size_t b = start == std::string::npos ? 0 : start + 1;
                out.insert(nl + 1, out.substr(b, nl + 1 - b));
            }
            break;
        }
        }
    }
    return out;
}

void checkError(const Error& e) {
    QVERIFY(!e.message.empty());
    QCOMPARE(e.file, std::string("fuzz.yaml"));
}

} // namespace

class TestFuzzReaders : public QObject {
    Q_OBJECT
  private slots:
    void networks();
    void hardware();
    void schedules();
    void lessons();
};

void TestFuzzReaders::networks() {
    std::mt19937 rng(1);
    int loaded = 0, refused = 0;
    for (const char* name : {"l3net", "resnet18", "googlenet"}) {
        const std::string text = findBundled(BundledKind::network, name)->text;
        for (int k = 0; k < 1500; ++k) {
            auto r = readNetworkYaml(mutate(text, rng), "fuzz.yaml");
            if (r.ok()) {
                ++loaded;
                // A loaded network is whole: it writes and reads back to the same network.
                auto again = readNetworkYaml(writeNetworkYaml(*r), "again");
                QVERIFY(again.ok());
                QCOMPARE(again->canonicalHash(), r->canonicalHash());
            } else {
                ++refused;
                checkError(r.error());
            }
        }
    }
    QVERIFY(loaded > 0 && refused > 0);
}

void TestFuzzReaders::hardware() {
    std::mt19937 rng(2);
    const std::string text = findBundled(BundledKind::hardware, "hwff-config-1")->text;
    for (int k = 0; k < 3000; ++k) {
        auto r = readHardwareYaml(mutate(text, rng), "fuzz.yaml");
        if (r.ok()) {
            auto again = readHardwareYaml(writeHardwareYaml(*r), "again");
            QVERIFY(again.ok());
            QVERIFY2(*again == *r,
                     (writeHardwareYaml(*r) + "\n---\n" + writeHardwareYaml(*again)).c_str());
        } else {
            checkError(r.error());
        }
    }
}

void TestFuzzReaders::schedules() {
    std::mt19937 rng(3);
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    Schedule s = defaultSchedule(net, hw);
    const auto ids = net.computeIds();
    FusionGroup g;
    g.name = "all";
    g.layers = {ids[0], ids[1], ids[2]};
    g.partition.kind = PartitionKind::spatial;
    g.partition.subarrays[ids[0]] = SubArray{0, 0, 8, 16};
    s.groups = {g};
    s.explicit_layer.assign(size_t(net.size()), 1);
    normalize(s, net);
    ScheduleWriteOptions wo;
    wo.all_layers = true;
    const std::string text = writeScheduleYaml(net, hw, s, wo);
    int loaded = 0;
    for (int k = 0; k < 3000; ++k) {
        auto r = readScheduleYaml(mutate(text, rng), "fuzz.yaml", net, hw);
        if (r.ok()) {
            ++loaded;
            QVERIFY(checkSchedule(net, hw, r->schedule).empty()); // loaded means legal
            evaluate(net, hw, r->schedule);
        } else {
            checkError(r.error());
        }
    }
    QVERIFY(loaded > 0);
}

void TestFuzzReaders::lessons() {
    std::mt19937 rng(4);
    const BundledFile* f = nullptr;
    for (const BundledFile& b : bundledFiles())
        if (b.kind == BundledKind::lesson) f = &b;
    QVERIFY(f);
    for (int k = 0; k < 1500; ++k) {
        auto r = readLessonYaml(mutate(f->text, rng), "fuzz.yaml");
        if (!r.ok()) checkError(r.error());
    }
}

QTEST_GUILESS_MAIN(TestFuzzReaders)
#include "tst_fuzz_readers.moc"
