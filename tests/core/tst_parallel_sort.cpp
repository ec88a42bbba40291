// The sort on the work pool (search/parallel_sort.h) gives std::sort's order for any number of
// threads, on sizes below and above the part size, sorted, reversed and random inputs.
#include "search/parallel_sort.h"

#include <QtTest>

#include <random>

using namespace lf;

class TstParallelSort : public QObject {
    Q_OBJECT
  private slots:
    void equalsStdSortForAnyThreadCount() {
        struct Item {
            int64_t key;
            uint32_t index; // makes the order total, as the sort requires
        };
        auto less = [](const Item& a, const Item& b) {
            return a.key != b.key ? a.key < b.key : a.index < b.index;
        };
        std::mt19937_64 rng(5);
        for (size_t n : {size_t(0), size_t(1), size_t(1000), size_t(100'000), size_t(250'001)})
            for (int shape = 0; shape < 3; ++shape) {
                std::vector<Item> v(n);
                for (size_t k = 0; k < n; ++k) {
                    const int64_t key = shape == 0   ? int64_t(k)
                                        : shape == 1 ? int64_t(n - k)
                                                     : int64_t(rng() % 1000); // many ties
                    v[k] = {key, uint32_t(k)};
                }
                std::vector<Item> want = v;
                std::sort(want.begin(), want.end(), less);
                for (int threads : {1, 2, 3, 8}) {
                    WorkPool pool(threads);
                    std::vector<Item> got = v;
                    parallelSort(&pool, got, less);
                    QCOMPARE(got.size(), want.size());
                    for (size_t k = 0; k < n; ++k)
                        QVERIFY2(got[k].index == want[k].index,
                                 qPrintable(QString("n %1, shape %2, %3 threads, at %4")
                                                .arg(n)
                                                .arg(shape)
                                                .arg(threads)
                                                .arg(k)));
                }
                std::vector<Item> serial = v;
                parallelSort(nullptr, serial, less);
                QVERIFY(
                    std::equal(serial.begin(), serial.end(), want.begin(),
                               [](const Item& a, const Item& b) { return a.index == b.index; }));
            }
    }
};

QTEST_GUILESS_MAIN(TstParallelSort)
#include "tst_parallel_sort.moc"
