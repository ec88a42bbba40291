#include "models/rf_level.h"

#include "util/checked.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <tuple>

namespace lf {

namespace {

// --- spatial unrolling --------------------------------------------------------------------

// The smallest unrolling that reaches each distinct ⌈E/u⌉ (others waste PEs).
std::vector<int64_t> unrollCandidates(int64_t e, int64_t pes) {
    std::vector<int64_t> c;
    for (int64_t q = 1; q <= e;) {
        const int64_t u = ceilDiv(e, q);
        if (u <= pes && (c.empty() || c.back() != u)) c.push_back(u);
        q = u > 1 ? ceilDiv(e, u - 1) : e + 1; // next q with a smaller ⌈e/q⌉
    }
    if (c.empty() || c.back() != 1) c.push_back(1);
    return c;
}

struct AxisBest {
    int64_t cycles = -1, pes = 0;
    std::vector<int64_t> u;
};

void searchAxis(const std::vector<int64_t>& e, size_t k, int64_t pesLeft, int64_t cycles,
                int64_t used, std::vector<int64_t>& u, AxisBest& best) {
    if (k == e.size()) {
        if (best.cycles < 0 || cycles < best.cycles ||
            (cycles == best.cycles && (used < best.pes || (used == best.pes && u > best.u)))) {
            best.cycles = cycles;
            best.pes = used;
            best.u = u;
        }
        return;
    }
    for (int64_t c : unrollCandidates(e[k], pesLeft)) {
        u[k] = c;
        searchAxis(e, k + 1, pesLeft / c, cycles * ceilDiv(e[k], c), used * c, u, best);
    }
}

// --- the register-file level -------------------------------------------------------------

// Per-PE loop dims of the level; the kernel loops FY, FX are never tiled.
enum P : size_t { pG = 0, pK, pC, pOY, pOX, pFY, pFX, kP };

struct Layer7 {
    std::array<int64_t, kP> q{};    // per-PE temporal extent ⌈D/U⌉
    std::array<int64_t, kP> s{};    // spatial unrolling
    std::array<int64_t, kP> full{}; // whole extent D (clips the array footprint)
    int64_t sx = 1, sy = 1, dilx = 1, dily = 1, in_w = 1, in_h = 1;
};

int64_t window(int64_t no, int64_t nf, int64_t stride, int64_t dil) {
    return (no - 1) * stride + (nf - 1) * dil + 1;
}

// Footprint (elements) of array `a` over loop extents n (one per P).
double footprint(Arr a, const std::array<int64_t, kP>& n, const Layer7& L) {
    switch (a) {
    case Arr::W:
        return double(n[pG]) * double(n[pK]) * double(n[pC]) * double(n[pFY]) * double(n[pFX]);
    case Arr::X:
        return double(n[pG]) * double(n[pC]) *
               double(std::min(window(n[pOY], n[pFY], L.sy, L.dily), L.in_h)) *
               double(std::min(window(n[pOX], n[pFX], L.sx, L.dilx), L.in_w));
    case Arr::Y:
        return double(n[pG]) * double(n[pK]) * double(n[pOY]) * double(n[pOX]);
    }
    return 0;
}

// Distinct values of S·o + dil·f for o < uo, f < uf: a contiguous range when the kernel taps
// cover the stride, else every pair apart.
int64_t distinctRows(int64_t uo, int64_t uf, int64_t stride, int64_t dil) {
    if (uo == 1 || uf == 1) return uo * uf;
    if (dil == 1 && stride <= uf) return (uo - 1) * stride + uf;
    return uo * uf;
}

bool relevantToY(size_t p) {
    return p == pG || p == pK || p == pOY || p == pOX;
}

bool relevant(Arr a, size_t p) {
    switch (a) {
    case Arr::W:
        return p != pOY && p != pOX;
    case Arr::X:
        return p != pK;
    case Arr::Y:
        return relevantToY(p);
    }
    return true;
}

struct Loop {
    size_t p;
    int64_t size;
};

// A per-PE loop nest, innermost first: at most the two kernel loops, one RF tile loop and
// one rest loop per tiled dim.
struct Nest {
    std::array<Loop, 2 + 2 * 5> loops;
    size_t n = 0;
    void push(size_t p, int64_t size) { loops[n++] = {p, size}; }
};

// One array's options: for each run length 0..L, its bits per PE and its traffic.
struct Option {
    double bits = 0, traffic = 0, words = 0; // words of act_bits: b-bit elements are b/act
};

struct Options {
    std::array<Option, 2 + 2 * 5 + 1> o;
    size_t n = 0;
};

// PEs that hold distinct data of the array: those that differ in a dim it depends on (the
// others receive the same data, sent once; their partial sums are added first). Inputs of
// PEs that differ in an output row and a kernel row unrolled together overlap where
// S·oy + fy coincide (the diagonal of a row-stationary array).
double uniqueUnits(Arr a, const Layer7& L) {
    if (a == Arr::X)
        return double(L.s[pG]) * double(L.s[pC]) *
               double(distinctRows(L.s[pOY], L.s[pFY], L.sy, L.dily)) *
               double(distinctRows(L.s[pOX], L.s[pFX], L.sx, L.dilx));
    double unique = 1;
    for (size_t p = 0; p < kP; ++p)
        if (relevant(a, p)) unique *= double(L.s[p]);
    return unique;
}

// The options of one array for run lengths 0, 1, ... up to the first whose footprint no
// longer fits `capBits` (footprints only grow along the nest).
void options(Arr a, const Nest& nest, const Layer7& L, const Precision& prec, double total,
             double relevantY, double unique, double capBits, Options& out) {
    const int bits = a == Arr::X ? prec.act_bits : a == Arr::W ? prec.weight_bits : prec.psum_bits;
    out.n = 0;
    std::array<int64_t, kP> n;
    n.fill(1);
    double inside = 1, insideRelY = 1;
    for (size_t len = 0;; ++len) {
        const double fp = footprint(a, n, L);
        const double perPe = fp * bits;
        const double fpArray = fp * unique;
        const double above = total / inside;
        double t = fpArray * above;
        double width = bits;
        if (a == Arr::Y) {
            const double partial = above - relevantY / insideRelY; // psums read back
            t += fpArray * partial;
            // Outputs complete inside the run leave at their own width, partial sums at
            // psum_bits (ZigZag's O / O_final precisions).
            if (partial < 0.5) width = prec.act_bits;
        }
        out.o[out.n++] = {perPe, t, t * width / double(prec.act_bits)};
        if (len == nest.n || perPe > capBits) break;
        n[nest.loops[len].p] *= nest.loops[len].size;
        inside *= double(nest.loops[len].size);
        if (relevantToY(nest.loops[len].p)) insideRelY *= double(nest.loops[len].size);
    }
}

// The longest run that fits `cap` bits (sections) — the last option that fits.
size_t longestFit(const Options& o, double cap) {
    size_t k = 0;
    while (k + 1 < o.n && o.o[k + 1].bits <= cap)
        ++k;
    return k;
}

struct Eval {
    double traffic = -1, words = -1;
    std::array<double, 3> by{};
};

struct Context {
    const Layer7& L;
    const RfCapacity& cap;
    const Precision& p;
    double total, relevantY;
    std::array<double, 3> unique; // by Arr
};

Eval evaluateNest(const Nest& nest, const Context& c) {
    const bool shared = c.cap.shared;
    const double capX = double(shared ? c.cap.shared_bits : c.cap.input_bits);
    const double capW = double(shared ? c.cap.shared_bits : c.cap.weight_bits);
    const double capY = double(shared ? c.cap.shared_bits : c.cap.psum_bits);
    Options x, w, y;
    options(Arr::X, nest, c.L, c.p, c.total, c.relevantY, c.unique[size_t(Arr::X)], capX, x);
    options(Arr::W, nest, c.L, c.p, c.total, c.relevantY, c.unique[size_t(Arr::W)], capW, w);
    options(Arr::Y, nest, c.L, c.p, c.total, c.relevantY, c.unique[size_t(Arr::Y)], capY, y);
    Eval e;
    auto take = [&](size_t kx, size_t ky, size_t kw) {
        e.by = {x.o[kx].traffic, y.o[ky].traffic, w.o[kw].traffic};
        e.traffic = e.by[0] + e.by[1] + e.by[2];
        e.words = x.o[kx].words + y.o[ky].words + w.o[kw].words;
    };
    if (!shared) {
        take(longestFit(x, capX), longestFit(y, capY), longestFit(w, capW));
        return e;
    }
    // One pool: the run lengths whose footprints fit together with the least traffic (in
    // words, as ZigZag weighs the accesses of a shared memory).
    // A longer run never moves more, so for given X and W runs the longest Y run that still
    // fits is the best.
    const double pool = capX;
    for (size_t kx = 0; kx < x.n && x.o[kx].bits <= pool; ++kx)
        for (size_t kw = 0; kw < w.n && x.o[kx].bits + w.o[kw].bits <= pool; ++kw) {
            const double left = pool - x.o[kx].bits - w.o[kw].bits;
            if (y.o[0].bits > left) continue;
            const size_t ky = longestFit(y, left);
            const double t = x.o[kx].words + w.o[kw].words + y.o[ky].words;
            if (e.words < 0 || t < e.words) take(kx, ky, kw);
        }
    if (e.words < 0) take(0, 0, 0); // not even one element each: every operand moves per use
    return e;
}

const char* pName(size_t p) {
    static const char* const kNames[kP] = {"G", "K", "C", "OY", "OX", "FY", "FX"};
    return kNames[p];
}

size_t perPeDim(Dim dim) {
    switch (dim) {
    case Dim::z:
        return pK;
    case Dim::y:
        return pOY;
    case Dim::x:
        return pOX;
    case Dim::i:
        return pC;
    }
    return pK;
}

RfLevel search(const LayerDims& d, const ArrayUnroll& u, const RfCapacity& cap, const Precision& p,
               const std::array<Dim, 4>& scheduleOrder) {
    Layer7 L;
    const int64_t s[kP] = {1,
                           u.u[size_t(LoopDim::oc)],
                           u.u[size_t(LoopDim::ic)],
                           u.u[size_t(LoopDim::oy)],
                           u.u[size_t(LoopDim::ox)],
                           u.u[size_t(LoopDim::ky)],
                           u.u[size_t(LoopDim::kx)]};
    const int64_t full[kP] = {d.G, d.DzPerGroup(), d.DiPerGroup(), d.Dy, d.Dx, d.Dn, d.Dm};
    for (size_t k = 0; k < kP; ++k) {
        L.s[k] = std::max<int64_t>(1, s[k]);
        L.full[k] = std::max<int64_t>(1, full[k]);
        L.q[k] = ceilDiv(L.full[k], L.s[k]);
    }
    L.sx = d.Sx;
    L.sy = d.Sy;
    L.dilx = d.Dm > 1 ? (d.Em - 1) / (d.Dm - 1) : 1;
    L.dily = d.Dn > 1 ? (d.En - 1) / (d.Dn - 1) : 1;
    L.in_w = d.in_w;
    L.in_h = d.in_h;

    double total = 1, relevantY = 1;
    for (size_t k = 0; k < kP; ++k) {
        total *= double(L.q[k]);
        if (relevantToY(k)) relevantY *= double(L.q[k]);
    }
    std::vector<size_t> tiled;
    for (size_t k : {pG, pK, pC, pOY, pOX})
        if (L.q[k] > 1) tiled.push_back(k);
    std::vector<std::vector<int64_t>> cand(kP);
    // RF tiles divide the extent (the loops of an exported mapping multiply to it exactly);
    // a register file holds small tiles, so divisors up to 64 and the whole extent.
    for (size_t k : tiled) {
        for (int64_t t = 1; t <= std::min<int64_t>(64, L.q[k]); ++t)
            if (L.q[k] % t == 0) cand[k].push_back(t);
        if (cand[k].back() != L.q[k]) cand[k].push_back(L.q[k]);
    }

    // The rest of each dim turns in the schedule's order (innermost first), groups outermost.
    std::vector<size_t> rest;
    for (auto it = scheduleOrder.rbegin(); it != scheduleOrder.rend(); ++it)
        rest.push_back(perPeDim(*it));
    rest.push_back(pG);

    const std::array<double, 3> unique{uniqueUnits(Arr::X, L), uniqueUnits(Arr::Y, L),
                                       uniqueUnits(Arr::W, L)};
    const Context ctx{L, cap, p, total, relevantY, unique};
    RfLevel best;
    Eval bestEval;
    std::vector<int64_t> r(kP, 1);
    std::vector<size_t> idx(tiled.size(), 0);
    for (;;) {
        // One RF tile combination; the order matters only among the dims tiled (r > 1).
        std::vector<size_t> order;
        for (size_t j = 0; j < tiled.size(); ++j) {
            r[tiled[j]] = cand[tiled[j]][idx[j]];
            if (r[tiled[j]] > 1) order.push_back(tiled[j]);
        }
        do {
            Nest nest;
            if (L.q[pFX] > 1) nest.push(pFX, L.q[pFX]);
            if (L.q[pFY] > 1) nest.push(pFY, L.q[pFY]);
            for (size_t k : order)
                nest.push(k, r[k]);
            for (size_t k : rest)
                if (L.q[k] / r[k] > 1) nest.push(k, L.q[k] / r[k]);
            const Eval e = evaluateNest(nest, ctx);
            if (bestEval.words < 0 || e.words < bestEval.words) {
                bestEval = e;
                best.loops.clear();
                for (size_t k : order)
                    best.loops.push_back({pName(k), r[k]});
            }
        } while (std::next_permutation(order.begin(), order.end()));
        size_t j = 0;
        while (j < tiled.size() && ++idx[j] == cand[tiled[j]].size())
            idx[j++] = 0;
        if (j == tiled.size()) break;
    }
    for (size_t a = 0; a < 3; ++a)
        best.by[a] = int64_t(std::llround(bestEval.by[a]));
    best.traffic = best.by[0] + best.by[1] + best.by[2];
    best.words = bestEval.words;
    return best;
}

} // namespace

int64_t ArrayUnroll::pes() const {
    int64_t n = 1;
    for (int64_t f : u)
        n *= f;
    return n;
}

int64_t loopDimExtent(LoopDim l, const LayerDims& d, int64_t batch) {
    switch (l) {
    case LoopDim::ox:
        return d.Dx;
    case LoopDim::oy:
        return d.Dy;
    case LoopDim::oc:
        return d.weights ? d.DzPerGroup() : d.Dz;
    case LoopDim::ic:
        return d.weights ? d.DiPerGroup() : std::max<int64_t>(1, d.n_inputs - 1);
    case LoopDim::kx:
        return d.Dm;
    case LoopDim::ky:
        return d.Dn;
    case LoopDim::b:
        return std::max<int64_t>(1, batch);
    }
    return 1;
}

std::vector<int64_t> axisUnrolling(const std::vector<int64_t>& extents, int64_t pes) {
    AxisBest best;
    std::vector<int64_t> u(extents.size(), 1);
    searchAxis(extents, 0, std::max<int64_t>(1, pes), 1, 1, u, best);
    return best.u;
}

ArrayUnroll arrayUnroll(const LayerDims& d, const Dataflow& df, int px, int py, int64_t batch) {
    ArrayUnroll r;
    bool mapped[7] = {};
    auto axis = [&](const std::vector<LoopDim>& dims, int pes, std::vector<LoopDim>& out) {
        std::vector<LoopDim> ds;
        std::vector<int64_t> ext;
        for (LoopDim l : dims) {
            if (mapped[size_t(l)]) continue;
            mapped[size_t(l)] = true;
            const int64_t e = loopDimExtent(l, d, batch);
            if (e <= 1) continue;
            ds.push_back(l);
            ext.push_back(e);
        }
        const std::vector<int64_t> u = axisUnrolling(ext, pes);
        for (size_t k = 0; k < u.size(); ++k) {
            r.u[size_t(ds[k])] = u[k];
            if (u[k] > 1) out.push_back(ds[k]);
        }
    };
    axis(df.cols, px, r.cols);
    axis(df.rows, py, r.rows);
    return r;
}

RfCapacity rfCapacityPerPe(const RegisterFileConfig& rf, double weightShare, double inputShare,
                           double psumShare) {
    RfCapacity c;
    if (rf.weight + rf.input + rf.psum == 0) {
        c.shared = true;
        c.shared_bits =
            int64_t(double(rf.bytes_per_pe) * 8.0 * (weightShare + inputShare + psumShare) / 3.0);
        return c;
    }
    c.weight_bits = int64_t(double(rf.weight) * 8.0 * weightShare);
    c.input_bits = int64_t(double(rf.input) * 8.0 * inputShare);
    c.psum_bits = int64_t(double(rf.psum) * 8.0 * psumShare);
    return c;
}

RfLevel rfLevel(const LayerDims& d, const ArrayUnroll& u, const RfCapacity& cap, const Precision& p,
                const std::array<Dim, 4>& order) {
    if (!d.weights) return {};
    using Key = std::tuple<std::array<int64_t, 12>, std::array<int64_t, 7>, std::array<int64_t, 5>,
                           std::array<int, 3>, int, std::array<Dim, 4>>;
    const Key key{
        {d.Dx, d.Dy, d.Dz, d.Di, d.Dm, d.Dn, d.Sx, d.Sy, d.G, d.in_w, d.in_h, d.Em * 4096 + d.En},
        u.u,
        {cap.weight_bits, cap.input_bits, cap.psum_bits, cap.shared_bits, cap.shared ? 1 : 0},
        {p.act_bits, p.weight_bits, p.psum_bits},
        int(d.window),
        order};
    static std::mutex mu;
    static std::map<Key, RfLevel> cache;
    {
        std::lock_guard<std::mutex> lock(mu);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    RfLevel v = search(d, u, cap, p, order);
    std::lock_guard<std::mutex> lock(mu);
    if (cache.size() > 100000) cache.clear();
    cache.emplace(key, v);
    return v;
}

} // namespace lf
