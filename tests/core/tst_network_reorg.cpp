// Reorg layers (channel slice, depth-to-space, space-to-depth) and concat layers with
// constant channels in the network IR: shapes, YAML round trips, refusal of bad values, and
// their place in the models (they move data, compute nothing).
#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "models/evaluate.h"
#include "network/dims.h"

#include <algorithm>

#include <QtTest>

using namespace lf;

namespace {

const char* kNet = R"(format: layerfuse/network@1
name: reorgs
inputs:
  - {name: x, channels: 16, height: 8, width: 8}
layers:
  - {name: c1, type: conv, inputs: [x], out_channels: 32, kernel: 1}
  - {name: right, type: reorg, op: slice, inputs: [c1], begin: 16, channels: 16}
  - {name: odd, type: reorg, op: slice, inputs: [c1], begin: 31, channels: 8, step: -2}
  - {name: up, type: reorg, op: depth_to_space, inputs: [c1], block: 2}
  - {name: down, type: reorg, op: space_to_depth, inputs: [up], block: 4}
  - {name: widen, type: concat, inputs: [right, odd], constant_channels: 8}
  - {name: c2, type: conv, inputs: [widen], out_channels: 4, kernel: 3}
)";

std::string errorOf(const std::string& text) {
    auto r = readNetworkYaml(text, "bad.net.yaml");
    return r ? std::string() : r.error().toString();
}

} // namespace

class TestNetworkReorg : public QObject {
    Q_OBJECT
  private slots:
    void shapesAndRoundTrip() {
        auto r = readNetworkYaml(kNet, "reorgs.net.yaml");
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().toString().c_str());
        const Network& n = *r;
        QCOMPARE(n.layer(n.find("right")).out, (Shape{16, 8, 8}));
        QCOMPARE(n.layer(n.find("odd")).out, (Shape{8, 8, 8})); // 31, 29, ..., 17
        QCOMPARE(n.layer(n.find("up")).out, (Shape{8, 16, 16}));
        QCOMPARE(n.layer(n.find("down")).out, (Shape{128, 4, 4}));
        QCOMPARE(n.layer(n.find("widen")).out, (Shape{32, 8, 8}));
        QCOMPARE(n.computeIds().size(), size_t(2)); // the convs; reorg and concat move data
        QCOMPARE(layerMacs(layerDims(n, n.find("c2"))), int64_t(4 * 6 * 6 * 32 * 9));
        const std::string text = writeNetworkYaml(n);
        auto back = readNetworkYaml(text, "again.net.yaml");
        QVERIFY(back.ok());
        QCOMPARE(back->canonicalHash(), n.canonicalHash());
        QCOMPARE(writeNetworkYaml(*back), text);
        // Slice parameters and constant channels are part of the network's identity.
        std::string moved = kNet;
        moved.replace(moved.find("begin: 16"), 9, "begin: 15");
        QVERIFY(readNetworkYaml(moved, "m.net.yaml")->canonicalHash() != n.canonicalHash());
    }

    // A fused conv + concat whose output leaves the group writes the conv's channels only:
    // constant channels are in DRAM from the start (model-notes, "Constant channels").
    void constantChannelsAreNotWritten() {
        const char* text = R"(format: layerfuse/network@1
name: widen
inputs:
  - {name: x, channels: 8, height: 8, width: 8}
layers:
  - {name: c1, type: conv, inputs: [x], out_channels: 8, kernel: 1}
  - {name: widen, type: concat, inputs: [c1], constant_channels: ZZ}
  - {name: c2, type: conv, inputs: [widen], out_channels: 4, kernel: 1}
)";
        auto hw = loadBundledHardware(kDefaultHardware);
        QVERIFY(hw.ok());
        int64_t written[2] = {0, 0}, read[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            std::string t = text;
            t.replace(t.find("ZZ"), 2, k == 0 ? "0" : "24");
            auto n = readNetworkYaml(t, "widen.net.yaml");
            QVERIFY(n.ok());
            Schedule s = defaultSchedule(*n, *hw);
            FusionGroup g;
            g.name = "g";
            g.layers = {n->find("c1"), n->find("widen")};
            s.groups.erase(
                std::remove_if(s.groups.begin(), s.groups.end(),
                               [&](const FusionGroup& x) { return x.layers[0] == n->find("c1"); }),
                s.groups.end());
            s.groups.push_back(g);
            normalize(s, *n);
            const Metrics m = evaluate(*n, *hw, s);
            for (const auto& gm : m.groups) {
                if (gm.name == "g")
                    written[k] = gm.dram.output;
                else
                    read[k] = gm.dram.input;
            }
        }
        QCOMPARE(written[0], int64_t(8 * 8 * 8));
        QCOMPARE(written[1], written[0]); // 24 constant channels: nothing more written
        QVERIFY(read[1] > read[0]);       // ... but c2 reads all 32 channels
    }

    void refusesBadValues() {
        std::string t = kNet;
        t.replace(t.find("begin: 16, channels: 16"), 23, "begin: 20, channels: 16");
        QVERIFY(errorOf(t).find("leaves the 32 input channels") != std::string::npos);
        t = kNet;
        t.replace(t.find("block: 4"), 8, "block: 3");
        QVERIFY(errorOf(t).find("divisible by the block size") != std::string::npos);
        t = kNet;
        t.replace(t.find("op: depth_to_space"), 18, "op: transpose");
        QVERIFY2(errorOf(t).find("bad.net.yaml:9:") == 0, errorOf(t).c_str());
        t = kNet;
        t.replace(t.find("step: -2"), 8, "step: 0");
        QVERIFY(errorOf(t).find("non-zero") != std::string::npos);
        t = kNet;
        t.replace(t.find("block: 2"), 8, "block: 2, begin: 2");
        QVERIFY(errorOf(t).find("applies to slice only") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestNetworkReorg)
#include "tst_network_reorg.moc"
