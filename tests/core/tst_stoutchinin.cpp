// Stoutchinin buffering-level engine (Stoutchinin §IV, docs/models/stoutchinin.md): the paper's own
// numbers, and agreement with the ConvFusion closed form (ConvFusion §IV) on every schedule both
// express — input, weight, final-output and partial-sum traffic must be equal.
//
// Schedule classes where the two legitimately differ (one explicit test each below):
//  1. Fused producers: ConvFusion's FuseSel keeps i untiled and Y on chip across layers; no
//     single-layer loop nest says that, so the converter refuses them.
//  2. Partial sums inside an i-tile (ii at or above SL_Y, T_i > 1): ConvFusion §IV-C3 keeps the
//     partial sums of a whole i-tile on chip whatever SL_Y is (2·⌈D_i/T_i⌉ − 1 accesses per
//     output); Stoutchinin's O leaves the buffer after every iteration of its store loop, so
//     every output is visited D_i times (2·D_i − 1 accesses) — which the brute-force walk
//     confirms when Y is evicted at its store level.
//  3. Buffer footprints: Stoutchinin Eq. 2 always folds (a loop that carries the array needs only
//     one iteration's footprint), so B equals ConvFusion's Buf folded at CL = the first loop at or
//     below the buffering level that carries the array; ConvFusion never folds the kernel
//     loops, so when that loop is LFY/LFX (or none) Stoutchinin's buffer is smaller.
//  4. Buffering above the tile loops (reusing the halo between x tiles): Stoutchinin places a
//     buffering level on any loop; ConvFusion's store level stops at `tile` (ConvFusion §III-C).
//  5. Kernel loops not innermost (the HWC schedule of Stoutchinin Fig. 8): ConvFusion's kernel
//     loops sit below every tiled loop; Stoutchinin can buffer a single kernel row.
//  6. Tiles that do not divide their dimension: ConvFusion counts D_d iterations for a loop at
//     or above the store level, the loop nest T_d·⌈D_d/T_d⌉ (the paper's "small
//     overestimation", Stoutchinin §V-C).
//  7. Transposed-conv and resize windows: not an affine y·S + k index; refused.

#include "loopnest_sim.h"
#include "models/convfusion.h"
#include "models/stoutchinin.h"
#include "network/dims.h"
#include "test_support.h"

#include <QtTest>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace lf;

namespace {

constexpr std::array<Level, 5> kLevels{Level::tile, Level::l1, Level::l2, Level::l3, Level::l4};

StCost costOf(const LayerDims& d, const LayerSchedule& s) {
    auto nest = stoutchininNest(d, s, false);
    if (!nest) qFatal("conversion refused: %s", nest.error().message.c_str());
    return stoutchininCost(*nest);
}

// A nest written outermost first, as the paper prints it; levels name loops by position in
// that listing (outermost = 0).
struct PaperNest {
    StNest nest;
    explicit PaperNest(std::vector<StLoop> outerToInner) {
        nest.loops.assign(outerToInner.rbegin(), outerToInner.rend());
    }
    int at(size_t printedIndex) const { return int(nest.loops.size() - 1 - printedIndex); }
};

// AlexNet layer 2 of Stoutchinin Appendix B (Stoutchinin Table IV): H = 55, E = 27, C = 96, M =
// 256, 5x5, stride 2 (the input is padded: (E−1)·S + R = 57 > H, and padding is never moved).
void alexNet2(StNest& n) {
    n.Sx = n.Sy = 2;
    n.M = 256;
    n.C = 96;
    n.E_x = n.E_y = 27;
    n.H_x = n.H_y = 55;
    n.R_x = n.R_y = 5;
}

// Stoutchinin Fig. 2, the canonical nest: LOF, LIF, LSY, LSX, LFY, LFX (outermost first).
PaperNest canonical(int64_t M, int64_t C, int64_t E, int64_t R) {
    return PaperNest({{StAxis::of, M},
                      {StAxis::in, C},
                      {StAxis::sy, E},
                      {StAxis::sx, E},
                      {StAxis::fy, R},
                      {StAxis::fx, R}});
}

std::string describe(const LayerDims& d, const LayerSchedule& s) {
    std::string o;
    for (Dim k : s.order)
        o += dimChar(k);
    return "D(x,y,z,i)=" + std::to_string(d.Dx) + "," + std::to_string(d.Dy) + "," +
           std::to_string(d.Dz) + "," + std::to_string(d.Di) + " G=" + std::to_string(d.G) +
           " kernel " + std::to_string(d.Dm) + "x" + std::to_string(d.Dn) +
           " S=" + std::to_string(d.Sx) + "," + std::to_string(d.Sy) + " order " + o +
           " T=" + std::to_string(s.tile[0]) + "," + std::to_string(s.tile[1]) + "," +
           std::to_string(s.tile[2]) + "," + std::to_string(s.tile[3]) +
           " SL(X,Y,W)=" + levelName(s.SL(Arr::X), s.order) + "," +
           levelName(s.SL(Arr::Y), s.order) + "," + levelName(s.SL(Arr::W), s.order);
}

struct Agreement {
    int64_t checks = 0, failures = 0;
    std::string first;
    void expect(int64_t a, int64_t b, const char* what, const LayerDims& d,
                const LayerSchedule& s) {
        ++checks;
        if (a == b) return;
        if (failures++ == 0)
            first = std::string(what) + ": " + std::to_string(a) + " != " + std::to_string(b) +
                    " for " + describe(d, s);
    }

    std::string summary() const {
        return std::to_string(failures) + " of " + std::to_string(checks) +
               " comparisons disagree; first: " + first;
    }
};

// Level of a dim's inner loop (1 = l1 … 4 = l4).
int innerLevel(const LayerSchedule& s, Dim d) {
    return s.pos(d) + 1;
}

struct ClassCounts {
    int64_t psum = 0, bufferMapped = 0, bufferKernel = 0, walked = 0;
};

int64_t bufferOf(const CfLayerCost& c, Arr a) {
    return a == Arr::X ? c.buf_x : a == Arr::W ? c.buf_w : c.buf_y;
}

// One schedule through both engines (and the walk, when given): traffic equal, except the
// partial sums of class 2 (as documented); Stoutchinin Eq. 2's buffer equal to ConvFusion's folded
// at the first carrying loop, or (class 3b) at most ConvFusion's deepest fold.
void compareEngines(const LayerDims& d, const LayerSchedule& s, const test::LoopNestSim* sim,
                    Agreement& a, ClassCounts& counts) {
    const CfLayerCost cf = convFusionLayer(d, s, false);
    auto nest = stoutchininNest(d, s, false);
    if (!nest) {
        a.expect(0, 1, "conversion refused", d, s);
        return;
    }
    const StCost st = stoutchininCost(*nest);
    a.expect(st.t_in, cf.acc_x, "input traffic", d, s);
    a.expect(st.t_w, cf.acc_w, "weight traffic", d, s);
    a.expect(st.t_o_final, cf.acc_y_out, "final outputs", d, s);
    const int64_t Ti = std::min(s.T(Dim::i), d.Di / d.G), Di = d.Di / d.G;
    const Level slY = s.SL(Arr::Y);
    if (innerLevel(s, Dim::i) > int(slY) || Ti == 1) {
        a.expect(st.t_o_acc, cf.acc_y_psum, "partial sums", d, s);
    } else { // class 2: every input channel is a visit
        ++counts.psum;
        a.expect(st.t_o_acc, 2 * cf.acc_y_out * (Di - 1), "partial sums (class 2)", d, s);
    }
    if (sim) { // Y evicted after every iteration of its store loop, walked literally
        ++counts.walked;
        a.expect(st.t_o_final + st.t_o_acc, sim->accYStoreLevel(slY), "outputs vs walk", d, s);
    }
    for (Arr arr : kAllArrs) {
        if (arr == Arr::W && !d.weights) continue;
        const StArray sa = arr == Arr::X ? StArray::I : arr == Arr::W ? StArray::W : StArray::O;
        const auto rows = stoutchininLevels(*nest, sa);
        int c = nest->level[size_t(sa)];
        while (c >= 0 && !rows[size_t(c)].carries)
            --c;
        LayerSchedule f = s;
        const int64_t stBuf = st.buffer[size_t(sa)];
        if (c >= 2) { // an inner loop, l(6 − c)
            ++counts.bufferMapped;
            f.compute[size_t(arr)] = Level(6 - c);
            a.expect(stBuf, bufferOf(convFusionLayer(d, f, false), arr),
                     "buffer (Eq. 2 vs Buf folded at the first carrying loop)", d, f);
        } else { // class 3b: folded inside the kernel loops
            ++counts.bufferKernel;
            f.compute[size_t(arr)] = Level::l4;
            a.expect(int64_t(stBuf <= bufferOf(convFusionLayer(d, f, false), arr)), 1,
                     "buffer folded in the kernel loops", d, f);
        }
    }
}

int64_t largestDivisor(int64_t n, int64_t cap) {
    for (int64_t k = std::min(n, cap); k > 1; --k)
        if (n % k == 0) return k;
    return 1;
}

} // namespace

class TestStoutchinin : public QObject {
    Q_OBJECT

  private slots:
    // Stoutchinin §II-A: taking full advantage of reuse in the canonical nest of AlexNet-2 needs
    // the whole input (I buffered at LOF), one output map (O at LIF) and one kernel (W at LSY): at
    // one byte per element this "exceeds 284 kB" (read as KiB, 1024 B); every element moves once.
    void paperAlexNet2FullReuseExceeds284kB() {
        PaperNest p = canonical(256, 96, 27, 5);
        alexNet2(p.nest);
        p.nest.level = {p.at(0), p.at(2), p.at(1)}; // I at LOF, W at LSY, O at LIF
        const StCost c = stoutchininCost(p.nest);
        QCOMPARE(c.buffer[size_t(StArray::I)], int64_t(96 * 55 * 55));
        QCOMPARE(c.buffer[size_t(StArray::O)], int64_t(27 * 27));
        QCOMPARE(c.buffer[size_t(StArray::W)], int64_t(5 * 5));
        const int64_t total = c.buffer[0] + c.buffer[1] + c.buffer[2];
        QCOMPARE(total, int64_t(291154));
        QVERIFY(total > 284 * 1024 && total < 285 * 1024);
        QCOMPARE(c.t_in, int64_t(96 * 55 * 55));
        QCOMPARE(c.t_w, int64_t(256 * 96 * 25));
        QCOMPARE(c.t_o_final, int64_t(256 * 27 * 27));
        QCOMPARE(c.t_o_acc, int64_t(0));
    }

    // Stoutchinin §II-A/B: buffering I at LSY keeps R lines (H × R elements, Stoutchinin §II-B) and
    // then "every input feature map pixel will need to be re-loaded M times" — ×256 for AlexNet-2.
    // O buffered at LFY needs a single element (Stoutchinin §II-B).
    void paperAlexNet2RLinesReloadM() {
        PaperNest p = canonical(256, 96, 27, 5);
        alexNet2(p.nest);
        p.nest.level = {p.at(2), p.at(2), p.at(4)}; // I, W at LSY; O at LFY
        const StCost c = stoutchininCost(p.nest);
        QCOMPARE(c.buffer[size_t(StArray::I)], int64_t(55 * 5));
        QCOMPARE(c.t_in, int64_t(256) * (96 * 55 * 55));
        QCOMPARE(c.buffer[size_t(StArray::O)], int64_t(1));
    }

    // Stoutchinin §II-C, Stoutchinin Fig. 3: with LIF outside LSY, buffering I at LIF keeps h × R
    // elements (h = the input tile width); swapping LIF and LOF makes the reuse distance mss and
    // needs h × h.
    void paperTiledLifLofSwap() {
        const int64_t iss = 9, jss = 9, mss = 32, css = 16;
        const int64_t h = (jss - 1) * 2 + 5; // 21
        auto fig3 = [&](bool swapped) {
            StLoop lof{StAxis::of, mss}, lif{StAxis::in, css};
            PaperNest p({{StAxis::of, 256 / mss, mss, true},
                         {StAxis::in, 96 / css, css, true},
                         {StAxis::sy, 3, iss, true},
                         {StAxis::sx, 3, jss, true},
                         swapped ? lif : lof,
                         swapped ? lof : lif,
                         {StAxis::sy, iss},
                         {StAxis::sx, jss},
                         {StAxis::fy, 5},
                         {StAxis::fx, 5}});
            alexNet2(p.nest);
            p.nest.level = {swapped ? p.at(4) : p.at(5), p.at(0), p.at(0)}; // I at LIF
            return stoutchininCost(p.nest).buffer[size_t(StArray::I)];
        };
        QCOMPARE(fig3(false), h * 5);
        QCOMPARE(fig3(true), h * h);
    }

    // Stoutchinin Table III on the canonical nest: reuse distances of W across LSX (E), of O across
    // LFX (R) and LIF (C), of I across LOF (M); I across LSX tends to R (S = 1, large E).
    void paperReuseDistancesTableIII() {
        PaperNest p = canonical(8, 6, 1000, 3);
        const auto I = stoutchininLevels(p.nest, StArray::I);
        const auto W = stoutchininLevels(p.nest, StArray::W);
        const auto O = stoutchininLevels(p.nest, StArray::O);
        QCOMPARE(W[size_t(p.at(3))].reuse_distance, 1000.0);
        QCOMPARE(W[size_t(p.at(5))].reuse_distance, 1.0);
        QCOMPARE(O[size_t(p.at(5))].reuse_distance, 3.0);
        QCOMPARE(O[size_t(p.at(1))].reuse_distance, 6.0);
        QCOMPARE(O[size_t(p.at(0))].reuse_distance, 1.0);
        QCOMPARE(I[size_t(p.at(0))].reuse_distance, 8.0);
        QCOMPARE(I[size_t(p.at(5))].reuse_distance, 1.0); // LFX: inner loop of its pair
        QVERIFY(std::abs(I[size_t(p.at(3))].reuse_distance - 3.0) < 0.01);
        // Stoutchinin Table II: carrying loops of each array.
        QVERIFY(I[size_t(p.at(3))].carries && I[size_t(p.at(0))].carries);
        QVERIFY(!I[size_t(p.at(1))].carries && !I[size_t(p.at(5))].carries);
        QVERIFY(W[size_t(p.at(2))].carries && !W[size_t(p.at(4))].carries);
        QVERIFY(O[size_t(p.at(1))].carries && !O[size_t(p.at(3))].carries);
    }

    // Stoutchinin §V-C, Stoutchinin Fig. 11 (HWCE): one pair of input/output maps at a time; the
    // weights of that pair are buffered (R·R), O only while one kernel is applied (1 element), I in
    // a line buffer of R lines of the stripe; every output is re-accumulated once per input map.
    void paperHwceBuffers() {
        const int64_t E = 13, C = 384, M = 384, R = 3, jss = 13, iss = 13;
        PaperNest p({{StAxis::sx, E / jss, jss, true},
                     {StAxis::of, M, 1, true},
                     {StAxis::in, C, 1, true},
                     {StAxis::sy, E / iss, iss, true},
                     {StAxis::of, 1},
                     {StAxis::in, 1},
                     {StAxis::sy, iss},
                     {StAxis::sx, jss},
                     {StAxis::fy, R},
                     {StAxis::fx, R}});
        p.nest.level = {p.at(4), p.at(4), p.at(8)}; // I, W at LOF; O at LFY
        const StCost c = stoutchininCost(p.nest);
        QCOMPARE(c.buffer[size_t(StArray::W)], R * R);
        QCOMPARE(c.buffer[size_t(StArray::O)], int64_t(1));
        QCOMPARE(c.buffer[size_t(StArray::I)], R * ((jss - 1) + R));
        QCOMPARE(c.t_o_final, E * E * M);
        QCOMPARE(c.t_o_acc, 2 * (C - 1) * E * E * M);
        // Stoutchinin Eq. 4: partial sums weighed at their own precision (8-bit data, 32-bit sums).
        QCOMPARE(c.bytes(8, 8, 32), double(c.t_in + c.t_w + c.t_o_final) + 4.0 * double(c.t_o_acc));
    }

    // docs/models/convfusion.md worked example through the second engine.
    void workedExampleTraffic() {
        const LayerDims d = test::convDims(16, 16, 4, 4, 3, 3, 1, 1);
        const LayerSchedule s =
            test::layerSchedule(kAllDims, {4, 4, 4, 4}, {Level::l2, Level::l2, Level::tile},
                                {Level::l2, Level::l2, Level::tile});
        const StCost c = costOf(d, s);
        QCOMPARE(c.t_in, int64_t(18432));
        QCOMPARE(c.t_w, int64_t(2304));
        QCOMPARE(c.t_o_final + c.t_o_acc, int64_t(1024));
        QCOMPARE(c.footprint[size_t(StArray::I)], int64_t(72)); // Vol_X
        QCOMPARE(c.buffer[size_t(StArray::I)], int64_t(36));    // folded at xi (Stoutchinin Eq. 2)
        // l1 = zi does not carry W, yi does: one yi iteration's weights, T_i·9 (ConvFusion's
        // Buf_W folded at CL = yi), where the unfolded Buf_W is 144.
        QCOMPARE(c.buffer[size_t(StArray::W)], int64_t(36));
        QCOMPARE(c.buffer[size_t(StArray::O)], int64_t(1));
    }

    // Every schedule both engines express: random small layers (some grouped, some with
    // stride > kernel), every order, every legal store-level triple, divisor tiles.
    void agreesWithConvFusion() {
        std::mt19937_64 rng(20190221);
        Agreement a;
        ClassCounts counts;
        for (int n = 0; n < 400; ++n) {
            const int64_t G = n % 8 == 0 ? 2 : 1;
            const bool wide = n % 4 == 1; // stride > kernel: both count the bounding box
            const int64_t Dm = test::uniformInt(rng, 1, wide ? 2 : 3),
                          Dn = test::uniformInt(rng, 1, wide ? 2 : 3);
            const int64_t Sx = wide ? test::uniformInt(rng, Dm + 1, 3)
                                    : test::uniformInt(rng, 1, std::min<int64_t>(2, Dm));
            const int64_t Sy = wide ? test::uniformInt(rng, Dn + 1, 3)
                                    : test::uniformInt(rng, 1, std::min<int64_t>(2, Dn));
            const LayerDims d =
                test::convDims(test::uniformInt(rng, 1, 8), test::uniformInt(rng, 1, 8),
                               G * test::uniformInt(rng, 1, 4), G * test::uniformInt(rng, 1, 4), Dm,
                               Dn, Sx, Sy, G);
            const std::array<int64_t, 4> tile{
                test::randomDivisor(rng, d.Dz / G), test::randomDivisor(rng, d.Dy),
                test::randomDivisor(rng, d.Dx), test::randomDivisor(rng, d.Di / G)};
            std::array<Dim, 4> order = kAllDims;
            do {
                std::optional<test::LoopNestSim> sim;
                if (G == 1) sim = test::simulateLoopNest(d, order, tile);
                for (Level x : kLevels)
                    for (Level w : kLevels)
                        for (Level y : kLevels)
                            if (y >= std::max(x, w))
                                compareEngines(
                                    d, test::layerSchedule(order, tile, {x, y, w}, {x, y, w}),
                                    sim ? &*sim : nullptr, a, counts);
            } while (std::next_permutation(order.begin(), order.end()));
        }
        QVERIFY2(a.failures == 0, a.summary().c_str());
        QVERIFY(counts.psum > 1000 && counts.walked > 100000);
        QVERIFY(counts.bufferMapped > 1000 && counts.bufferKernel > 1000);
    }

    // The CNN layers of Stoutchinin Appendix B (Stoutchinin Tables IV-VI: AlexNet, ZFNet, VGG,
    // Inception v3, ResNet), padded and strided as listed, every order and store level, tiles the
    // largest divisors up to 8 (x, y) and 16 (z, i).
    void agreesOnAppendixBLayers() {
        Agreement a;
        ClassCounts counts;
        int64_t layers = 0;
        for (const char* name : {"stoutchinin-alexnet", "stoutchinin-zfnet", "stoutchinin-vgg",
                                 "stoutchinin-inception-v3", "stoutchinin-resnet"}) {
            const Network net = test::bundledNetwork(name);
            for (LayerId id : net.computeIds()) {
                const LayerDims d = layerDims(net, id);
                if (d.window != WindowKind::conv) continue;
                ++layers;
                const std::array<int64_t, 4> tile{largestDivisor(d.Dz / d.G, 16),
                                                  largestDivisor(d.Dy, 8), largestDivisor(d.Dx, 8),
                                                  largestDivisor(d.Di / d.G, 16)};
                std::array<Dim, 4> order = kAllDims;
                do {
                    for (Level l : kLevels)
                        compareEngines(d, test::layerSchedule(order, tile, {l, l, l}, {l, l, l}),
                                       nullptr, a, counts);
                } while (std::next_permutation(order.begin(), order.end()));
            }
        }
        QVERIFY2(a.failures == 0, a.summary().c_str());
        QVERIFY(layers >= 60); // 69 convolution layers as bundled
    }

    // Class 1 and 7: what the converter refuses.
    void refusesFusedAndNonAffine() {
        const LayerDims d = test::convDims(8, 8, 4, 4, 3, 3, 1, 1);
        const LayerSchedule s = test::layerSchedule(kAllDims, {4, 4, 4, 4}, {}, {});
        auto fused = stoutchininNest(d, s, true);
        QVERIFY(!fused.ok());
        QVERIFY(fused.error().message.find("fused") != std::string::npos);
        LayerDims up = d;
        up.window = WindowKind::upsample;
        QVERIFY(!stoutchininNest(up, s, false).ok());
        QVERIFY(stoutchininNest(d, s, false).ok());
    }

    // Class 2: order z,y,i,x with T_i = 2 of D_i = 4 and SL_Y = xi (below ii): ConvFusion
    // 8·8·2·(2·2 − 1) = 384; Stoutchinin visits every output once per input channel:
    // 128·(2·4 − 1) = 896, as the walk that evicts Y after each xi iteration.
    void psumSpillInsideAnITile() {
        const LayerDims d = test::convDims(8, 8, 2, 4, 3, 3, 1, 1);
        const std::array<Dim, 4> order{Dim::z, Dim::y, Dim::i, Dim::x};
        const LayerSchedule s =
            test::layerSchedule(order, {2, 4, 4, 2}, {Level::l4, Level::l4, Level::l4},
                                {Level::l4, Level::l4, Level::l4});
        QCOMPARE(convFusionLayer(d, s, false).accY(), int64_t(384));
        const StCost c = costOf(d, s);
        QCOMPARE(c.t_o_final + c.t_o_acc, int64_t(896));
        QCOMPARE(test::simulateLoopNest(d, order, s.tile).accYStoreLevel(Level::l4), int64_t(896));
        QCOMPARE(test::simulateLoopNest(d, order, s.tile).accYItile(), int64_t(384));
    }

    // Class 3: SL = l4 (ii, order z,y,x,i) puts the buffering level on LFY. Inside one output
    // pixel and one input channel no kernel loop carries I or W (each operand is used once),
    // so Stoutchinin Eq. 2 streams them through one element, while ConvFusion keeps the D_m·D_n
    // window.
    void bufferFoldsBelowTheKernelLoops() {
        const LayerDims d = test::convDims(8, 8, 2, 4, 3, 3, 1, 1);
        const LayerSchedule s =
            test::layerSchedule(kAllDims, {2, 4, 4, 2}, {Level::l4, Level::l4, Level::l4},
                                {Level::l4, Level::l4, Level::l4});
        const CfLayerCost cf = convFusionLayer(d, s, false);
        QCOMPARE(cf.buf_x, int64_t(9));
        QCOMPARE(cf.buf_w, int64_t(9));
        const StCost c = costOf(d, s);
        QCOMPARE(c.buffer[size_t(StArray::I)], int64_t(1));
        QCOMPARE(c.buffer[size_t(StArray::W)], int64_t(1));
        QCOMPARE(c.t_in, cf.acc_x); // same traffic
        QCOMPARE(c.t_w, cf.acc_w);
        // Unfolded (CL = SL = tile): ConvFusion holds the tile window, Stoutchinin Eq. 2 one zi
        // iteration.
        const LayerSchedule t =
            test::layerSchedule(kAllDims, {2, 4, 4, 2}, {Level::tile, Level::tile, Level::tile},
                                {Level::tile, Level::tile, Level::tile});
        QCOMPARE(convFusionLayer(d, t, false).buf_x, int64_t(2 * 6 * 6));
        QCOMPARE(costOf(d, t).buffer[size_t(StArray::I)], int64_t(2 * 6 * 6)); // zi carries I
        QCOMPARE(convFusionLayer(d, t, false).buf_w, int64_t(2 * 2 * 9));
        QCOMPARE(costOf(d, t).buffer[size_t(StArray::W)], int64_t(2 * 9)); // one zi: Ti·9
    }

    // Class 4: order z,y,i,x with xo innermost: buffering I at LTSX reuses the (R − S)-column
    // halo between x tiles. 8 columns in tiles of 2, 3x3 kernel: per (zo, yo, io) a window of
    // 4 rows; ConvFusion at SL = tile moves 4 tiles × 4 columns, Stoutchinin 10 columns.
    void haloReuseAboveTheTileLoops() {
        const LayerDims d = test::convDims(8, 8, 1, 1, 3, 3, 1, 1);
        const std::array<Dim, 4> order{Dim::z, Dim::y, Dim::i, Dim::x};
        const LayerSchedule s =
            test::layerSchedule(order, {1, 2, 2, 1}, {Level::tile, Level::tile, Level::tile},
                                {Level::tile, Level::tile, Level::tile});
        QCOMPARE(convFusionLayer(d, s, false).acc_x, int64_t(4 * (4 * 4) * 4)); // 4 y tiles
        auto nest = stoutchininNest(d, s, false);
        QVERIFY(nest.ok());
        StNest up = *nest;
        up.level[size_t(StArray::I)] = 6; // the xo loop (the innermost tile loop)
        QCOMPARE(std::string(stAxisName(up.loops[6].axis)), std::string("LSX"));
        QVERIFY(up.loops[6].tile);
        QCOMPARE(stoutchininCost(up).t_in, int64_t(4 * (4 * 10)));
        QCOMPARE(stoutchininCost(*nest).t_in, int64_t(4 * 4 * 4 * 4));
    }

    // Class 5: the HWC schedule of Stoutchinin Fig. 8 (LIF, LSY, LFY, LOF, LSX, LFX inside the tile
    // loops; O buffered at LIF, I at LSY, W at LOF): W needs one kernel row per output map
    // (R = 3 < the 9 of any ConvFusion schedule), O the mss·iss·jss output tile.
    void hwcKernelLoopsNotInnermost() {
        const int64_t E = 13, C = 8, M = 8, R = 3, mss = 4, iss = 13, jss = 13;
        PaperNest p({{StAxis::of, M / mss, mss, true},
                     {StAxis::in, 1, C, true},
                     {StAxis::sy, E / iss, iss, true},
                     {StAxis::sx, E / jss, jss, true},
                     {StAxis::in, C},
                     {StAxis::sy, iss},
                     {StAxis::fy, R},
                     {StAxis::of, mss},
                     {StAxis::sx, jss},
                     {StAxis::fx, R}});
        p.nest.level = {p.at(5), p.at(7), p.at(4)};
        const StCost c = stoutchininCost(p.nest);
        QCOMPARE(c.buffer[size_t(StArray::W)], R);
        QCOMPARE(c.buffer[size_t(StArray::O)], mss * iss * jss);
        QCOMPARE(c.buffer[size_t(StArray::I)], R * (jss - 1 + R));
        QCOMPARE(c.t_o_acc, int64_t(0)); // css = C: sums complete on chip (Stoutchinin §V-B)
        QCOMPARE(c.t_o_final, M * E * E);
    }

    // Class 6: D_x = 5 in tiles of 2 with xi at or above SL_X: ConvFusion counts 5 xi
    // iterations, the loop nest 2·3 = 6.
    void partialTilesCountFull() {
        const LayerDims d = test::convDims(5, 4, 1, 1, 1, 1, 1, 1);
        const LayerSchedule s =
            test::layerSchedule(kAllDims, {1, 4, 2, 1}, {Level::l4, Level::l4, Level::l4},
                                {Level::l4, Level::l4, Level::l4});
        QCOMPARE(convFusionLayer(d, s, false).acc_x, int64_t(20));
        QCOMPARE(costOf(d, s).t_in, int64_t(24));
        // Below the store level both round the tile up: (⌈5/2⌉ tiles of 2 columns) · 4 rows.
        const LayerSchedule t =
            test::layerSchedule(kAllDims, {1, 4, 2, 1}, {Level::tile, Level::tile, Level::tile},
                                {Level::tile, Level::tile, Level::tile});
        QCOMPARE(convFusionLayer(d, t, false).acc_x, int64_t(24));
        QCOMPARE(costOf(d, t).t_in, int64_t(24));
    }
};

QTEST_GUILESS_MAIN(TestStoutchinin)
#include "tst_stoutchinin.moc"
