// A small pool of worker threads for the searches: parallel loops that may nest (a segment
// search run by a parallel loop splits its own stages into a parallel loop). A thread that
// waits for its loop to finish runs queued work meanwhile, so nesting never deadlocks and
// never needs more threads than the pool has.
//
// Every loop body writes only to its own slot; callers combine the slots in index order, so
// results never depend on the number of threads or on timing.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace lf {

class WorkPool {
  public:
    // `threads` in all, the calling thread included (≤ 0: all hardware threads).
    explicit WorkPool(int threads);
    ~WorkPool();
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;

    int threads() const { return int(workers_.size()) + 1; }

    // Runs body(k) for k in [0, n) on the pool and the calling thread; returns when every
    // call has returned. Indices are handed out in increasing order as threads become free.
    // The first exception thrown by a body is rethrown here (the other bodies still run).
    void forEach(size_t n, const std::function<void(size_t)>& body);

    // The number of threads `threads` stands for (≤ 0: all hardware threads).
    static int resolve(int threads);

  private:
    struct Loop;
    void submit(std::function<void()> task);
    bool runOne(); // runs one queued task, if any
    void workerMain();

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

// forEach on `pool`, or in the calling thread when there is none.
void parallelFor(WorkPool* pool, size_t n, const std::function<void(size_t)>& body);

// Runs body(lane, k) for k in [0, n), on at most one lane per thread: each thread that takes
// part is a lane and claims indices in increasing order until none is left. A lane's state
// (body's `lane` slot) is fed by one thread, its indices in increasing order, and only as many
// lanes as threads exist — one without a pool — so per-lane filters cost no more in all than
// one would (a fixed split into parts makes every part start from scratch). Returns the
// number of lanes, at most `maxLanes`.
size_t parallelLanes(WorkPool* pool, size_t n, size_t maxLanes,
                     const std::function<void(size_t lane, size_t k)>& body);
// The number of lanes parallelLanes() may use.
size_t lanesFor(const WorkPool* pool, size_t n);

// How many parts to split a loop into: one without a pool (the serial walk), else a few per
// thread so that uneven parts even out.
size_t partsFor(const WorkPool* pool, size_t perThread = 8);
// [0, n) split into at most `parts` contiguous ranges of nearly equal length, in order.
std::vector<std::pair<size_t, size_t>> splitRange(size_t n, size_t parts);

} // namespace lf
