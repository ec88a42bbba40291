#include "reference_explore.h"

#include "network/dag.h"
#include "network/dims.h"
#include "search/layer_space.h"
#include "search/pareto_filter.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace lf::test {

namespace {

class OldTileEnumerator {
  public:
    OldTileEnumerator(const FastLayer& fl, TileSet set)
        : cand_{fl.candidates(Dim::z, set), fl.candidates(Dim::y, set), fl.candidates(Dim::x, set),
                fl.candidates(Dim::i, set)} {}

    template <class Visit>
    bool run(const std::vector<LevelStructure>& list, int64_t budget,
             const std::atomic<bool>* cancel, int64_t& evals, Visit&& visit) const {
        for (size_t si = 0; si < list.size(); ++si) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return false;
            const LevelStructure& s = list[si];
            const auto span = [&](Dim d) {
                const auto& c = cand_[size_t(d)];
                const bool rel = s.relevant & dimBit(d);
                return std::pair{rel ? c.data() : &c.back(),
                                 rel ? c.data() + c.size() : &c.back() + 1};
            };
            const auto [z0, z1] = span(Dim::z);
            const auto [y0, y1] = span(Dim::y);
            const auto [x0, x1] = span(Dim::x);
            const auto [i0, i1] = span(Dim::i);
            for (auto z = z0; z != z1; ++z) {
                bool anyY = false;
                for (auto y = y0; y != y1; ++y) {
                    if (cancel && cancel->load(std::memory_order_relaxed)) return false;
                    bool anyX = false;
                    for (auto x = x0; x != x1; ++x) {
                        bool anyI = false;
                        for (auto i = i0; i != i1; ++i) {
                            ++evals;
                            if (visit(si, *z, *y, *x, *i) > budget) break;
                            anyI = true;
                        }
                        if (!anyI) break;
                        anyX = true;
                    }
                    if (!anyX) break;
                    anyY = true;
                }
                if (!anyY) break;
            }
        }
        return true;
    }

  private:
    std::array<std::vector<TileValue>, 4> cand_;
};

// What a consumer demands of its producer (§IV-E): the tile extents and, for a grouped
// producer, the number of its groups the tile spans (0 otherwise).
struct Demand {
    int64_t x = 0, y = 0, groups = 0;
    auto operator<=>(const Demand&) const = default;
};

struct Choice {
    uint16_t structure = 0;
    std::array<int64_t, 4> tiles{};
};

struct Partial {
    int64_t acc = 0, buf = 0, macs = 0, P = 1;
    uint32_t parent = 0; // index into the next-deeper stage's points
    Choice choice;       // this layer's schedule
};

struct Stage {
    std::vector<Partial> points; // grouped by demand, in demand order
    std::vector<std::pair<Demand, std::pair<uint32_t, uint32_t>>> buckets;
};

// An exact Pareto archive (minimization) over a fixed set of fields. A point that some
// archived point dominates (or equals) is rejected; the archived point that rejected it
// moves towards the front, so that the few strong points are tried first and most
// rejections take a couple of comparisons. The fields are kept apart from the points, packed,
// because the scan over them is the hottest loop of the exploration.
template <class T, class Fields> class Archive {
  public:
    using Key = decltype(std::declval<Fields>()(std::declval<const T&>()));
    static constexpr size_t kN = std::tuple_size_v<Key>;

    explicit Archive(Fields f = {}) : fields_(f) {}
    void add(const T& p) {
        const Key c = fields_(p);
        const size_t n = keys_.size();
        for (size_t k = 0; k < n; ++k) {
            const Key& q = keys_[k];
            bool le = true;
            for (size_t j = 0; j < kN; ++j)
                le &= q[j] <= c[j];
            if (le) {
                if (k > 0) {
                    std::swap(keys_[k], keys_[k / 2]);
                    std::swap(pts_[k], pts_[k / 2]);
                }
                return;
            }
        }
        size_t w = 0;
        for (size_t k = 0; k < n; ++k) {
            const Key& d = keys_[k];
            bool ge = true;
            for (size_t j = 0; j < kN; ++j)
                ge &= c[j] <= d[j];
            if (ge) continue; // the new point dominates it
            if (w != k) {
                keys_[w] = keys_[k];
                pts_[w] = std::move(pts_[k]);
            }
            ++w;
        }
        keys_.resize(w);
        pts_.resize(w);
        keys_.push_back(c);
        pts_.push_back(p);
    }
    // The archived points in lexicographic order of their fields.
    std::vector<T> sorted() const {
        std::vector<uint32_t> idx(pts_.size());
        for (size_t k = 0; k < idx.size(); ++k)
            idx[k] = uint32_t(k);
        std::sort(idx.begin(), idx.end(),
                  [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
        std::vector<T> out;
        out.reserve(idx.size());
        for (uint32_t k : idx)
            out.push_back(pts_[k]);
        return out;
    }
    const std::vector<T>& points() const { return pts_; }

  private:
    Fields fields_;
    std::vector<Key> keys_;
    std::vector<T> pts_;
};

struct PartialFields {
    std::array<int64_t, 4> operator()(const Partial& p) const {
        return {p.acc, p.buf, p.macs, p.P};
    }
};
using PartialArchive = Archive<Partial, PartialFields>;

struct DemandHash {
    size_t operator()(const Demand& d) const {
        return std::hash<int64_t>()(d.x * 1000003 + d.y * 7919 + d.groups);
    }
};

// One archive per demand, looked up through a hash and a one-entry cache (consecutive
// evaluations usually make the same demand).
class Buckets {
  public:
    void add(const Demand& d, const Partial& p) {
        if (!(hasLast_ && d == last_)) {
            auto [it, inserted] = index_.emplace(d, uint32_t(slots_.size()));
            if (inserted) slots_.emplace_back(d, PartialArchive{});
            last_ = d;
            lastSlot_ = it->second;
            hasLast_ = true;
        }
        slots_[lastSlot_].second.add(p);
    }
    // Moves the points into `stage`, demands in ascending order.
    void finish(Stage& stage) {
        std::sort(slots_.begin(), slots_.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        for (auto& [d, archive] : slots_) {
            const auto pts = archive.sorted();
            const auto begin = uint32_t(stage.points.size());
            stage.points.insert(stage.points.end(), pts.begin(), pts.end());
            stage.buckets.push_back({d, {begin, uint32_t(stage.points.size())}});
        }
        slots_.clear();
        index_.clear();
        hasLast_ = false;
    }

  private:
    std::vector<std::pair<Demand, PartialArchive>> slots_;
    std::unordered_map<Demand, uint32_t, DemandHash> index_;
    Demand last_;
    uint32_t lastSlot_ = 0;
    bool hasLast_ = false;
};

// §IV-E substitution (models/convfusion_segment.cpp): the producer's output becomes the
// demanded tile; a grouped producer keeps whole groups.
LayerDims substitute(const LayerDims& d, const Demand& dem) {
    LayerDims s = d;
    s.Dx = std::clamp<int64_t>(dem.x, 1, d.Dx);
    s.Dy = std::clamp<int64_t>(dem.y, 1, d.Dy);
    if (d.G > 1) {
        const int64_t zPerGroup = std::max<int64_t>(1, d.Dz / d.G);
        const int64_t groups = std::clamp<int64_t>(dem.groups, 1, d.G);
        s.Dz = groups * zPerGroup;
        s.Di = groups * (d.Di / d.G);
        s.G = groups;
    }
    return s;
}

// The demand a consumer's X tile makes on `producer`.
Demand demandOf(const CfLayerCost& c, const LayerDims& producer) {
    Demand d;
    d.x = std::clamp<int64_t>(c.ext_x, 1, producer.Dx);
    d.y = std::clamp<int64_t>(c.ext_y, 1, producer.Dy);
    if (producer.G > 1) {
        const int64_t zPerGroup = std::max<int64_t>(1, producer.Dz / producer.G);
        d.groups =
            std::clamp<int64_t>(ceilDiv(std::max<int64_t>(1, c.ext_c), zPerGroup), 1, producer.G);
    }
    return d;
}

bool mulOk(int64_t a, int64_t b, int64_t& r) {
    return !__builtin_mul_overflow(a, b, &r);
}
bool addOk(int64_t a, int64_t b, int64_t& r) {
    return !__builtin_add_overflow(a, b, &r);
}

struct Context {
    const Network& net;
    const Hardware& hw;
    const std::vector<LayerId>& chain;
    const SegmentSearchOptions& opt;
    const std::atomic<bool>* cancel;
    bool resident;
    int64_t B, ab, wb, pb, cap;
    std::vector<LayerDims> dims;
    int64_t evals = 0;
};

// Last layer of the segment (real dims, not fused).
bool lastStage(Context& cx, Buckets& out) {
    const size_t n = cx.chain.size();
    const LayerDims& d = cx.dims[n - 1];
    const bool single = n == 1;
    const FastLayer fl(d, false);
    const auto& list = levelStructures(false, cx.opt.levels, cx.resident || !d.weights);
    const int64_t allW = layerWeights(d);
    const int64_t wScale = cx.resident ? 1 : cx.B;
    const LayerDims* producer = single ? nullptr : &cx.dims[n - 2];
    OldTileEnumerator en(fl, cx.opt.tiles);
    return en.run(list, cx.cap, cx.cancel, cx.evals,
                  [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                      const TileValue& i) {
                      const CfLayerCost c = fl.eval(list[si], z, y, x, i);
                      const int64_t wBuf = cx.resident ? allW : c.buf_w;
                      const int64_t buf = c.buf_x * cx.ab + wBuf * cx.wb + c.buf_y * cx.pb;
                      if (buf > cx.cap) return buf;
                      Partial p;
                      const int64_t act = c.acc_y_out + c.acc_y_psum + (single ? c.acc_x : 0);
                      p.acc = cx.B * act + wScale * (cx.resident ? allW : c.acc_w);
                      p.buf = buf;
                      p.macs = cx.B * c.macs;
                      p.P = single ? 1 : c.trans_x * d.G;
                      p.parent = 0;
                      p.choice = {uint16_t(si), {z.t, y.t, x.t, i.t}};
                      out.add(single ? Demand{} : demandOf(c, *producer), p);
                      return buf;
                  });
}

struct Option {
    int64_t acc = 0, buf = 0, mult = 1; // per production; Trans_X·G
    Choice choice;
};

struct OptionFields {
    std::array<int64_t, 3> operator()(const Option& o) const { return {o.acc, o.buf, o.mult}; }
};

// Producer `k` (fused) for every demand of the deeper stage.
bool producerStage(Context& cx, size_t k, const Stage& deeper, Buckets& out) {
    const LayerDims& real = cx.dims[k];
    const bool first = k == 0;
    const LayerDims* producer = first ? nullptr : &cx.dims[k - 1];
    const auto& list = levelStructures(true, cx.opt.levels, cx.resident || !real.weights);
    const int64_t allW = cx.resident ? layerWeights(real) : 0;
    const int64_t realMacs = layerMacs(real);
    const int64_t realOuts = real.Dx * real.Dy * real.Dz;
    for (const auto& [dem, range] : deeper.buckets) {
        if (cx.cancel && cx.cancel->load(std::memory_order_relaxed)) return false;
        const LayerDims sub = substitute(real, dem);
        const FastLayer fl(sub, true);
        const int64_t subOuts = sub.Dx * sub.Dy * sub.Dz;
        const int64_t macsPer =
            realOuts > 0
                ? int64_t(std::llround(double(realMacs) * double(subOuts) / double(realOuts)))
                : 0;
        int64_t minSuffixBuf = INT64_MAX;
        for (uint32_t q = range.first; q < range.second; ++q)
            minSuffixBuf = std::min(minSuffixBuf, deeper.points[q].buf);
        const int64_t budget = cx.cap - minSuffixBuf;
        if (budget < 0) continue;

        // Producer options per demand they make, Pareto-filtered on (acc, buf, Trans_X).
        std::map<Demand, Archive<Option, OptionFields>> options;
        OldTileEnumerator en(fl, cx.opt.tiles);
        Demand lastDem;
        Archive<Option, OptionFields>* lastArchive = nullptr;
        const bool done =
            en.run(list, budget, cx.cancel, cx.evals,
                   [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                       const TileValue& i) {
                       const CfLayerCost c = fl.eval(list[si], z, y, x, i);
                       const int64_t buf = c.buf_x * cx.ab + (cx.resident ? allW : c.buf_w) * cx.wb;
                       if (buf > budget) return buf;
                       Option o;
                       o.acc = cx.B * ((first ? c.acc_x : 0) + (cx.resident ? 0 : c.acc_w));
                       o.buf = buf;
                       o.mult = c.trans_x * sub.G;
                       o.choice = {uint16_t(si), {z.t, y.t, x.t, i.t}};
                       const Demand nd = first ? Demand{} : demandOf(c, *producer);
                       if (!lastArchive || !(nd == lastDem)) {
                           lastArchive = &options[nd];
                           lastDem = nd;
                       }
                       lastArchive->add(o);
                       return buf;
                   });
        if (!done) return false;
        for (auto& [newDem, archive] : options) {
            const std::vector<Option> opts = archive.sorted();
            for (uint32_t q = range.first; q < range.second; ++q) {
                if (cx.cancel && cx.cancel->load(std::memory_order_relaxed)) return false;
                const Partial& sp = deeper.points[q];
                int64_t lcMacs = 0, macs = 0;
                if (!mulOk(sp.P, macsPer, lcMacs) || !mulOk(cx.B, lcMacs, macs)) continue;
                if (!cx.opt.allow_recompute && lcMacs > realMacs) continue;
                for (const Option& o : opts) {
                    Partial p;
                    int64_t add = 0;
                    if (!mulOk(sp.P, o.acc, add) || !addOk(sp.acc, add, p.acc) ||
                        !addOk(p.acc, allW, p.acc))
                        continue;
                    if (!mulOk(sp.P, o.mult, p.P) || !addOk(sp.macs, macs, p.macs)) continue;
                    if (first) p.P = 0; // no producer left: P no longer matters
                    p.buf = sp.buf + o.buf;
                    if (p.buf > cx.cap) continue;
                    p.parent = q;
                    p.choice = o.choice;
                    out.add(newDem, p);
                }
            }
        }
    }
    return true;
}

} // namespace

SegmentFront referenceSegment(const Network& net, const Hardware& hw,
                              const std::vector<LayerId>& chain, const SegmentSearchOptions& opt,
                              const std::atomic<bool>* cancel) {
    SegmentFront front;
    front.layers = chain;
    if (chain.empty()) return front;
    const Precision& p = hw.precision;
    for (int variant = 0; variant < (opt.try_resident_weights ? 2 : 1); ++variant) {
        Context cx{net,
                   hw,
                   chain,
                   opt,
                   cancel,
                   variant == 1,
                   std::max(1, hw.batch),
                   p.act_bits,
                   p.weight_bits,
                   p.psum_bits,
                   opt.max_buffer_bits > 0 ? opt.max_buffer_bits : INT64_MAX,
                   {},
                   0};
        bool anyWeights = false;
        for (LayerId id : chain) {
            cx.dims.push_back(layerDims(net, id));
            anyWeights = anyWeights || cx.dims.back().weights;
        }
        if (cx.resident && !anyWeights) continue; // the same schedules again
        const size_t n = chain.size();
        std::vector<Stage> stages(n);
        bool ok;
        {
            Buckets b;
            ok = lastStage(cx, b);
            b.finish(stages[n - 1]);
        }
        for (size_t k = n - 1; ok && k-- > 0;) {
            Buckets b;
            ok = producerStage(cx, k, stages[k + 1], b);
            b.finish(stages[k]);
        }
        front.evaluations += cx.evals;
        if (!ok) {
            front.cancelled = true;
            front.points.clear();
            return front;
        }
        for (const Partial& top : stages[0].points) {
            SegmentPoint sp;
            sp.dram = top.acc;
            sp.buffer_bits = top.buf;
            sp.macs = top.macs;
            sp.weights_resident = cx.resident;
            const Partial* cur = &top;
            for (size_t k = 0; k < n; ++k) {
                const Choice& ch = cur->choice;
                const bool fused = k + 1 < n;
                const auto& list =
                    levelStructures(fused, opt.levels, cx.resident || !cx.dims[k].weights);
                sp.layers.push_back(list[ch.structure].schedule(ch.tiles));
                if (fused) cur = &stages[k + 1].points[cur->parent];
            }
            front.points.push_back(std::move(sp));
        }
    }
    const auto keep = paretoIndices<3>(front.points.size(), [&](size_t k) {
        const SegmentPoint& q = front.points[k];
        return std::array{q.dram, q.buffer_bits, q.macs};
    });
    std::vector<SegmentPoint> out;
    out.reserve(keep.size());
    for (uint32_t k : keep)
        out.push_back(std::move(front.points[k]));
    front.points.swap(out);
    return front;
}

namespace {

struct NetPartial {
    int64_t acc = 0, bits = 0, macs = 0;
    int32_t node = -1;
};

struct Node {
    int32_t prev = -1;
    size_t segment = 0, point = 0;
};

template <class MakeNode>
std::vector<NetPartial> keepFront(std::vector<NetPartial>& cand, MakeNode makeNode) {
    const auto keep = paretoIndices<3>(cand.size(), [&](size_t k) {
        return std::array{cand[k].acc, cand[k].bits, cand[k].macs};
    });
    std::vector<NetPartial> out;
    for (uint32_t k : keep) {
        NetPartial p = cand[k];
        p.node = makeNode(k);
        out.push_back(p);
    }
    return out;
}

std::vector<FrontCost> costsOf(const std::vector<NetPartial>& v) {
    std::vector<FrontCost> out;
    for (const NetPartial& p : v)
        out.push_back({p.acc, p.bits, p.macs});
    return out;
}

} // namespace

std::vector<ReferencePoint> referenceExplore(const Network& net, const Hardware& hw,
                                             const ExploreOptions& opt) {
    const auto seqs = sequences(net);
    const size_t depth = size_t(std::max(1, opt.max_depth));
    SegmentSearchOptions so;
    so.tiles = opt.tiles;
    so.levels = opt.levels;
    so.allow_recompute = opt.allow_recompute;
    so.try_resident_weights = opt.try_resident_weights;
    so.max_buffer_bits = opt.max_buffer_bytes > 0 ? opt.max_buffer_bytes * 8 : 0;
    std::vector<SegmentFront> fronts;
    std::vector<std::vector<std::vector<size_t>>> unitOf(seqs.size());
    for (size_t s = 0; s < seqs.size(); ++s) {
        unitOf[s].resize(seqs[s].size());
        for (size_t b = 0; b < seqs[s].size(); ++b)
            for (size_t len = 1; len <= depth && b + len <= seqs[s].size(); ++len) {
                unitOf[s][b].push_back(fronts.size());
                const std::vector<LayerId> chain(seqs[s].begin() + std::ptrdiff_t(b),
                                                 seqs[s].begin() + std::ptrdiff_t(b + len));
                fronts.push_back(referenceSegment(net, hw, chain, so, nullptr));
            }
    }
    std::vector<Node> nodes;
    auto newNode = [&](int32_t prev, size_t segment, size_t point) {
        nodes.push_back({prev, segment, point});
        return int32_t(nodes.size() - 1);
    };
    std::vector<NetPartial> network{NetPartial{}};
    for (size_t s = 0; s < seqs.size(); ++s) {
        const size_t n = seqs[s].size();
        std::vector<std::vector<NetPartial>> F(n + 1);
        F[0] = {NetPartial{}};
        for (size_t j = 1; j <= n; ++j) {
            std::vector<NetPartial> cand;
            std::vector<std::array<size_t, 3>> from;
            for (size_t i = j > depth ? j - depth : 0; i < j; ++i) {
                const SegmentFront& sf = fronts[unitOf[s][i][j - i - 1]];
                std::vector<FrontCost> segCosts;
                for (const SegmentPoint& q : sf.points)
                    segCosts.push_back({q.dram, q.buffer_bits, q.macs});
                sumMaxFrontPairs(costsOf(F[i]), segCosts, [&](uint32_t a, uint32_t b) {
                    const SegmentPoint& q = sf.points[b];
                    NetPartial c;
                    if (!addOk(F[i][a].acc, q.dram, c.acc) || !addOk(F[i][a].macs, q.macs, c.macs))
                        return;
                    c.bits = std::max(F[i][a].bits, q.buffer_bits);
                    cand.push_back(c);
                    from.push_back({i, a, b});
                });
            }
            F[j] = keepFront(cand, [&](size_t k) {
                const auto [i, a, b] = from[k];
                return newNode(F[i][a].node, unitOf[s][i][j - i - 1], b);
            });
        }
        std::vector<NetPartial> cand;
        std::vector<std::pair<size_t, size_t>> from;
        sumMaxFrontPairs(costsOf(network), costsOf(F[n]), [&](uint32_t a, uint32_t b) {
            NetPartial c;
            if (!addOk(network[a].acc, F[n][b].acc, c.acc) ||
                !addOk(network[a].macs, F[n][b].macs, c.macs))
                return;
            c.bits = std::max(network[a].bits, F[n][b].bits);
            cand.push_back(c);
            from.emplace_back(a, b);
        });
        network = keepFront(cand, [&](size_t k) {
            const auto [a, b] = from[k];
            int32_t prev = network[a].node;
            for (int32_t q = F[n][b].node; q >= 0; q = nodes[size_t(q)].prev)
                prev = newNode(prev, nodes[size_t(q)].segment, nodes[size_t(q)].point);
            return prev;
        });
    }
    struct Pt {
        std::array<int64_t, 3> cost;
        int32_t node;
    };
    std::vector<Pt> pts;
    for (const NetPartial& p : network)
        pts.push_back({{p.acc, (p.bits + 7) / 8, p.macs}, p.node});
    std::vector<ReferencePoint> out;
    for (uint32_t k : paretoIndices<3>(pts.size(), [&](size_t j) {
             return std::array{pts[j].cost[1], pts[j].cost[0], pts[j].cost[2]};
         })) {
        ReferencePoint rp;
        rp.cost = pts[k].cost;
        for (int32_t q = pts[k].node; q >= 0; q = nodes[size_t(q)].prev) {
            const SegmentFront& sf = fronts[nodes[size_t(q)].segment];
            const SegmentPoint& sp = sf.points[nodes[size_t(q)].point];
            rp.parts.push_back({sf.layers, sp.layers, sp.weights_resident});
        }
        std::sort(rp.parts.begin(), rp.parts.end(),
                  [](const auto& a, const auto& b) { return a.layers.front() < b.layers.front(); });
        out.push_back(std::move(rp));
    }
    return out;
}

std::vector<ReferencePoint> referencePointsOf(const ExploreResult& r) {
    std::vector<ReferencePoint> out;
    for (size_t k = 0; k < r.front.size(); ++k) {
        ReferencePoint rp;
        rp.cost = {r.front[k].dram_accesses, r.front[k].buffer_bytes, r.front[k].macs};
        for (const auto& [layers, point] : r.parts(k))
            rp.parts.push_back({*layers, point->layers, point->weights_resident});
        out.push_back(std::move(rp));
    }
    return out;
}

} // namespace lf::test
