// The parallel, batched exploration (search/pareto.h) equals the exploration as it was before
// (tests/support/reference_explore.h: one thread, an archive per demand, every pair formed):
// the same front and, of equal points, the same schedules — on DMCNN-VD at full HD with
// segments of up to two layers and on L3Net 4K at the default depth; the results do not
// depend on the number of threads nor on sharing the search of equal segments.
#include "reference_explore.h"
#include "test_support.h"

#include "network/dag.h"
#include "search/pareto.h"
#include "search/segment_search.h"
#include "search/work_pool.h"

#include <QtTest>

using namespace lf;

namespace {

bool samePoints(const std::vector<test::ReferencePoint>& a,
                const std::vector<test::ReferencePoint>& b, QString& why) {
    if (a.size() != b.size()) {
        why = QString("%1 points against %2").arg(a.size()).arg(b.size());
        return false;
    }
    for (size_t k = 0; k < a.size(); ++k) {
        if (a[k].cost != b[k].cost) {
            why = QString("point %1 costs differ").arg(k);
            return false;
        }
        if (a[k].parts.size() != b[k].parts.size()) {
            why = QString("point %1: %2 segments against %3")
                      .arg(k)
                      .arg(a[k].parts.size())
                      .arg(b[k].parts.size());
            return false;
        }
        for (size_t p = 0; p < a[k].parts.size(); ++p) {
            const auto &x = a[k].parts[p], &y = b[k].parts[p];
            if (x.layers != y.layers || x.schedules != y.schedules || x.resident != y.resident) {
                why = QString("point %1, segment %2: another schedule").arg(k).arg(p);
                return false;
            }
        }
    }
    return true;
}

} // namespace

class TstExploreExact : public QObject {
    Q_OBJECT
  private slots:
    void dmcnnVdUpToDepthTwoEqualsTheReference() {
        const Network net = test::bundledNetwork("dmcnn-vd");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        for (int depth : {1, 2}) {
            ExploreOptions opt;
            opt.max_depth = depth;
            opt.threads = 2;
            const ExploreResult r = explore(net, hw, opt);
            QVERIFY(r.segments_searched < r.segments); // equal segments were shared
            QString why;
            QVERIFY2(
                samePoints(test::referencePointsOf(r), test::referenceExplore(net, hw, opt), why),
                qPrintable(QString("depth %1: %2").arg(depth).arg(why)));
            QVERIFY(r.front.size() > 100);
        }
    }

    void l3net4kEqualsTheReference() {
        const Network net = test::bundledNetwork("l3net-4k");
        const Hardware hw = test::bundledHardware("hwff-config-1");
        ExploreOptions opt; // depth 3, divisor tiles
        opt.threads = 2;
        const ExploreResult r = explore(net, hw, opt);
        QString why;
        QVERIFY2(samePoints(test::referencePointsOf(r), test::referenceExplore(net, hw, opt), why),
                 qPrintable(why));
        QVERIFY(r.front.size() > 10);
    }

    // The branch and bound of a segment's search (segment_stages.h) keeps its front and the
    // schedules of its points: segments of three and four layers of several networks (grouped
    // and depthwise convolutions, pooling, strides) against the search without it.
    void branchAndBoundKeepsEverySegmentFront() {
        const Hardware hw = test::bundledHardware("hwff-config-1");
        WorkPool pool(3);
        int compared = 0;
        for (const char* name : {"vgg16", "mobilenetv2", "l3net", "squeezenet1.1", "alexnet"}) {
            const Network net = test::bundledNetwork(name);
            for (const auto& seq : sequences(net)) {
                if (seq.size() < 3) continue;
                for (size_t len : {3, 4}) {
                    if (seq.size() < len) continue;
                    const std::vector<LayerId> chain(seq.begin(),
                                                     seq.begin() + std::ptrdiff_t(len));
                    SegmentSearchOptions plain;
                    plain.branch_and_bound = false;
                    SegmentSearchOptions bb;
                    bb.pool = &pool;
                    const SegmentFront a = searchSegment(net, hw, chain, plain);
                    const SegmentFront b = searchSegment(net, hw, chain, bb);
                    QCOMPARE(b.points.size(), a.points.size());
                    for (size_t k = 0; k < a.points.size(); ++k) {
                        const SegmentPoint &x = a.points[k], &y = b.points[k];
                        QVERIFY2(x.dram == y.dram && x.buffer_bits == y.buffer_bits &&
                                     x.macs == y.macs && x.layers == y.layers &&
                                     x.weights_resident == y.weights_resident,
                                 qPrintable(
                                     QString("%1, %2 layers, point %3").arg(name).arg(len).arg(k)));
                    }
                    ++compared;
                }
                break; // the first long sequence of each network
            }
        }
        QVERIFY(compared >= 6);
    }

    void sameResultForAnyThreadCountAndWithoutSharing() {
        const Hardware hw = test::bundledHardware("hwff-config-1");
        for (const char* name : {"resnet18", "l3net", "vgg16"}) {
            const Network net = test::bundledNetwork(name);
            ExploreOptions opt;
            opt.max_depth = 2;
            opt.threads = 1;
            const auto one = test::referencePointsOf(explore(net, hw, opt));
            for (int threads : {2, 3, 5}) {
                opt.threads = threads;
                QString why;
                QVERIFY2(samePoints(test::referencePointsOf(explore(net, hw, opt)), one, why),
                         qPrintable(QString("%1, %2 threads: %3").arg(name).arg(threads).arg(why)));
            }
            opt.share_equal_segments = false;
            QString why;
            QVERIFY2(samePoints(test::referencePointsOf(explore(net, hw, opt)), one, why),
                     qPrintable(QString("%1 without sharing: %2").arg(name).arg(why)));
        }
    }
};

QTEST_GUILESS_MAIN(TstExploreExact)
#include "tst_explore_exact.moc"
