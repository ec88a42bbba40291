// Stream export (io/exports/stream_export.h) against the rules of Stream 1.13.14 (KU Leuven
// MICAS, main 28fb9011), read from its source — Stream needs Python 3.12, OR-Tools and
// pydantic 2, so it does not run here. streamProblems() below restates, file by file, what
// Stream's parsers require:
// - stream/parser/onnx/model.py: every node's operator has a parser or is a fusion edge;
//   graph inputs have static shapes of a type onnx_tensor_to_tensor maps; weights are not
//   INT32/INT64 initializers (those are skipped, and the Conv / Gemm would miss its input);
// - stream/parser/onnx/conv.py, max_pool.py, gemm.py: 2-D strides, 4 pads (MaxPool: equal),
//   two inputs for Conv / Gemm, Gemm's B as [K, N];
// - stream/parser/mapping_validator.py: `layers` entries with only name, core_allocation
//   (list of lists of ints), inter_core_tiling, kernel; `fused_groups` with name, layers,
//   intra_core_tiling [{dim, tile > 0}]; every fused-group layer names a `layers` entry;
// - stream/parser/mapping_factory.py: every computation node has an entry (by name or
//   operator type); core ids exist; an intra_core_tiling dim is `NODE.D<k>` with NODE a
//   computation node and k inside its iteration space (Conv 7 dims, MaxPool 6,
//   GlobalAveragePool 6, Gemm 3, element-wise the output's rank);
// - stream/stages/generation/fixed_mapping_generation.py: the groups' last layers cut the
//   workload in order;
// - stream/parser/accelerator_validator.py, core_validator.py and ZigZag 3.8's
//   accelerator_validator.py (Stream pins zigzag-dse 3.8.5): the accelerator's keys, core
//   ids 0..n-1, the off-chip core among them, namespaced core types, each core a valid
//   ZigZag core, links between at least two cores with a positive bandwidth.
#include "export_test_helpers.h"
#include "test_support.h"

#include "io/exports/stream_export.h"
#include "models/evaluate.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <onnx/onnx_pb.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <regex>
#include <set>
#include <string>

using namespace lf;

namespace {

const std::set<std::string> kComputeOps{"Conv",
                                        "Gemm",
                                        "MatMul",
                                        "MaxPool",
                                        "GlobalAveragePool",
                                        "BatchNormalization",
                                        "Softmax",
                                        "LpNormalization",
                                        "LayerNormalization",
                                        "Slice",
                                        "Gather",
                                        "Add",
                                        "Sub",
                                        "Mul",
                                        "Div",
                                        "Pow",
                                        "Relu",
                                        "Silu",
                                        "Gelu",
                                        "Sigmoid",
                                        "Tanh"};
const std::set<std::string> kEdgeOps{"Flatten", "Reshape", "Transpose", "Squeeze", "Unsqueeze"};

bool keysWithin(const YAML::Node& map, const std::set<std::string>& allowed) {
    for (const auto& kv : map)
        if (!allowed.count(kv.first.as<std::string>())) return false;
    return true;
}

std::vector<int64_t> intsAttr(const onnx::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return {a.ints().begin(), a.ints().end()};
    return {};
}

bool isInt(const YAML::Node& n) {
    if (!n.IsScalar()) return false;
    return std::regex_match(n.Scalar(), std::regex("-?[0-9]+"));
}

// Valid ZigZag 3.8 core (zigzag/parser/accelerator_validator.py SCHEMA) plus Stream's `type`
// and extension fields.
void checkCore(const YAML::Node& core, const std::string& where,
               std::vector<std::string>& problems) {
    if (!keysWithin(core, {"name", "memories", "operational_array", "dataflows", "type",
                           "operator_types", "operand_precision"}))
        problems.push_back(where + ": a key outside ZigZag's accelerator schema");
    if (!core["name"] || !core["memories"] || !core["operational_array"])
        problems.push_back(where + ": name, memories and operational_array are required");
    const std::string type = core["type"] ? core["type"].as<std::string>() : "";
    if (!std::regex_match(type, std::regex("zigzag\\.(compute|memory|shim|offchip)")))
        problems.push_back(where + ": type '" + type + "' is not a zigzag.<kind>");
    for (const auto& mem : core["memories"]) {
        const std::string m = where + " memory " + mem.first.as<std::string>();
        const YAML::Node v = mem.second;
        if (!keysWithin(v, {"size", "r_cost", "w_cost", "area", "latency", "mem_type",
                            "auto_cost_extraction", "operands", "ports", "served_dimensions",
                            "force_double_buffering"}))
            problems.push_back(m + ": a key outside the memory schema");
        if (!isInt(v["size"]) || !isInt(v["latency"]) || !v["r_cost"] || !v["w_cost"] || !v["area"])
            problems.push_back(m + ": size, latency (integers), r_cost, w_cost, area");
        for (const auto& op : v["operands"])
            if (!std::regex_match(op.as<std::string>(), std::regex("^I[12]$|^O$")))
                problems.push_back(m + ": operand " + op.as<std::string>());
        for (const auto& port : v["ports"]) {
            if (!std::regex_match(port["name"].as<std::string>(),
                                  std::regex("^[r]?[w]?_port_\\d+$")))
                problems.push_back(m + ": port name " + port["name"].as<std::string>());
            const std::string t = port["type"].as<std::string>();
            for (const auto& a : port["allocation"]) {
                const std::string s = a.as<std::string>();
                if (!std::regex_match(s, std::regex("^(I[12]|O), (fh|tl|fl|th)$")))
                    problems.push_back(m + ": allocation " + s);
                const bool writes =
                    s.find("fh") != std::string::npos || s.find("fl") != std::string::npos;
                if ((writes && t == "read") || (!writes && t == "write"))
                    problems.push_back(m + ": allocation " + s + " on a " + t + " port");
            }
            if (port["bandwidth_min"].as<int64_t>() > port["bandwidth_max"].as<int64_t>())
                problems.push_back(m + ": bandwidth_min above bandwidth_max");
        }
        for (const auto& d : v["served_dimensions"])
            if (!std::regex_match(d.as<std::string>(), std::regex("^D\\d$")))
                problems.push_back(m + ": served dimension " + d.as<std::string>());
    }
    const YAML::Node oa = core["operational_array"];
    if (oa["dimensions"].size() != oa["sizes"].size())
        problems.push_back(where + ": operational_array dimensions and sizes differ in length");
}

// Every rule listed at the top of this file; empty when Stream would accept the files.
std::vector<std::string> streamProblems(const StreamExport& e) {
    std::vector<std::string> problems;
    onnx::ModelProto model;
    if (!model.ParseFromString(e.workload)) return {"workload.onnx does not parse"};
    const auto& g = model.graph();
    const std::set<int> tensorTypes{onnx::TensorProto::FLOAT, onnx::TensorProto::BFLOAT16,
                                    onnx::TensorProto::INT8, onnx::TensorProto::INT16,
                                    onnx::TensorProto::INT32};
    for (const auto& in : g.input()) {
        if (!tensorTypes.count(in.type().tensor_type().elem_type()))
            problems.push_back("graph input " + in.name() + " has a type Stream does not map");
        for (const auto& d : in.type().tensor_type().shape().dim())
            if (!d.has_dim_value()) problems.push_back("graph input " + in.name() + " is dynamic");
    }
    std::set<std::string> skippedInits; // INT32/INT64 initializers: not graph tensors in Stream
    std::map<std::string, std::vector<int64_t>> initDims;
    for (const auto& t : g.initializer()) {
        if (t.data_type() == onnx::TensorProto::INT32 || t.data_type() == onnx::TensorProto::INT64)
            skippedInits.insert(t.name());
        initDims[t.name()] = {t.dims().begin(), t.dims().end()};
    }
    std::map<std::string, std::string> opOf; // computation node -> op type
    std::vector<std::string> computeOrder;
    for (const auto& n : g.node()) {
        if (n.input_size() == 0) problems.push_back(n.name() + ": a node without inputs");
        if (n.name().empty()) problems.push_back("a node without a name");
        if (kEdgeOps.count(n.op_type())) continue;
        if (!kComputeOps.count(n.op_type())) {
            problems.push_back(n.name() + ": no Stream parser for " + n.op_type());
            continue;
        }
        opOf[n.name()] = n.op_type();
        computeOrder.push_back(n.name());
        if (n.op_type() == "Conv" || n.op_type() == "Gemm") {
            if (n.input_size() < 2 || skippedInits.count(n.input(1)))
                problems.push_back(n.name() + ": weights missing for Stream");
        }
        if (n.op_type() == "Conv" || n.op_type() == "MaxPool") {
            const auto s = intsAttr(n, "strides"), p = intsAttr(n, "pads");
            if ((!s.empty() && s.size() != 2) || (!p.empty() && p.size() != 4))
                problems.push_back(n.name() + ": strides / pads not 2-D");
            if (n.op_type() == "MaxPool" && !p.empty() &&
                !(p[0] == p[1] && p[0] == p[2] && p[0] == p[3]))
                problems.push_back(n.name() + ": asymmetric MaxPool padding");
        }
        if (n.op_type() == "Gemm") {
            for (const auto& a : n.attribute())
                if ((a.name() == "transA" || a.name() == "transB") && a.i() != 0)
                    problems.push_back(n.name() + ": Stream's Gemm ignores " + a.name());
            if (initDims[n.input(1)].size() != 2)
                problems.push_back(n.name() + ": Gemm weights not 2-D");
        }
    }
    if (g.output_size() == 0) problems.push_back("the graph has no output");

    const YAML::Node map = YAML::Load(e.mapping);
    if (!map.IsMap() || !map["layers"] ||
        !keysWithin(map, {"layers", "fused_groups", "runtime_args"}))
        problems.push_back("mapping: a map with `layers` (and fused_groups, runtime_args)");
    std::set<std::string> entries;
    for (const auto& l : map["layers"]) {
        if (!keysWithin(l, {"name", "core_allocation", "inter_core_tiling", "kernel"}))
            problems.push_back("mapping: layer entry with an unknown field");
        if (!l["name"] || !l["core_allocation"] || !l["core_allocation"].IsSequence())
            problems.push_back("mapping: layer entry without name / core_allocation");
        for (const auto& grp : l["core_allocation"]) {
            if (!grp.IsSequence())
                problems.push_back("mapping: core_allocation is a list of lists");
            for (const auto& c : grp)
                if (!isInt(c) || c.as<int>() != 0)
                    problems.push_back("mapping: core " + c.Scalar() + " is not the array core");
        }
        entries.insert(l["name"].as<std::string>());
    }
    for (const auto& [name, op] : opOf)
        if (!entries.count(name) && !entries.count(op))
            problems.push_back("mapping: no entry for node " + name);
    size_t cut = 0; // the groups' last layers cut the nodes in order
    for (const auto& fg : map["fused_groups"]) {
        if (!keysWithin(fg, {"name", "layers", "intra_core_tiling"}) || !fg["name"] ||
            !fg["layers"] || !fg["intra_core_tiling"])
            problems.push_back("mapping: fused group fields");
        for (const auto& l : fg["layers"])
            if (!entries.count(l.as<std::string>()))
                problems.push_back("mapping: fused group names unknown layer " +
                                   l.as<std::string>());
        const std::string last = fg["layers"][fg["layers"].size() - 1].as<std::string>();
        const auto it = std::find(computeOrder.begin(), computeOrder.end(), last);
        if (it == computeOrder.end() || size_t(it - computeOrder.begin()) < cut)
            problems.push_back("mapping: fused group " + fg["name"].as<std::string>() +
                               " does not end after the previous one");
        else
            cut = size_t(it - computeOrder.begin());
        for (const auto& t : fg["intra_core_tiling"]) {
            if (!keysWithin(t, {"dim", "tile"}) || !isInt(t["tile"]) || t["tile"].as<int>() <= 0)
                problems.push_back("mapping: intra_core_tiling entries are {dim, tile > 0}");
            const std::string dim = t["dim"].as<std::string>();
            const size_t dot = dim.rfind('.');
            const std::string node = dim.substr(0, dot);
            if (dot == std::string::npos || dim[dot + 1] != 'D' || !opOf.count(node)) {
                problems.push_back("mapping: tiling dim " + dim + " names no computation node");
                continue;
            }
            const int k = std::stoi(dim.substr(dot + 2));
            const std::string op = opOf[node];
            const int rank = op == "Conv"                                   ? 7
                             : op == "MaxPool" || op == "GlobalAveragePool" ? 6
                             : op == "Gemm"                                 ? 3
                                                                            : 4;
            if (k < 0 || k >= rank) problems.push_back("mapping: " + dim + " is outside the node");
        }
    }

    const YAML::Node acc = YAML::Load(e.accelerator);
    if (!keysWithin(acc, {"name", "cores", "offchip_core_id", "unit_energy_cost",
                          "core_connectivity", "core_memory_sharing", "core_coordinates",
                          "technology_node", "memory_aliases"}) ||
        !acc["name"] || !acc["cores"] || !acc["offchip_core_id"] || !acc["core_connectivity"])
        problems.push_back("accelerator: keys");
    std::set<int> ids;
    for (const auto& c : acc["cores"]) {
        ids.insert(c.first.as<int>());
        checkCore(c.second, "accelerator core " + c.first.as<std::string>(), problems);
    }
    if (ids.empty() || *ids.rbegin() != int(ids.size()) - 1)
        problems.push_back("accelerator: core ids are not 0..n-1");
    if (!ids.count(acc["offchip_core_id"].as<int>()))
        problems.push_back("accelerator: the off-chip core is not a core");
    for (const auto& link : acc["core_connectivity"]) {
        const std::string t = link["type"] ? link["type"].as<std::string>() : "link";
        if ((t != "link" && t != "bus") || link["cores"].size() < 2 ||
            link["bandwidth"].as<double>() <= 0)
            problems.push_back("accelerator: core_connectivity entry");
        for (const auto& c : link["cores"])
            if (!ids.count(c.as<int>())) problems.push_back("accelerator: link to no core");
    }
    return problems;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v)
        s += x + "\n";
    return s;
}

} // namespace

class TestStreamExport : public QObject {
    Q_OBJECT

  private slots:
    // Every bundled network Stream can take (its operators have parsers), default schedule,
    // two presets: the three files meet every rule; the others are refused with the reason.
    void bundledNetworksMeetStreamsRules() {
        int written = 0;
        for (const char* hwName : {"hwff-config-1", "convfusion-40nm"}) {
            const Hardware hw = lf::test::bundledHardware(hwName);
            for (const char* name : lf::test::bundledNetworkNames()) {
                const Network net = lf::test::bundledNetwork(name);
                auto e = exportStream(net, hw, defaultSchedule(net, hw));
                if (!streamUnsupported(net).empty()) {
                    QVERIFY2(!e.ok(), name);
                    QVERIFY(e.error().message.find("cannot be written for Stream") !=
                            std::string::npos);
                    continue;
                }
                QVERIFY2(e.ok(), e.ok() ? name : e.error().toString().c_str());
                const auto problems = streamProblems(*e);
                QVERIFY2(problems.empty(), (std::string(name) + ":\n" + joined(problems)).c_str());
                ++written;
            }
        }
        QVERIFY2(written >= 16, qPrintable(QString::number(written)));
    }

    // ResNet-18 with each block's two convolutions fused: one fused group per schedule group,
    // in order; a group's nodes are its layers' nodes with their ReLUs; the tiling names the
    // group's last node (an Add: its output rows and columns D2, D3) with the output tile.
    void fusedGroupsAndTiling() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Network net = lf::test::bundledNetwork("resnet18");
        std::string sched = "format: layerfuse/schedule@1\ngroups:\n";
        for (const char* block : {"layer1.0", "layer2.1"})
            sched += std::string("  - {name: ") + block + ", layers: [" + block + ".conv1, " +
                     block + ".conv2, " + block + ".add]}\n";
        const Schedule s = lf::test::scheduleFromText(sched, net, hw);
        auto e = exportStream(net, hw, s);
        QVERIFY2(e.ok(), e.ok() ? "" : e.error().toString().c_str());
        QVERIFY2(streamProblems(*e).empty(), joined(streamProblems(*e)).c_str());
        const YAML::Node map = YAML::Load(e->mapping);
        QCOMPARE(map["fused_groups"].size(), s.groups.size());
        YAML::Node block;
        bool found = false;
        for (const YAML::Node& fg : map["fused_groups"])
            if (fg["name"].as<std::string>() == "layer1.0") {
                block.reset(fg);
                found = true;
            }
        QVERIFY(found);
        QCOMPARE(lf::test::yamlStrings(block["layers"]),
                 (std::vector<std::string>{"layer1.0.conv1", "layer1.0.conv1/Relu",
                                           "layer1.0.conv2", "layer1.0.add", "layer1.0.add/Relu"}));
        const LayerSchedule& add = s.layers[size_t(net.find("layer1.0.add"))];
        QCOMPARE(block["intra_core_tiling"][0]["dim"].as<std::string>(),
                 std::string("layer1.0.add/Relu.D2"));
        QCOMPARE(block["intra_core_tiling"][0]["tile"].as<int64_t>(),
                 std::min<int64_t>(add.T(Dim::y), 56));
        QCOMPARE(block["intra_core_tiling"][1]["dim"].as<std::string>(),
                 std::string("layer1.0.add/Relu.D3"));
        // Every layer runs on the array core; the accelerator links it to DRAM.
        const YAML::Node acc = YAML::Load(e->accelerator);
        QCOMPARE(acc["cores"]["1"]["type"].as<std::string>(), std::string("zigzag.offchip"));
        QCOMPARE(acc["core_connectivity"][0]["bandwidth"].as<double>(), 64.0);
        QVERIFY(e->mapping.find("# Stream 1.13.14 (main 28fb9011) mapping") == 0);
    }

    // The rules catch what Stream refuses: the mapping format of older Stream versions
    // (per-layer intra_core_tiling, flat core_allocation), a fused group naming a node that
    // is not in the workload, a node without a mapping entry.
    void theRulesCatchWhatStreamRefuses() {
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Network net = lf::test::bundledNetwork("l2net");
        auto e = exportStream(net, hw, defaultSchedule(net, hw));
        QVERIFY(e.ok());
        QVERIFY(streamProblems(*e).empty());
        StreamExport old = *e;
        old.mapping = "layers:\n  - {name: conv1, core_allocation: [0], intra_core_tiling: "
                      "[\"OY, 4\"]}\n  - {name: conv2, core_allocation: [[0]]}\n";
        QVERIFY(!streamProblems(old).empty());
        StreamExport unknown = *e;
        unknown.mapping += "  - {name: g9, layers: [conv7], intra_core_tiling: []}\n";
        QVERIFY(!streamProblems(unknown).empty());
        StreamExport missing = *e;
        missing.mapping = "layers:\n  - {name: conv1, core_allocation: [[0]]}\n";
        QVERIFY(joined(streamProblems(missing)).find("no entry for node conv2") !=
                std::string::npos);
    }

    // Networks Stream has no parsers for: the reason per layer.
    void unsupportedNetworksAreRefused() {
        const auto mb = streamUnsupported(lf::test::bundledNetwork("mobilenetv2"));
        QVERIFY(!mb.empty());
        QVERIFY(mb.front().find("depthwise") != std::string::npos);
        const auto g = streamUnsupported(lf::test::bundledNetwork("googlenet"));
        bool concat = false;
        for (const auto& r : g)
            concat = concat || r.find("Stream has no Concat parser") != std::string::npos;
        QVERIFY(concat);
        QVERIFY(streamUnsupported(lf::test::bundledNetwork("resnet50")).empty());
    }

    // writeStreamExport writes the three files with the export's notes; a network Stream
    // cannot take is an error that writes nothing.
    void writesThreeFilesOrNothing() {
        const Network net = lf::test::bundledNetwork("resnet18");
        const Hardware hw = lf::test::bundledHardware("hwff-config-1");
        const Schedule s = defaultSchedule(net, hw);
        QTemporaryDir dir;
        auto written = writeStreamExport(dir.filePath("st").toStdString(), net, hw, s);
        QVERIFY2(written.ok(), written.ok() ? "" : written.error().toString().c_str());
        QCOMPARE(int(written->paths.size()), 3);
        for (const std::string& p : written->paths)
            QVERIFY2(QFileInfo(QString::fromStdString(p)).size() > 0, p.c_str());
        QCOMPARE(written->notes, exportStream(net, hw, s)->notes);
        const Network mb = lf::test::bundledNetwork("mobilenetv2");
        auto refused =
            writeStreamExport(dir.filePath("mb").toStdString(), mb, hw, defaultSchedule(mb, hw));
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().toString().find("depthwise") != std::string::npos);
        QVERIFY(!QFileInfo::exists(dir.filePath("mb")));
    }
};

QTEST_GUILESS_MAIN(TestStreamExport)
#include "tst_stream_export.moc"
