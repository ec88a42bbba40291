#include "models/stoutchinin.h"

#include <algorithm>

namespace lf {

namespace {

// Index axes of the three arrays (Stoutchinin Fig. 3): I[c][iy][ix], W[m][c][ky][kx], O[m][oy][ox].
enum IdxAxis : size_t { kM, kC, kOy, kOx, kIy, kIx, kKy, kKx, kAxes };

constexpr std::array<std::array<bool, kAxes>, 3> kUses{{
    //  m      c      oy     ox     iy     ix     ky     kx
    {false, true, false, false, true, true, false, false}, // I
    {true, true, false, false, false, false, true, true},  // W
    {true, false, true, true, false, false, false, false}, // O
}};

// Index advance of one iteration of `l` along each array axis it drives: the input row of
// I[c][y·S + dil·k][…] moves S per output row and dil per kernel row.
void addSpan(const StNest& nest, const StLoop& l, std::array<int64_t, kAxes>& span) {
    const int64_t r = (l.trips - 1) * l.step;
    switch (l.axis) {
    case StAxis::of:
        span[kM] += r;
        break;
    case StAxis::in:
        span[kC] += r;
        break;
    case StAxis::sy:
        span[kOy] += r;
        span[kIy] += r * nest.Sy;
        break;
    case StAxis::sx:
        span[kOx] += r;
        span[kIx] += r * nest.Sx;
        break;
    case StAxis::fy:
        span[kKy] += r;
        span[kIy] += r * nest.dil_y;
        break;
    case StAxis::fx:
        span[kKx] += r;
        span[kIx] += r * nest.dil_x;
        break;
    }
}

std::array<int64_t, kAxes> bounds(const StNest& n) {
    return {n.M, n.C, n.E_y, n.E_x, n.H_y, n.H_x, n.R_y, n.R_x};
}

// Π over the array's axes of the bounding-box extent 1 + span, clipped to the real size.
int64_t footprintOf(const StNest& nest, StArray a, const std::array<int64_t, kAxes>& span) {
    const auto bound = bounds(nest);
    int64_t f = 1;
    for (size_t ax = 0; ax < kAxes; ++ax) {
        if (!kUses[size_t(a)][ax]) continue;
        int64_t e = 1 + span[ax];
        if (bound[ax] > 0) e = std::min(e, bound[ax]);
        f *= e;
    }
    return f;
}

int64_t copies(const StNest& nest, StArray a) {
    return nest.groups * (a == StArray::I ? nest.inputs : 1);
}

} // namespace

const char* stAxisName(StAxis a) {
    switch (a) {
    case StAxis::of:
        return "LOF";
    case StAxis::in:
        return "LIF";
    case StAxis::sy:
        return "LSY";
    case StAxis::sx:
        return "LSX";
    case StAxis::fy:
        return "LFY";
    case StAxis::fx:
        return "LFX";
    }
    return "?";
}

int64_t stFootprint(const StNest& nest, StArray a, int last) {
    std::array<int64_t, kAxes> span{};
    for (int i = 0; i <= last && i < int(nest.loops.size()); ++i)
        addSpan(nest, nest.loops[size_t(i)], span);
    return footprintOf(nest, a, span);
}

std::vector<StLevelRow> stoutchininLevels(const StNest& nest, StArray a) {
    const size_t N = nest.loops.size();
    std::vector<StLevelRow> rows(N);
    std::array<int64_t, kAxes> span{};
    int64_t fPrev = 1; // F_X(L_{−1})
    int64_t bPrev = 1; // B_X(L_{−1}): the operand itself
    for (size_t i = 0; i < N; ++i) {
        const StLoop& l = nest.loops[i];
        addSpan(nest, l, span);
        StLevelRow& row = rows[i];
        row.footprint = footprintOf(nest, a, span);                   // Stoutchinin Eq. 1
        row.carries = l.trips > 1 && row.footprint < l.trips * fPrev; // Stoutchinin Table II
        row.reuse_distance = double(l.trips) * double(fPrev) / double(row.footprint);
        row.buffer = row.carries ? fPrev : bPrev; // Stoutchinin Eq. 2
        fPrev = row.footprint;
        bPrev = row.buffer;
    }
    // Stoutchinin Eq. 3: F_X(L_i) times the executions of L_i (the trips of every enclosing loop).
    int64_t outer = copies(nest, a);
    for (size_t i = N; i-- > 0;) {
        rows[i].traffic = rows[i].footprint * outer;
        outer *= nest.loops[i].trips;
    }
    return rows;
}

double StCost::bytes(int act_bits, int weight_bits, int psum_bits) const {
    return (double(t_in) * act_bits + double(t_w) * weight_bits + double(t_o_acc) * psum_bits +
            double(t_o_final) * act_bits) /
           8.0;
}

StCost stoutchininCost(const StNest& nest) {
    StCost c;
    int64_t allTrips = 1;
    for (const StLoop& l : nest.loops)
        allTrips *= l.trips;
    std::array<int64_t, 3> traffic{};
    for (StArray a : {StArray::I, StArray::W, StArray::O}) {
        if (a == StArray::W && !nest.has_weights) continue;
        const size_t k = size_t(a);
        const int b = std::min(nest.level[k], int(nest.loops.size()) - 1);
        const int64_t perCopy = a == StArray::I ? nest.inputs : 1;
        if (b < 0) { // unbuffered: one element in flight, one access per use
            c.buffer[k] = perCopy;
            c.footprint[k] = 1;
            traffic[k] = allTrips * copies(nest, a);
            continue;
        }
        const StLevelRow row = stoutchininLevels(nest, a)[size_t(b)];
        c.buffer[k] = row.buffer * perCopy;
        c.footprint[k] = row.footprint;
        traffic[k] = row.traffic;
    }
    c.t_in = traffic[size_t(StArray::I)];
    c.t_w = traffic[size_t(StArray::W)];
    // Stoutchinin Eq. 4: final outputs once; every other visit of an output is a partial-sum round
    // trip.
    c.o_visits = traffic[size_t(StArray::O)];
    c.t_o_final = stFootprint(nest, StArray::O, int(nest.loops.size()) - 1) * nest.groups;
    c.t_o_acc = 2 * std::max<int64_t>(0, c.o_visits - c.t_o_final);
    return c;
}

Result<StNest> stoutchininNest(const LayerDims& d, const LayerSchedule& s, bool fused) {
    if (fused)
        return Error("a fused producer (ConvFusion FuseSel: i untiled, outputs kept on chip) is "
                     "not a single-layer loop nest");
    if (d.window != WindowKind::conv)
        return Error("transposed-conv and resize windows are not the affine index y*S + k of "
                     "the convolution loop nest");
    const int64_t G = std::max<int64_t>(1, d.G);
    const std::array<int64_t, 4> D{d.Dz / G, d.Dy, d.Dx, d.Di / G}; // indexed by Dim
    auto axisOf = [](Dim dim) {
        switch (dim) {
        case Dim::z:
            return StAxis::of;
        case Dim::y:
            return StAxis::sy;
        case Dim::x:
            return StAxis::sx;
        case Dim::i:
            return StAxis::in;
        }
        return StAxis::of;
    };
    StNest n;
    n.Sx = d.Sx;
    n.Sy = d.Sy;
    n.dil_x = d.Dm > 1 ? (d.Em - 1) / (d.Dm - 1) : 1;
    n.dil_y = d.Dn > 1 ? (d.En - 1) / (d.Dn - 1) : 1;
    n.M = D[size_t(Dim::z)];
    n.C = D[size_t(Dim::i)];
    n.E_y = d.Dy;
    n.E_x = d.Dx;
    n.H_y = d.in_h;
    n.H_x = d.in_w;
    n.R_y = d.Dn;
    n.R_x = d.Dm;
    n.groups = G;
    n.inputs = d.n_inputs;
    n.has_weights = d.weights;

    std::array<int64_t, 4> T{};
    for (size_t k = 0; k < 4; ++k)
        T[k] = std::clamp<int64_t>(s.tile[k], 1, std::max<int64_t>(1, D[k]));
    // Innermost first: LFX, LFY, inner loops l4..l1, outer tile loops innermost..outermost.
    n.loops.push_back({StAxis::fx, d.Dm, 1, false});
    n.loops.push_back({StAxis::fy, d.Dn, 1, false});
    for (size_t k = 4; k-- > 0;) {
        const Dim dim = s.order[k];
        n.loops.push_back({axisOf(dim), T[size_t(dim)], 1, false});
    }
    for (size_t k = 4; k-- > 0;) {
        const Dim dim = s.order[k];
        const int64_t t = T[size_t(dim)];
        n.loops.push_back({axisOf(dim), (D[size_t(dim)] + t - 1) / t, t, true});
    }
    // Store level tile (0) .. l4 (4) → the loop just inside it: l1 (index 5) .. LFY (index 1).
    for (Arr a : kAllArrs) {
        const StArray sa = a == Arr::X ? StArray::I : a == Arr::W ? StArray::W : StArray::O;
        n.level[size_t(sa)] = 5 - int(s.SL(a));
    }
    return n;
}

} // namespace lf
