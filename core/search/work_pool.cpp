#include "search/work_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>

namespace lf {

// The shared state of one forEach: it outlives the call while late helper tasks still hold it.
struct WorkPool::Loop {
    size_t n = 0;
    std::function<void(size_t)> body;
    std::atomic<size_t> next{0}, done{0};
    std::mutex m;
    std::condition_variable finished;
    std::exception_ptr error;

    // Claims and runs indices until none is left.
    void drain() {
        for (;;) {
            const size_t k = next.fetch_add(1);
            if (k >= n) return;
            try {
                body(k);
            } catch (...) {
                std::lock_guard lock(m);
                if (!error) error = std::current_exception();
            }
            if (done.fetch_add(1) + 1 == n) {
                std::lock_guard lock(m);
                finished.notify_all();
            }
        }
    }
};

int WorkPool::resolve(int threads) {
    if (threads > 0) return threads;
    return std::max(1, int(std::thread::hardware_concurrency()));
}

WorkPool::WorkPool(int threads) {
    const int n = resolve(threads);
    for (int k = 1; k < n; ++k)
        workers_.emplace_back([this] { workerMain(); });
}

WorkPool::~WorkPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_)
        t.join();
}

void WorkPool::submit(std::function<void()> task) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
    }
    wake_.notify_one();
}

bool WorkPool::runOne() {
    std::function<void()> task;
    {
        std::lock_guard lock(mutex_);
        if (queue_.empty()) return false;
        task = std::move(queue_.front());
        queue_.pop_front();
    }
    task();
    return true;
}

void WorkPool::workerMain() {
    for (;;) {
        std::function<void()> task;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return; // stopping
            task = std::move(queue_.front());
            queue_.pop_front();
        }
        task();
    }
}

void WorkPool::forEach(size_t n, const std::function<void(size_t)>& body) {
    if (n == 0) return;
    auto loop = std::make_shared<Loop>();
    loop->n = n;
    loop->body = body;
    // One helper per other thread that could take part; a helper that starts after every
    // index was claimed returns at once.
    const size_t helpers = std::min(n - 1, workers_.size());
    for (size_t h = 0; h < helpers; ++h)
        submit([loop] { loop->drain(); });
    loop->drain();
    // Wait for the indices other threads claimed, running queued work meanwhile (a nested
    // loop's helpers, or other loops' work) so that no thread idles while work waits.
    while (loop->done.load() < n) {
        if (runOne()) continue;
        std::unique_lock lock(loop->m);
        loop->finished.wait_for(lock, std::chrono::milliseconds(1),
                                [&] { return loop->done.load() >= n; });
    }
    if (loop->error) std::rethrow_exception(loop->error);
}

void parallelFor(WorkPool* pool, size_t n, const std::function<void(size_t)>& body) {
    if (pool && pool->threads() > 1) {
        pool->forEach(n, body);
        return;
    }
    for (size_t k = 0; k < n; ++k)
        body(k);
}

size_t lanesFor(const WorkPool* pool, size_t n) {
    const size_t threads = pool ? size_t(pool->threads()) : 1;
    return std::max<size_t>(1, std::min(n, threads));
}

size_t parallelLanes(WorkPool* pool, size_t n, size_t maxLanes,
                     const std::function<void(size_t lane, size_t k)>& body) {
    const size_t lanes = std::max<size_t>(1, std::min(maxLanes, lanesFor(pool, n)));
    std::atomic<size_t> next{0};
    parallelFor(lanes > 1 ? pool : nullptr, lanes, [&](size_t lane) {
        for (size_t k = next.fetch_add(1); k < n; k = next.fetch_add(1))
            body(lane, k);
    });
    return lanes;
}

size_t partsFor(const WorkPool* pool, size_t perThread) {
    return pool && pool->threads() > 1 ? size_t(pool->threads()) * perThread : 1;
}

std::vector<std::pair<size_t, size_t>> splitRange(size_t n, size_t parts) {
    parts = std::max<size_t>(1, std::min(parts, n));
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t p = 0; p < parts && n > 0; ++p)
        out.emplace_back(n * p / parts, n * (p + 1) / parts);
    return out;
}

} // namespace lf
