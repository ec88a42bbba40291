// The work pool of the searches (search/work_pool.h): every index runs exactly once, loops
// nest without deadlock on pools of one to eight threads, the first exception of a body
// reaches the caller after the others ran, and splitRange covers [0, n) in order.
#include "search/work_pool.h"

#include <QtTest>

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
};

QTEST_GUILESS_MAIN(TstWorkPool)
#include "tst_work_pool.moc"
