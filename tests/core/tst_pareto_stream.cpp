// The Pareto filters of the exploration (search/pareto_stream.h, pareto_filter.h) against the
// definition, on random points with small value ranges so that ties are frequent:
// ParetoStream keeps exactly the points an archive keeps — none dominated or equalled by an
// earlier one, of equal points the first — for three and four costs and any buffer size;
// TiesFront keeps every point no other strictly dominates; a Staircase answers as a scan does,
// in its vector and in its map form.
#include "search/pareto_filter.h"
#include "search/pareto_stream.h"

#include <QtTest>

#include <random>

using namespace lf;

namespace {

template <size_t N> bool le(const std::array<int64_t, N>& a, const std::array<int64_t, N>& b) {
    for (size_t k = 0; k < N; ++k)
        if (a[k] > b[k]) return false;
    return true;
}

// Indices an archive keeps: not dominated by and not equal to an earlier point, not dominated
// by a later one; in lexicographic order of cost.
template <size_t N> std::vector<uint32_t> archive(const std::vector<std::array<int64_t, N>>& v) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < v.size(); ++i) {
        bool keep = true;
        for (size_t j = 0; j < v.size() && keep; ++j) {
            if (j == i) continue;
            const bool dominates = le(v[j], v[i]) && v[j] != v[i];
            if (dominates || (v[j] == v[i] && j < i)) keep = false;
        }
        if (keep) out.push_back(uint32_t(i));
    }
    std::sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) { return v[a] < v[b]; });
    return out;
}

template <size_t N>
std::vector<std::array<int64_t, N>> randomPoints(std::mt19937_64& rng, size_t n, int64_t range) {
    std::vector<std::array<int64_t, N>> v(n);
    for (auto& p : v)
        for (auto& x : p)
            x = int64_t(rng() % uint64_t(range));
    return v;
}

struct Item {
    std::array<int64_t, 3> cost;
    uint32_t index;
    auto operator<=>(const Item&) const = default;
};

} // namespace

class TstParetoStream : public QObject {
    Q_OBJECT
  private slots:
    void streamEqualsTheArchive() {
        std::mt19937_64 rng(3);
        for (int trial = 0; trial < 300; ++trial) {
            const int64_t range = trial % 3 == 0 ? 4 : trial % 3 == 1 ? 30 : 100000;
            const size_t n = 1 + rng() % 700;
            const size_t archiveMax = trial % 4 == 0 ? 1 : trial % 4 == 1 ? 8 : 256;
            const auto v3 = randomPoints<3>(rng, n, range);
            ParetoStream<3, uint32_t> s3(archiveMax);
            for (size_t k = 0; k < n; ++k)
                s3.add(v3[k], uint32_t(k));
            QCOMPARE(s3.finish(), archive(v3));
            const auto v4 = randomPoints<4>(rng, n, range);
            ParetoStream<4, uint32_t> s4(archiveMax);
            for (size_t k = 0; k < n; ++k)
                s4.add(v4[k], uint32_t(k));
            QCOMPARE(s4.finish(), archive(v4));
        }
    }

    void tiesFrontKeepsEveryPointNotStrictlyDominated() {
        std::mt19937_64 rng(5);
        for (int trial = 0; trial < 60; ++trial) {
            const auto v =
                randomPoints<3>(rng, 1 + rng() % 200000 / (trial + 1), trial % 2 ? 5 : 60);
            TiesFront<Item> f;
            for (size_t k = 0; k < v.size(); ++k)
                f.add({v[k], uint32_t(k)});
            const auto got = f.finish();
            // The definition, through the front of distinct costs: a point is kept iff its cost is
            // a front cost.
            std::vector<std::array<int64_t, 3>> costs;
            for (uint32_t k : paretoIndices<3>(v.size(), [&](size_t j) { return v[j]; }))
                costs.push_back(v[k]);
            std::vector<Item> want;
            for (size_t k = 0; k < v.size(); ++k)
                if (std::find(costs.begin(), costs.end(), v[k]) != costs.end())
                    want.push_back({v[k], uint32_t(k)});
            std::sort(want.begin(), want.end());
            QCOMPARE(got.size(), want.size());
            QVERIFY(got == want);
        }
    }

    void staircaseAnswersAsAScan() {
        std::mt19937_64 rng(9);
        for (int trial = 0; trial < 40; ++trial) {
            Staircase<uint32_t> st;
            std::vector<std::pair<int64_t, int64_t>> all;
            const int64_t range = trial % 2 ? 50 : 1'000'000'000;
            // Points near a line a + b = range: a front of thousands, past the vector form.
            for (int k = 0; k < 6000; ++k) {
                const int64_t a = int64_t(rng() % uint64_t(range));
                const int64_t b = trial % 4 < 2 ? int64_t(rng() % uint64_t(range))
                                                : range - a + int64_t(rng() % 1000);
                bool covered = false;
                for (const auto& [x, y] : all)
                    covered = covered || (x <= a && y <= b);
                QCOMPARE(st.covers(a, b), covered);
                QCOMPARE(st.insert(a, b, uint32_t(k)), !covered);
                all.emplace_back(a, b);
            }
            // The entries are the 2-D front, keys ascending.
            std::vector<int64_t> keys;
            st.each([&](uint32_t k) { keys.push_back(all[k].first); });
            QVERIFY(std::is_sorted(keys.begin(), keys.end()));
            if (trial % 4 == 2) QVERIFY(keys.size() > 2048);
            QCOMPARE(keys.size(), paretoIndices<2>(all.size(), [&](size_t j) {
                                      return std::array{all[j].first, all[j].second};
                                  }).size());
        }
    }
};

QTEST_GUILESS_MAIN(TstParetoStream)
#include "tst_pareto_stream.moc"
