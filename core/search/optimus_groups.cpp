#include "search/optimus_groups.h"

#include "util/checked.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <iterator>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

namespace lf {

namespace {

bool testBit(const uint64_t* bits, LayerId id) {
    return (bits[size_t(id) / 64] >> (id % 64)) & 1;
}
void setBit(uint64_t* bits, LayerId id) {
    bits[size_t(id) / 64] |= uint64_t(1) << (id % 64);
}

bool intersects(const uint64_t* a, const uint64_t* b, size_t w) {
    for (size_t k = 0; k < w; ++k)
        if (a[k] & b[k]) return true;
    return false;
}

void bitsToIds(const uint64_t* b, size_t w, std::vector<LayerId>& out) {
    out.clear();
    for (size_t k = 0; k < w; ++k)
        for (uint64_t x = b[k]; x; x &= x - 1)
            out.push_back(LayerId(k * 64 + size_t(std::countr_zero(x))));
}

// Tells the core a thread is spinning.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// One helper thread that shares each batch of work with the caller, in chunks: batches come
// once per vertex and last microseconds, about as long as waking a thread takes, so the
// caller does not wait for the helper to start — it takes the items itself and waits only for
// the items the helper has taken — and between batches the helper stays awake for a while
// before it sleeps. A batch may be opened before its items exist: the caller publishes them
// as it makes them (the helper runs the first ones meanwhile) and closes the batch when it
// has made them all.
//
// A batch's items are claimed through one ticket (batch number, next item): a thread claims
// an item only while the ticket names the batch it works on and the item is published, so a
// late wake-up never touches a later batch's data. `published_` is reset before the ticket
// names a new batch, so no thread sees the previous batch's count with the new ticket.
class BatchSharer {
  public:
    using Work = std::function<void(size_t from, size_t to, int thread)>;
    BatchSharer(bool on, Work work) : work_(std::move(work)) {
        if (on) thread_ = std::thread([this] { loop(); });
    }
    ~BatchSharer() {
        if (!thread_.joinable()) return;
        quitFast_.store(true, std::memory_order_relaxed);
        {
            std::lock_guard lock(m_);
            quit_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    bool shared() const { return thread_.joinable(); }
    // Runs work over [0, n) on the caller and the helper; returns when all of it is done.
    void run(size_t n) {
        if (!thread_.joinable() || n < 16) {
            work_(0, n, 0);
            return;
        }
        open();
        close(n);
    }
    // A batch whose items come later: publish(n) makes [0, n) available, close(n) runs what
    // is left on the caller too and returns when all n are done. Only with the helper.
    void open() {
        const uint64_t batch = ++batch_;
        finished_.store(0, std::memory_order_relaxed);
        published_.store(0, std::memory_order_relaxed);
        ticket_.store(batch << 32, std::memory_order_release);
        bool wake = false;
        {
            std::lock_guard lock(m_);
            posted_ = batch;
            wake = sleeping_;
        }
        postedFast_.store(batch, std::memory_order_release);
        if (wake) cv_.notify_one();
    }
    void publish(size_t n) { published_.store(n, std::memory_order_release); }
    void close(size_t n) {
        published_.store(n, std::memory_order_release);
        closed_.store(batch_, std::memory_order_release);
        share(batch_, 0);
        while (finished_.load(std::memory_order_acquire) < n)
            std::this_thread::yield(); // the helper is running the items it took
    }

  private:
    // Guided chunks: a share of what is published and not taken, so that few claims are made
    // and the two threads still finish together.
    static constexpr uint64_t kMinChunk = 4;
    // Claims and runs chunks of `batch` until it is closed and none is left.
    void share(uint64_t batch, int thread) {
        uint64_t t = ticket_.load(std::memory_order_acquire);
        for (;;) {
            if (t >> 32 != batch) return;
            const uint64_t from = t & 0xffffffffu;
            const size_t n = published_.load(std::memory_order_acquire);
            if (from >= n) {
                if (closed_.load(std::memory_order_acquire) == batch &&
                    from >= published_.load(std::memory_order_acquire))
                    return;
                cpuRelax(); // the caller is making more items
                t = ticket_.load(std::memory_order_acquire);
                continue;
            }
            const uint64_t chunk =
                std::min<uint64_t>(n - from, std::max<uint64_t>(kMinChunk, (n - from) / 8));
            if (!ticket_.compare_exchange_weak(t, t + chunk, std::memory_order_acq_rel,
                                               std::memory_order_acquire))
                continue; // t reloaded
            work_(from, from + chunk, thread);
            finished_.fetch_add(chunk, std::memory_order_release);
            t = ticket_.load(std::memory_order_acquire);
        }
    }
    void loop() {
        uint64_t seen = 0;
        for (;;) {
            uint64_t batch = 0;
            // Batches follow each other a few microseconds apart: wait for the next one
            // awake for a while before sleeping, since a wake-up takes about as long.
            const auto until =
                std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinUs);
            while (postedFast_.load(std::memory_order_acquire) == seen &&
                   !quitFast_.load(std::memory_order_relaxed) &&
                   std::chrono::steady_clock::now() < until)
                for (int i = 0; i < 64; ++i)
                    cpuRelax();
            {
                std::unique_lock lock(m_);
                sleeping_ = true;
                cv_.wait(lock, [&] { return quit_ || posted_ != seen; });
                sleeping_ = false;
                if (quit_) return;
                batch = seen = posted_;
            }
            share(batch, 1);
        }
    }
    Work work_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    uint64_t posted_ = 0;                  // guarded by m_
    bool quit_ = false, sleeping_ = false; // guarded by m_
    uint64_t batch_ = 0;                   // the caller's
    // Each on its own cache line: the caller writes published_ while it forms items and the
    // threads claim through ticket_.
    alignas(64) std::atomic<uint64_t> ticket_{0}; // batch << 32 | next item
    alignas(64) std::atomic<size_t> published_{0};
    alignas(64) std::atomic<size_t> finished_{0};
    alignas(64) std::atomic<uint64_t> closed_{0}; // the last batch closed
    std::atomic<uint64_t> postedFast_{0};         // posted_, read without the lock
    std::atomic<bool> quitFast_{false};           // quit_, read without the lock
    static constexpr int kSpinUs = 200;
};

} // namespace

// The classifying machinery, kept after forming for resolve(): the groups to classify, and
// per thread the members' list and the classes found, kept apart until the batch is done
// (results written side by side would share cache lines between the threads).
struct OptimusGroupSpace::Work {
    struct Pending {
        uint32_t g;
        double split;
        bool upper; // upper_bound_bits wanted
    };
    struct Found {
        uint32_t g;
        OptimusGroupClass c;
    };
    struct alignas(64) PerThread {
        std::vector<LayerId> members;
        std::vector<Found> found;
    };
    Work(bool helper, BatchSharer::Work work) : sharer(helper, std::move(work)) {}
    std::vector<Pending> pending;
    PerThread perThread[2];
    BatchSharer sharer; // last: its helper thread stops before the rest goes
};

// The per-group arrays of a space, kept from one space to the next. A space over GoogLeNet
// writes a few megabytes of them (up to 16 MB each are reserved, see form()); freed at the
// end of a search, the allocator may give them back to the system (it did, after each
// search, where nothing else held the top of the heap), and the next search's first write to
// each page is then a page fault: on a virtual machine about a microsecond and a half each,
// 1,165 per GoogLeNet search on `optimus-default` (measured in a loop that drops each result
// before the next search: 6.4 ms a search with them, 4.6 without). Kept, emptied, for the next
// space, they are written again where they were. At most kKept sets are kept (searches may
// run at once on several threads), and none that held more than kMaxKept bytes: the memory a
// large space wrote is given back.
struct OptimusGroupSpace::Storage {
    decltype(OptimusGroupSpace::bits_) bits;
    std::vector<Info> info;
    std::vector<Record> records;
    std::vector<Recorded> recorded;
    std::vector<uint32_t> components, componentsEnd, validIds;
    std::vector<double> split;

    // Calls f on each array.
    template <class F> void each(F&& f) {
        f(bits);
        f(info);
        f(records);
        f(recorded);
        f(components);
        f(componentsEnd);
        f(validIds);
        f(split);
    }

    static constexpr size_t kKept = kKeptStorages;
    static constexpr size_t kMaxKept = size_t(64) << 20;
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    static std::vector<std::unique_ptr<Storage>>& kept() {
        static std::vector<std::unique_ptr<Storage>> k = [] {
            std::vector<std::unique_ptr<Storage>> v;
            v.reserve(kKept); // so that giving one back allocates nothing
            return v;
        }();
        return k;
    }
};

void OptimusGroupSpace::swapStorage(Storage& s) {
    bits_.swap(s.bits);
    info_.swap(s.info);
    records_.swap(s.records);
    recorded_.swap(s.recorded);
    components_.swap(s.components);
    componentsEnd_.swap(s.componentsEnd);
    validIds_.swap(s.validIds);
    split_.swap(s.split);
}

void OptimusGroupSpace::takeStorage() {
    std::unique_ptr<Storage> s;
    {
        std::lock_guard lock(Storage::mutex());
        std::vector<std::unique_ptr<Storage>>& kept = Storage::kept();
        if (kept.empty()) return;
        s = std::move(kept.back());
        kept.pop_back();
    }
    swapStorage(*s);
}

void OptimusGroupSpace::giveStorage() {
    std::unique_ptr<Storage> s(new (std::nothrow) Storage); // in a destructor: never throws
    if (!s) return;
    swapStorage(*s);
    // What the arrays held at most (their sizes now; the pages written are about as many).
    size_t held = 0;
    s->each([&](const auto& a) { held += a.size() * sizeof(a[0]); });
    if (held > Storage::kMaxKept) return; // given back as `s` goes
    s->each([](auto& a) { a.clear(); });
    std::lock_guard lock(Storage::mutex());
    std::vector<std::unique_ptr<Storage>>& kept = Storage::kept();
    if (kept.size() < Storage::kKept) kept.push_back(std::move(s));
}

OptimusGroupSpace::~OptimusGroupSpace() {
    work_.reset(); // its helper thread stops first
    giveStorage();
}

void OptimusGroupSpace::classifyRange(size_t from, size_t to, int thread) {
    Work& w = *work_;
    std::vector<LayerId>& members = w.perThread[thread > 0].members;
    std::vector<Work::Found>& out = w.perThread[thread > 0].found;
    for (size_t k = from; k < to; ++k) {
        const Work::Pending p = w.pending[k];
        bitsToIds(bits(p.g), words_, members);
        out.push_back({p.g, classify_(members, thread, p.split, p.upper)});
    }
}

void OptimusGroupSpace::resolve(const std::vector<uint32_t>& groups) {
    Work& w = *work_;
    w.pending.clear();
    for (uint32_t g : groups)
        if (info_[g].deferred) w.pending.push_back({g, split_[g], false});
    w.sharer.run(w.pending.size());
    for (Work::PerThread& t : w.perThread) {
        for (const Work::Found& f : t.found) {
            info_[f.g].cost = f.c.cost; // infinite only for an unproven one
            info_[f.g].deferred = false;
            ++resolvedCount_;
        }
        t.found.clear();
    }
    w.pending.clear();
}

double OptimusGroupSpace::resolve(size_t g) {
    resolve(std::vector<uint32_t>{uint32_t(g)}); // one group: on this thread
    return info_[g].cost;
}

std::vector<LayerId> OptimusGroupSpace::members(size_t g) const {
    std::vector<LayerId> out;
    bitsToIds(bits(g), words_, out);
    return out;
}

bool OptimusGroupSpace::within(size_t g, const uint64_t* set) const {
    const uint64_t* m = bits(g);
    for (size_t k = 0; k < words_; ++k)
        if (m[k] & ~set[k]) return false;
    return true;
}

OptimusGroupSpace::OptimusGroupSpace(const Network& net, const OptimusGroupRules& rules,
                                     const Classify& classify,
                                     const std::function<bool()>& cancelled)
    : classify_(classify) {
    takeStorage();
    words_ = size_t(net.size() + 63) / 64;
    // Forming reads and writes bitsets of `words_` words at every step: for the common sizes
    // the count is a constant, so that the loops over words unroll.
    using Form = void (OptimusGroupSpace::*)(const Network&, const OptimusGroupRules&,
                                             const Classify&, const std::function<bool()>&);
    static constexpr Form kForm[] = {&OptimusGroupSpace::form<0>, &OptimusGroupSpace::form<1>,
                                     &OptimusGroupSpace::form<2>, &OptimusGroupSpace::form<3>,
                                     &OptimusGroupSpace::form<4>};
    (this->*kForm[words_ < std::size(kForm) ? words_ : 0])(net, rules, classify, cancelled);
}

template <size_t FixedWords>
void OptimusGroupSpace::form(const Network& net, const OptimusGroupRules& rules,
                             const Classify& classify, const std::function<bool()>& cancelled) {
    const int32_t N = net.size();
    const size_t W = FixedWords > 0 ? FixedWords : words_;
    auto bits = [&](size_t g) -> const uint64_t* { return &bits_[g * kFields * W]; };
    byMin_.resize(size_t(N));
    validAt_.resize(size_t(N));
    // Reachability (a vertex reaches itself) and adjacency as bitsets over layer ids.
    std::vector<uint64_t> desc(size_t(N) * W, 0), anc(size_t(N) * W, 0), adj(size_t(N) * W, 0),
        pred(size_t(N) * W, 0), succ(size_t(N) * W, 0), compute(W, 0);
    auto row = [&](std::vector<uint64_t>& t, LayerId v) { return &t[size_t(v) * W]; };
    for (LayerId v = N - 1; v >= 0; --v) {
        setBit(row(desc, v), v);
        for (LayerId s : net.successors(v))
            for (size_t k = 0; k < W; ++k)
                row(desc, v)[k] |= row(desc, s)[k];
    }
    std::vector<char> sink(
        static_cast<size_t>(N)); // by layer: no successor (an output of the network)
    for (LayerId v = 0; v < N; ++v) {
        sink[size_t(v)] = net.successors(v).empty();
        setBit(row(anc, v), v);
        for (LayerId p : net.predecessors(v)) {
            for (size_t k = 0; k < W; ++k)
                row(anc, v)[k] |= row(anc, p)[k];
            setBit(row(adj, v), p);
            setBit(row(adj, p), v);
            setBit(row(pred, v), p);
            setBit(row(succ, p), v);
        }
    }
    const OptimusDeferral* defer = rules.deferral;
    deferring_ = defer != nullptr;
    componentsKept_ = deferring_; // only a space formed with a deferral follows them
    // A space formed with a deferral is large: room up front for the groups the budget allows,
    // up to 16 MB an array — address space, not memory, until groups are formed, and small
    // enough for the allocator to keep for the next search — so that it copies nothing as it
    // grows (small spaces grow as vectors do).
    if (defer && rules.max_groups > 0) {
        const int64_t perGroup = int64_t(std::max(sizeof(Info), kFields * W * sizeof(uint64_t)));
        const size_t room =
            size_t(std::min<int64_t>(rules.max_groups, (int64_t(16) << 20) / perGroup));
        info_.reserve(room);
        bits_.reserve(room * kFields * W);
        // Records (inherited sub-groups): a few per group, as many groups as Info.
        recorded_.reserve(room);
        componentsEnd_.reserve(room);
        components_.reserve(2 * room);
        records_.reserve(size_t((int64_t(16) << 20) / int64_t(sizeof(Record))));
        split_.reserve(room);
    } else {
        // Otherwise the space is small (chains and residual networks: ResNet-152 forms 991
        // groups for 208 operators, SqueezeNet 348 for 38), and grows from room for eight
        // groups a layer, up to 16 MB an array as above.
        const size_t perGroup = std::max(sizeof(Info), kFields * W * sizeof(uint64_t));
        size_t room = std::min(8 * size_t(N), (size_t(16) << 20) / perGroup);
        if (rules.max_groups > 0) room = std::min(room, size_t(rules.max_groups));
        info_.reserve(room);
        bits_.reserve(room * kFields * W);
        split_.reserve(room);
        validIds_.reserve(room);
    }
    // With a deferral: by layer, elements per output row (C·W); and the layers whose rows read
    // are not a convolution's window ((n − 1)·S + E clipped) or the rows themselves (costs from
    // records, below).
    std::vector<int64_t> rowElems;
    std::vector<uint64_t> otherRows(W, 0);
    if (defer)
        for (LayerId v = 0; v < N; ++v) {
            if (defer->compute[size_t(v)]) setBit(compute.data(), v);
            rowElems.push_back(defer->elems[size_t(v)] /
                               std::max<int64_t>(defer->rows[size_t(v)], 1));
            if (defer->windows[2 * size_t(v)].kind == OptimusDeferral::WindowRead::other)
                setBit(otherRows.data(), v);
        }
    auto isVertex = [&](LayerId v) {
        return size_t(v) < rules.vertex.size() && rules.vertex[size_t(v)];
    };
    // With a deferral, by layer: a producer of it may join a group (the classifier's
    // joinable layers, else the vertices), so that as a group's first layer it may be forced
    // off (costs from records, below).
    std::vector<char> producerMayJoin;
    if (defer)
        for (LayerId v = 0; v < N; ++v) {
            bool may = false;
            for (LayerId p : net.layer(v).inputs)
                may = may || (defer->joinable.empty() ? isVertex(p) : defer->joinable[size_t(p)]);
            producerMayJoin.push_back(may);
        }

    // Groups are formed per vertex and classified together, on the helper thread too; the
    // vertex alone first, on this thread, since the other groups' splits need its cost.
    using Pending = Work::Pending;
    using Found = Work::Found;
    using PerThread = Work::PerThread;
    work_ = std::make_unique<Work>(rules.threads > 1, [this](size_t from, size_t to, int thread) {
        classifyRange(from, to, thread);
    });
    std::vector<Pending>& pending = work_->pending;
    PerThread(&perThread)[2] = work_->perThread;
    BatchSharer& sharerOn = work_->sharer;
    BatchSharer* sharer = &sharerOn;
    double alone = 0;      // the cost of the current vertex alone
    int64_t aloneBits = 0; // and its lower bound
    // The buffer in activation elements (Optimus Eq. 4's fmaps are counted so).
    const int64_t capElems = defer ? rules.capacity_bits / defer->act_bits : 0;
    // With the helper, a vertex's groups are classified while they are formed (streaming):
    // addGroup publishes them as it goes.
    bool streaming = false;
    // When to defer (OptimusDeferral::sample, max_dominated): groups costed so far, valid
    // and of more than one vertex, and of those the ones that cost more than their split.
    int64_t costedValid = 0, dominated = 0;
    bool deferHere = false, upperWanted = false; // the bounds, for later vertices to defer
    // Inherited sub-groups (below): whether this vertex's groups get records as they are
    // formed (recordNow) or may get them later (recordsHere), the components of the group
    // being formed, and by layer where the group's record of it is.
    bool recordNow = false, recordsHere = false;
    std::vector<uint32_t> chosenAt(size_t(N) + 1); // by depth
    size_t chosenCount = 0;
    std::vector<int32_t> recordAt(size_t(N), -1);
    // Unproven groups (OptimusDeferral::unproven_sample): groups formed under the rule and
    // of those the ones the bound did not show to fit; once deferred, always.
    int64_t underRule = 0, unproven = 0;
    bool deferUnproven = false;
    // Inherited sub-groups (docs/model-notes.md, "Optimus inherited sub-groups"). A group's
    // records: Optimus Alg. 2 at 1 × 1 for each outside tensor over its readers in the group
    // (their dp and extents there are the same in every group holding it, since nothing below
    // them changes) and the windows they read of it. They follow from the components' records
    // and the first vertex's own inputs, so they are built as the group is formed where groups
    // are costed as they are formed, and otherwise (a group formed deferring) only when a
    // later group needs them, from its components (kept by components()).
    const bool recordsOn = defer && !defer->channels.empty();
    struct FirstOf {
        bool isoa = false;           // Optimus Alg. 2 makes the first vertex ISOA
        bool partInfeasible = false; // a component has no Optimus Eq. 4 solution
        int64_t k = 1;               // the most sub-groups of a component
        int64_t least = 0;           // the first vertex's fmap at the smallest tile, at least
        uint32_t recBeg = 0;         // where the group's records begin in records_
        // Optimus Alg. 2 at 1 × 1 over the first vertex's consumers in the group (Σ dp0, Σ
        // min(dp1, dp0)), and its extents at the smallest tile.
        int64_t acc1 = 0, acc0 = 0, rh = 1, rw = 1;
        int64_t fh = 1; // its rows at the full tile
    };
    std::vector<uint32_t> lazyBuilt; // groups of earlier vertices given records at this one
    // What a group's records keep of its class (for the groups holding it).
    auto keepFigures = [](Recorded& r, const OptimusGroupClass& c) {
        r.k = c.subgroups;
        r.infeasible = c.infeasible;
        r.opsFmap = c.operator_fmap;
        r.opsLeast = c.operator_least;
        r.opsUpper = c.operator_upper;
        r.opsFull = c.operator_full;
    };
    // Appends the records of a group with first vertex `first` formed from `comps` (none for
    // `first` alone; unless `append` is false), and finds what they tell of `first`; false
    // (nothing appended) when a component has no records and cannot get them.
    auto buildRecords = [&](auto&& ensure, LayerId first, const uint32_t* comps, size_t count,
                            FirstOf& fo, bool append = true) -> bool {
        for (size_t j = 0; j < count; ++j)
            if (!ensure(ensure, comps[j])) return false;
        const uint32_t recBeg = uint32_t(records_.size());
        fo.recBeg = recBeg;
        const size_t f = size_t(first);
        int64_t acc1 = 0, acc0 = 0, ah = 1, aw = 1, rh = 1, rw = 1, fh = 1;
        // One component (most groups): its records are merged already, so the others than
        // `first`'s are copied as they are read.
        const bool copy = append && count == 1;
        for (size_t j = 0; j < count; ++j) {
            const Recorded& c = recorded_[info_[comps[j]].rec];
            fo.k = std::max(fo.k, c.k);
            fo.partInfeasible = fo.partInfeasible || c.infeasible;
            for (uint32_t r = c.recBeg; r < c.recEnd; ++r) {
                const Record x = records_[r]; // records_ may grow
                if (x.tensor != first) {
                    if (copy) records_.push_back(x);
                    continue;
                }
                acc1 = satAdd(acc1, x.acc1);
                acc0 = satAdd(acc0, x.acc0);
                ah = std::max<int64_t>(ah, x.rows);
                aw = std::max<int64_t>(aw, x.cols);
                rh = std::max<int64_t>(rh, x.tileRows);
                rw = std::max<int64_t>(rw, x.tileCols);
                fh = std::max<int64_t>(fh, x.fullRows);
            }
        }
        // Optimus Alg. 2 at t_h · t_w = 1 · 1 for `first`, as the coster finds it.
        ah = std::clamp<int64_t>(ah, 1, defer->rows[f]);
        aw = std::clamp<int64_t>(aw, 1, defer->cols[f]);
        // At the smallest tile `first` alone holds min(T_h, O_h) rows and all its columns;
        // consumed in a group (its components hold its successors) it holds what its consumers
        // read of it, as the coster finds it — even when it is also an output, and even when
        // that is less (tiles that shrink upstream, OptimusDeferral::tiles_shrink).
        if (count == 0) {
            rh = std::max(rh, defer->tile_rows);
            rw = defer->cols[f];
            fh = defer->rows[f]; // at the full tile, all of them
        }
        rh = std::clamp<int64_t>(rh, 1, defer->rows[f]);
        rw = std::clamp<int64_t>(rw, 1, defer->cols[f]);
        fh = std::clamp<int64_t>(fh, 1, defer->rows[f]);
        fo.fh = fh;
        fo.least = std::min(defer->channel_tile, defer->channels[f]) * rh * rw;
        fo.acc1 = acc1;
        fo.acc0 = acc0;
        fo.rh = rh;
        fo.rw = rw;
        const int64_t area = ah * aw;
        const int64_t d1 = satAdd(defer->channel_tile * area, acc1);
        const int64_t d0 = satAdd(defer->channels[f] * area, acc0);
        fo.isoa = d1 < d0;
        if (!append) return true; // what the records tell of `first` only
        // Where `p`'s record is: with one component (copied), found among the group's few
        // records (cheaper than indexing them all by layer and clearing the index after);
        // else by recordAt. A new one is appended.
        auto add = [&](LayerId p, const Record& r) {
            int32_t at = -1;
            if (copy) {
                for (size_t q = recBeg; q < records_.size(); ++q)
                    if (records_[q].tensor == p) {
                        at = int32_t(q);
                        break;
                    }
            } else {
                at = recordAt[size_t(p)];
            }
            if (at < 0) {
                at = int32_t(records_.size());
                if (!copy) recordAt[size_t(p)] = at;
                records_.push_back({p, 1, 1, 1, 1, 1, 0, 0});
            }
            Record& x = records_[size_t(at)];
            x.rows = std::max(x.rows, r.rows);
            x.cols = std::max(x.cols, r.cols);
            x.tileRows = std::max(x.tileRows, r.tileRows);
            x.tileCols = std::max(x.tileCols, r.tileCols);
            x.fullRows = std::max(x.fullRows, r.fullRows);
            const int64_t a1 = r.acc1, a0 = r.acc0;
            x.acc1 = satAdd(x.acc1, a1);
            x.acc0 = satAdd(x.acc0, a0);
        };
        if (!copy) { // else the copied ones are distinct tensors: `first`'s inputs merge into them
            for (size_t j = 0; j < count; ++j) {
                const Recorded& c = recorded_[info_[comps[j]].rec];
                for (uint32_t r = c.recBeg; r < c.recEnd; ++r) {
                    const Record x = records_[r]; // records_ may grow
                    if (x.tensor != first) add(x.tensor, x);
                }
            }
        }
        const Record reads = {first,
                              int32_t(defer->rows_read(first, ah)),
                              int32_t(defer->cols_read(first, aw)),
                              int32_t(defer->rows_read(first, rh)),
                              int32_t(defer->cols_read(first, rw)),
                              int32_t(defer->rows_read(first, fh)),
                              d0,
                              std::min(d1, d0)};
        for (LayerId p : net.layer(first).inputs)
            add(p, reads);
        if (!copy)
            for (size_t r = recBeg; r < records_.size(); ++r)
                recordAt[size_t(records_[r].tensor)] = -1;
        return true;
    };
    // Gives group g its records if it has none yet (from its components'); false when it
    // cannot (no entry, or its components were not kept).
    auto ensureRecords = [&](auto&& self, uint32_t g) -> bool {
        if (info_[g].rec == kNone) return false;
        if (recorded_[info_[g].rec].built) return true;
        if (!componentsKept_ || info_[g].hopeless) return false;
        const uint64_t* m = bits(g);
        size_t k = 0;
        while (m[k] == 0)
            ++k;
        const auto first = LayerId(k * 64 + size_t(std::countr_zero(m[k])));
        const std::span<const uint32_t> comps = components(g);
        FirstOf fo;
        if (!buildRecords(self, first, comps.data(), comps.size(), fo)) return false;
        Recorded& r = recorded_[info_[g].rec];
        r.recBeg = fo.recBeg; // after its components' records, built first if they had none
        r.recEnd = uint32_t(records_.size());
        r.built = true;
        lazyBuilt.push_back(g);
        ++recordsBuiltLater_;
        return true;
    };
    // A group's operators' figures (Recorded::opsFmap, opsLeast, opsUpper) from its
    // components' and what their records tell of its first vertex (`fo`), where the first vertex
    // forces none of their ISOA operators off (Optimus Alg. 2 does not make it ISOA, or none of
    // its consumers would be): then every component keeps its decision (docs/model-notes.md,
    // "Optimus costs from records"). The bound over the decisions larger groups can impose is
    // the components' plus the first vertex's term (certainly ISOA: picked, and no producer
    // may join to force it off). False (nothing set) when a component's figures are not known
    // or the first vertex forces some off.
    auto figuresOf = [&](LayerId first, const uint32_t* comps, size_t count, const FirstOf& fo,
                         Recorded& rec) -> bool {
        const int64_t big = std::numeric_limits<int64_t>::max() / 4; // no sum saturated
        if (fo.isoa && (fo.acc0 < fo.acc1 || fo.acc1 >= big)) return false;
        const size_t f = size_t(first);
        const int64_t area = fo.rh * fo.rw;
        const int64_t C = defer->channels[f], tcMin = std::min(defer->channel_tile, C);
        const bool op = defer->compute[f]; // else a concat: no fmap of its own
        const bool mayForce = producerMayJoin[f];
        int64_t ops = op ? (fo.isoa ? tcMin : C) * area : 0;
        int64_t least = op ? tcMin * area : 0;
        int64_t upper = op ? (fo.isoa && !mayForce ? tcMin : C) * area : 0;
        int64_t full = op ? (fo.isoa ? tcMin : C) * fo.fh * fo.rw : 0;
        for (size_t j = 0; j < count; ++j) {
            const Recorded& c = recorded_[info_[comps[j]].rec];
            if (c.opsFmap < 0) return false; // not known
            ops = satAdd(ops, c.opsFmap);
            least = satAdd(least, c.opsLeast);
            upper = satAdd(upper, c.opsUpper); // INT64_MAX (not known) when a component's is not
            full = full < 0 || c.opsFull < 0 ? -1 : satAdd(full, c.opsFull);
        }
        rec.opsFmap = ops;
        rec.opsLeast = least;
        rec.opsUpper = upper;
        rec.opsFull = full;
        return true;
    };
    // What the group's components add up to (for {u} alone: nothing).
    struct Parts {
        double best = 0;           // Σ best: the first vertex's own cost is added once known
        int64_t lowerBits = 0;     // Σ lower bounds
        int64_t ofmap = 0;         // Σ output elements: the components' outputs stay outputs
        int64_t weights = 0;       // Σ weights
        int64_t upper = 0;         // Σ upper_
        int64_t rows = 1;          // the most rows one of them reads of an outside tensor
        int32_t oh = 1;            // the largest O_h of their outputs
        int32_t minLo = INT32_MAX; // the fewest smallest-tile rows among them
        bool hopeless = false;     // one is hopeless, or their lower bounds exceed the buffer
    };
    // The words of bits_ in use (see addGroup); the vector is cut to them when forming ends.
    size_t bitsUsed = bits_.size();
    struct CutBits {
        decltype(bits_)& bits;
        const size_t& used;
        ~CutBits() { bits.resize(used); }
    } cutBits{bits_, bitsUsed};
    // `prod`: the components' outside producers.
    auto addGroup = [&](LayerId first, int size, const uint64_t* m, const uint64_t* d,
                        const uint64_t* a, const uint64_t* nb, const uint64_t* prod,
                        const Parts& parts) {
        const auto id = uint32_t(info_.size());
        // The words in use grow a group at a time, the vector's size by doubling (within its
        // capacity, so that bitsets reserved for the helper do not move), not cleared
        // (WordAllocator): written here.
        const size_t at = bitsUsed;
        bitsUsed += kFields * W;
        if (bits_.size() < bitsUsed)
            bits_.resize(std::max(bitsUsed, std::min(2 * bits_.size(), bits_.capacity())));
        // (memcpy: the scratch never overlaps the groups' bitsets, and with the words known
        // here the copies are a few moves, where std::copy calls memmove.)
        uint64_t* out = &bits_[at];
        std::memcpy(out, m, W * sizeof(uint64_t));
        std::memcpy(out + W, d, W * sizeof(uint64_t));
        std::memcpy(out + 2 * W, a, W * sizeof(uint64_t));
        std::memcpy(out + 3 * W, nb, W * sizeof(uint64_t));
        const uint64_t* up = row(pred, first);
        bool succIn = true, anyCompute = false;
        for (size_t k = 0; k < W; ++k) {
            out[4 * W + k] = (up[k] | prod[k]) & ~m[k]; // outside producers
            succIn = succIn && (row(succ, first)[k] & ~m[k]) == 0;
            anyCompute = anyCompute || (compute[k] & m[k]) != 0;
        }
        // `first` is an output unless all its successors are members (and it has some).
        const bool uOut = !succIn || sink[size_t(first)];
        byMin_[size_t(first)].to = id + 1; // its range began with {first}
        int64_t ofmap = 0, weights = 0, upper = std::numeric_limits<int64_t>::max(), upperRows = 0,
                ifmap = 0;
        int32_t oh = 1;
        bool deferNow = false, unprovenNow = false;
        if (defer) {
            const size_t f = size_t(first);
            ofmap = satAdd(parts.ofmap, uOut ? defer->elems[f] : 0);
            weights = satAdd(parts.weights, defer->weights[f]);
            oh = std::max<int32_t>(parts.oh, uOut ? int32_t(defer->rows[f]) : 1);
            // The components keep their extents at the group's smallest tile when it has as
            // many rows as theirs: their consumers and outputs are the same, and the widths
            // are whole at every output. Then their operators' bounds hold inside the group.
            // The first vertex holds the rows its consumers read of it (at least min(lo, O_h)
            // as an output), and reads some rows of its inputs; every outside tensor is read
            // at no more rows than the most any component or the first vertex reads of one.
            const int64_t lo = std::min<int64_t>(defer->tile_rows, oh);
            const bool rule = deferHere && size > 1 && !parts.hopeless && anyCompute;
            // Once every group under the rule is deferred, proven or not, the bound is not
            // tried: it would change nothing but the flag (and no group's proof needs it).
            if (rule && !deferUnproven && parts.minLo == lo) {
                const int64_t H = std::max<int64_t>(defer->rows[f], 1);
                const int64_t rowsU = std::min(H, std::max(parts.rows, uOut ? lo : 1));
                const int64_t ops = satAdd(
                    parts.upper,
                    defer->compute[f] ? satMul(satMul(rowElems[f], rowsU), defer->act_bits) : 0);
                const int64_t rows = std::max(parts.rows, defer->rows_read(first, rowsU));
                int64_t outside = 0; // elements
                for (size_t k = 0; k < W; ++k)
                    for (uint64_t x = out[4 * W + k]; x; x &= x - 1) {
                        const size_t p = k * 64 + size_t(std::countr_zero(x));
                        outside =
                            satAdd(outside, satMul(rowElems[p], std::min(rows, defer->rows[p])));
                        ifmap = satAdd(ifmap, defer->elems[p]);
                    }
                deferNow = satAdd(ops, satMul(outside, defer->act_bits)) <= rules.capacity_bits;
                if (deferNow) {
                    upper = ops;
                    upperRows = rows;
                }
            }
            if (rule) {
                ++underRule;
                unproven += !deferNow;
                if (!deferNow && deferUnproven) { // its cost's lower bound needs its inputs
                    ifmap = 0;
                    for (size_t k = 0; k < W; ++k)
                        for (uint64_t x = out[4 * W + k]; x; x &= x - 1)
                            ifmap =
                                satAdd(ifmap, defer->elems[k * 64 + size_t(std::countr_zero(x))]);
                    deferNow = unprovenNow = true;
                }
            }
        }
        // The group's components (if kept), Info and entry of records (`built`: its records are
        // [recBeg, end of records_)). Inlined at both calls: a call per group formed costs about
        // 7 % of forming where nearly every group is deferred.
        auto place = [&](uint32_t recBeg, bool built) __attribute__((always_inline))->Info& {
            if (componentsKept_) {
                // (One by one: insert's call costs more than the few it appends.)
                for (size_t c = 0; c < chosenCount; ++c)
                    components_.push_back(chosenAt[c]);
                componentsEnd_.push_back(uint32_t(components_.size()));
            }
            Info& info = info_.emplace_back();
            info.cost = std::numeric_limits<double>::infinity();
            info.best = parts.best;
            if (recordsHere) { // records now, or built when a later group needs them
                info.rec = uint32_t(recorded_.size());
                // Written in place: a temporary copied in is read back wide just after its
                // fields were written one by one, which stalls (about 2 % of the search on
                // GoogLeNet).
                Recorded& r = recorded_.emplace_back();
                r.recBeg = recBeg;
                r.recEnd = built ? uint32_t(records_.size()) : recBeg;
                r.built = built;
            }
            info.ofmap = ofmap;
            info.weights = weights;
            info.upper = upper;
            info.upperRows = upperRows;
            info.size = size;
            info.oh = oh;
            info.hopeless = parts.hopeless;
            info.deferred = deferNow;
            info.unproven = unprovenNow;
            return info;
        };
        if (deferNow) {
            // Proven: valid and not hopeless, its fmaps fit at the smallest tile whatever its
            // ISOA decision. Unproven: taken as not hopeless (which prunes nothing). Its parts'
            // lower bounds hold for it (and {first}'s, added below). It gets no records now
            // (not costed as formed), and needs none of its components'.
            Info& info = place(uint32_t(records_.size()), false);
            ++deferredCount_;
            info.lowerBound = parts.lowerBits;
            info.cost = double(satAdd(satAdd(ifmap, ofmap), weights));
            return;
        }
        // Inherited sub-groups. Where groups are costed as they are formed (no deferral here),
        // each gets records (buildRecords(), above; its components get theirs first if they
        // were formed deferring). From its components' records of `first`, a group finds
        // whether Optimus Alg. 2 makes `first` ISOA. When it does not, every component keeps
        // its ISOA decision and extents inside the group, and the group holds at least what
        // each component holds at every tile (`first`, a compute layer, at all its channels as
        // much as the component held it as an outside tensor). Then the group has no solution
        // of Optimus Eq. 4 when a component has none, and otherwise at least as many
        // sub-groups as each component (its weights cannot be resident either, and its tiles
        // fit no better), so Optimus Eq. 3 is at least its inputs + outputs + that many times
        // its weights. A group shown invalid, or above its split so (never the cheapest cover
        // of its vertices), is classified so without costing it; it inherits the most
        // sub-groups of its components, and its parts' lower bounds (docs/model-notes.md,
        // "Optimus inherited sub-groups").
        FirstOf fo;
        const bool recorded = recordNow && !parts.hopeless &&
                              buildRecords(ensureRecords, first, chosenAt.data(), chosenCount, fo);
        // Costs from records (below): a group of one costed component gets its records now,
        // unless Optimus Eq. 3 has more than one sub-group for it whatever its fmaps (the
        // weights alone exceed the buffer and the tile is lower than the outputs).
        const uint32_t comp = chosenCount == 1 ? chosenAt[0] : kNone;
        // ⌈O_h / min(T_h, O_h)⌉ = 1: the smallest tile is as high as the outputs.
        const bool oneTile = defer && oh <= defer->tile_rows;
        // Optimus Eq. 3 has more than one sub-group unless the full tile fits: the weights alone
        // exceed the buffer and the tile is lower than the outputs.
        const bool thSearch =
            defer && satMul(weights, defer->weight_bits) > rules.capacity_bits && !oneTile;
        const bool fromRecordsMay = recordsHere && comp != kNone && !deferNow && !parts.hopeless &&
                                    anyCompute && info_[comp].rec != kNone &&
                                    recorded_[info_[comp].rec].opsFmap >= 0 &&
                                    (!thSearch || recorded);
        const bool built = recorded || (fromRecordsMay &&
                                        buildRecords(ensureRecords, first, chosenAt.data(), 1, fo));
        // Where the space defers, a group to be costed that holds a component without an
        // Optimus Eq. 4 solution finds from their records (built for them now if need be)
        // whether `first` is ISOA; if not, it is invalid (below). Its own records wait until
        // a later group needs them.
        bool firstKnown = built;
        if (!built && recordsHere && deferHere && !deferNow && !parts.hopeless && size > 1 &&
            defer->compute[size_t(first)]) {
            bool anyInfeasible = false;
            for (size_t j = 0; j < chosenCount && !anyInfeasible; ++j)
                anyInfeasible = recorded_[info_[chosenAt[j]].rec].infeasible;
            firstKnown = anyInfeasible && buildRecords(ensureRecords, first, chosenAt.data(),
                                                       chosenCount, fo, false);
        }
        const uint32_t recBeg = built ? fo.recBeg : uint32_t(records_.size());
        const bool isoaFirst = fo.isoa, partInfeasible = fo.partInfeasible;
        const int64_t inheritedK = fo.k, firstLeast = fo.least;
        // Inherited sub-groups (above), for a group the records cover with `first` not ISOA:
        // infinite when it is invalid, its least cost when that is above its split, else -1.
        auto inheritedClass = [&]() -> double {
            if (!firstKnown || isoaFirst || !defer->compute[size_t(first)]) return -1;
            if (partInfeasible) return std::numeric_limits<double>::infinity();
            // Above its split: only where the space does not defer, since such a group has no
            // upper bound for the deferral's proof that the groups holding it fit (an invalid
            // group has none to lose).
            if (!recorded) return -1;
            int64_t in = 0; // the group's outside inputs
            for (size_t k = 0; k < W; ++k)
                for (uint64_t x = out[4 * W + k]; x; x &= x - 1)
                    in = satAdd(in, defer->elems[k * 64 + size_t(std::countr_zero(x))]);
            const double least = double(satAdd(satAdd(in, ofmap), satMul(inheritedK, weights)));
            return least > alone + parts.best ? least : -1;
        };
        // Optimus costs from records (docs/model-notes.md, "Optimus costs from records"). A
        // group of one component C whose first vertex forces none of C's ISOA operators off —
        // Optimus Alg. 2 does not make `first` ISOA, or none of its consumers in C would be ISOA
        // (Σ dp0 = Σ min(dp1, dp0) over them) — keeps C's ISOA decision, extents and outputs:
        // its operators' terms of Optimus Eq. 4 at the smallest tile are C's and `first`'s, its
        // outside tensors are its records. When they do not fit it is invalid (no Optimus Eq. 4
        // solution); when they fit and Optimus Eq. 3 has one sub-group (weights resident, or a
        // tile as high as the outputs), its cost follows exactly: inputs + outputs + weights,
        // as the classifier would find it; with streamed weights, when its fmaps at the full
        // tile fit (one sub-group). Else (the t_h search) the classifier costs it. The bound
        // of the groups holding it is C's plus `first`'s term: only C's undecided operators
        // can change state with `first` inside, and none to more channels than the bound
        // counts, so it is exact where no consumer of `first` would be ISOA and no lower than
        // the classifier's elsewhere.
        struct FromRecords {
            double cost = 0;
            int64_t ops = 0, least = 0, upper = std::numeric_limits<int64_t>::max(), most = 1;
            int64_t full = -1;    // its operators' terms at the full tile (Recorded::opsFull)
            int64_t k = 1;        // at least this many sub-groups (Recorded::k)
            bool invalid = false; // no Optimus Eq. 4 solution: its fmaps exceed the buffer
        };
        auto fromRecordsClass = [&]() -> std::optional<FromRecords> {
            if (!fromRecordsMay || !built) return std::nullopt;
            // Its operators' figures: C's and `first`'s, unless `first` forces some off.
            Recorded figures;
            if (!figuresOf(first, &comp, 1, fo, figures)) return std::nullopt;
            const int64_t big = std::numeric_limits<int64_t>::max() / 4; // no sum saturated
            FromRecords r;
            r.ops = figures.opsFmap;
            r.least = figures.opsLeast;
            r.upper = figures.opsUpper; // INT64_MAX when C's is not known
            int64_t outside = 0, in = 0;
            for (size_t k = recBeg; k < records_.size(); ++k) {
                const Record& x = records_[k];
                const size_t p = size_t(x.tensor);
                outside = satAdd(
                    outside, satMul(defer->channels[p], int64_t(x.tileRows) * int64_t(x.tileCols)));
                in = satAdd(in, defer->elems[p]);
                r.most = std::max<int64_t>(r.most, x.tileRows);
            }
            const int64_t fmap = satAdd(outside, r.ops);
            if (fmap >= big) return std::nullopt;
            if (fmap > capElems) {
                // Where the weights alone exceed the buffer the classifier's bounds (hopeless)
                // prune more than costing it costs (docs/model-notes.md).
                if (thSearch) return std::nullopt;
                r.invalid = true; // whatever Optimus Eq. 3 would say
                r.cost = std::numeric_limits<double>::infinity();
                return r;
            }
            if (upperWanted && r.upper >= big) return std::nullopt;
            const bool resident =
                satAdd(satMul(fmap, defer->act_bits), satMul(weights, defer->weight_bits)) <=
                rules.capacity_bits;
            r.full = figures.opsFull;
            const int64_t base = satAdd(in, ofmap);
            if (!resident && !oneTile) {
                // The t_h search: one sub-group when the full tile fits (every output whole:
                // t_h = O_h). Else at least two; where the ceiling (the split, as the classifier
                // gets it: Optimus Eq. 3's costs are integers) leaves room for no more than one
                // sub-group, the classifier would stop there and give kMax + 1 sub-groups, a cost
                // above the split (OptimusCoster::cost); else it finds how many.
                const int64_t ceiling = optimusCeiling(alone + parts.best);
                const int64_t kMax = ceiling < base                         ? -1
                                     : ceiling - base >= satMul(2, weights) ? 2
                                     : ceiling - base >= weights            ? 1
                                                                            : 0;
                int64_t full = 0; // the fmaps at the full tile
                if (kMax >= 1) {
                    if (figures.opsFull < 0) return std::nullopt;
                    full = figures.opsFull;
                    for (size_t k = recBeg; k < records_.size(); ++k) {
                        const Record& x = records_[k];
                        full = satAdd(full, satMul(defer->channels[size_t(x.tensor)],
                                                   int64_t(x.fullRows) * int64_t(x.tileCols)));
                    }
                }
                if (kMax < 1 || full > capElems) {
                    r.k = std::max<int64_t>(kMax, 0) + 1;
                    if (kMax >= 2) {
                        // Room for more sub-groups: the coster tries the tile of the most the
                        // ceiling allows, t = max(lo, ⌈O_h / kMax⌉) (unless that is every tile
                        // count, when it searches them all), and where it does not fit stops
                        // with kMax + 1. Rows read through convolution windows ((n − 1)·S + E
                        // clipped) and held as outputs (min(t, O_h)) are concave and
                        // nondecreasing in t, as are their maxima along any one path of
                        // readers; so every term of Optimus Eq. 4, and the fmaps, are at least
                        // (t − lo) / (O_h − lo) of what they are at the full tile. Where that
                        // exceeds the buffer, t does not fit.
                        const int64_t lo = std::min<int64_t>(defer->tile_rows, oh);
                        const int64_t most = (ceiling - base) / weights; // kMax itself
                        if (most >= ceilDiv(oh, lo) || intersects(m, otherRows.data(), W))
                            return std::nullopt;
                        const int64_t t = std::max(lo, ceilDiv(oh, most));
                        // In doubles, with a margin for their rounding (t − lo < O_h − lo).
                        if (!(double(t - lo) * double(full) >
                              double(capElems) * double(oh - lo) * (1 + 0x1p-32)))
                            return std::nullopt;
                        r.k = most + 1;
                    }
                    r.cost = double(satAdd(base, satMul(r.k, weights)));
                    return r;
                }
            }
            r.cost = double(satAdd(base, weights));
            return r;
        };
        place(recBeg, built);
        if (parts.hopeless) {
            ++byBound_; // it holds a hopeless group: invalid, not costed
        } else if (size == 1) {
            std::vector<LayerId>& members = perThread[0].members;
            bitsToIds(m, W, members);
            const OptimusGroupClass c =
                classify(members, 0, std::numeric_limits<double>::infinity(), upperWanted);
            info_[id].cost = alone = c.cost;
            info_[id].hopeless = c.hopeless;
            info_[id].lowerBound = c.lower_bound_bits;
            info_[id].upper = c.upper_bound_bits;
            info_[id].upperRows = c.upper_rows;
            if (info_[id].rec != kNone) keepFigures(recorded_[info_[id].rec], c);
            // What u needs in every group holding it at least: what it needs alone, unless tiles
            // shrink upstream (OptimusDeferral::tiles_shrink), where u consumed in a group may
            // hold fewer rows or columns than alone — then its fewest at min(T_c, C_out).
            aloneBits = c.lower_bound_bits;
            if (defer && defer->tiles_shrink) {
                const size_t f = size_t(first);
                const int64_t area =
                    defer->least_rows.empty() ? 1 : defer->least_rows[f] * defer->least_cols[f];
                aloneBits =
                    defer->compute[f] && !defer->channels.empty()
                        ? satMul(satMul(std::min(defer->channel_tile, defer->channels[f]), area),
                                 defer->act_bits)
                        : 0;
            }
        } else if (const double inheritedCost = inheritedClass(); inheritedCost >= 0) {
            // Inherited sub-groups (above): invalid, or a cost above its split. Its parts'
            // lower bounds hold for it.
            ++inheritedCount_;
            info_[id].inherited = true;
            recorded_[info_[id].rec].infeasible = partInfeasible;
            recorded_[info_[id].rec].k = inheritedK;
            // `first`'s term: its least fmap here (its extents are the same in every group
            // holding this one).
            info_[id].lowerBound = satAdd(parts.lowerBits, satMul(firstLeast, defer->act_bits));
            info_[id].cost = inheritedCost;
            // Its operators' figures, for the groups holding it (costs from records, above):
            // every component keeps its decision and `first` is not ISOA.
            figuresOf(first, chosenAt.data(), chosenCount, fo, recorded_[info_[id].rec]);
        } else if (const std::optional<FromRecords> r = fromRecordsClass()) {
            // Costed from records (above). Valid: never hopeless, its bounds as the classifier
            // gives them for a group that fits. Invalid: its operators at min(T_c, C_out) bound
            // the groups holding it (sound, where the classifier may find a tighter bound over
            // the decisions they can impose, or call it hopeless), and it has no Optimus Eq. 4
            // solution for the groups holding it that inherit from it.
            ++fromRecordsCount_;
            info_[id].cost = r->cost;
            info_[id].lowerBound = satMul(r->least, defer->act_bits);
            if (upperWanted && !r->invalid) {
                info_[id].upper = satMul(r->upper, defer->act_bits);
                info_[id].upperRows = r->most;
            }
            Recorded& rec = recorded_[info_[id].rec];
            rec.fromRecords = true;
            rec.infeasible = r->invalid;
            rec.opsFmap = r->ops;
            rec.opsLeast = r->least;
            rec.opsUpper = r->upper;
            rec.opsFull = r->full;
            rec.k = r->k;
        } else {
            Pending& pend = pending.emplace_back(); // in place, as recorded_ above
            pend.g = id;
            pend.split = alone + parts.best;
            pend.upper = upperWanted;
            if (streaming && pending.size() % 8 == 0) sharer->publish(pending.size());
        }
    };
    auto classifyPending = [&](LayerId u) {
        if (streaming)
            sharerOn.close(pending.size());
        else
            sharerOn.run(pending.size());
        streaming = false;
        for (PerThread& t : perThread) {
            for (const Found& f : t.found) {
                info_[f.g].cost = f.c.cost;
                info_[f.g].hopeless = f.c.hopeless;
                info_[f.g].lowerBound = f.c.lower_bound_bits;
                info_[f.g].upper = f.c.upper_bound_bits;
                info_[f.g].upperRows = f.c.upper_rows;
                if (info_[f.g].rec != kNone) keepFigures(recorded_[info_[f.g].rec], f.c);
            }
            t.found.clear();
        }
        validAt_[size_t(u)].from = uint32_t(validIds_.size());
        for (uint32_t g : byMin_[size_t(u)]) {
            if (info_[g].cost < std::numeric_limits<double>::infinity()) validIds_.push_back(g);
            split_.push_back(info_[g].size == 1 ? std::numeric_limits<double>::infinity()
                                                : alone + info_[g].best);
            if (info_[g].size > 1 && !info_[g].deferred &&
                info_[g].cost < std::numeric_limits<double>::infinity()) {
                ++costedValid;
                dominated += info_[g].cost > split_[g];
            }
            // A deferred group's cost is not known yet: its split is what is known.
            info_[g].best = info_[g].deferred ? split_[g] : std::min(info_[g].cost, split_[g]);
            if (info_[g].deferred) info_[g].lowerBound = satAdd(info_[g].lowerBound, aloneBits);
        }
        validAt_[size_t(u)].to = uint32_t(validIds_.size());
        pending.clear();
    };

    // Components of a group starting at v: formed groups holding a successor of v (their
    // first vertex lies between v and that successor), each listed under the first successor
    // of v it holds so that every set of components is met once. The lists may be built
    // before the groups of the vertex after v are classified (see the end of the loop below),
    // so hopeless groups are skipped where they are read, not here; ones already known to be
    // hopeless are left out.
    auto headsOf = [&](LayerId v, std::vector<LayerId>& heads) {
        heads.clear();
        for (LayerId s : net.successors(v))
            if (isVertex(s)) heads.push_back(s);
        std::sort(heads.begin(), heads.end());
        heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    };
    // One pass over the groups whose first vertex lies between v and the last head: each goes
    // to the first head it holds (its first vertex is at most that head), in the order met.
    // Into owned[0, heads.size()) (the lists keep their room from vertex to vertex).
    // The first head a group holds is the lowest bit of its members among the heads'.
    std::vector<uint64_t> headMask(W);
    std::vector<int32_t> headIndex(size_t(N), -1);
    auto ownedOf = [&](LayerId v, const std::vector<LayerId>& heads,
                       std::vector<std::vector<uint32_t>>& owned) {
        if (owned.size() < heads.size()) owned.resize(heads.size());
        std::fill(headMask.begin(), headMask.end(), 0);
        for (size_t i = 0; i < heads.size(); ++i) {
            owned[i].clear();
            setBit(headMask.data(), heads[i]);
            headIndex[size_t(heads[i])] = int32_t(i);
        }
        for (LayerId m = v + 1; m <= heads.back(); ++m)
            for (uint32_t g : byMin_[size_t(m)]) {
                if (rules.prune_hopeless && info_[g].hopeless) continue;
                const uint64_t* gm = bits(g);
                for (size_t k = 0; k < W; ++k)
                    if (const uint64_t x = gm[k] & headMask[k]) {
                        owned[size_t(headIndex[k * 64 + size_t(std::countr_zero(x))])].push_back(g);
                        break;
                    }
            }
    };
    std::vector<std::vector<uint32_t>> owned;    // ownedOf(u), for u's heads
    std::vector<std::vector<uint32_t>> prebuilt; // ownedOf(prebuiltFor), built early
    LayerId prebuiltFor = -1;
    // Scratch kept from vertex to vertex: u's heads and the next vertex's, {u}'s bitsets, and
    // the recursion's bitsets by depth (below).
    std::vector<LayerId> heads, nextHeads;
    std::vector<uint64_t> single(W), singleNb(W), none(W, 0), st;

    uint64_t formed = 0;
    int64_t verticesLeft = 0;
    for (LayerId v = 0; v < N; ++v)
        verticesLeft += isVertex(v);
    for (LayerId u = N - 1; u >= 0; --u) {
        if (!isVertex(u)) continue;
        const size_t before = info_.size();
        byMin_[size_t(u)] = {uint32_t(before), uint32_t(before)}; // addGroup extends it
        // This vertex's share of the bounds.
        int64_t allowance = rules.max_groups_per_vertex > 0 ? rules.max_groups_per_vertex
                                                            : std::numeric_limits<int64_t>::max();
        if (rules.max_groups > 0) {
            const int64_t left = std::max<int64_t>(0, rules.max_groups - int64_t(before));
            allowance = std::min(allowance, std::max(kMinShare, 4 * left / verticesLeft));
        }
        --verticesLeft;
        if (cancelled && cancelled()) {
            cancelled_ = true;
            return;
        }
        const auto& succ = net.successors(u);
        const bool fanOut = rules.fan_out_all_or_none && succ.size() >= 2;
        const bool fewDominated =
            defer && double(dominated) <= defer->max_dominated * double(costedValid);
        deferHere = fewDominated && costedValid >= defer->sample;
        upperWanted = defer && (costedValid < defer->sample || fewDominated);
        deferUnproven =
            deferUnproven || (deferHere && underRule >= defer->unproven_sample &&
                              double(unproven) <= defer->max_unproven * double(underRule));
        // From then on nearly every group is deferred: the fuser's floor does not follow
        // components there (see componentsKept()), so they are no longer kept, and neither are
        // records (built later from kept components).
        componentsKept_ = componentsKept_ && !deferUnproven;
        recordsHere = recordsOn && componentsKept_;
        recordNow = recordsHere && !deferHere;
        {
            std::fill(single.begin(), single.end(), 0);
            setBit(single.data(), u);
            for (size_t k = 0; k < W; ++k)
                singleNb[k] = row(adj, u)[k] & ~single[k];
            chosenCount = 0;
            addGroup(u, 1, single.data(), row(desc, u), row(anc, u), singleNb.data(), none.data(),
                     Parts{});
        }
        headsOf(u, heads);
        if (heads.empty() || (fanOut && heads.size() < succ.size())) { // no component to join
            classifyPending(u);
            largestShare_ = std::max(largestShare_, int64_t(info_.size() - before));
            continue;
        }
        if (prebuiltFor == u) {
            owned.swap(prebuilt);
            // Built before the groups after u were all classified: drop those found hopeless
            // since (ownedOf leaves out the ones known then).
            if (rules.prune_hopeless)
                for (size_t i = 0; i < heads.size(); ++i)
                    std::erase_if(owned[i], [&](uint32_t g) { return info_[g].hopeless; });
        } else {
            ownedOf(u, heads, owned);
        }
        prebuiltFor = -1;
        // Per depth (number of components chosen): members, descendants, ancestors, the
        // components' vertices and neighbours (no further component may touch them), and their
        // outside producers.
        constexpr size_t kDepthFields = 5;
        st.assign((heads.size() + 1) * kDepthFields * W, 0);
        auto at = [&](size_t depth, size_t field) {
            return &st[(depth * kDepthFields + field) * W];
        };
        setBit(at(0, 0), u);
        std::memcpy(at(0, 1), row(desc, u), W * sizeof(uint64_t));
        std::memcpy(at(0, 2), row(anc, u), W * sizeof(uint64_t));
        std::vector<uint64_t> nb(W);
        int size = 1, maxSize = rules.max_size;
        bool overflow = false, countOnly = false;
        int64_t counted = 0;
        // `parts`: of the chosen components. Each depth has its own (built field by field from
        // the one above: copying the whole just after its fields were written stalls).
        auto rec = [&](auto&& self, size_t i, size_t depth, const Parts& parts) -> void {
            if (cancelled_ || overflow) return;
            const uint64_t* cm = at(depth, 0);
            if (i == heads.size()) {
                if (depth == 0) return;
                if ((++formed & 0xff) == 0 && cancelled && cancelled()) {
                    cancelled_ = true;
                    return;
                }
                if (++counted >= allowance) {
                    overflow = true; // over the vertex's share: see below
                    return;
                }
                if (countOnly) return;
                for (size_t k = 0; k < W; ++k)
                    nb[k] = (at(depth, 3)[k] | row(adj, u)[k]) & ~cm[k];
                chosenCount = depth;
                addGroup(u, size, cm, at(depth, 1), at(depth, 2), nb.data(), at(depth, 4), parts);
                return;
            }
            if (testBit(cm, heads[i])) { // already in a chosen component (it is not u)
                self(self, i + 1, depth, parts);
                return;
            }
            if (!fanOut) self(self, i + 1, depth, parts); // heads[i] stays outside the group
            const uint64_t* blocked = at(depth, 3);
            for (uint32_t g : owned[i]) { // none hopeless (see ownedOf and above)
                const uint64_t* gm = bits(g);
                if (intersects(gm, blocked, W)) continue;
                if (maxSize > 0 && size + info_[g].size > maxSize) continue;
                // Disjoint components' lower bounds add up: beyond the buffer, this group
                // and every group holding it are invalid.
                const int64_t bound = satAdd(parts.lowerBits, info_[g].lowerBound);
                const bool tooBig = bound > rules.capacity_bits;
                if (tooBig && rules.prune_hopeless) continue;
                // ISValid: a vertex outside the group both below and above it lies on a path
                // that leaves the group and re-enters it. (Tested before anything is written:
                // on GoogLeNet about half the candidates that get this far fail it.)
                const uint64_t* cd = at(depth, 1);
                const uint64_t* ca = at(depth, 2);
                uint64_t cyclic = 0;
                for (size_t k = 0; k < W; ++k)
                    cyclic |= (cd[k] | gm[W + k]) & (ca[k] | gm[2 * W + k]) & ~(cm[k] | gm[k]);
                if (cyclic != 0) continue; // adding components cannot repair it
                uint64_t* nm = at(depth + 1, 0);
                uint64_t* nd = at(depth + 1, 1);
                uint64_t* na = at(depth + 1, 2);
                for (size_t k = 0; k < W; ++k) {
                    nm[k] = cm[k] | gm[k];
                    nd[k] = cd[k] | gm[W + k];
                    na[k] = ca[k] | gm[2 * W + k];
                }
                for (size_t k = 0; k < W; ++k) {
                    at(depth + 1, 3)[k] = at(depth, 3)[k] | gm[k] | gm[3 * W + k];
                    at(depth + 1, 4)[k] = at(depth, 4)[k] | gm[4 * W + k];
                }
                const Info& gi = info_[g]; // not used past the call below (info_ grows there)
                Parts next;
                next.hopeless = parts.hopeless || gi.hopeless || tooBig;
                next.lowerBits = bound;
                next.best = parts.best + gi.best;
                if (defer) {
                    next.ofmap = satAdd(parts.ofmap, gi.ofmap);
                    next.weights = satAdd(parts.weights, gi.weights);
                    next.upper = satAdd(parts.upper, gi.upper);
                    next.rows = std::max(parts.rows, gi.upperRows);
                    next.oh = std::max(parts.oh, gi.oh);
                    next.minLo = std::min<int32_t>(
                        parts.minLo, int32_t(std::min<int64_t>(defer->tile_rows, gi.oh)));
                }
                const int gsize = gi.size;
                size += gsize;
                chosenAt[depth] = g;
                self(self, i + 1, depth + 1, next);
                size -= gsize;
            }
        };
        // The bound: when u's groups would exceed its share, form only those of up to the
        // largest size whose groups fit it (found by bisection over the size limit).
        const size_t mark = info_.size(), pendingMark = pending.size();
        lazyBuilt.clear();
        const size_t recordsMark = records_.size(), recordedMark = recorded_.size();
        const int64_t byBoundMark = byBound_, underRuleMark = underRule, unprovenMark = unproven;
        auto rollback = [&] {
            underRule = underRuleMark;
            unproven = unprovenMark;
            for (size_t g = mark; g < info_.size(); ++g)
                fromRecordsCount_ -= costedFromRecords(g);
            bitsUsed = mark * kFields * W;
            records_.resize(recordsMark);
            recorded_.resize(recordedMark);
            recordsBuiltLater_ -= int64_t(lazyBuilt.size());
            for (const uint32_t g : lazyBuilt) { // their records went with records_
                Recorded& r = recorded_[info_[g].rec];
                r.recBeg = r.recEnd = 0;
                r.built = false;
            }
            lazyBuilt.clear();
            for (size_t g = mark; g < info_.size(); ++g) {
                deferredCount_ -= info_[g].deferred;
                inheritedCount_ -= info_[g].inherited;
            }
            info_.resize(mark);
            if (componentsKept_) {
                componentsEnd_.resize(mark);
                components_.resize(mark == 0 ? 0 : componentsEnd_[mark - 1]);
            }
            byMin_[size_t(u)].to = std::min(byMin_[size_t(u)].to, uint32_t(mark));
            pending.resize(pendingMark);
            byBound_ = byBoundMark;
        };
        auto formUpTo = [&](int limit, bool count) {
            if (!count) rollback();
            maxSize = limit;
            overflow = false;
            countOnly = count;
            counted = 0;
            rec(rec, 0, 0, Parts{});
            return !overflow;
        };
        // Classify while forming when the helper is on and the vertex forms enough groups to
        // share but not so many that reserving room for them all would be wasteful: the
        // helper reads the bitsets and the pending list while they grow, so they must not move.
        uint64_t most = 1;
        for (size_t i = 0; i < heads.size(); ++i) {
            const std::vector<uint32_t>& list = owned[i];
            most =
                list.size() + 1 > kMaxStreamed / most ? kMaxStreamed + 1 : most * (list.size() + 1);
        }
        most = std::min<uint64_t>(most, uint64_t(allowance)); // it forms no more than that
        if (sharerOn.shared() && most >= 16 && most <= kMaxStreamed) {
            const size_t groups = info_.size() + size_t(most);
            if (bits_.capacity() < groups * kFields * W)
                bits_.reserve(std::max(groups * kFields * W, 2 * bits_.capacity()));
            if (pending.capacity() < pending.size() + size_t(most))
                pending.reserve(std::max(pending.size() + size_t(most), 2 * pending.capacity()));
            sharerOn.open();
            sharerOn.publish(pending.size());
            streaming = true;
        }
        const bool fitted = formUpTo(rules.max_size, false);
        if (streaming && (!fitted || cancelled_)) { // formed again below, or not at all
            sharerOn.close(pending.size());
            streaming = false;
            for (PerThread& t : perThread)
                t.found.clear();
        }
        if (!fitted && !cancelled_) {
            // No combination is larger than u and the largest component of every head.
            int hi = 1;
            for (size_t i = 0; i < heads.size(); ++i) {
                int largest = 0;
                for (uint32_t g : owned[i])
                    largest = std::max(largest, info_[g].size);
                hi += largest;
            }
            if (rules.max_size > 0) hi = std::min(hi, rules.max_size);
            int lo = 1; // lo fits, hi does not
            while (hi - lo > 1 && !cancelled_) {
                const int mid = lo + (hi - lo) / 2;
                (formUpTo(mid, true) ? lo : hi) = mid;
            }
            formUpTo(lo, false);
            limits_.push_back({u, lo, allowance - int64_t(info_.size() - mark)});
        }
        if (cancelled_) return;
        // While the helper costs the last of this vertex's groups, the next vertex's lists of
        // components are built (they need only the groups formed, not their classes).
        if (streaming) {
            sharerOn.publish(pending.size());
            LayerId next = u - 1;
            while (next >= 0 && !isVertex(next))
                --next;
            if (next >= 0) {
                headsOf(next, nextHeads);
                if (!nextHeads.empty()) {
                    ownedOf(next, nextHeads, prebuilt);
                    prebuiltFor = next;
                }
            }
        }
        classifyPending(u);
        largestShare_ = std::max(largestShare_, int64_t(info_.size() - before));
    }
}

} // namespace lf
