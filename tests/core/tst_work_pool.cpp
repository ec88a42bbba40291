// The work pool of the searches (search/work_pool.h): every index runs exactly once, loops
// nest without deadlock on pools of one to eight threads, the first exception of a body
// reaches the caller after the others ran, splitRange covers [0, n) in order, and
// parallelLanes runs every index once, each lane's in increasing order, on no more lanes than
// threads (one without a pool).
#include "search/work_pool.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <stdexcept>

using namespace lf;

class TstWorkPool : public QObject {
    Q_OBJECT
  private slots:
    void everyIndexOnceWithNesting() {
        for (int threads : {1, 2, 3, 8}) {
            WorkPool pool(threads);
            QCOMPARE(pool.threads(), threads);
            std::vector<std::atomic<int>> hits(64 * 50);
            parallelFor(&pool, 64, [&](size_t i) {
                parallelFor(&pool, 50, [&](size_t j) { ++hits[i * 50 + j]; });
            });
            for (const auto& h : hits)
                QCOMPARE(h.load(), 1);
        }
    }

    void exceptionsReachTheCaller() {
        WorkPool pool(3);
        std::atomic<int> ran{0};
        bool caught = false;
        try {
            pool.forEach(100, [&](size_t i) {
                ++ran;
                if (i == 7) throw std::runtime_error("seven");
            });
        } catch (const std::runtime_error& e) {
            caught = std::string(e.what()) == "seven";
        }
        QVERIFY(caught);
        QCOMPARE(ran.load(), 100);
    }

    void splitRangeCoversInOrder() {
        for (size_t n : {0, 1, 7, 100})
            for (size_t parts : {1, 3, 16, 200}) {
                const auto r = splitRange(n, parts);
                size_t next = 0;
                for (const auto& [b, e] : r) {
                    QCOMPARE(b, next);
                    QVERIFY(e > b);
                    next = e;
                }
                QCOMPARE(next, n);
                QVERIFY(r.size() <= std::max<size_t>(1, parts));
            }
        QCOMPARE(partsFor(nullptr), size_t(1));
    }

    void lanesRunEveryIndexOnceInIncreasingOrder() {
        for (int threads : {1, 2, 3, 8}) {
            WorkPool pool(threads);
            for (size_t n : {0, 1, 5, 1000}) {
                const size_t lanes = lanesFor(&pool, n);
                QVERIFY(lanes >= 1 && lanes <= size_t(threads));
                std::vector<std::vector<size_t>> seen(lanes);
                // Nested in a parallel loop, as the segment searches run them.
                std::vector<std::atomic<int>> hits(n);
                parallelFor(&pool, 2, [&](size_t outer) {
                    if (outer == 1) return;
                    QCOMPARE(parallelLanes(&pool, n, lanes,
                                           [&](size_t lane, size_t k) {
                                               seen[lane].push_back(k);
                                               ++hits[k];
                                           }),
                             lanes);
                });
                for (const auto& h : hits)
                    QCOMPARE(h.load(), 1);
                for (const auto& s : seen)
                    QVERIFY(std::is_sorted(s.begin(), s.end()));
            }
        }
        std::vector<size_t> order;
        QCOMPARE(lanesFor(nullptr, 10), size_t(1));
        parallelLanes(nullptr, 10, 1, [&](size_t lane, size_t k) {
            QCOMPARE(lane, size_t(0));
            order.push_back(k);
        });
        QCOMPARE(order.size(), size_t(10));
        QVERIFY(std::is_sorted(order.begin(), order.end()));
    }
};

QTEST_GUILESS_MAIN(TstWorkPool)
#include "tst_work_pool.moc"
