#include "loopnest_sim.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace lf::test {

namespace {

constexpr int kOuter = 4;    // loops 0..3: outer tile loops; 3 = the `tile` level
constexpr int kInnerEnd = 8; // loops 4..7: inner loops l1..l4
constexpr int kLoops = 10;   // 8 = n, 9 = m
constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

// Per array and store level: the elements touched in the current iteration of that loop.
struct Tracker {
    std::vector<int64_t> stamp; // iteration id in which the element was last counted
    int64_t count = 0;
    std::array<int64_t, 3> lo{}, hi{}; // bounding box (X: channel, row, column)
    SimLevel stats;
};

class Walker {
  public:
    Walker(const LayerDims& d, const std::array<Dim, 4>& order, const std::array<int64_t, 4>& tile)
        : d_(d), order_(order) {
        D_ = {d.Dz, d.Dy, d.Dx, d.Di};
        for (size_t k = 0; k < 4; ++k)
            T_[k] = std::clamp<int64_t>(tile[k], 1, D_[k]);
        dilX_ = d.Dm > 1 ? (d.Em - 1) / (d.Dm - 1) : 1;
        dilY_ = d.Dn > 1 ? (d.En - 1) / (d.Dn - 1) : 1;
        inW_ = (d.Dx - 1) * d.Sx + d.Em;
        inH_ = (d.Dy - 1) * d.Sy + d.En;
        const int64_t sizes[3] = {d.Di * inH_ * inW_, d.Dz * d.Dy * d.Dx,
                                  d.Dz * d.Di * d.Dn * d.Dm};
        for (size_t a = 0; a < 3; ++a)
            for (auto& t : track_[a])
                t.stamp.assign(size_t(sizes[a]), 0);
        lastITile_.assign(size_t(sizes[size_t(Arr::Y)]), -1);
    }

    LoopNestSim run() {
        walk(0);
        LoopNestSim r;
        for (size_t a = 0; a < 3; ++a)
            for (size_t l = 0; l < 5; ++l)
                r.at[a][l] = track_[a][l].stats;
        for (int k = 0; k < 4; ++k)
            if (order_[size_t(k)] == Dim::i) r.ii_level = Level(k + 1);
        r.macs = macs_;
        r.y_itile_visits = yVisits_;
        for (int64_t v : lastITile_)
            r.outputs += v >= 0 ? 1 : 0;
        return r;
    }

  private:
    void walk(int loop) {
        if (loop == kLoops) return mac();
        if (loop < kOuter) { // outer tile loop of dim order[loop]
            const size_t dim = size_t(order_[size_t(loop)]);
            for (int64_t o = 0; o < D_[dim]; o += T_[dim]) {
                outer_[dim] = o;
                iteration(loop, [&] { walk(loop + 1); });
            }
        } else if (loop < kInnerEnd) { // inner loop of the same dim, inside its tile
            const size_t dim = size_t(order_[size_t(loop - kOuter)]);
            const int64_t end = std::min(outer_[dim] + T_[dim], D_[dim]);
            for (int64_t v = outer_[dim]; v < end; ++v) {
                inner_[dim] = v;
                iteration(loop, [&] { walk(loop + 1); });
            }
        } else if (loop == 8) {
            for (n_ = 0; n_ < d_.Dn; ++n_)
                walk(loop + 1);
        } else {
            for (m_ = 0; m_ < d_.Dm; ++m_)
                walk(loop + 1);
        }
    }

    // One iteration of `loop`; loops 3..7 are the candidate store levels tile, l1..l4.
    template <class F> void iteration(int loop, F&& body) {
        const int level = loop - (kOuter - 1);
        if (level < 0) return body();
        ++iterId_[size_t(level)];
        for (auto& arr : track_) {
            Tracker& t = arr[size_t(level)];
            t.count = 0;
            t.lo.fill(kNone);
            t.hi.fill(-1);
        }
        body();
        for (size_t a = 0; a < 3; ++a) {
            Tracker& t = track_[a][size_t(level)];
            int64_t box = 0;
            if (t.count > 0) {
                box = 1;
                for (size_t k = 0; k < 3; ++k)
                    box *= t.hi[k] - t.lo[k] + 1;
            }
            t.stats.iterations += 1;
            t.stats.max_distinct = std::max(t.stats.max_distinct, t.count);
            t.stats.sum_distinct += t.count;
            t.stats.max_box = std::max(t.stats.max_box, box);
            t.stats.sum_box += box;
        }
    }

    void touch(Arr a, int64_t element, const std::array<int64_t, 3>& coord) {
        for (size_t l = 0; l < 5; ++l) {
            Tracker& t = track_[size_t(a)][l];
            if (t.stamp[size_t(element)] != iterId_[l]) {
                t.stamp[size_t(element)] = iterId_[l];
                ++t.count;
            }
            for (size_t k = 0; k < 3; ++k) {
                t.lo[k] = std::min(t.lo[k], coord[k]);
                t.hi[k] = std::max(t.hi[k], coord[k]);
            }
        }
    }

    void mac() {
        ++macs_;
        constexpr size_t Z = size_t(Dim::z), Y = size_t(Dim::y), X = size_t(Dim::x),
                         I = size_t(Dim::i);
        const int64_t z = inner_[Z], y = inner_[Y], x = inner_[X], i = inner_[I];
        // Y[zi][yi][xi] += X[ii][yi·Sy + n][xi·Sx + m] · W[zi][ii][n][m] (ConvFusion Code 2, l.
        // 15-17)
        const int64_t row = y * d_.Sy + n_ * dilY_, col = x * d_.Sx + m_ * dilX_;
        touch(Arr::X, (i * inH_ + row) * inW_ + col, {i, row, col});
        touch(Arr::W, ((z * d_.Di + i) * d_.Dn + n_) * d_.Dm + m_, {z, i, n_ * d_.Dm + m_});
        const int64_t out = (z * d_.Dy + y) * d_.Dx + x;
        touch(Arr::Y, out, {z, y, x});
        // The partial sum of `out` stays on chip for the whole i-tile io (ConvFusion §IV-C3).
        const int64_t iTile = outer_[I] / T_[I];
        if (lastITile_[size_t(out)] != iTile) {
            lastITile_[size_t(out)] = iTile;
            ++yVisits_;
        }
    }

    const LayerDims& d_;
    std::array<Dim, 4> order_;
    std::array<int64_t, 4> D_{}, T_{}, outer_{}, inner_{};
    int64_t n_ = 0, m_ = 0, dilX_ = 1, dilY_ = 1, inW_ = 1, inH_ = 1;
    std::array<std::array<Tracker, 5>, 3> track_;
    std::array<int64_t, 5> iterId_{};
    std::vector<int64_t> lastITile_;
    int64_t macs_ = 0, yVisits_ = 0;
};

} // namespace

LoopNestSim simulateLoopNest(const LayerDims& d, const std::array<Dim, 4>& order,
                             const std::array<int64_t, 4>& tile) {
    if (d.G != 1 || d.window != WindowKind::conv || d.n_inputs != 1)
        throw std::invalid_argument("simulateLoopNest: one group, one input, conv windows only");
    if (d.in_w < (d.Dx - 1) * d.Sx + d.Em || d.in_h < (d.Dy - 1) * d.Sy + d.En)
        throw std::invalid_argument("simulateLoopNest: padded layers are not walked");
    return Walker(d, order, tile).run();
}

SimCounts simCounts(const LoopNestSim& sim, const LayerSchedule& s) {
    SimCounts c;
    const SimLevel& sx = sim.of(Arr::X, s.SL(Arr::X));
    c.vol_x = sx.max_box;
    c.trans_x = sx.iterations;
    c.acc_x = sx.sum_box;
    c.vol_x_distinct = sx.max_distinct;
    c.acc_x_distinct = sx.sum_distinct;
    c.buf_x = sim.of(Arr::X, s.CL(Arr::X)).max_box;
    const SimLevel& sw = sim.of(Arr::W, s.SL(Arr::W));
    c.vol_w = sw.max_distinct;
    c.trans_w = sw.iterations;
    c.acc_w = sw.sum_distinct;
    c.buf_w = sim.of(Arr::W, s.CL(Arr::W)).max_distinct;
    c.acc_y = sim.accYItile();
    c.buf_y = sim.bufY(s.CL(Arr::Y));
    c.macs = sim.macs;
    return c;
}

} // namespace lf::test
