// The Graphviz layout process (layerfuse-layout) behind ProcessLayouter: the same picture for
// the same graph whatever was laid out before, replacement of the helper every `recycle_after`
// layouts and after it died, fallback to in-process layout without a helper, refusal of malformed
// messages, and the point of it all: dot's leaks on clustered graphs stay out of the studio's heap.
#include "graph/layout_protocol.h"
#include "graph/layouter.h"
#include "graph/process_layouter.h"

#include <QProcess>
#include <QSet>
#include <QTest>

#include <malloc.h>
#include <signal.h>
#include <unistd.h>

using namespace lf::graph;

namespace {

// A residual-style chain of `n` boxes with skip edges, every 4 consecutive boxes a cluster.
LayoutRequest clusteredRequest(int n) {
    LayoutRequest r;
    for (int k = 0; k < n; ++k)
        r.nodes.push_back({k, 120.0 + (k % 3) * 10, 44.0});
    for (int k = 0; k + 1 < n; ++k)
        r.edges.push_back({k, k + 1});
    for (int k = 0; k + 3 < n; k += 4)
        r.edges.push_back({k, k + 3});
    for (int c = 0; c * 4 + 3 < n; ++c)
        r.clusters.push_back({c, {c * 4, c * 4 + 1, c * 4 + 2, c * 4 + 3}, 16.0});
    return r;
}

void compareLayouts(const LayoutResult& a, const LayoutResult& b) {
    QVERIFY2(a.ok, a.error.c_str());
    QVERIFY2(b.ok, b.error.c_str());
    QCOMPARE(a.width, b.width);
    QCOMPARE(a.height, b.height);
    QCOMPARE(a.nodes.size(), b.nodes.size());
    for (size_t k = 0; k < a.nodes.size(); ++k) {
        QCOMPARE(a.nodes[k].x, b.nodes[k].x);
        QCOMPARE(a.nodes[k].y, b.nodes[k].y);
        QCOMPARE(a.nodes[k].width, b.nodes[k].width);
        QCOMPARE(a.nodes[k].height, b.nodes[k].height);
    }
    QCOMPARE(a.edges.size(), b.edges.size());
    for (size_t k = 0; k < a.edges.size(); ++k) {
        QCOMPARE(a.edges[k].path.size(), b.edges[k].path.size());
        for (size_t p = 0; p < a.edges[k].path.size(); ++p) {
            QCOMPARE(a.edges[k].path[p].x, b.edges[k].path[p].x);
            QCOMPARE(a.edges[k].path[p].y, b.edges[k].path[p].y);
        }
        QCOMPARE(a.edges[k].arrow_tip.has_value(), b.edges[k].arrow_tip.has_value());
    }
    QCOMPARE(a.clusters.size(), b.clusters.size());
    for (size_t k = 0; k < a.clusters.size(); ++k) {
        QCOMPARE(a.clusters[k].x, b.clusters[k].x);
        QCOMPARE(a.clusters[k].y, b.clusters[k].y);
        QCOMPARE(a.clusters[k].width, b.clusters[k].width);
        QCOMPARE(a.clusters[k].height, b.clusters[k].height);
    }
}

// What holds of any correct layout of the request, whichever process made it.
void checkShape(const LayoutRequest& req, const LayoutResult& r) {
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.nodes.size(), req.nodes.size());
    QCOMPARE(r.edges.size(), req.edges.size());
    QCOMPARE(r.clusters.size(), req.clusters.size());
    for (size_t k = 0; k < req.nodes.size(); ++k) {
        QCOMPARE(r.nodes[k].width, req.nodes[k].width);
        QCOMPARE(r.nodes[k].height, req.nodes[k].height);
    }
    for (size_t c = 0; c < req.clusters.size(); ++c)
        for (int m : req.clusters[c].members)
            QVERIFY(r.clusters[c].contains(r.nodes[size_t(m)], 0.5));
}

ProcessLayouter::Options helperOptions(int recycle = 1) {
    ProcessLayouter::Options o;
    o.program = findLayoutHelper();
    o.recycle_after = recycle;
    return o;
}

size_t heapInUse() {
    return mallinfo2().uordblks;
}

} // namespace

class TestLayoutProcess : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        // The build tree's helper is found without any set-up (LAYERFUSE_LAYOUT_HELPER_BUILD_PATH).
        QVERIFY2(!findLayoutHelper().isEmpty(), "layerfuse-layout was not found");
    }

    // dot 2.42 in one long-lived process lays the same graph out differently depending on
    // what it laid out before; a fresh helper per layout gives the same picture every time.
    void sameGraphSamePicture() {
        ProcessLayouter process(helperOptions());
        const LayoutRequest a = clusteredRequest(12);
        const LayoutResult first = process.layout(a);
        checkShape(a, first);
        for (int n : {9, 40, 1, 12, 30, 12}) {
            const LayoutRequest other = clusteredRequest(n);
            const LayoutResult r = process.layout(other);
            checkShape(other, r);
            compareLayouts(process.layout(a), first);
        }
        checkShape(a, makeGraphvizLayouter()->layout(a));
        QVERIFY(process.usingHelper());
    }

    void replacedAfterRecycleCount() {
        ProcessLayouter process(helperOptions(3));
        const LayoutRequest req = clusteredRequest(12);
        QList<qint64> pids;
        for (int k = 0; k < 7; ++k) {
            checkShape(req, process.layout(req));
            QCOMPARE(process.layoutsServedByCurrentHelper(), (k + 1) % 3);
            if (k % 3 == 0) pids << process.helperProcessId();
        }
        // Layouts 1-3 by one process, 4-6 by the next, 7 by a third.
        QCOMPARE(pids.size(), 3);
        QVERIFY(pids[0] > 0 && pids[1] > 0 && pids[2] > 0);
        QVERIFY(pids[0] != pids[1] && pids[1] != pids[2]);
    }

    // The studio's default and the helper's own account of it are the same policy: a fresh
    // helper for every protocol::kLayoutsPerHelper layouts (one).
    void helperAndStudioAgreeWhenTheHelperIsReplaced() {
        QCOMPARE(ProcessLayouter::Options{}.recycle_after, protocol::kLayoutsPerHelper);
        QCOMPARE(protocol::kLayoutsPerHelper, 1);
        QProcess help;
        help.start(findLayoutHelper(), {QStringLiteral("--help")});
        QVERIFY(help.waitForFinished(10000));
        const QString text = QString::fromUtf8(help.readAllStandardOutput());
        QVERIFY2(
            text.contains(
                QStringLiteral("fresh one every %1 layout(s)").arg(protocol::kLayoutsPerHelper)),
            qPrintable(text));
        // The layouter the canvas uses replaces its helper after every layout.
        auto layouter = makeDefaultLayouter();
        auto* process = dynamic_cast<ProcessLayouter*>(layouter.get());
        QVERIFY(process && process->usingHelper());
        const LayoutRequest req = clusteredRequest(6);
        QSet<qint64> helpers;
        for (int k = 0; k < 3; ++k) {
            checkShape(req, process->layout(req));
            QCOMPARE(process->layoutsServedByCurrentHelper(), 0); // retired after one layout
            QTRY_VERIFY(process->helperProcessId() > 0);          // its successor runs
            helpers << process->helperProcessId();
        }
        QCOMPARE(helpers.size(), 3);
    }

    void survivesAHelperThatDied() {
        ProcessLayouter process(helperOptions(100));
        const LayoutRequest req = clusteredRequest(8);
        checkShape(req, process.layout(req));
        const qint64 pid = process.helperProcessId();
        QVERIFY(pid > 0);
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        QTest::qWait(50);
        checkShape(req, process.layout(req));
        QVERIFY(process.helperProcessId() > 0);
        QVERIFY(process.helperProcessId() != pid);
        QVERIFY(process.usingHelper());
        // Killed while the studio did not look (no events processed): replaced all the same.
        const qint64 second = process.helperProcessId();
        QCOMPARE(::kill(pid_t(second), SIGKILL), 0);
        ::usleep(50000);
        checkShape(req, process.layout(req));
        QVERIFY(process.helperProcessId() != second);
    }

    void fallsBackInProcessWithoutAHelper() {
        ProcessLayouter::Options o;
        o.program = QStringLiteral("/nonexistent/layerfuse-layout");
        ProcessLayouter process(o);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("could not be started"));
        const LayoutRequest req = clusteredRequest(10);
        checkShape(req, process.layout(req));
        QVERIFY(!process.usingHelper());
        // Opted out by the environment: no helper is looked for.
        qputenv("LAYERFUSE_LAYOUT_HELPER", "none");
        QVERIFY(findLayoutHelper().isEmpty());
        qunsetenv("LAYERFUSE_LAYOUT_HELPER");
    }

    void malformedMessagesAreRefused() {
        std::string error;
        QVERIFY(!protocol::decodeRequest({0xff, 0x00, 0x13}, error));
        QVERIFY(!error.empty());
        // A result is not a request, and a request missing a field is not one either.
        QVERIFY(!protocol::decodeRequest(protocol::encode(LayoutResult{}), error));
        QVERIFY(!protocol::decodeResult(protocol::encode(clusteredRequest(3)), error));
        // Round trips are exact.
        std::string none;
        const auto back = protocol::decodeRequest(protocol::encode(clusteredRequest(9)), none);
        QVERIFY(back);
        QCOMPARE(back->clusters.size(), size_t(2));
        QCOMPARE(back->clusters[1].members, (std::vector<int>{4, 5, 6, 7}));

        // The helper answers garbage with an error and keeps serving; an absurd frame length
        // ends it cleanly.
        QProcess helper;
        helper.start(findLayoutHelper(), {});
        QVERIFY(helper.waitForStarted());
        const std::vector<uint8_t> junk = protocol::frame({0x01, 0x02, 0x03, 0x04});
        helper.write(reinterpret_cast<const char*>(junk.data()), qint64(junk.size()));
        QByteArray reply;
        while (reply.size() < 4 && helper.waitForReadyRead(5000))
            reply += helper.readAll();
        QVERIFY(reply.size() >= 4);
        const uint32_t n =
            protocol::frameLength(reinterpret_cast<const uint8_t*>(reply.constData()));
        while (reply.size() < qsizetype(4 + n) && helper.waitForReadyRead(5000))
            reply += helper.readAll();
        const auto result = protocol::decodeResult(
            std::vector<uint8_t>(reply.begin() + 4, reply.begin() + 4 + n), error);
        QVERIFY(result);
        QVERIFY(!result->ok);
        QVERIFY(result->error.find("malformed") != std::string::npos);
        const char huge[4] = {'\xff', '\xff', '\xff', '\x7f'};
        helper.write(huge, 4);
        QVERIFY(helper.waitForFinished(5000));
        QCOMPARE(helper.exitStatus(), QProcess::NormalExit);
    }

    // Graphviz 2.42's dot leaks its cluster skeleton (class2/build_skeleton) on every layout
    // with clusters, about 100 KB for 16 clusters; through the helper none of it stays here.
    void clusteredLayoutsDoNotGrowTheStudioHeap() {
        ProcessLayouter process(helperOptions()); // in-process: ~4.4 MB grown here
        const LayoutRequest req = clusteredRequest(64);
        QVERIFY(process.layout(req).ok); // warm up: buffers, the first process
        const size_t before = heapInUse();
        for (int k = 0; k < 60; ++k)
            QVERIFY(process.layout(req).ok);
        const size_t grown = heapInUse() > before ? heapInUse() - before : 0;
        QVERIFY2(grown < 512 * 1024, qPrintable(QString::number(grown) + " bytes grown"));
    }
};

QTEST_MAIN(TestLayoutProcess)
#include "tst_layout_process.moc"
