// core::evaluate as a whole: complete and consistent metrics for every bundled network and
// preset, the default schedule's properties, incremental re-evaluation, and the schedule
// YAML format (round trips, refusal of broken files with their location).
#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "metrics/metrics_io.h"
#include "models/evaluate.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <clocale>

using namespace lf;

class TestEvaluate : public QObject {
    Q_OBJECT
  private slots:
    void everyNetworkAndPresetIsComplete();
    void defaultScheduleIsLegalAndFits();
    void biggerBufferNeverWorse();
    void incrementalRecomputesOnlyTheChangedGroup();
    void strategiesDiffer();
    void scheduleRoundTripIsByteIdentical();
    void bundledSchedulesAreCanonical();
    void brokenSchedulesAreRefusedWithLocation_data();
    void brokenSchedulesAreRefusedWithLocation();
    void scheduleForAnotherNetwork();
    void humanUnitsIgnoreTheLocale();
};

namespace {

std::vector<const BundledFile*> bundled(BundledKind kind) {
    std::vector<const BundledFile*> out;
    for (const BundledFile& f : bundledFiles())
        if (f.kind == kind) out.push_back(&f);
    return out;
}

// The JSON fields docs/cli.md promises.
void checkJson(const nlohmann::ordered_json& j) {
    for (const char* k : {"network", "hardware", "totals", "groups", "layers"})
        QVERIFY2(j.contains(k), k);
    const auto& t = j["totals"];
    for (const char* k : {"macs", "recompute_macs", "dram_accesses", "dram_bytes", "dram",
                          "buffer_peak_bytes", "buffer_capacity_bytes", "fits", "latency_cycles",
                          "latency_s", "compute_cycles", "memory_cycles", "energy_pj", "energy"})
        QVERIFY2(t.contains(k), k);
    for (const char* k : {"input", "weight", "output", "psum"})
        QVERIFY(t["dram"].contains(k));
    for (const char* k : {"mac", "rf", "sram", "dram"})
        QVERIFY(t["energy"].contains(k));
    for (const auto& g : j["groups"])
        for (const char* k :
             {"name", "layers", "strategy", "macs", "recompute_macs", "dram_accesses", "dram",
              "buffer_bytes", "fits", "latency_cycles", "energy_pj"})
            QVERIFY2(g.contains(k), k);
    for (const auto& l : j["layers"]) {
        for (const char* k : {"name", "type", "dims", "macs", "buffer", "dram", "utilization"})
            QVERIFY2(l.contains(k), k);
        for (const char* k : {"out_width", "out_height", "out_channels", "in_channels",
                              "kernel_width", "kernel_height", "stride_x", "stride_y", "groups"})
            QVERIFY2(l["dims"].contains(k), k);
        for (const char* k : {"X", "Y", "W"})
            QVERIFY(l["buffer"].contains(k));
    }
}

} // namespace

void TestEvaluate::everyNetworkAndPresetIsComplete() {
    const auto nets = bundled(BundledKind::network);
    const auto hws = bundled(BundledKind::hardware);
    QVERIFY(nets.size() >= 10);
    QVERIFY(hws.size() >= 10);
    for (const BundledFile* nf : nets) {
        const Network net = test::bundledNetwork(nf->name);
        for (const BundledFile* hf : hws) {
            const Hardware hw = test::bundledHardware(hf->name);
            const Schedule s = defaultSchedule(net, hw);
            const Metrics m = evaluate(net, hw, s);
            const auto j = metricsToJson(m);
            checkJson(j);
            int64_t macs = 0, plain = 0, dram = 0;
            for (const auto& l : j["layers"])
                macs += l["macs"].get<int64_t>();
            for (LayerId id : net.computeIds())
                plain += layerMacs(layerDims(net, id));
            for (const auto& g : j["groups"])
                dram += g["dram_accesses"].get<int64_t>();
            QCOMPARE(j["totals"]["macs"].get<int64_t>(), macs);
            // The default schedule never recomputes; batch multiplies every MAC.
            QCOMPARE(j["totals"]["macs"].get<int64_t>(), plain * hw.batch);
            QCOMPARE(j["totals"]["dram_accesses"].get<int64_t>(), dram);
            const auto& t = j["totals"];
            QCOMPARE(t["dram_accesses"].get<int64_t>(),
                     t["dram"]["input"].get<int64_t>() + t["dram"]["weight"].get<int64_t>() +
                         t["dram"]["output"].get<int64_t>() + t["dram"]["psum"].get<int64_t>());
            QVERIFY2(t["latency_cycles"].get<int64_t>() > 0, nf->name);
            QVERIFY(t["energy_pj"].get<double>() > 0);
            QCOMPARE(int(j["layers"].size()), int(net.computeIds().size()));
        }
    }
}

void TestEvaluate::defaultScheduleIsLegalAndFits() {
    for (const BundledFile* nf : bundled(BundledKind::network)) {
        const Network net = test::bundledNetwork(nf->name);
        const Hardware hw = test::bundledHardware("optimus-default");
        const Schedule s = defaultSchedule(net, hw);
        const auto v = checkSchedule(net, hw, s);
        QVERIFY2(v.empty(), v.empty() ? "" : (v[0].where + ": " + v[0].message).c_str());
        QCOMPARE(s.groups.size(), net.computeIds().size());
        // A layer fits whenever its smallest footprint does (tiles of 1, all at the tile
        // level); check a typical network fits entirely.
        if (std::string(nf->name) == "resnet18" || std::string(nf->name) == "vgg16") {
            const Metrics m = evaluate(net, hw, s);
            QVERIFY2(m.totals.fits, nf->name);
        }
    }
}

void TestEvaluate::biggerBufferNeverWorse() {
    for (const char* name : {"l3net", "resnet18", "mobilenetv2", "alexnet"}) {
        const Network net = test::bundledNetwork(name);
        Hardware hw = test::bundledHardware("optimus-default");
        int64_t previous = -1;
        for (int64_t kb : {8, 16, 32, 64, 128, 256, 512, 2048, 16384}) {
            hw.buffer.bytes = kb * 1024;
            const Metrics m = evaluate(net, hw, defaultSchedule(net, hw));
            if (previous >= 0) QVERIFY2(m.totals.dram_accesses <= previous, name);
            previous = m.totals.dram_accesses;
        }
    }
}

void TestEvaluate::incrementalRecomputesOnlyTheChangedGroup() {
    const Network net = test::bundledNetwork("resnet50");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    Schedule s = defaultSchedule(net, hw);
    IncrementalEvaluator inc;
    Metrics a = inc.evaluate(net, hw, s);
    QCOMPARE(inc.lastRecomputedGroups(), int(s.groups.size()));
    Metrics b = inc.evaluate(net, hw, s);
    QCOMPARE(inc.lastRecomputedGroups(), 0);
    QCOMPARE(b.totals.dram_accesses, a.totals.dram_accesses);
    // Change one layer's tile: one group recomputed, result equal to a full evaluation.
    const LayerId id = net.computeIds()[5];
    s.layers[size_t(id)].tile[size_t(Dim::x)] =
        std::max<int64_t>(1, s.layers[size_t(id)].T(Dim::x) / 2);
    Metrics c = inc.evaluate(net, hw, s);
    QCOMPARE(inc.lastRecomputedGroups(), 1);
    const Metrics full = evaluate(net, hw, s);
    QCOMPARE(c.totals.dram_accesses, full.totals.dram_accesses);
    QCOMPARE(c.totals.latency_cycles, full.totals.latency_cycles);
    QCOMPARE(c.totals.energy.total(), full.totals.energy.total());
    // Fuse two layers: the two singleton groups disappear, one new group is computed.
    const auto seq = net.computeIds();
    FusionGroup g;
    g.name = "fused";
    g.layers = {seq[0], seq[1]};
    s.groups.erase(std::remove_if(s.groups.begin(), s.groups.end(),
                                  [&](const FusionGroup& x) {
                                      return x.layers[0] == seq[0] || x.layers[0] == seq[1];
                                  }),
                   s.groups.end());
    s.groups.push_back(g);
    normalize(s, net);
    inc.evaluate(net, hw, s);
    QCOMPARE(inc.lastRecomputedGroups(), 1);
}

void TestEvaluate::strategiesDiffer() {
    // The same two-layer group under the three strategies: reuse never recomputes, recompute
    // with overlapping tiles does, and each reports its own traffic.
    const Network net = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("convfusion-40nm");
    Schedule s = test::l3netOneGroup(net, hw);
    Metrics rec = evaluate(net, hw, s);
    s.groups[0].strategy = Strategy::reuse;
    Metrics reu = evaluate(net, hw, s);
    s.groups[0].strategy = Strategy::optimus;
    Metrics opt = evaluate(net, hw, s);
    QVERIFY(rec.totals.recompute_macs > 0);
    QCOMPARE(reu.totals.recompute_macs, int64_t(0));
    QCOMPARE(reu.groups[0].strategy, Strategy::reuse);
    QVERIFY(opt.groups[0].out_tile_h > 0);
    // Optimus Eq. 3 with a buffer that holds everything: |ifmap| + |ofmap| + weights once.
    int64_t weights = 0;
    for (LayerId id : net.computeIds())
        weights += layerWeights(layerDims(net, id));
    QCOMPARE(opt.totals.dram_accesses, 3 * 22 * 22 + 4 * 16 * 16 + weights);
}

void TestEvaluate::scheduleRoundTripIsByteIdentical() {
    const Network net = test::bundledNetwork("resnet18");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    Schedule s = defaultSchedule(net, hw);
    const auto ids = net.computeIds();
    FusionGroup a;
    a.name = "stem";
    a.layers = {ids[0], ids[1]};
    a.strategy = Strategy::reuse;
    a.reuse_model = ReuseModelKind::alwani;
    a.out_tile = OutputTile{7, 14};
    a.weights_resident = true;
    a.partition.kind = PartitionKind::spatial;
    a.partition.subarrays[ids[0]] = SubArray{0, 0, 16, 16};
    a.partition.subarrays[ids[1]] = SubArray{16, 0, 16, 16};
    FusionGroup b;
    b.name = "yes"; // a name YAML would read as a bool unless quoted
    b.layers = {ids[2], ids[3]};
    b.partition.rf_share[ids[2]] = RfShare{0.25, 0.5, 0.75};
    b.partition.rf_share[ids[3]] = RfShare{0.1, 0.1, 0.1};
    s.groups.erase(std::remove_if(s.groups.begin(), s.groups.end(),
                                  [&](const FusionGroup& g) { return g.layers[0] <= ids[3]; }),
                   s.groups.end());
    s.groups.push_back(a);
    s.groups.push_back(b);
    s.layers[size_t(ids[4])].order = {Dim::i, Dim::x, Dim::z, Dim::y};
    s.layers[size_t(ids[4])].store = {Level::l2, Level::l3, Level::l1};
    s.layers[size_t(ids[4])].compute = {Level::l4, Level::l3, Level::l2};
    s.layers[size_t(ids[4])].unroll = parseDataflow("ox|oy");
    s.explicit_layer[size_t(ids[4])] = 1;
    normalize(s, net);
    QVERIFY(checkSchedule(net, hw, s).empty());
    const Metrics m = evaluate(net, hw, s);
    ScheduleWriteOptions wo;
    wo.metrics = &m;
    const std::string text = writeScheduleYaml(net, hw, s, wo);
    auto back = readScheduleYaml(text, "rt.sched.yaml", net, hw);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
    QVERIFY(back->schedule == s);
    QCOMPARE(writeScheduleYaml(net, hw, back->schedule, wo), text);
    // All layers, inline hardware.
    wo.all_layers = true;
    wo.inline_hardware = true;
    const std::string full = writeScheduleYaml(net, hw, s, wo);
    auto back2 = readScheduleYaml(full, "rt2.sched.yaml", net, hw);
    QVERIFY(back2.ok());
    QVERIFY(back2->hardware && *back2->hardware == hw);
    QCOMPARE(writeScheduleYaml(net, hw, back2->schedule, wo), full);
    QVERIFY(text.find("name: \"yes\"") != std::string::npos);
}

void TestEvaluate::bundledSchedulesAreCanonical() {
    int seen = 0;
    for (const BundledFile* f : bundled(BundledKind::schedule)) {
        // Bundled schedules name their network in the file name prefix (e.g. l2net-...).
        const std::string name = f->name;
        const std::string netName = name.substr(0, name.find('-'));
        const Network net = test::bundledNetwork(netName.c_str());
        auto sf = readScheduleYaml(f->text, bundledFileLabel(*f), net,
                                   test::bundledHardware("hwff-config-1"));
        QVERIFY2(sf.ok(), sf.ok() ? "" : sf.error().toString().c_str());
        const Hardware hw = sf->hardware_name.empty()
                                ? test::bundledHardware("hwff-config-1")
                                : test::bundledHardware(sf->hardware_name.c_str());
        std::string text = writeScheduleYaml(net, hw, sf->schedule);
        // Files may omit the optional sha256; compare without it.
        std::string expected = f->text;
        if (expected.find("sha256") == std::string::npos) {
            const auto at = text.find(", sha256: ");
            text.erase(at, text.find('}', at) - at);
        }
        QCOMPARE(text, expected);
        ++seen;
    }
    QVERIFY(seen >= 1);
}

void TestEvaluate::brokenSchedulesAreRefusedWithLocation_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    const QString head = "format: layerfuse/schedule@1\nnetwork: {name: L2Net}\n";
    QTest::newRow("CL above SL") << head + "layers:\n  conv2:\n    order: [z, y, x, i]\n    store: "
                                           "{X: yi}\n    compute: {X: zi}\n"
                                 << 5 << 5
                                 << "compute level of X (zi) is above its store level (yi)";
    QTest::newRow("SL_Y above SL_W")
        << head + "layers:\n  conv1:\n    store: {X: tile, Y: tile, W: xi}\n    compute: {W: xi}\n"
        << 5 << 5 << "store level of Y (tile) is above the store level of W (xi)";
    QTest::newRow("tile > dim") << head + "layers:\n  conv1:\n    tiles: {x: 19}\n"
                                << 5 << 5 << "Tx = 19 must be between 1 and Dx = 18";
    QTest::newRow("unknown layer") << head + "layers:\n  conv9:\n    tiles: {x: 2}\n"
                                   << 4 << 3 << "no layer named 'conv9'";
    QTest::newRow("unknown level") << head + "layers:\n  conv1:\n    store: {X: qi}\n"
                                   << 5 << 16 << "unknown level 'qi'";
    QTest::newRow("bad order") << head + "layers:\n  conv1:\n    order: [z, z, x, i]\n"
                               << 5 << 16 << "appears twice";
    QTest::newRow("layer twice")
        << head + "groups:\n  - {name: a, layers: [conv1]}\n  - {name: b, layers: [conv1]}\n"
        << 5 << 24 << "already in group 'a'";
    QTest::newRow("bad strategy")
        << head + "groups:\n  - {name: a, layers: [conv1, conv2], strategy: magic}\n"
        << 4 << 49 << "strategy must be recompute, reuse or optimus";
    QTest::newRow("rf over 100%")
        << head + "groups:\n  - {name: a, layers: [conv1, conv2], partition: {kind: temporal, "
                  "rf_share: {conv1: 0.7, conv2: 0.7}}}\n"
        << 4 << 5 << "weight RF shares sum to 140 % (over 100 %)";
    QTest::newRow("subarrays overlap")
        << head + "groups:\n  - name: a\n    layers: [conv1, conv2]\n    partition: {kind: "
                  "spatial, subarrays: {conv1: {col: 0, row: 0, cols: 8, rows: 8}, conv2: {col: 4, "
                  "row: 0, cols: 8, rows: 8}}}\n"
        << 4 << 5 << "sub-arrays of conv1 and conv2 overlap";
    QTest::newRow("subarray outside")
        << head + "groups:\n  - name: a\n    layers: [conv1, conv2]\n    partition: {kind: "
                  "spatial, subarrays: {conv1: {col: 30, row: 0, cols: 8, rows: 8}}}\n"
        << 4 << 5 << "lies outside the 32x16 PE array";
    QTest::newRow("newer format") << "format: layerfuse/schedule@2\n"
                                  << 1 << 9 << "written by a newer LayerFuse";
    QTest::newRow("not a schedule")
        << "format: layerfuse/network@1\n"
        << 1 << 9 << "this is a layerfuse/network file, not layerfuse/schedule";
}

void TestEvaluate::brokenSchedulesAreRefusedWithLocation() {
    QFETCH(QString, body);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const Network net = test::bundledNetwork("l2net");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    auto r = readScheduleYaml(body.toStdString(), "bad.sched.yaml", net, hw);
    QVERIFY(!r.ok());
    const Error& e = r.error();
    QVERIFY2(QString::fromStdString(e.message).contains(message), e.toString().c_str());
    QCOMPARE(e.file, std::string("bad.sched.yaml"));
    QCOMPARE(e.line, line);
    QCOMPARE(e.column, column);
}

void TestEvaluate::scheduleForAnotherNetwork() {
    const Network l2 = test::bundledNetwork("l2net");
    const Network l3 = test::bundledNetwork("l3net");
    const Hardware hw = test::bundledHardware("hwff-config-1");
    Schedule s = defaultSchedule(l3, hw);
    s.explicit_layer.assign(size_t(l3.size()), 1);
    const std::string text = writeScheduleYaml(l3, hw, s);
    auto r = readScheduleYaml(text, "l3.sched.yaml", l2, hw);
    QVERIFY(!r.ok());
    QVERIFY2(QString::fromStdString(r.error().message).contains("made for another network"),
             r.error().toString().c_str());
    ScheduleReadOptions ro;
    ro.check_hash = false;
    ro.refuse_violations = false;
    auto byName = readScheduleYaml(text, "l3.sched.yaml", l2, hw, ro);
    QVERIFY2(byName.ok(), byName.ok() ? "" : byName.error().toString().c_str());
    QCOMPARE(byName->skipped, std::vector<std::string>{"conv3"});
}

void TestEvaluate::humanUnitsIgnoreTheLocale() {
    // The C locale is what every locale-independent path must match; under a decimal-comma
    // LC_NUMERIC (de_DE, compiled into the build tree if the system lacks it) the text must not
    // change.
    const std::string a = humanBytes(1536), b = humanTime(0.0015), c = humanEnergy(2500);
    QCOMPARE(a, std::string("1.50 KB"));
    QCOMPARE(b, std::string("1.50 ms"));
    QCOMPARE(c, std::string("2.50 nJ"));
    const char* old = setlocale(LC_NUMERIC, nullptr);
    const std::string saved = old ? old : "C";
    const QString why = lf::test::switchToLocale(LC_NUMERIC, "de_DE.UTF-8", "de_DE", "UTF-8");
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const bool comma = localeconv()->decimal_point[0] == ',';
    QCOMPARE(humanBytes(1536), a);
    QCOMPARE(humanTime(0.0015), b);
    QCOMPARE(humanEnergy(2500), c);
    setlocale(LC_NUMERIC, saved.c_str());
    QVERIFY(comma); // the decimal-comma locale was really in effect
}

QTEST_GUILESS_MAIN(TestEvaluate)
#include "tst_evaluate.moc"
