// Exports for other tools: Timeloop problem + two-level mapping per unfused layer, and the
// Stream-style workload / mapping / layer_stacks. Expected factors, permutations and tile
// counts are derived by hand in the comments from the layer dims and the schedule; the
// per-network checks recompute the dims from the layers' own fields and parse the exported
// YAML back with yaml-cpp.
#include "test_support.h"

#include "examples/bundled.h"
#include "io/exports/stream_export.h"
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

Schedule workedExampleSchedule(const Network& net, const Hardware& hw) {
    const BundledFile* f = findBundled(BundledKind::schedule, "l2net-worked-example");
    if (!f) throw std::runtime_error("no bundled schedule l2net-worked-example");
    auto s = readScheduleYaml(f->text, f->path, net, hw);
    if (!s) throw std::runtime_error(s.error().toString());
    return s->schedule;
}

Schedule scheduleFromText(const std::string& text, const Network& net, const Hardware& hw) {
    auto s = readScheduleYaml(text, "test.sched.yaml", net, hw);
    if (!s) throw std::runtime_error(s.error().toString());
    return s->schedule;
}

LayerId idOf(const Network& net, const char* name) {
    const LayerId id = net.find(name);
    if (id == kNoLayer) throw std::runtime_error(net.name() + ": no layer " + name);
    return id;
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

// "R=3 S=3 ..." -> {R: 3, S: 3, ...}; throws on any other form.
std::map<char, int64_t> parseFactors(const std::string& s) {
    std::map<char, int64_t> out;
    size_t pos = 0;
    while (pos < s.size()) {
        const size_t end = std::min(s.find(' ', pos), s.size());
        const std::string tok = s.substr(pos, end - pos);
        if (tok.size() < 3 || tok[1] != '=')
            throw std::runtime_error("bad factor token '" + tok + "'");
        out[tok[0]] = std::stoll(tok.substr(2));
        pos = end + 1;
    }
    return out;
}

// Our dims of a layer, from its own fields (not from the exporters' code path).
struct HandDims {
    int64_t ox, oy, k, c, fx, fy, g, sx, sy;
};
HandDims handDims(const Network& net, LayerId id) {
    const Layer& l = net.layer(id);
    const Shape in = net.layer(l.inputs.front()).out;
    HandDims d{l.out.w, l.out.h, l.out.c, in.c, l.kernel_w, l.kernel_h, 1, l.stride_w, l.stride_h};
    switch (l.type) {
    case LayerType::conv:
        d.g = l.groups;
        break;
    case LayerType::fc:
        d.fx = in.w;
        d.fy = in.h;
        d.sx = d.sy = 1;
        break; // kernel spans the input
    case LayerType::global_pool:
        d.fx = in.w;
        d.fy = in.h;
        d.sx = d.sy = 1;
        break;
    default:
        break;
    }
    return d;
}

std::vector<std::string> strings(const YAML::Node& seq) {
    std::vector<std::string> v;
    for (const auto& e : seq)
        v.push_back(e.as<std::string>());
    return v;
}

} // namespace

class TestExports : public QObject {
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
        const YAML::Node inputs = shape["data-spaces"][1];
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

    // Tiles that do not divide their dim: Timeloop needs exact factors, so the buffer takes
    // the largest divisor not above the tile. conv2 with Tx = 5 (16 -> 4), Ty = 3 (16 -> 2),
    // Tz = 3 (4 -> 2), Ti = 4 (4 -> 4): DRAM P = 16/4 = 4, Q = 16/2 = 8, K = 4/2 = 2, C = 1.
    void timeloopNonDividingTiles() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        Schedule s = workedExampleSchedule(net, hw);
        s.layers[size_t(idOf(net, "conv2"))].tile = {3, 3, 5, 4}; // indexed z, y, x, i
        const std::string text = timeloopText(net, hw, s, "conv2");
        const YAML::Node doc = YAML::Load(text);
        QCOMPARE(mappingEntry(doc, "DRAM", "temporal")["factors"].as<std::string>(),
                 std::string("R=1 S=1 P=4 Q=8 C=1 K=2 N=1"));
        QCOMPARE(mappingEntry(doc, "Buffer", "temporal")["factors"].as<std::string>(),
                 std::string("R=3 S=3 P=4 Q=2 C=4 K=2 N=1"));
        // Each replacement is stated in a comment.
        QVERIFY2(text.find("# P (out_width 16): tile 5 does not divide 16") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("# Q (out_height 16): tile 3 does not divide 16") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("# K (out_channels 4): tile 3 does not divide 4") != std::string::npos,
                 text.c_str());
        QVERIFY(text.find("tile 4 does not divide") == std::string::npos);
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
    // Buffer factors multiply to the instance for each dim; the buffer factor never exceeds
    // the schedule's tile; permutations name each dim once.
    void timeloopFactorsMultiplyToInstance() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        int layers = 0;
        for (const char* name : test::documentedNetworks()) {
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
                    QVERIFY2(dram.at(dim) * buf.at(dim) == want, (where + " dim " + dim).c_str());
                }
                const LayerSchedule& ls = s.layers[size_t(f.layer)];
                QVERIFY2(buf.at('K') <= ls.T(Dim::z) && buf.at('Q') <= ls.T(Dim::y), where.c_str());
                QVERIFY2(buf.at('P') <= ls.T(Dim::x) && buf.at('C') <= ls.T(Dim::i), where.c_str());
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

    // Stream: layer_stacks are the schedule's fusion groups (as workload ids, in order).
    // L2Net with conv1 + conv2 fused: [[0, 1]]; ResNet-18 with each block's two convs fused:
    // one stack per group, everything else alone.
    void streamLayerStacksAreTheGroups() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Network l2 = lf::test::bundledNetwork("l2net");
        const Schedule s2 = scheduleFromText(
            "format: layerfuse/schedule@1\ngroups:\n  - {name: g0, layers: [conv1, conv2]}\n", l2,
            hw);
        const YAML::Node d2 = YAML::Load(exportStream(l2, hw, s2).text);
        QCOMPARE(int(d2["layer_stacks"].size()), 1);
        QCOMPARE(d2["layer_stacks"][0].as<std::vector<int>>(), (std::vector<int>{0, 1}));

        const Network net = lf::test::bundledNetwork("resnet18");
        std::string sched = "format: layerfuse/schedule@1\ngroups:\n";
        for (const char* block : {"layer1.0", "layer1.1", "layer2.1", "layer3.1", "layer4.1"})
            sched += std::string("  - {name: ") + block + ", layers: [" + block + ".conv1, " +
                     block + ".conv2]}\n";
        const Schedule s = scheduleFromText(sched, net, hw);
        const StreamExport e = exportStream(net, hw, s);
        const YAML::Node doc = YAML::Load(e.text);
        std::map<int, std::string> nameOfId;
        for (const auto& w : doc["workload"])
            nameOfId[w["id"].as<int>()] = w["name"].as<std::string>();
        std::vector<std::vector<std::string>> stacks;
        for (const auto& st : doc["layer_stacks"]) {
            stacks.emplace_back();
            for (const auto& i : st)
                stacks.back().push_back(nameOfId.at(i.as<int>()));
        }
        std::vector<std::vector<std::string>> groups;
        for (const FusionGroup& g : s.groups) {
            groups.emplace_back();
            for (LayerId id : g.layers)
                if (isStreamLayer(net.layer(id))) groups.back().push_back(net.layer(id).name);
            if (groups.back().empty()) groups.pop_back();
        }
        QCOMPARE(stacks, groups);
        QCOMPARE(stacks.size(), size_t(nameOfId.size() - 5)); // five pairs fused
        QCOMPARE(stacks[2], (std::vector<std::string>{"layer1.0.conv1", "layer1.0.conv2"}));
    }

    // loop_sizes are our dims for every workload layer of every bundled network: B = batch,
    // K = out_channels, C = in_channels (both per group when G is present), G = groups (pools
    // and adds: channels), OY/OX = output height/width, FY/FX = kernel (fc, global pool: the
    // input extent). Every conv, fc, pool, global_pool and add layer appears once, ids 0..n-1.
    void streamLoopSizesAreOurDims() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        for (const char* name : test::documentedNetworks()) {
            const Network net = lf::test::bundledNetwork(name);
            const YAML::Node doc = YAML::Load(exportStream(net, hw, defaultSchedule(net, hw)).text);
            int expectedCount = 0;
            for (LayerId id = 0; id < net.size(); ++id)
                expectedCount += isStreamLayer(net.layer(id));
            QVERIFY2(int(doc["workload"].size()) == expectedCount, name);
            int next = 0;
            for (const auto& w : doc["workload"]) {
                QCOMPARE(w["id"].as<int>(), next++);
                const LayerId id = idOf(net, w["name"].as<std::string>().c_str());
                const Layer& l = net.layer(id);
                const HandDims d = handDims(net, id);
                const auto dims = strings(w["loop_dims"]);
                const auto sizes = w["loop_sizes"].as<std::vector<int64_t>>();
                QCOMPARE(dims.size(), sizes.size());
                std::map<std::string, int64_t> got;
                for (size_t k = 0; k < dims.size(); ++k)
                    got[dims[k]] = sizes[k];
                std::map<std::string, int64_t> want{{"B", 1}, {"OY", d.oy}, {"OX", d.ox}};
                if (l.type == LayerType::add) {
                    want["G"] = d.k;
                } else if (l.type == LayerType::pool || l.type == LayerType::global_pool) {
                    want["G"] = d.k;
                    want["FY"] = d.fy;
                    want["FX"] = d.fx;
                } else if (d.g > 1 && d.g == d.c && d.g == d.k) { // depthwise
                    want["G"] = d.g;
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

    // intra_core_tiling = number of tiles ceil(D/T) per tiled dim, outermost loop first,
    // single tiles left out. Worked example (order z, y, x, i; tiles 4 of 4, 16, 16, 4):
    // OY 16/4 = 4, OX 4 -> ["OY, 4", "OX, 4"]. With Tz = 3, Ty = 3, Tx = 5: K ceil(4/3) = 2,
    // OY ceil(16/3) = 6, OX ceil(16/5) = 4.
    void streamIntraCoreTilingFromTiles() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("convfusion-40nm");
        Schedule s = workedExampleSchedule(net, hw);
        auto tilingOfConv2 = [&]() {
            const YAML::Node doc = YAML::Load(exportStream(net, hw, s).text);
            for (const auto& m : doc["mapping"])
                if (m["name"].as<std::string>() == "conv2") return strings(m["intra_core_tiling"]);
            throw std::runtime_error("no mapping entry for conv2");
        };
        QCOMPARE(tilingOfConv2(), (std::vector<std::string>{"OY, 4", "OX, 4"}));
        s.layers[size_t(idOf(net, "conv2"))].tile = {3, 3, 5, 4};
        QCOMPARE(tilingOfConv2(), (std::vector<std::string>{"K, 2", "OY, 6", "OX, 4"}));
        // Stream needs a default entry.
        const YAML::Node doc = YAML::Load(exportStream(net, hw, s).text);
        QCOMPARE(doc["mapping"][doc["mapping"].size() - 1]["name"].as<std::string>(),
                 std::string("default"));
    }

    // operand_source: the producer's workload id; a network input names the layer itself;
    // weights are the layer's own constant operand; an add's two inputs are W and I in order;
    // a concat (not a Stream layer) is looked through to its first input.
    void streamOperandSources() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Network net = lf::test::bundledNetwork("resnet18");
        const YAML::Node doc = YAML::Load(exportStream(net, hw, defaultSchedule(net, hw)).text);
        std::map<std::string, YAML::Node> byName;
        for (const YAML::Node& w : doc["workload"])
            byName.emplace(w["name"].as<std::string>(), w);
        auto id = [&](const char* n) { return byName.at(n)["id"].as<int>(); };
        QCOMPARE(byName["conv1"]["operand_source"]["I"].as<int>(), id("conv1"));
        QCOMPARE(byName["conv1"]["operand_source"]["W"].as<int>(), id("conv1"));
        QCOMPARE(byName["layer1.0.conv1"]["operand_source"]["I"].as<int>(), id("maxpool"));
        const YAML::Node add = byName["layer1.0.add"]["operand_source"];
        QCOMPARE(add["W"].as<int>(), id("layer1.0.conv2"));
        QCOMPARE(add["I"].as<int>(), id("maxpool"));
        QCOMPARE(byName["conv1"]["padding"][0].as<std::vector<int>>(), (std::vector<int>{3, 3}));
        QCOMPARE(strings(byName["conv1"]["dimension_relations"]),
                 (std::vector<std::string>{"ix=2*ox+1*fx", "iy=2*oy+1*fy"}));

        const Network g = lf::test::bundledNetwork("googlenet");
        const StreamExport ge = exportStream(g, hw, defaultSchedule(g, hw));
        const YAML::Node gd = YAML::Load(ge.text);
        std::map<std::string, int> gid;
        for (const auto& w : gd["workload"])
            gid[w["name"].as<std::string>()] = w["id"].as<int>();
        QVERIFY(!gid.count("inception3a.concat"));
        const LayerId cat = idOf(g, "inception3a.concat");
        const std::string first = g.layer(g.layer(cat).inputs.front()).name;
        const LayerId consumer = g.successors(cat).front();
        for (const auto& w : gd["workload"])
            if (w["name"].as<std::string>() == g.layer(consumer).name)
                QCOMPARE(w["operand_source"]["I"].as<int>(), gid.at(first));
        bool noted = false;
        for (const std::string& n : ge.notes)
            noted = noted || n.find("inception3a.concat (concat)") == 0;
        QVERIFY(noted);
        QVERIFY(gd["notes"].IsSequence());
    }

    // A spatial partition gives each layer of the group its own core, in group order.
    void streamSpatialPartitionCores() {
        const Network net = lf::test::bundledNetwork("l2net");
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Schedule s = scheduleFromText(
            "format: layerfuse/schedule@1\ngroups:\n  - name: g0\n    layers: [conv1, conv2]\n"
            "    partition: {kind: spatial, subarrays: {conv1: {col: 0, row: 0, cols: 16, rows: "
            "16}, "
            "conv2: {col: 16, row: 0, cols: 16, rows: 16}}}\n",
            net, hw);
        const YAML::Node doc = YAML::Load(exportStream(net, hw, s).text);
        QCOMPARE(doc["mapping"][0]["core_allocation"].as<std::vector<int>>(), std::vector<int>{0});
        QCOMPARE(doc["mapping"][1]["core_allocation"].as<std::vector<int>>(), std::vector<int>{1});
        QCOMPARE(doc["mapping"][1]["inter_core_tiling"].size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestExports)
#include "tst_exports.moc"
