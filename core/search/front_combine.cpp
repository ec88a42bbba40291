#include "search/front_combine.h"

#include "search/work_pool.h"

#include <algorithm>

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

  private:
    std::vector<Pair>& out_;
    std::vector<Pair> group_;
    Staircase<> kept_;
};

} // namespace

std::vector<CombinedPoint> combineFronts(const std::vector<CombineInput>& inputs, WorkPool* pool,
                                         int64_t* pairs, const std::atomic<bool>* cancel) {
    std::vector<std::vector<uint32_t>> oa(inputs.size()), ob(inputs.size());
    std::vector<Run> runs;
    for (size_t p = 0; p < inputs.size(); ++p) {
        const auto &A = *inputs[p].a, &B = *inputs[p].b;
        if (A.empty() || B.empty()) continue;
        oa[p] = orderByBits(A);
        ob[p] = orderByBits(B);
        for (auto [first, last] :
             {std::pair{size_t(0), A.size()}, std::pair{A.size(), A.size() + B.size()}})
            for (size_t s = first; s < last; s += kStepsPerRun)
                runs.push_back({uint32_t(p), s, std::min(last, s + kStepsPerRun)});
    }
    std::vector<std::vector<Pair>> fronts(runs.size());
    std::atomic<int64_t> formed{0};
    parallelFor(pool, runs.size(), [&](size_t r) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return;
        const Run& run = runs[r];
        const auto &A = *inputs[run.input].a, &B = *inputs[run.input].b;
        BufferOrderedFilter filter(fronts[r]);
        uint64_t n = 0;
        sumMaxFrontPairsRange(A, B, oa[run.input], ob[run.input], run.first, run.last,
                              [&](uint32_t a, uint32_t b) {
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
    // in walk order.
    // The runs of one sweep follow each other in buffer order: their fronts, one after the
    // other, are sorted by buffer already, and the sweeps are merged.
    std::vector<Pair> all;
    std::vector<size_t> sweepStart;
    for (size_t r = 0; r < runs.size(); ++r) {
        const bool firstOfSweep = r == 0 || runs[r].input != runs[r - 1].input ||
                                  (runs[r].first == inputs[runs[r].input].a->size());
        if (firstOfSweep) sweepStart.push_back(all.size());
        all.insert(all.end(), fronts[r].begin(), fronts[r].end());
        std::vector<Pair>().swap(fronts[r]);
    }
    sweepStart.push_back(all.size());
    auto byBits = [](const Pair& x, const Pair& y) { return x.cost.bits < y.cost.bits; };
    for (size_t width = 1; width + 1 < sweepStart.size(); width *= 2)
        for (size_t i = 0; i + width + 1 < sweepStart.size(); i += 2 * width) {
            const size_t mid = sweepStart[i + width];
            const size_t end = sweepStart[std::min(i + 2 * width, sweepStart.size() - 1)];
            std::inplace_merge(all.begin() + std::ptrdiff_t(sweepStart[i]),
                               all.begin() + std::ptrdiff_t(mid), all.begin() + std::ptrdiff_t(end),
                               byBits);
        }
    std::vector<Pair> kept;
    BufferOrderedFilter filter(kept);
    for (const Pair& p : all)
        filter.add(p);
    filter.flush();
    std::sort(kept.begin(), kept.end(), [](const Pair& x, const Pair& y) {
        if (x.cost.acc != y.cost.acc) return x.cost.acc < y.cost.acc;
        if (x.cost.bits != y.cost.bits) return x.cost.bits < y.cost.bits;
        return x.cost.macs < y.cost.macs;
    });
    std::vector<CombinedPoint> out;
    out.reserve(kept.size());
    for (const Pair& p : kept)
        out.push_back({p.cost, p.input, p.a, p.b});
    return out;
}

} // namespace lf
