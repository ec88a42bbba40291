#include "search/front_combine.h"

#include "search/parallel_sort.h"
#include "search/work_pool.h"

#include <algorithm>
#include <memory>

namespace lf {

namespace {

// Sweep steps per run: runs are the unit of parallel work; their length does not change the
// result, only how evenly the threads share the walk.
constexpr size_t kStepsPerRun = 1024;

struct Run {
    uint32_t input;
    size_t first, last; // within one of the two sweeps
};

// A pair with its cost and its place in the walk (run, then order within the run).
struct Pair {
    FrontCost cost;
    uint32_t input, a, b;
    uint64_t order;
};

// The pairs of one sweep arrive in non-decreasing buffer order (the sweep walks one front by
// buffer and the pair's buffer is that point's). A pair is then dominated exactly when an
// earlier group (smaller buffer) has a kept pair with accesses and MACs no larger, or a pair of
// its own group (equal buffer) does: one staircase over (accesses, MACs) of everything kept so
// far, plus a filter within each group of equal buffers. No sort of the whole walk is needed.
class BufferOrderedFilter {
  public:
    explicit BufferOrderedFilter(std::vector<Pair>& out) : out_(out) {}
    void add(const Pair& p) {
        if (!group_.empty() && p.cost.bits != group_.front().cost.bits) flush();
        group_.push_back(p);
    }
    void flush() {
        auto less = [](const Pair& x, const Pair& y) {
            if (x.cost.acc != y.cost.acc) return x.cost.acc < y.cost.acc;
            if (x.cost.macs != y.cost.macs) return x.cost.macs < y.cost.macs;
            return x.order < y.order;
        };
        // One point's pairs come sorted already (the other front's staircase, shifted).
        if (!std::is_sorted(group_.begin(), group_.end(), less))
            std::sort(group_.begin(), group_.end(), less);
        Staircase<> local;
        const size_t begin = out_.size();
        for (const Pair& p : group_)
            if (local.insert(p.cost.acc, p.cost.macs) && !kept_.covers(p.cost.acc, p.cost.macs))
                out_.push_back(p);
        for (size_t k = begin; k < out_.size(); ++k)
            kept_.insert(out_[k].cost.acc, out_[k].cost.macs);
        group_.clear();
    }
    // The (accesses, MACs) staircase of the pairs kept so far.
    const Staircase<>& kept() const { return kept_; }

  private:
    std::vector<Pair>& out_;
    std::vector<Pair> group_;
    Staircase<> kept_;
};

// Buffer values that cut the runs' pairs into about `chunks` parts of similar size (fewer when
// buffers repeat), ascending: a chunk is [cut before, cut after). From a sample of every run.
std::vector<int64_t> chunkCuts(const std::vector<std::vector<Pair>>& fronts, size_t chunks) {
    if (chunks <= 1) return {};
    constexpr size_t kSamplesPerRun = 8;
    std::vector<int64_t> sample;
    for (const auto& f : fronts)
        for (size_t k = 0; k < kSamplesPerRun && k < f.size(); ++k)
            sample.push_back(f[f.size() * k / kSamplesPerRun].cost.bits);
    std::sort(sample.begin(), sample.end());
    std::vector<int64_t> cuts;
    for (size_t c = 1; c < chunks && !sample.empty(); ++c) {
        const int64_t v = sample[sample.size() * c / chunks];
        if (v > sample.front() && (cuts.empty() || v > cuts.back())) cuts.push_back(v);
    }
    return cuts;
}

} // namespace

std::vector<CombinedPoint> combineFronts(const std::vector<CombineInput>& inputs, WorkPool* pool,
                                         int64_t* pairs, const std::atomic<bool>* cancel,
                                         std::vector<uint32_t>* bitsOrder) {
    // The walk's orders: the caller's, else made here (in parallel: they sort whole fronts).
    std::vector<std::vector<uint32_t>> made(2 * inputs.size());
    parallelFor(pool, made.size(), [&](size_t k) {
        const CombineInput& in = inputs[k / 2];
        const auto* order = k % 2 ? in.b_order : in.a_order;
        const auto* front = k % 2 ? in.b : in.a;
        if (!order && !front->empty()) made[k] = orderByBits(*front);
    });
    auto orderOf = [&](size_t p, bool b) -> const std::vector<uint32_t>& {
        const auto* given = b ? inputs[p].b_order : inputs[p].a_order;
        return given ? *given : made[2 * p + (b ? 1 : 0)];
    };
    std::vector<Run> runs;
    std::vector<size_t> sweepStart; // first run of each sweep
    for (size_t p = 0; p < inputs.size(); ++p) {
        const auto &A = *inputs[p].a, &B = *inputs[p].b;
        if (A.empty() || B.empty()) continue;
        for (auto [first, last] :
             {std::pair{size_t(0), A.size()}, std::pair{A.size(), A.size() + B.size()}}) {
            sweepStart.push_back(runs.size());
            for (size_t s = first; s < last; s += kStepsPerRun)
                runs.push_back({uint32_t(p), s, std::min(last, s + kStepsPerRun)});
        }
    }
    sweepStart.push_back(runs.size());
    std::vector<std::vector<Pair>> fronts(runs.size());
    std::atomic<int64_t> formed{0};
    parallelFor(pool, runs.size(), [&](size_t r) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return;
        const Run& run = runs[r];
        const auto &A = *inputs[run.input].a, &B = *inputs[run.input].b;
        BufferOrderedFilter filter(fronts[r]);
        uint64_t n = 0;
        sumMaxFrontPairsRange(A, B, orderOf(run.input, false), orderOf(run.input, true), run.first,
                              run.last, [&](uint32_t a, uint32_t b) {
                                  Pair p;
                                  if (__builtin_add_overflow(A[a].acc, B[b].acc, &p.cost.acc) ||
                                      __builtin_add_overflow(A[a].macs, B[b].macs, &p.cost.macs))
                                      return;
                                  p.cost.bits = std::max(A[a].bits, B[b].bits);
                                  p.input = run.input;
                                  p.a = a;
                                  p.b = b;
                                  p.order = uint64_t(r) << 40 | n++;
                                  filter.add(p);
                              });
        filter.flush();
        formed += int64_t(n);
    });
    if (pairs) *pairs = formed.load();
    // The runs' fronts together, by buffer: the same filter keeps, of equal pairs, the one first
    // in walk order. The runs of one sweep follow each other in buffer order, so the sweeps are
    // read side by side (not copied into one list). The buffer range is cut into chunks at
    // buffer values, each filtered on its own in parallel; a pair a chunk keeps is then kept
    // unless a pair of an earlier chunk (smaller buffer) has accesses and MACs no larger — one
    // look-up in the staircase of the earlier chunks' kept pairs, which equals that of the
    // pairs the whole filter keeps there (what a chunk keeps too many, an earlier pair beats).
    const std::vector<int64_t> cuts = chunkCuts(fronts, partsFor(pool, 4));
    const size_t chunks = cuts.size() + 1;
    std::vector<std::vector<Pair>> chunkKept(chunks);
    std::vector<std::unique_ptr<BufferOrderedFilter>> filters(chunks);
    parallelFor(pool, chunks, [&](size_t c) {
        const int64_t lo = c == 0 ? INT64_MIN : cuts[c - 1];
        const int64_t hi = c + 1 == chunks ? INT64_MAX : cuts[c];
        filters[c] = std::make_unique<BufferOrderedFilter>(chunkKept[c]);
        // Per sweep, the first pair with buffer >= lo.
        struct Cursor {
            size_t run, end, at;
        };
        std::vector<Cursor> cursors;
        for (size_t w = 0; w + 1 < sweepStart.size(); ++w) {
            Cursor cur{sweepStart[w], sweepStart[w + 1], 0};
            while (cur.run < cur.end &&
                   (fronts[cur.run].empty() || fronts[cur.run].back().cost.bits < lo))
                ++cur.run;
            if (cur.run < cur.end) {
                const auto& f = fronts[cur.run];
                cur.at = size_t(
                    std::lower_bound(f.begin(), f.end(), lo,
                                     [](const Pair& p, int64_t b) { return p.cost.bits < b; }) -
                    f.begin());
            }
            cursors.push_back(cur);
        }
        auto settle = [&](Cursor& cur) { // past read and empty runs
            while (cur.run < cur.end && cur.at == fronts[cur.run].size()) {
                ++cur.run;
                cur.at = 0;
            }
        };
        for (;;) {
            int64_t bits = hi;
            for (const Cursor& cur : cursors)
                if (cur.run < cur.end) bits = std::min(bits, fronts[cur.run][cur.at].cost.bits);
            if (bits >= hi) break;
            for (Cursor& cur : cursors)
                while (cur.run < cur.end && fronts[cur.run][cur.at].cost.bits == bits) {
                    filters[c]->add(fronts[cur.run][cur.at++]);
                    settle(cur);
                }
        }
        filters[c]->flush();
    });
    std::vector<std::vector<Pair>>().swap(fronts);
    // The staircase of the chunks before each chunk (small: a two-cost front), then the check.
    std::vector<Staircase<>> before(chunks);
    for (size_t c = 1; c < chunks; ++c) {
        before[c] = before[c - 1];
        filters[c - 1]->kept().eachEntry(
            [&](int64_t acc, int64_t macs) { before[c].insert(acc, macs); });
    }
    parallelFor(pool, chunks, [&](size_t c) {
        if (c > 0)
            std::erase_if(chunkKept[c],
                          [&](const Pair& p) { return before[c].covers(p.cost.acc, p.cost.macs); });
    });
    // `kept` (the chunks' pairs one after the other) is in buffer order; the result is in
    // (accesses, buffer, MACs) order. Sorting keys with their place in `kept` gives both, and
    // the buffer order of the result for free: within one buffer, `kept` is in (accesses,
    // MACs) order already, as the result is. Every pass over the front runs on the pool.
    struct Key {
        FrontCost cost;
        uint32_t at;
    };
    std::vector<size_t> offset(chunks + 1, 0);
    for (size_t c = 0; c < chunks; ++c)
        offset[c + 1] = offset[c] + chunkKept[c].size();
    const size_t total = offset[chunks];
    std::unique_ptr<Pair[]> kept(new Pair[total]); // every entry written below
    std::vector<Key> keys(total);
    parallelFor(pool, chunks, [&](size_t c) {
        for (size_t k = 0; k < chunkKept[c].size(); ++k) {
            kept[offset[c] + k] = chunkKept[c][k];
            keys[offset[c] + k] = {chunkKept[c][k].cost, uint32_t(offset[c] + k)};
        }
        std::vector<Pair>().swap(chunkKept[c]);
    });
    // Front costs are distinct, so the order is total and any split of the sort gives it.
    parallelSort(pool, keys, [](const Key& x, const Key& y) {
        if (x.cost.acc != y.cost.acc) return x.cost.acc < y.cost.acc;
        if (x.cost.bits != y.cost.bits) return x.cost.bits < y.cost.bits;
        return x.cost.macs < y.cost.macs;
    });
    std::vector<CombinedPoint> out(total);
    std::vector<uint32_t> place(bitsOrder ? total : 0);
    const auto ranges = splitRange(total, partsFor(pool));
    parallelFor(pool, ranges.size(), [&](size_t r) {
        for (size_t k = ranges[r].first; k < ranges[r].second; ++k) {
            const Pair& p = kept[keys[k].at];
            out[k] = {p.cost, p.input, p.a, p.b};
            if (bitsOrder) place[keys[k].at] = uint32_t(k);
        }
    });
    if (bitsOrder) bitsOrder->swap(place);
    return out;
}

} // namespace lf
