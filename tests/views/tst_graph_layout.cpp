// Graphviz layout of the DAG canvas: geometric invariants (never raw coordinates).
#include "edits/schedule_edits.h"
#include "graph/graph_labels.h"
#include "graph/graph_scene.h"
#include "graph/layouter.h"
#include "models/evaluate.h"
#include "test_support.h"

#include <QTest>

#include <algorithm>
#include <clocale>

using namespace lf;
using namespace lf::graph;

namespace {

StudioState stateOf(const Network& net, const Hardware& hw, Schedule s) {
    StudioState st;
    st.network = net;
    st.hardware = hw;
    st.schedule = std::move(s);
    return st;
}

StudioState defaultState(const char* network) {
    const Network net = test::bundledNetwork(network);
    const Hardware hw = test::bundledHardware("hwff-config-1");
    return stateOf(net, hw, defaultSchedule(net, hw));
}

// Edge labels of a laid-out state: how many, how many straddle a group's frame, how many lie
// on a group's caption (its name, fill and bar).
struct LabelCount {
    int labels = 0, crossing = 0, onCaption = 0;
};
LabelCount countLabels(const StudioState& st) {
    LabelCount n;
    GraphScene scene;
    if (!scene.setState(st).error.isEmpty() || scene.groupItems().empty()) {
        n.labels = -1;
        return n;
    }
    std::vector<QRectF> frames, captions;
    for (const GroupItem* g : scene.groupItems()) {
        frames.push_back(g->mapRectToScene(g->rect()));
        captions.push_back(g->mapRectToScene(g->captionRect()));
    }
    for (const EdgeItem* e : scene.edges()) {
        if (e->label().isEmpty()) continue;
        ++n.labels;
        const QRectF box = e->labelRect();
        for (const QRectF& f : frames)
            if (box.intersects(f.adjusted(-2, -2, 2, 2)) &&
                !f.adjusted(2, 2, -2, -2).contains(box)) {
                ++n.crossing;
                break;
            }
        for (const QRectF& c : captions)
            if (box.intersects(c)) {
                ++n.onCaption;
                break;
            }
    }
    return n;
}

// Ranks follow edges: every edge goes downward, from the bottom of its tail to the top of its
// head; boxes keep their measured sizes and never overlap.
void checkLayoutInvariants(const LayoutRequest& req, const LayoutResult& res) {
    QVERIFY2(res.ok, res.error.c_str());
    QCOMPARE(res.nodes.size(), req.nodes.size());
    QCOMPARE(res.edges.size(), req.edges.size());
    std::map<int, size_t> index;
    for (size_t k = 0; k < req.nodes.size(); ++k) {
        index[req.nodes[k].id] = k;
        QVERIFY(std::abs(res.nodes[k].width - req.nodes[k].width) < 0.05);
        QVERIFY(std::abs(res.nodes[k].height - req.nodes[k].height) < 0.05);
        QVERIFY(res.nodes[k].x >= -0.5 && res.nodes[k].right() <= res.width + 0.5);
        QVERIFY(res.nodes[k].y >= -0.5 && res.nodes[k].bottom() <= res.height + 0.5);
    }
    for (size_t k = 0; k < req.edges.size(); ++k) {
        const LayoutRect& t = res.nodes[index[req.edges[k].tail]];
        const LayoutRect& h = res.nodes[index[req.edges[k].head]];
        QVERIFY2(h.y >= t.bottom() - 0.5, qPrintable(QStringLiteral("edge %1 -> %2 goes up")
                                                         .arg(req.edges[k].tail)
                                                         .arg(req.edges[k].head)));
        const auto& path = res.edges[k].path;
        QVERIFY(path.size() >= 4 && (path.size() - 1) % 3 == 0);
        QVERIFY(std::abs(path.front().y - t.bottom()) < 3);
        QVERIFY(res.edges[k].arrow_tip);
        QVERIFY(std::abs(res.edges[k].arrow_tip->y - h.y) < 3);
    }
    for (size_t a = 0; a < res.nodes.size(); ++a)
        for (size_t b = a + 1; b < res.nodes.size(); ++b) {
            const LayoutRect& p = res.nodes[a];
            const LayoutRect& q = res.nodes[b];
            const bool overlap = p.x < q.right() - 0.5 && q.x < p.right() - 0.5 &&
                                 p.y < q.bottom() - 0.5 && q.y < p.bottom() - 0.5;
            QVERIFY2(!overlap, qPrintable(QStringLiteral("nodes %1 and %2 overlap")
                                              .arg(req.nodes[a].id)
                                              .arg(req.nodes[b].id)));
        }
}

void checkClusters(const LayoutRequest& req, const LayoutResult& res) {
    QCOMPARE(res.clusters.size(), req.clusters.size());
    std::map<int, size_t> index;
    for (size_t k = 0; k < req.nodes.size(); ++k)
        index[req.nodes[k].id] = k;
    for (size_t c = 0; c < req.clusters.size(); ++c) {
        const LayoutRect& box = res.clusters[c];
        const auto& members = req.clusters[c].members;
        double top = 1e300;
        for (int m : members) {
            const LayoutRect& n = res.nodes[index[m]];
            QVERIFY2(
                box.contains(n, 0.5),
                qPrintable(
                    QStringLiteral("cluster %1 misses node %2").arg(req.clusters[c].id).arg(m)));
            top = std::min(top, n.y);
        }
        // Room for the caption above the first member.
        QVERIFY(top - box.y >= req.clusters[c].header_height - 1);
        for (size_t k = 0; k < req.nodes.size(); ++k) {
            if (std::find(members.begin(), members.end(), req.nodes[k].id) != members.end())
                continue;
            const LayoutPoint p = res.nodes[k].center();
            const bool inside =
                p.x > box.x && p.x < box.right() && p.y > box.y && p.y < box.bottom();
            QVERIFY2(!inside, qPrintable(QStringLiteral("node %1 lies in cluster %2")
                                             .arg(req.nodes[k].id)
                                             .arg(req.clusters[c].id)));
        }
    }
}

} // namespace

class TestGraphLayout : public QObject {
    Q_OBJECT
  private slots:
    void resnet50LaysOut() {
        GraphScene scene;
        const StudioState st = defaultState("resnet50");
        const auto u = scene.setState(st);
        QVERIFY2(u.error.isEmpty(), qPrintable(u.error));
        QVERIFY(u.relaidOut && u.networkChanged);
        QCOMPARE(scene.lastRequest().nodes.size(), size_t(st.network.size()));
        checkLayoutInvariants(scene.lastRequest(), scene.lastLayout());
        QCOMPARE(scene.nodes().size(), size_t(st.network.size()));
        QCOMPARE(scene.edges().size(), scene.lastRequest().edges.size());
    }

    // Every produced tensor is labelled with its size exactly once, also at fan-outs (whose
    // out-edges all start just below the producer), and after a relayout.
    void eachTensorLabelledOnce() {
        GraphScene scene;
        StudioState st = defaultState("resnet18");
        const auto check = [&] {
            std::map<LayerId, int> labels, outEdges;
            for (const EdgeItem* e : scene.edges()) {
                ++outEdges[e->tail()];
                if (!e->label().isEmpty()) {
                    ++labels[e->tail()];
                    QCOMPARE(e->label(), tensorBytesText(st.network, st.hardware, e->tail()));
                }
            }
            for (const auto& [tail, n] : outEdges)
                QVERIFY2(labels[tail] == 1,
                         qPrintable(QStringLiteral("%1 has %2 labels on %3 edges")
                                        .arg(QString::fromStdString(st.network.layer(tail).name))
                                        .arg(labels[tail])
                                        .arg(n)));
        };
        QVERIFY(scene.setState(st).error.isEmpty());
        const LayerId maxpool = st.network.find("maxpool");
        QCOMPARE(std::count_if(scene.edges().begin(), scene.edges().end(),
                               [&](const EdgeItem* e) { return e->tail() == maxpool; }),
                 std::ptrdiff_t(2)); // the fan-out this is about
        check();
        if (QTest::currentTestFailed()) return;
        st.schedule =
            test::fused(st.schedule, st.network,
                        {maxpool, st.network.find("layer1.0.conv1"),
                         st.network.find("layer1.0.conv2"), st.network.find("layer1.0.add")});
        const auto u = scene.setState(st);
        QVERIFY(u.error.isEmpty() && u.relaidOut);
        check();
    }

    void clustersContainTheirMembers() {
        StudioState st = defaultState("resnet18");
        const auto id = [&](const char* n) { return st.network.find(n); };
        for (auto layers :
             {std::vector<LayerId>{id("layer1.0.conv1"), id("layer1.0.conv2"), id("layer1.0.add")},
              std::vector<LayerId>{id("layer2.0.conv1"), id("layer2.0.conv2")},
              std::vector<LayerId>{id("conv1"), id("maxpool")}}) {
            ScheduleEdit e = fuseLayers(st.network, st.hardware, st.schedule, layers);
            QVERIFY2(e.ok, e.reason.c_str());
            st.schedule = e.schedule;
        }
        GraphScene scene;
        QVERIFY(scene.setState(st).error.isEmpty());
        QCOMPARE(scene.lastRequest().clusters.size(), size_t(3));
        checkLayoutInvariants(scene.lastRequest(), scene.lastLayout());
        checkClusters(scene.lastRequest(), scene.lastLayout());
        QCOMPARE(scene.groupItems().size(), size_t(3));
    }

    // The tensor sizes are read, not crossed out: no label straddles a group's frame or lies
    // on its caption.
    void edgeLabelsStayOffGroupBorders() {
        StudioState st = defaultState("googlenet");
        auto id = [&](const char* n) { return st.network.find(n); };
        for (auto pair : {std::pair{"conv2_reduce", "conv2"},
                          std::pair{"inception3a.3x3_reduce", "inception3a.3x3"},
                          std::pair{"inception3a.5x5_reduce", "inception3a.5x5"},
                          std::pair{"inception3b.3x3_reduce", "inception3b.3x3"},
                          std::pair{"inception3b.pool", "inception3b.pool_proj"}}) {
            ScheduleEdit e =
                fuseLayers(st.network, st.hardware, st.schedule, {id(pair.first), id(pair.second)});
            QVERIFY2(e.ok, e.reason.c_str());
            st.schedule = e.schedule;
        }
        const LabelCount n = countLabels(st);
        QVERIFY(n.labels > 20);
        QCOMPARE(n.crossing, 0);
        QCOMPARE(n.onCaption, 0);
    }

    // A group whose first layer is fed from right above it (lesson 5's L2NetWide pair): the
    // header keeps a band below the caption for the entering tensor's size.
    void edgeLabelBelowCaptionOfGroupFedFromAbove() {
        StudioState st = defaultState("l2net-wide");
        auto id = [&](const char* n) { return st.network.find(n); };
        ScheduleEdit e =
            fuseLayers(st.network, st.hardware, st.schedule, {id("conv1"), id("conv2")});
        QVERIFY2(e.ok, e.reason.c_str());
        st.schedule = e.schedule;
        const LabelCount n = countLabels(st);
        QCOMPARE(n.labels, 2);
        QCOMPARE(n.crossing, 0);
        QCOMPARE(n.onCaption, 0);
    }

    void groupChangesUpdateItemsInPlace() {
        StudioState st = defaultState("resnet18");
        GraphScene scene;
        QVERIFY(scene.setState(st).relaidOut);
        const std::vector<NodeItem*> before = scene.nodes();
        // New metrics only: nothing moves, no layout.
        StudioState same = st;
        QVERIFY(!scene.setState(same).relaidOut);
        ScheduleEdit e =
            fuseLayers(st.network, st.hardware, st.schedule,
                       {st.network.find("layer1.0.conv1"), st.network.find("layer1.0.conv2")});
        QVERIFY(e.ok);
        st.schedule = e.schedule;
        const auto u = scene.setState(st);
        QVERIFY(u.relaidOut && !u.networkChanged);
        QVERIFY(scene.nodes() == before); // the same items, keyed by layer id
        for (LayerId id = 0; id < st.network.size(); ++id)
            QCOMPARE(scene.node(id)->layerId(), id);
        QCOMPARE(scene.groupItems().size(), size_t(1));
    }

    void thousandLayers() {
        const Network net = test::residualChain(334);
        QVERIFY(net.size() >= 1000);
        const Hardware hw = test::bundledHardware("hwff-config-1");
        Schedule s;
        normalize(s, net);
        GraphScene scene;
        const auto u = scene.setState(stateOf(net, hw, s));
        QVERIFY2(u.error.isEmpty(), qPrintable(u.error));
        const LayoutResult& res = scene.lastLayout();
        QVERIFY(res.ok);
        std::map<int, size_t> index;
        for (size_t k = 0; k < scene.lastRequest().nodes.size(); ++k)
            index[scene.lastRequest().nodes[k].id] = k;
        for (const auto& e : scene.lastRequest().edges)
            QVERIFY(res.nodes[index[e.head]].y >= res.nodes[index[e.tail]].bottom() - 0.5);
    }

    void decimalCommaLocaleDoesNotShrinkNodes() {
        // Graphviz reads sizes with atof; under a decimal-comma locale "2.5" would read as 2.
        const QString why = lf::test::switchToLocale(LC_NUMERIC, "de_DE.UTF-8", "de_DE", "UTF-8");
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const bool comma = std::localeconv()->decimal_point[0] == ',';
        auto layouter = makeGraphvizLayouter();
        LayoutRequest req;
        req.nodes = {{0, 180, 61}, {1, 150, 43}};
        req.edges = {{0, 1}};
        req.node_separation = 22.5;
        const LayoutResult res = layouter->layout(req);
        const std::string numericNow = std::setlocale(LC_NUMERIC, nullptr);
        std::setlocale(LC_NUMERIC, "C");
        QVERIFY(comma);
        QCOMPARE(numericNow, std::string("de_DE.UTF-8")); // the guard restored the caller's locale
        checkLayoutInvariants(req, res);
    }
};

QTEST_MAIN(TestGraphLayout)
#include "tst_graph_layout.moc"
