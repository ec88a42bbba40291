// Timeloop export: the problem and two-level mapping of every unfused conv / fc layer, as
// Timeloop's parser reads them (keys with underscores, factor strings with residuals for
// partial last tiles). Expected factors and permutations are derived by hand in the comments
// from the layer dims and the schedule; the per-network checks recompute the dims from the
// layers' own fields and parse the exported YAML back with yaml-cpp.
#include "export_test_helpers.h"
#include "test_support.h"

#include "examples/bundled.h"
#include "io/exports/timeloop_export.h"
#include "io/schedule_yaml.h"
#include "models/evaluate.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace lf;

namespace {

using lf::test::HandDims;
using lf::test::handDims;
using lf::test::scheduleFromText;
using lf::test::workedExampleSchedule;

LayerId idOf(const Network& net, const char* name) {
    return lf::test::layerIdOf(net, name);
}

std::vector<std::string> strings(const YAML::Node& seq) {
    return lf::test::yamlStrings(seq);
}

std::string timeloopText(const Network& net, const Hardware& hw, const Schedule& s,
                         const char* layer) {
    auto t = exportTimeloopLayer(net, hw, s, idOf(net, layer));
    if (!t) throw std::runtime_error(t.error().toString());
    return *t;
}

// The mapping entry of `target` with `type`.
YAML::Node mappingEntry(const YAML::Node& doc, const std::string& target, const std::string& type) {
    for (const auto& e : doc["mapping"])
        if (e["target"].as<std::string>() == target && e["type"].as<std::string>() == type)
            return e;
    throw std::runtime_error("no mapping entry " + target + "/" + type);
}

// "R=3 S=3 P=5,1 ..." -> {R: {3, 3}, P: {5, 1}, ...} (factor, residual of the last
// iteration); throws on any other form.
std::map<char, std::pair<int64_t, int64_t>> parseFactors(const std::string& s) {
    std::map<char, std::pair<int64_t, int64_t>> out;
    size_t pos = 0;
    while (pos < s.size()) {
        const size_t end = std::min(s.find(' ', pos), s.size());
        const std::string tok = s.substr(pos, end - pos);
        if (tok.size() < 3 || tok[1] != '=')
            throw std::runtime_error("bad factor token '" + tok + "'");
        const size_t comma = tok.find(',');
        const int64_t f =
            std::stoll(tok.substr(2, comma == std::string::npos ? std::string::npos : comma - 2));
        const int64_t r = comma == std::string::npos ? f : std::stoll(tok.substr(comma + 1));
        out[tok[0]] = {f, r};
        pos = end + 1;
    }
    return out;
}

} // namespace

class TestTimeloopExport : public QObject {
    Q_OBJECT

  private slots:
    // docs/models/convfusion.md worked example: L2Net conv2, D_x = D_y = 16, D_z = D_i = 4, 3x3,
    // stride 1; order z, y, x, i; all tiles 4.
    //   DRAM (outer tile loops): P = ceil(16/4) = 4, Q = 4, C = ceil(4/4) = 1, K = 1; the
    //   kernel is not tiled (R = S = 1); N = batch = 1.
    //   Buffer (inner tile loops + kernel): P = Q = C = K = 4, R = S = 3, N = 1.
    // Permutation rule (innermost first): R, S (the kernel loops m, n sit below every tile
    // loop, m innermost — docs/models/README.md), then the tiled dims from the innermost of the
    // order outwards (i->C, x->P, y->Q, z->K), then N: "RSCPQKN" at both levels.
    void timeloopWorkedExample() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        const std::string text = timeloopText(net, hw, workedExampleSchedule(net, hw), "conv2");
        const YAML::Node doc = YAML::Load(text);
        const YAML::Node inst = doc["problem"]["instance"];
        QCOMPARE(inst["R"].as<int>(), 3);
        QCOMPARE(inst["S"].as<int>(), 3);
        QCOMPARE(inst["P"].as<int>(), 16);
        QCOMPARE(inst["Q"].as<int>(), 16);
        QCOMPARE(inst["C"].as<int>(), 4);
        QCOMPARE(inst["K"].as<int>(), 4);
        QCOMPARE(inst["N"].as<int>(), 1);
        QCOMPARE(inst["Wstride"].as<int>(), 1);
        QCOMPARE(inst["Hstride"].as<int>(), 1);
        const YAML::Node dram = mappingEntry(doc, "DRAM", "temporal");
        const YAML::Node buf = mappingEntry(doc, "Buffer", "temporal");
        // Plain strings, as Timeloop's C++ core reads them (it ignores list forms).
        QVERIFY(dram["factors"].IsScalar());
        QVERIFY(dram["permutation"].IsScalar());
        QCOMPARE(dram["factors"].as<std::string>(), std::string("R=1 S=1 P=4 Q=4 C=1 K=1 N=1"));
        QCOMPARE(buf["factors"].as<std::string>(), std::string("R=3 S=3 P=4 Q=4 C=4 K=4 N=1"));
        QCOMPARE(dram["permutation"].as<std::string>(), std::string("RSCPQKN"));
        QCOMPARE(buf["permutation"].as<std::string>(), std::string("RSCPQKN"));
        // Every data space stays in the buffer.
        const YAML::Node keep = mappingEntry(doc, "Buffer", "bypass")["keep"];
        QCOMPARE(strings(keep), (std::vector<std::string>{"Weights", "Inputs", "Outputs"}));
        // The problem shape is Timeloop's CNN layer with R, P on the width axis.
        const YAML::Node shape = doc["problem"]["shape"];
        QCOMPARE(strings(shape["dimensions"]),
                 (std::vector<std::string>{"R", "S", "P", "Q", "C", "K", "N"}));
        const YAML::Node inputs = shape["data_spaces"][1];
        QCOMPARE(inputs["name"].as<std::string>(), std::string("Inputs"));
        QCOMPARE(inputs["projection"][2][0][0].as<std::string>(), std::string("R"));
        QCOMPARE(inputs["projection"][2][1][0].as<std::string>(), std::string("P"));
        QCOMPARE(inputs["projection"][2][1][1].as<std::string>(), std::string("Wstride"));
    }

    // Same rule for other orders: [i, x, y, z] -> innermost first z, y, x, i -> K, Q, P, C;
    // [y, z, i, x] -> x, i, z, y -> P, C, K, Q.
    void timeloopPermutationFollowsOrder() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        Schedule s = workedExampleSchedule(net, hw);
        const LayerId conv2 = idOf(net, "conv2");
        s.layers[size_t(conv2)].order = {Dim::i, Dim::x, Dim::y, Dim::z};
        YAML::Node doc = YAML::Load(timeloopText(net, hw, s, "conv2"));
        QCOMPARE(mappingEntry(doc, "DRAM", "temporal")["permutation"].as<std::string>(),
                 std::string("RSKQPCN"));
        QCOMPARE(mappingEntry(doc, "Buffer", "temporal")["permutation"].as<std::string>(),
                 std::string("RSKQPCN"));
        s.layers[size_t(conv2)].order = {Dim::y, Dim::z, Dim::i, Dim::x};
        doc = YAML::Load(timeloopText(net, hw, s, "conv2"));
        QCOMPARE(mappingEntry(doc, "DRAM", "temporal")["permutation"].as<std::string>(),
                 std::string("RSPCKQN"));
    }

    // Tiles that do not divide their dim leave a partial last tile, which Timeloop's mapping
    // parser reads as a residual ("P=5,1": five iterations, one in the last; mapping/parser.cpp
    // multiplies (residual_DRAM − 1)·factor_Buffer + residual_Buffer). conv2 with Tx = 5 of 16:
    // DRAM P = ⌈16/5⌉ = 4, Buffer P = 5 with 16 − 3·5 = 1 last; Ty = 3: Q = 6, last 1;
    // Tz = 3 of 4: K = 2, last 1; Ti = 4 of 4 divides: C = 4, no residual.
    void timeloopNonDividingTiles() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        Schedule s = workedExampleSchedule(net, hw);
        s.layers[size_t(idOf(net, "conv2"))].tile = {3, 3, 5, 4}; // indexed z, y, x, i
        const std::string text = timeloopText(net, hw, s, "conv2");
        const YAML::Node doc = YAML::Load(text);
        QCOMPARE(mappingEntry(doc, "DRAM", "temporal")["factors"].as<std::string>(),
                 std::string("R=1 S=1 P=4 Q=6 C=1 K=2 N=1"));
        QCOMPARE(mappingEntry(doc, "Buffer", "temporal")["factors"].as<std::string>(),
                 std::string("R=3 S=3 P=5,1 Q=3,1 C=4 K=3,1 N=1"));
        // Timeloop's product rule gives back each dim.
        const auto dram =
            parseFactors(mappingEntry(doc, "DRAM", "temporal")["factors"].as<std::string>());
        const auto buf =
            parseFactors(mappingEntry(doc, "Buffer", "temporal")["factors"].as<std::string>());
        for (char dim : std::string("PQCK")) {
            const int64_t want = doc["problem"]["instance"][std::string(1, dim)].as<int64_t>();
            QCOMPARE((dram.at(dim).second - 1) * buf.at(dim).first + buf.at(dim).second, want);
        }
    }

    // Keys as Timeloop's current parser reads them: `data_spaces`, `read_write` (the hyphenated
    // forms are deprecated and rewritten with a warning, compound-config/hyphens-to-
    // underscores.cpp).
    void timeloopKeysUseUnderscores() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        const std::string text = timeloopText(net, hw, workedExampleSchedule(net, hw), "conv2");
        const YAML::Node shape = YAML::Load(text)["problem"]["shape"];
        QVERIFY(shape["data_spaces"].IsSequence());
        QVERIFY(shape["data_spaces"][2]["read_write"].as<bool>());
        QVERIFY(text.find("data-spaces") == std::string::npos);
        QVERIFY(text.find("read-write") == std::string::npos);
        // A buffer deeper than Timeloop's 32-bit depth cannot be written.
        Hardware big = hw;
        big.buffer.bytes = int64_t(1) << 40;
        auto r = exportTimeloopLayer(net, big, workedExampleSchedule(net, big), idOf(net, "conv2"));
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.find("32-bit") != std::string::npos);
    }

    // A fused layer has no single-layer mapping; non-convolutions are not CNN layers.
    void timeloopRefusesFusedAndNonConvLayers() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        const Schedule s = scheduleFromText(
            "format: layerfuse/schedule@1\ngroups:\n  - {name: g0, layers: [conv1, conv2]}\n", net,
            hw);
        auto r = exportTimeloopLayer(net, hw, s, idOf(net, "conv2"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("fused in group 'g0'") != std::string::npos,
                 r.error().message.c_str());
        const TimeloopExport all = exportTimeloop(net, hw, s);
        QCOMPARE(int(all.files.size()), 0);
        QCOMPARE(int(all.skipped.size()), 2);

        const Network resnet = lf::test::bundledNetwork("resnet18");
        const Schedule rs = defaultSchedule(resnet, hw);
        auto pool = exportTimeloopLayer(resnet, hw, rs, idOf(resnet, "maxpool"));
        QVERIFY(!pool.ok());
        QVERIFY(pool.error().message.find("not a convolution") != std::string::npos);
    }

    // Grouped convs are exported as one group: MobileNetV2 block1.depthwise has 32 groups of
    // 1 input and 1 output channel. VGG-16 fc6 (7x7x512 -> 4096) is a conv whose kernel spans
    // its input: R = S = 7, P = Q = 1, C = 512, K = 4096.
    void timeloopGroupedConvAndFc() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Network mb = lf::test::bundledNetwork("mobilenetv2");
        const std::string dw = timeloopText(mb, hw, defaultSchedule(mb, hw), "block1.depthwise");
        const YAML::Node di = YAML::Load(dw)["problem"]["instance"];
        QCOMPARE(di["C"].as<int>(), 1);
        QCOMPARE(di["K"].as<int>(), 1);
        QCOMPARE(di["R"].as<int>(), 3);
        QCOMPARE(di["P"].as<int>(), 112);
        QVERIFY2(dw.find("grouped convolution: G = 32 groups") != std::string::npos, dw.c_str());

        const Network vgg = lf::test::bundledNetwork("vgg16");
        const YAML::Node fi = YAML::Load(
            timeloopText(vgg, hw, defaultSchedule(vgg, hw), "fc6"))["problem"]["instance"];
        QCOMPARE(fi["R"].as<int>(), 7);
        QCOMPARE(fi["S"].as<int>(), 7);
        QCOMPARE(fi["P"].as<int>(), 1);
        QCOMPARE(fi["Q"].as<int>(), 1);
        QCOMPARE(fi["C"].as<int>(), 512);
        QCOMPARE(fi["K"].as<int>(), 4096);
    }

    // Every unfused conv / fc layer of every bundled network (default schedule: every layer
    // alone): one file each; the instance equals the layer's dims (per group); the DRAM and
    // Buffer factors give back each dim by Timeloop's rule; the buffer factor is the
    // schedule's tile; permutations name each dim once.
    void timeloopFactorsMultiplyToInstance() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        int layers = 0;
        for (const char* name : lf::test::bundledNetworkNames()) {
            const Network net = lf::test::bundledNetwork(name);
            const Schedule s = defaultSchedule(net, hw);
            const TimeloopExport e = exportTimeloop(net, hw, s);
            int convs = 0;
            for (LayerId id : net.computeIds())
                convs +=
                    net.layer(id).type == LayerType::conv || net.layer(id).type == LayerType::fc;
            QVERIFY2(int(e.files.size()) == convs, name);
            std::set<std::string> fileNames;
            for (const TimeloopFile& f : e.files) {
                QVERIFY2(fileNames.insert(f.file_name).second, f.file_name.c_str());
                const YAML::Node doc = YAML::Load(f.text);
                const YAML::Node inst = doc["problem"]["instance"];
                const HandDims d = handDims(net, f.layer);
                const std::string where = std::string(name) + " " + net.layer(f.layer).name;
                QVERIFY2(inst["P"].as<int64_t>() == d.ox && inst["Q"].as<int64_t>() == d.oy,
                         where.c_str());
                QVERIFY2(inst["K"].as<int64_t>() == d.k / d.g &&
                             inst["C"].as<int64_t>() == d.c / d.g,
                         where.c_str());
                QVERIFY2(inst["R"].as<int64_t>() == d.fx && inst["S"].as<int64_t>() == d.fy,
                         where.c_str());
                QVERIFY2(inst["Wstride"].as<int64_t>() == d.sx &&
                             inst["Hstride"].as<int64_t>() == d.sy,
                         where.c_str());
                const auto dram = parseFactors(
                    mappingEntry(doc, "DRAM", "temporal")["factors"].as<std::string>());
                const auto buf = parseFactors(
                    mappingEntry(doc, "Buffer", "temporal")["factors"].as<std::string>());
                for (char dim : std::string("RSPQCKN")) {
                    const int64_t want = inst[std::string(1, dim)].as<int64_t>();
                    QVERIFY2(dram.at(dim).first == dram.at(dim).second,
                             (where + " dim " + dim).c_str());
                    QVERIFY2((dram.at(dim).first - 1) * buf.at(dim).first + buf.at(dim).second ==
                                 want,
                             (where + " dim " + dim).c_str());
                }
                // The buffer factor is the schedule's tile (per group), clamped to the dim.
                const LayerSchedule& ls = s.layers[size_t(f.layer)];
                auto tile = [&](Dim d, char c) {
                    return std::min(ls.T(d), inst[std::string(1, c)].as<int64_t>());
                };
                QVERIFY2(buf.at('K').first == tile(Dim::z, 'K') &&
                             buf.at('Q').first == tile(Dim::y, 'Q'),
                         where.c_str());
                QVERIFY2(buf.at('P').first == tile(Dim::x, 'P') &&
                             buf.at('C').first == tile(Dim::i, 'C'),
                         where.c_str());
                for (const char* level : {"DRAM", "Buffer"}) {
                    std::string p =
                        mappingEntry(doc, level, "temporal")["permutation"].as<std::string>();
                    std::sort(p.begin(), p.end());
                    QCOMPARE(p, std::string("CKNPQRS"));
                }
                ++layers;
            }
        }
        QVERIFY(layers > 500);
    }
};

QTEST_GUILESS_MAIN(TestTimeloopExport)
#include "tst_timeloop_export.moc"
