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

// One array's options: for each run length 0..L, its bits per PE and its traffic.
struct Option {
    double bits = 0, traffic = 0, words = 0; // words of act_bits: b-bit elements are b/act
};

std::vector<Option> options(Arr a, const std::vector<Loop>& nest, const Layer7& L,
                            const Precision& prec, double total, double relevantY) {
    const int bits = a == Arr::X ? prec.act_bits : a == Arr::W ? prec.weight_bits : prec.psum_bits;
    std::vector<Option> out;
    std::array<int64_t, kP> n;
    n.fill(1);
    double inside = 1, insideRelY = 1;
    // PEs that hold distinct data of the array: those that differ in a dim it depends on
    // (the others receive the same data, sent once; their partial sums are added first).
    // Inputs of PEs that differ in an output row and a kernel row unrolled together overlap
    // where S·oy + fy coincide (the diagonal of a row-stationary array).
    double unique = 1;
    if (a == Arr::X) {
        unique = double(L.s[pG]) * double(L.s[pC]) *
                 double(distinctRows(L.s[pOY], L.s[pFY], L.sy, L.dily)) *
                 double(distinctRows(L.s[pOX], L.s[pFX], L.sx, L.dilx));
    } else {
        for (size_t p = 0; p < kP; ++p)
            if (relevant(a, p)) unique *= double(L.s[p]);
    }
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
        out.push_back({perPe, t, t * width / double(prec.act_bits)});
        if (len == nest.size()) break;
        n[nest[len].p] *= nest[len].size;
        inside *= double(nest[len].size);
        if (relevantToY(nest[len].p)) insideRelY *= double(nest[len].size);
    }
    return out;
}

// The longest run that fits `cap` bits (sections) — the last option that fits.
size_t longestFit(const std::vector<Option>& o, double cap) {
    size_t k = 0;
    while (k + 1 < o.size() && o[k + 1].bits <= cap)
        ++k;
    return k;
}

struct Eval {
    double traffic = -1, words = -1;
    std::array<double, 3> by{};
};

Eval evaluateNest(const std::vector<Loop>& nest, const Layer7& L, const RfCapacity& cap,
                  const Precision& p, double total, double relevantY) {
    const auto w = options(Arr::W, nest, L, p, total, relevantY);
    const auto x = options(Arr::X, nest, L, p, total, relevantY);
    const auto y = options(Arr::Y, nest, L, p, total, relevantY);
    Eval e;
    auto take = [&](size_t kx, size_t ky, size_t kw) {
        e.by = {x[kx].traffic, y[ky].traffic, w[kw].traffic};
        e.traffic = e.by[0] + e.by[1] + e.by[2];
        e.words = x[kx].words + y[ky].words + w[kw].words;
    };
    if (!cap.shared) {
        take(longestFit(x, double(cap.input_bits)), longestFit(y, double(cap.psum_bits)),
             longestFit(w, double(cap.weight_bits)));
        return e;
    }
    // One pool: the run lengths whose footprints fit together with the least traffic (in
    // words, as ZigZag weighs the accesses of a shared memory).
    const double c = double(cap.shared_bits);
    for (size_t kx = 0; kx < x.size() && x[kx].bits <= c; ++kx)
        for (size_t kw = 0; kw < w.size() && x[kx].bits + w[kw].bits <= c; ++kw)
            for (size_t ky = 0; ky < y.size() && x[kx].bits + w[kw].bits + y[ky].bits <= c; ++ky) {
                const double t = x[kx].words + w[kw].words + y[ky].words;
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

    RfLevel best;
    Eval bestEval;
    std::vector<size_t> order = tiled; // sorted: the first permutation
    std::vector<int64_t> r(kP, 1);
    do {
        // Every RF tile combination for this order (odometer over the candidates).
        std::vector<size_t> idx(order.size(), 0);
        for (;;) {
            for (size_t j = 0; j < order.size(); ++j)
                r[order[j]] = cand[order[j]][idx[j]];
            std::vector<Loop> nest;
            if (L.q[pFX] > 1) nest.push_back({pFX, L.q[pFX]});
            if (L.q[pFY] > 1) nest.push_back({pFY, L.q[pFY]});
            for (size_t k : order)
                if (r[k] > 1) nest.push_back({k, r[k]});
            for (size_t k : rest)
                if (L.q[k] / r[k] > 1) nest.push_back({k, L.q[k] / r[k]});
            const Eval e = evaluateNest(nest, L, cap, p, total, relevantY);
            if (bestEval.words < 0 || e.words < bestEval.words) {
                bestEval = e;
                best.loops.clear();
                for (size_t k : order)
                    if (r[k] > 1) best.loops.push_back({pName(k), r[k]});
            }
            size_t j = 0;
            while (j < order.size() && ++idx[j] == cand[order[j]].size())
                idx[j++] = 0;
            if (j == order.size()) break;
        }
    } while (std::next_permutation(order.begin(), order.end()));
    if (bestEval.words < 0) { // nothing tiled (every per-PE extent 1)
        bestEval = evaluateNest({}, L, cap, p, total, relevantY);
        if (L.q[pFX] > 1 || L.q[pFY] > 1) {
            std::vector<Loop> nest;
            if (L.q[pFX] > 1) nest.push_back({pFX, L.q[pFX]});
            if (L.q[pFY] > 1) nest.push_back({pFY, L.q[pFY]});
            bestEval = evaluateNest(nest, L, cap, p, total, relevantY);
        }
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
