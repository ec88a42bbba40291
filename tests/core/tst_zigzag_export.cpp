// ZigZag export (docs/exports.md "ZigZag"): the workload entries against the
// layers' own dims, the accelerator's memories and costs computed by hand from the presets,
// and the mapping: complete temporal orderings (so ZigZag evaluates them instead of
// searching) whose spatial unrolling gives LayerFuse's compute cycles. The real ZigZag runs
// on these files in the zigzag_cross_check test (tests/zigzag/).
#include "export_test_helpers.h"
#include "test_support.h"

#include "io/exports/zigzag_export.h"
#include "io/exports/zigzag_workload.h"
#include "models/evaluate.h"
#include "util/checked.h"

#include <QTemporaryDir>
#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <map>
#include <string>

using namespace lf;
using lf::test::HandDims;
using lf::test::layerIdOf;
using lf::test::yamlStrings;

namespace {

bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

YAML::Node memory(const YAML::Node& acc, const char* name) {
    const YAML::Node m = acc["memories"][name];
    if (!m) throw std::runtime_error(std::string("no memory ") + name);
    return m;
}

std::map<std::string, YAML::Node> byName(const YAML::Node& seq) {
    std::map<std::string, YAML::Node> out;
    for (const YAML::Node& e : seq)
        out.emplace(e["name"].as<std::string>(), e);
    return out;
}

// "K, 4" -> {K, 4}.
std::pair<std::string, int64_t> unrolling(const std::string& s) {
    const size_t comma = s.find(", ");
    return {s.substr(0, comma), std::stoll(s.substr(comma + 2))};
}

} // namespace

class TestZigZagExport : public QObject {
    Q_OBJECT

  private slots:
    // loop_sizes are our dims for every workload layer of every bundled network: B = batch,
    // K = out_channels, C = in_channels (both per group when G is present), G = groups (pools,
    // adds and depthwise convs: channels), OY/OX = output height/width, FY/FX = kernel (fc,
    // global pool: the input extent). Every conv, fc, pool, global_pool and add layer appears
    // once, ids 0..n-1.
    void workloadLoopSizesAreOurDims() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        for (const char* name : lf::test::bundledNetworkNames()) {
            const Network net = lf::test::bundledNetwork(name);
            const YAML::Node doc =
                YAML::Load(exportZigZag(net, hw, defaultSchedule(net, hw)).workload);
            int expectedCount = 0;
            for (LayerId id = 0; id < net.size(); ++id)
                expectedCount += isZigZagLayer(net.layer(id));
            QVERIFY2(int(doc.size()) == expectedCount, name);
            int next = 0;
            for (const auto& w : doc) {
                QCOMPARE(w["id"].as<int>(), next++);
                const LayerId id = layerIdOf(net, w["name"].as<std::string>().c_str());
                const Layer& l = net.layer(id);
                const HandDims d = lf::test::handDims(net, id);
                const auto dims = yamlStrings(w["loop_dims"]);
                const auto sizes = w["loop_sizes"].as<std::vector<int64_t>>();
                QCOMPARE(dims.size(), sizes.size());
                std::map<std::string, int64_t> got;
                for (size_t k = 0; k < dims.size(); ++k)
                    got[dims[k]] = sizes[k];
                std::map<std::string, int64_t> want{{"B", 1}, {"OY", d.oy}, {"OX", d.ox}};
                if (l.type == LayerType::add) {
                    want["G"] = d.k;
                } else if (l.type == LayerType::pool || l.type == LayerType::global_pool ||
                           (d.g > 1 && d.g == d.c && d.g == d.k)) { // pools, depthwise
                    want["G"] = d.k;
                    want["FY"] = d.fy;
                    want["FX"] = d.fx;
                } else {
                    if (d.g > 1) want["G"] = d.g;
                    want["K"] = d.k / d.g;
                    want["C"] = d.c / d.g;
                    want["FY"] = d.fy;
                    want["FX"] = d.fx;
                }
                QVERIFY2(got == want, (std::string(name) + " " + l.name).c_str());
            }
        }
    }

    // operand_source: the producer's workload id; a network input names the layer itself;
    // weights are the layer's own constant operand; an add's two inputs are W and I in order;
    // a concat (no ZigZag operator) is looked through to its first input and noted.
    void workloadOperandSources() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Network net = lf::test::bundledNetwork("resnet18");
        const auto w = byName(YAML::Load(exportZigZag(net, hw, defaultSchedule(net, hw)).workload));
        auto id = [&](const char* n) { return w.at(n)["id"].as<int>(); };
        QCOMPARE(w.at("conv1")["operand_source"]["I"].as<int>(), id("conv1"));
        QCOMPARE(w.at("conv1")["operand_source"]["W"].as<int>(), id("conv1"));
        QCOMPARE(w.at("layer1.0.conv1")["operand_source"]["I"].as<int>(), id("maxpool"));
        const YAML::Node add = w.at("layer1.0.add")["operand_source"];
        QCOMPARE(add["W"].as<int>(), id("layer1.0.conv2"));
        QCOMPARE(add["I"].as<int>(), id("maxpool"));
        QCOMPARE(w.at("conv1")["padding"][0].as<std::vector<int>>(), (std::vector<int>{3, 3}));
        QCOMPARE(yamlStrings(w.at("conv1")["dimension_relations"]),
                 (std::vector<std::string>{"ix=2*ox+1*fx", "iy=2*oy+1*fy"}));

        const Network g = lf::test::bundledNetwork("googlenet");
        const ZigZagExport ge = exportZigZag(g, hw, defaultSchedule(g, hw));
        const auto gw = byName(YAML::Load(ge.workload));
        QVERIFY(!gw.count("inception3a.concat"));
        const LayerId cat = layerIdOf(g, "inception3a.concat");
        const std::string first = g.layer(g.layer(cat).inputs.front()).name;
        const std::string consumer = g.layer(g.successors(cat).front()).name;
        QCOMPARE(gw.at(consumer)["operand_source"]["I"].as<int>(), gw.at(first)["id"].as<int>());
        bool noted = false;
        for (const std::string& n : ge.notes)
            noted = noted || n.find("inception3a.concat (concat)") == 0;
        QVERIFY(noted);
        QVERIFY(ge.workload.find("# inception3a.concat (concat) is not in the workload") !=
                std::string::npos);
    }

    // hwff-config-1 (8/8/32 bits, RF sections 384/24/36 B of 512, 512 kB buffer at 26.7 pJ,
    // DRAM 8 B/cycle at 200 pJ/word, 32 x 16 PEs, MAC 1.75 pJ):
    //   rf_W 384·8 = 3072 bits, one 8-bit weight per access at the RF's 0 pJ; rf_I 192 bits;
    //   rf_O 288 bits, 32-bit accesses; global_buffer 4194304 bits, granularity gcd(8,8,32) = 8,
    //   a read and a write port per operand, 32 bits × 32 = 1024 bits: 26.7 · 1024 / 8 =
    //   3417.6 pJ per access (26.7 per 8-bit word); DRAM one 64-bit port: 200 · 64 / 8 = 1600
    //   pJ per access; array [32, 16].
    void acceleratorOfHwffConfig1() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const ZigZagExport e = exportZigZag(net, hw, defaultSchedule(net, hw));
        const YAML::Node acc = YAML::Load(e.accelerator);
        QCOMPARE(acc["name"].as<std::string>(), std::string("hwff-config-1"));
        struct Row {
            const char* name;
            int64_t size, bwMin, bwMax;
            double cost;
            std::vector<std::string> operands;
        };
        const Row rows[] = {{"rf_W", 3072, 8, 8, 0.0, {"I2"}},
                            {"rf_I", 192, 8, 8, 0.0, {"I1"}},
                            {"rf_O", 288, 32, 32, 0.0, {"O"}},
                            {"global_buffer", 4194304, 8, 1024, 3417.6, {"I1", "I2", "O"}},
                            {"dram", int64_t(1) << 40, 8, 64, 1600.0, {"I1", "I2", "O"}}};
        std::vector<std::string> order;
        for (const auto& m : acc["memories"])
            order.push_back(m.first.as<std::string>());
        QCOMPARE(order,
                 (std::vector<std::string>{"rf_W", "rf_I", "rf_O", "global_buffer", "dram"}));
        for (const Row& r : rows) {
            const YAML::Node m = memory(acc, r.name);
            QCOMPARE(m["size"].as<int64_t>(), r.size);
            QVERIFY2(close(m["r_cost"].as<double>(), r.cost), r.name);
            QVERIFY2(close(m["w_cost"].as<double>(), r.cost), r.name);
            QCOMPARE(yamlStrings(m["operands"]), r.operands);
            for (const auto& port : m["ports"]) {
                QCOMPARE(port["bandwidth_min"].as<int64_t>(), r.bwMin);
                QCOMPARE(port["bandwidth_max"].as<int64_t>(), r.bwMax);
            }
            const bool perPe = std::string(r.name).rfind("rf", 0) == 0;
            QCOMPARE(m["served_dimensions"].size(), size_t(perPe ? 0 : 2));
        }
        // Outputs go both ways: read towards the array and back up, written from above and
        // from below. The buffer has a read and a write port per operand.
        const YAML::Node rfO = memory(acc, "rf_O")["ports"];
        QCOMPARE(yamlStrings(rfO[0]["allocation"]), (std::vector<std::string>{"O, tl", "O, th"}));
        QCOMPARE(yamlStrings(rfO[1]["allocation"]), (std::vector<std::string>{"O, fh", "O, fl"}));
        const YAML::Node gbPorts = memory(acc, "global_buffer")["ports"];
        QCOMPARE(int(gbPorts.size()), 6);
        QCOMPARE(gbPorts[2]["name"].as<std::string>(), std::string("r_port_2"));
        QCOMPARE(yamlStrings(gbPorts[2]["allocation"]), std::vector<std::string>{"I2, tl"});
        QCOMPARE(memory(acc, "dram")["ports"][0]["type"].as<std::string>(),
                 std::string("read_write"));
        QCOMPARE(acc["operational_array"]["sizes"].as<std::vector<int>>(),
                 (std::vector<int>{32, 16}));
        QVERIFY(close(acc["operational_array"]["unit_energy"].as<double>(), 1.75));
        // The 68 B of each PE's RF outside the three sections are said to be left out.
        QVERIFY(e.accelerator.find("# 68 B of each PE's register file are in no section") !=
                std::string::npos);
    }

    // convfusion-40nm: no register file; the buffer's sqrt model priced at the schedule's
    // peak footprint, as LayerFuse's energy (0.012·√bits + 4.61 pJ per 16-bit access, the
    // single PE's ports one word wide); DRAM 25.6 B/cycle =
    // 204.8 -> 205 bits, 1120 · 205 / 16 = 14350 pJ per access. optimus-default: one 64 B
    // register-file pool for every operand, 16-bit accesses at 1 pJ.
    void acceleratorWithoutRfAndWithOnePool() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware cf = lf::test::bundledHardware("convfusion-40nm");
        const Schedule s = defaultSchedule(net, cf);
        const double bits = double(evaluate(net, cf, s).totals.buffer_peak_bytes) * 8.0;
        const YAML::Node a = YAML::Load(exportZigZag(net, cf, s).accelerator);
        QCOMPARE(int(a["memories"].size()), 2);
        QVERIFY(close(memory(a, "global_buffer")["r_cost"].as<double>(),
                      0.012 * std::sqrt(bits) + 4.61));
        QCOMPARE(memory(a, "global_buffer")["ports"][0]["bandwidth_max"].as<int>(), 16);
        QCOMPARE(memory(a, "dram")["ports"][0]["bandwidth_max"].as<int>(), 205);
        QVERIFY(close(memory(a, "dram")["r_cost"].as<double>(), 14350.0));

        const Hardware op = lf::test::bundledHardware("optimus-default");
        const YAML::Node o =
            YAML::Load(exportZigZag(net, op, defaultSchedule(net, op)).accelerator);
        const YAML::Node rf = memory(o, "rf");
        QCOMPARE(rf["size"].as<int>(), 512);
        QCOMPARE(yamlStrings(rf["operands"]), (std::vector<std::string>{"I1", "I2", "O"}));
        QVERIFY(close(rf["r_cost"].as<double>(), 1.0));
        QCOMPARE(o["operational_array"]["sizes"].as<std::vector<int>>(),
                 (std::vector<int>{16, 16}));
    }

    // docs/models/convfusion.md worked example (L2Net conv2, order z, y, x, i, tiles 4) on the 1-PE
    // convfusion-40nm: nothing unrolled, no register file. Innermost first: the kernel FX 3,
    // FY 3, the inner tile loops from the innermost of the order (i, x, y, z): C 4, OX 4, OY 4,
    // K 4, then the outer tile loops ⌈D/T⌉ in the same order: C 1 (left out), OX 4, OY 4, K 1.
    void mappingOfTheWorkedExample() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        const ZigZagExport e = exportZigZag(net, hw, lf::test::workedExampleSchedule(net, hw));
        const auto m = byName(YAML::Load(e.mapping));
        const YAML::Node conv2 = m.at("conv2");
        std::vector<std::pair<std::string, int64_t>> got;
        for (const auto& loop : conv2["temporal_ordering"])
            got.emplace_back(loop[0].as<std::string>(), loop[1].as<int64_t>());
        const std::vector<std::pair<std::string, int64_t>> want{
            {"FX", 3}, {"FY", 3}, {"C", 4}, {"OX", 4}, {"OY", 4}, {"K", 4}, {"OX", 4}, {"OY", 4}};
        QCOMPARE(got, want);
        QCOMPARE(yamlStrings(conv2["spatial_mapping"]["D1"]), std::vector<std::string>{"B, 1"});
        QCOMPARE(conv2["memory_operand_links"]["W"].as<std::string>(), std::string("I2"));
        QCOMPARE(conv2["memory_operand_links"]["I"].as<std::string>(), std::string("I1"));
        QCOMPARE(conv2["memory_operand_links"]["O"].as<std::string>(), std::string("O"));
        // ZigZag falls back to `default` for layers a mapping does not name.
        QVERIFY(m.count("default"));
        QVERIFY(!m.at("default")["temporal_ordering"]);
    }

    // For every layer of every bundled network on three presets: the temporal loops of each
    // dim multiply to exactly ⌈D / U⌉ (U its spatial unrolling) — ZigZag's condition for
    // evaluating the given ordering instead of searching —, the unrolling of an axis fits it,
    // and Π ⌈D / U⌉ over all dims (the ideal cycles) is LayerFuse's compute cycles, except
    // where the export notes that the array model packs an axis's dims as one product.
    void temporalOrderingIsCompleteAndGivesOurCycles() {
        int layers = 0, packed = 0;
        for (const char* hwName : {"hwff-config-1", "convfusion-40nm", "optimus-default"}) {
            const Hardware hw = lf::test::bundledHardware(hwName);
            for (const char* name : lf::test::bundledNetworkNames()) {
                const Network net = lf::test::bundledNetwork(name);
                const Schedule s = defaultSchedule(net, hw);
                const Metrics metrics = evaluate(net, hw, s);
                const ZigZagExport e = exportZigZag(net, hw, s);
                const auto mapping = byName(YAML::Load(e.mapping));
                for (const YAML::Node& w : YAML::Load(e.workload)) {
                    const std::string layer = w["name"].as<std::string>();
                    const std::string where = std::string(hwName) + " " + name + " " + layer;
                    const YAML::Node m = mapping.at(layer);
                    const auto dims = yamlStrings(w["loop_dims"]);
                    const auto sizes = w["loop_sizes"].as<std::vector<int64_t>>();
                    std::map<std::string, int64_t> unroll, temporal;
                    for (const char* axis : {"D1", "D2"}) {
                        int64_t used = 1;
                        for (const std::string& u : yamlStrings(m["spatial_mapping"][axis])) {
                            const auto [dim, f] = unrolling(u);
                            unroll[dim] = (unroll.count(dim) ? unroll[dim] : 1) * f;
                            used *= f;
                        }
                        const int pes =
                            std::string(axis) == "D1" ? hw.pe_array.cols : hw.pe_array.rows;
                        QVERIFY2(used <= pes, where.c_str());
                    }
                    for (const auto& loop : m["temporal_ordering"]) {
                        const std::string dim = loop[0].as<std::string>();
                        temporal[dim] =
                            (temporal.count(dim) ? temporal[dim] : 1) * loop[1].as<int64_t>();
                    }
                    int64_t cycles = 1;
                    for (size_t k = 0; k < dims.size(); ++k) {
                        const int64_t u = unroll.count(dims[k]) ? unroll[dims[k]] : 1;
                        const int64_t q = ceilDiv(sizes[k], u);
                        const int64_t t = temporal.count(dims[k]) ? temporal[dims[k]] : 1;
                        QVERIFY2(t == q, (where + " dim " + dims[k]).c_str());
                        cycles *= q;
                    }
                    // Where the array model packs an axis's dims as one product and ZigZag
                    // cannot, the export says so (by design: docs/exports.md).
                    const LayerMetrics* lm = metrics.layer(layerIdOf(net, layer.c_str()));
                    const bool packing = e.mapping.find("# " + layer + ": the array model packs") !=
                                         std::string::npos;
                    if (packing) {
                        QVERIFY2(cycles > lm->compute_cycles, where.c_str());
                        // Per-dim factors lose little against the packed product.
                        QVERIFY2(double(cycles) <= 1.1 * double(lm->compute_cycles),
                                 (where + ": " + std::to_string(cycles) + " cycles, LayerFuse " +
                                  std::to_string(lm->compute_cycles))
                                     .c_str());
                        ++packed;
                        continue;
                    }
                    QVERIFY2(cycles == lm->compute_cycles,
                             (where + ": " + std::to_string(cycles) + " cycles, LayerFuse " +
                              std::to_string(lm->compute_cycles))
                                 .c_str());
                    ++layers;
                }
            }
        }
        // The packing difference is the exception: layers whose axis product does not factor
        // well (most of them Xception's, 728 channels on 16 rows).
        QVERIFY2(packed * 50 < layers, qPrintable(QString("%1 of %2").arg(packed).arg(layers)));
    }

    // Fusion groups and store levels cannot be expressed in ZigZag: each file says so, and a
    // fused group is listed in the notes and the headers.
    void whatZigZagCannotExpressIsStated() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Schedule s = lf::test::scheduleFromText(
            "format: layerfuse/schedule@1\ngroups:\n  - {name: g0, layers: [conv1, conv2]}\n", net,
            hw);
        const ZigZagExport e = exportZigZag(net, hw, s);
        for (const std::string* text : {&e.workload, &e.accelerator, &e.mapping}) {
            QVERIFY(text->find("# ZigZag cannot express LayerFuse's store levels") !=
                    std::string::npos);
            QVERIFY(text->find("# ZigZag cannot express fusion groups") != std::string::npos);
        }
        QVERIFY(e.notes.front().find("fusion group g0 (conv1, conv2)") == 0);
        QVERIFY(e.workload.find("# fusion group g0 (conv1, conv2) is costed by ZigZag layer by "
                                "layer") != std::string::npos);
    }

    // writeZigZagExport writes the three files into a new directory and names them, with the
    // export's notes; an unwritable place is an error naming it.
    void writesThreeFiles() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        QTemporaryDir dir;
        const std::string out = dir.filePath("a/b").toStdString();
        auto written = writeZigZagExport(out, net, hw, defaultSchedule(net, hw));
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().toString().c_str());
        const std::vector<std::string>& paths = written->paths;
        QCOMPARE(int(paths.size()), 3);
        QVERIFY(paths.at(0).find("workload.yaml") != std::string::npos);
        QVERIFY(QFile::exists(QString::fromStdString(paths.at(2))));
        QVERIFY(!written->notes.empty());
        QCOMPARE(written->notes, exportZigZag(net, hw, defaultSchedule(net, hw)).notes);
        QFile blocker(dir.filePath("file"));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        auto bad = writeZigZagExport(dir.filePath("file/sub").toStdString(), net, hw,
                                     defaultSchedule(net, hw));
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().toString().find("cannot create directory") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestZigZagExport)
#include "tst_zigzag_export.moc"
