#include "search/segment_stages.h"

#include "network/dims.h"
#include "search/pareto_filter.h"
#include "search/pareto_stream.h"
#include "search/tile_enumerator.h"
#include "search/work_pool.h"
#include "util/checked.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

namespace lf::segment {

namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max();

int64_t satAdd(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? kInf : r;
}
int64_t satMul(int64_t a, int64_t b) {
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? kInf : r;
}
bool mulOk(int64_t a, int64_t b, int64_t& r) {
    return !__builtin_mul_overflow(a, b, &r);
}
bool addOk(int64_t a, int64_t b, int64_t& r) {
    return !__builtin_add_overflow(a, b, &r);
}

// The Pareto filter of one demand's points on (accesses, buffer, MACs, P), exact, the first
// of equal points kept. A stage knows which field cannot vary: the last layer's MACs are
// its own (3 fields), the first layer leaves no P (3 fields); a middle layer needs all 4.
enum class Fields : uint8_t { noMacs, noP, all };

class PartialFront {
  public:
    explicit PartialFront(Fields f) : fields_(f) {}
    void add(const Partial& p) {
        switch (fields_) {
        case Fields::noMacs:
            three_.add({p.acc, p.buf, p.P}, p);
            break;
        case Fields::noP:
            three_.add({p.acc, p.buf, p.macs}, p);
            break;
        case Fields::all:
            four_.add({p.acc, p.buf, p.macs, p.P}, p);
            break;
        }
    }
    // The front in lexicographic order of (accesses, buffer, MACs, P).
    std::vector<Partial> finish() {
        return fields_ == Fields::all ? four_.finish() : three_.finish();
    }

  private:
    Fields fields_;
    ParetoStream<3, Partial> three_;
    ParetoStream<4, Partial> four_;
};

// The points one task found, per demand they make, each list already filtered; tasks are
// merged in the order the serial search would have met their points.
using TaskOutput = std::map<Demand, std::vector<Partial>>;

class TaskCollector {
  public:
    explicit TaskCollector(Fields f) : fields_(f) {}
    void add(const Demand& d, const Partial& p) {
        if (!(last_ && d == lastDem_)) {
            last_ = &fronts_.try_emplace(d, fields_).first->second;
            lastDem_ = d;
        }
        last_->add(p);
    }
    TaskOutput finish() {
        TaskOutput out;
        for (auto& [d, f] : fronts_)
            out.emplace(d, f.finish());
        return out;
    }

  private:
    Fields fields_;
    std::map<Demand, PartialFront> fronts_;
    PartialFront* last_ = nullptr;
    Demand lastDem_;
};

// How the tasks' outputs are ordered: as contiguous parts of the serial walk (their order), or
// as lanes that each met some of the last layer's structures in increasing order.
enum class TaskOrder : uint8_t { parts, structureLanes };

// Merges the tasks' outputs demand by demand (in parallel over demands) into a stage. Of
// equal points the serial search's first is kept: the first task's for parts; for lanes, the
// one of the lowest structure (a lane holds all of a structure's points, filtered in order).
void mergeTasks(std::vector<TaskOutput>& tasks, Fields fields, WorkPool* pool, Stage& stage,
                TaskOrder order = TaskOrder::parts) {
    std::vector<Demand> demands;
    for (const TaskOutput& t : tasks)
        for (const auto& [d, pts] : t)
            demands.push_back(d);
    std::sort(demands.begin(), demands.end());
    demands.erase(std::unique(demands.begin(), demands.end()), demands.end());
    std::vector<std::vector<Partial>> merged(demands.size());
    parallelFor(pool, demands.size(), [&](size_t k) {
        PartialFront f(fields);
        if (order == TaskOrder::structureLanes) {
            std::vector<Partial> all;
            for (TaskOutput& t : tasks)
                if (auto it = t.find(demands[k]); it != t.end()) {
                    all.insert(all.end(), it->second.begin(), it->second.end());
                    std::vector<Partial>().swap(it->second);
                }
            std::stable_sort(all.begin(), all.end(), [](const Partial& a, const Partial& b) {
                return a.choice.structure < b.choice.structure;
            });
            for (const Partial& p : all)
                f.add(p);
            merged[k] = f.finish();
            return;
        }
        size_t sources = 0;
        for (TaskOutput& t : tasks) {
            auto it = t.find(demands[k]);
            if (it == t.end()) continue;
            ++sources;
            if (sources == 1) merged[k] = std::move(it->second);
            for (const Partial& p : (sources == 1 ? merged[k] : it->second))
                f.add(p);
            if (sources > 1) std::vector<Partial>().swap(it->second);
        }
        merged[k] = sources > 1 ? f.finish() : std::move(merged[k]);
    });
    for (size_t k = 0; k < demands.size(); ++k) {
        const auto begin = uint32_t(stage.points.size());
        stage.points.insert(stage.points.end(), merged[k].begin(), merged[k].end());
        stage.buckets.push_back({demands[k], {begin, uint32_t(stage.points.size())}});
    }
}

// ConvFusion §IV-E substitution (models/convfusion_segment.cpp): the producer's output becomes the
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

struct CostHash {
    size_t operator()(const Cost& c) const {
        uint64_t h = uint64_t(c[0]) * 0x9E3779B97F4A7C15ull;
        h ^= uint64_t(c[1]) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
        h ^= uint64_t(c[2]) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
        return size_t(h);
    }
};

int64_t macsPerProduction(const LayerDims& real, const LayerDims& sub) {
    const int64_t realOuts = real.Dx * real.Dy * real.Dz;
    const int64_t subOuts = sub.Dx * sub.Dy * sub.Dz;
    return realOuts > 0
               ? int64_t(std::llround(double(layerMacs(real)) * double(subOuts) / double(realOuts)))
               : 0;
}

} // namespace

SegmentSpace::SegmentSpace(const Network& net, const Hardware& hw,
                           const std::vector<LayerId>& chain, const SegmentSearchOptions& opt,
                           bool resident, const std::atomic<bool>* cancel, OptionCache* cache)
    : opt_(opt), cancel_(cancel), resident_(resident), B_(std::max(1, hw.batch)),
      ab_(hw.precision.act_bits), wb_(hw.precision.weight_bits), pb_(hw.precision.psum_bits),
      cap_(opt.max_buffer_bits > 0 ? opt.max_buffer_bits : kInf), cache_(cache) {
    int64_t w = 0;
    for (LayerId id : chain) {
        dims_.push_back(layerDims(net, id));
        w = satAdd(w, resident ? layerWeights(dims_.back()) : 0);
        weightsUpTo_.push_back(w);
    }
    options_.resize(chain.size());
}

bool SegmentSpace::lastStage(Stage& stage) {
    const size_t n = dims_.size();
    const LayerDims& d = dims_[n - 1];
    const bool single = n == 1;
    const FastLayer fl(d, false);
    const auto& list = levelStructures(false, opt_.levels, resident_ || !d.weights);
    const int64_t allW = layerWeights(d);
    const int64_t wScale = resident_ ? 1 : B_;
    const LayerDims* producer = single ? nullptr : &dims_[n - 2];
    const TileEnumerator en(fl, opt_.tiles);
    // One filter per thread, fed the structures it takes in increasing order.
    std::vector<TaskCollector> lanes(lanesFor(opt_.pool, list.size()),
                                     TaskCollector(Fields::noMacs));
    std::atomic<bool> ok{true};
    parallelLanes(opt_.pool, list.size(), lanes.size(), [&](size_t lane, size_t si) {
        if (!ok) return;
        TaskCollector& out = lanes[lane];
        int64_t evals = 0;
        const bool done =
            en.runStructure(list, si, cap_, cancel_, evals,
                            [&](size_t, const TileValue& z, const TileValue& y, const TileValue& x,
                                const TileValue& i, const CfLayerCost& c) {
                                const int64_t wBuf = resident_ ? allW : c.buf_w;
                                const int64_t buf = c.buf_x * ab_ + wBuf * wb_ + c.buf_y * pb_;
                                if (buf > cap_) return buf;
                                Partial p;
                                const int64_t act =
                                    c.acc_y_out + c.acc_y_psum + (single ? c.acc_x : 0);
                                p.acc = B_ * act + wScale * (resident_ ? allW : c.acc_w);
                                p.buf = buf;
                                p.macs = B_ * c.macs;
                                p.P = single ? 1 : c.trans_x * d.G;
                                p.parent = 0;
                                p.choice = {uint16_t(si), {z.t, y.t, x.t, i.t}};
                                out.add(single ? Demand{} : demandOf(c, *producer), p);
                                return buf;
                            });
        evals_ += evals;
        if (!done) ok = false;
    });
    if (!ok) return false;
    std::vector<TaskOutput> tasks(lanes.size());
    parallelFor(opt_.pool, lanes.size(), [&](size_t lane) { tasks[lane] = lanes[lane].finish(); });
    mergeTasks(tasks, Fields::noMacs, opt_.pool, stage,
               tasks.size() > 1 ? TaskOrder::structureLanes : TaskOrder::parts);
    return true;
}

std::shared_ptr<const Options> SegmentSpace::optionsFor(size_t k, const Demand& d) {
    if (!cache_) return std::make_shared<const Options>(enumerateOptions(k, d));
    OptionCache::Key key{dims_[k], dims_[k == 0 ? 0 : k - 1], k == 0, resident_, d};
    if (auto hit = cache_->find(key)) return hit;
    return cache_->insert(key, enumerateOptions(k, d));
}

std::shared_ptr<const Options> OptionCache::find(const Key& k) const {
    std::lock_guard lock(mutex_);
    auto it = map_.find(k);
    return it == map_.end() ? nullptr : it->second;
}

std::shared_ptr<const Options> OptionCache::insert(const Key& k, Options o) {
    auto made = std::make_shared<const Options>(std::move(o));
    std::lock_guard lock(mutex_);
    return map_.try_emplace(k, std::move(made)).first->second;
}

void OptionCache::release(WorkPool* pool) {
    std::vector<std::shared_ptr<const Options>> all;
    {
        std::lock_guard lock(mutex_);
        all.reserve(map_.size());
        for (auto& [key, options] : map_)
            all.push_back(std::move(options));
        map_.clear();
    }
    const auto parts = splitRange(all.size(), partsFor(pool));
    parallelFor(pool, parts.size(), [&](size_t part) {
        for (size_t k = parts[part].first; k < parts[part].second; ++k)
            all[k].reset();
    });
}

size_t OptionCache::Hash::operator()(const Key& k) const {
    size_t h = 0;
    auto mix = [&](int64_t v) { h = (h ^ size_t(v)) * 0x100000001B3ull + 0x9E3779B97F4A7C15ull; };
    for (const LayerDims* d : {&k.real, &k.producer})
        for (int64_t v : {d->Dx, d->Dy, d->Dz, d->Di, d->Dm, d->Dn, d->Sx, d->Sy, d->G})
            mix(v);
    for (int64_t v :
         {k.demand.x, k.demand.y, k.demand.groups, int64_t(k.first), int64_t(k.resident)})
        mix(v);
    return h;
}

Options SegmentSpace::enumerateOptions(size_t k, const Demand& dem) {
    const LayerDims& real = dims_[k];
    const bool first = k == 0;
    const LayerDims* producer = first ? nullptr : &dims_[k - 1];
    const auto& list = levelStructures(true, opt_.levels, resident_ || !real.weights);
    const int64_t allW = resident_ ? layerWeights(real) : 0;
    const LayerDims sub = substitute(real, dem);
    const FastLayer fl(sub, true);
    Options out;
    out.macsPer = macsPerProduction(real, sub);
    std::map<Demand, ParetoStream<3, Option>> fronts;
    Demand lastDem;
    ParetoStream<3, Option>* last = nullptr;
    int64_t evals = 0;
    TileEnumerator(fl, opt_.tiles)
        .run(list, cap_, cancel_, evals,
             [&](size_t si, const TileValue& z, const TileValue& y, const TileValue& x,
                 const TileValue& i, const CfLayerCost& c) {
                 const int64_t buf = c.buf_x * ab_ + (resident_ ? allW : c.buf_w) * wb_;
                 if (buf > cap_) return buf;
                 Option o;
                 o.acc = B_ * ((first ? c.acc_x : 0) + (resident_ ? 0 : c.acc_w));
                 o.buf = buf;
                 o.mult = c.trans_x * sub.G;
                 o.choice = {uint16_t(si), {z.t, y.t, x.t, i.t}};
                 const Demand nd = first ? Demand{} : demandOf(c, *producer);
                 if (!last || !(nd == lastDem)) {
                     last = &fronts[nd];
                     lastDem = nd;
                 }
                 last->add({o.acc, o.buf, o.mult}, o);
                 return buf;
             });
    evals_ += evals;
    size_t count = 0;
    for (auto& [nd, f] : fronts) {
        std::vector<Option> opts = f.finish();
        if (first) {
            // The first layer leaves no producer: mult no longer matters, and an option no
            // better in accesses and buffer than an earlier one only makes later, no better
            // schedules from every suffix.
            Staircase<> seen;
            std::erase_if(opts, [&](const Option& o) { return !seen.insert(o.acc, o.buf); });
        }
        out.groupStart.push_back(uint32_t(count));
        count += opts.size();
        out.byDemand.emplace_back(nd, std::move(opts));
    }
    return out;
}

bool SegmentSpace::buildOptions(const Stage& last) {
    const size_t n = dims_.size();
    if (n < 2) return true;
    // Demands level by level, from the last layer's up to the first layer's.
    std::vector<Demand> level;
    for (const auto& [d, range] : last.buckets)
        level.push_back(d);
    for (size_t k = n - 1; k-- > 0;) {
        std::vector<std::shared_ptr<const Options>> made(level.size());
        parallelFor(opt_.pool, level.size(), [&](size_t j) {
            if (!cancelled()) made[j] = optionsFor(k, level[j]);
        });
        if (cancelled()) return false;
        std::vector<Demand> next;
        for (size_t j = 0; j < level.size(); ++j) {
            for (const auto& [nd, opts] : made[j]->byDemand)
                next.push_back(nd);
            options_[k].emplace(level[j], std::move(made[j]));
        }
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        level = std::move(next);
    }
    return true;
}

std::vector<JoinPoint> SegmentSpace::completeFront(const Stage& last) {
    const size_t n = dims_.size();
    // Saturating sums stand in for the skipped overflows of the stages only as long as
    // nothing saturates; when something does, there is nothing to prune with.
    std::atomic<bool> saturated{false};
    auto add = [&](int64_t a, int64_t b) {
        const int64_t r = satAdd(a, b);
        if (r == kInf) saturated = true;
        return r;
    };
    auto mul = [&](int64_t a, int64_t b) {
        const int64_t r = satMul(a, b);
        if (r == kInf) saturated = true;
        return r;
    };
    // Top down: the front of what a production of layer k and all above it costs, for every
    // demand on layer k. A consumer's P multiplies a producer's accesses and MACs alike for
    // every point of such a front, so a point it dominates stays dominated: three costs suffice.
    up_.assign(n - 1, {});
    for (size_t k = 0; k + 1 < n; ++k) {
        std::vector<std::pair<const Demand*, const Options*>> todo;
        for (const auto& [d, o] : options_[k])
            todo.emplace_back(&d, o.get());
        std::vector<std::vector<UpPoint>> made(todo.size());
        parallelFor(opt_.pool, todo.size(), [&](size_t j) {
            if (cancelled()) return;
            const Options& o = *todo[j].second;
            TiesFront<UpPoint> f;
            for (size_t g = 0; g < o.byDemand.size(); ++g) {
                const auto& [nd, opts] = o.byDemand[g];
                static const std::vector<UpPoint> none{UpPoint{}};
                const auto& above = k == 0 ? none : up_[k - 1].at(nd);
                for (size_t i = 0; i < opts.size(); ++i) {
                    const Option& op = opts[i];
                    for (size_t a = 0; a < above.size(); ++a) {
                        const Cost& u = above[a].cost;
                        UpPoint x{{add(op.acc, mul(op.mult, u[0])), add(op.buf, u[1]),
                                   add(o.macsPer, mul(op.mult, u[2]))},
                                  uint32_t(o.groupStart[g] + i),
                                  uint32_t(a)};
                        if (x.cost[1] <= cap_) f.add(x);
                    }
                }
            }
            made[j] = f.finish();
        });
        for (size_t j = 0; j < todo.size(); ++j)
            up_[k].emplace(*todo[j].first, std::move(made[j]));
    }
    // The last layer's points completed by those fronts: one filter per thread (a TiesFront
    // keeps every point no other strictly dominates, whatever the order it meets them in).
    std::vector<TiesFront<JoinPoint>> lanes(lanesFor(opt_.pool, last.buckets.size()));
    parallelLanes(opt_.pool, last.buckets.size(), lanes.size(), [&](size_t lane, size_t bi) {
        if (cancelled()) return;
        TiesFront<JoinPoint>& f = lanes[lane];
        const auto& [d, range] = last.buckets[bi];
        const auto& above = up_[n - 2].at(d);
        for (uint32_t q = range.first; q < range.second; ++q) {
            const Partial& p = last.points[q];
            for (size_t a = 0; a < above.size(); ++a) {
                const Cost& u = above[a].cost;
                JoinPoint x{{add(add(p.acc, mul(p.P, u[0])), weightsUpTo_[n - 2]), add(p.buf, u[1]),
                             add(p.macs, mul(B_, mul(p.P, u[2])))},
                            q,
                            uint32_t(a)};
                if (x.cost[1] <= cap_) f.add(x);
            }
        }
    });
    std::vector<std::vector<JoinPoint>> fronts(lanes.size());
    parallelFor(opt_.pool, lanes.size(), [&](size_t lane) { fronts[lane] = lanes[lane].finish(); });
    if (saturated || cancelled()) {
        up_.clear();
        return {};
    }
    if (fronts.size() == 1) return std::move(fronts[0]);
    TiesFront<JoinPoint> all;
    for (auto& f : fronts) {
        for (const JoinPoint& x : f)
            all.add(x);
        std::vector<JoinPoint>().swap(f);
    }
    return all.finish();
}

void SegmentSpace::restrictLast(Stage& last, const std::vector<JoinPoint>& useful,
                                UsefulSets& sets) const {
    UsefulSets byPoint(last.points.size());
    for (const JoinPoint& j : useful)
        byPoint[j.point].push_back(j.up);
    Stage out;
    sets.clear();
    for (const auto& [d, range] : last.buckets) {
        const auto begin = uint32_t(out.points.size());
        for (uint32_t q = range.first; q < range.second; ++q)
            if (!byPoint[q].empty()) {
                out.points.push_back(last.points[q]);
                sets.push_back(std::move(byPoint[q]));
            }
        if (out.points.size() > begin)
            out.buckets.push_back({d, {begin, uint32_t(out.points.size())}});
    }
    last = std::move(out);
}

bool SegmentSpace::candidate(size_t k, const Options& options, const Partial& sp, uint32_t q,
                             const Option& o, Partial& p) const {
    const bool first = k == 0;
    const int64_t allW = resident_ ? layerWeights(dims_[k]) : 0;
    int64_t lcMacs = 0, macs = 0, add = 0;
    if (!mulOk(sp.P, options.macsPer, lcMacs) || !mulOk(B_, lcMacs, macs)) return false;
    if (!opt_.allow_recompute && lcMacs > layerMacs(dims_[k])) return false;
    if (!mulOk(sp.P, o.acc, add) || !addOk(sp.acc, add, p.acc) || !addOk(p.acc, allW, p.acc))
        return false;
    if (!mulOk(sp.P, o.mult, p.P) || !addOk(sp.macs, macs, p.macs)) return false;
    if (first) p.P = 0; // no producer left: P no longer matters
    p.buf = sp.buf + o.buf;
    if (p.buf > cap_) return false;
    p.parent = q;
    p.choice = o.choice;
    return true;
}

bool SegmentSpace::usefulStage(size_t k, const Stage& deeper, const UsefulSets& deeperSets,
                               Stage& stage, UsefulSets& outSets) {
    const Fields fields = k == 0 ? Fields::noP : Fields::all;
    const auto parts = splitRange(deeper.buckets.size(), partsFor(opt_.pool));
    std::vector<TaskOutput> tasks(parts.size());
    // Per task, the completions of each candidate it made (Partial::tag indexes them).
    std::vector<UsefulSets> made(parts.size());
    parallelFor(opt_.pool, parts.size(), [&](size_t part) {
        TaskCollector out(fields);
        for (size_t bi = parts[part].first; bi < parts[part].second && !cancelled(); ++bi) {
            const auto& [dem, range] = deeper.buckets[bi];
            const Options& options = *options_[k].at(dem);
            const auto& front = up_[k].at(dem);
            // (group, point, option, point above): in the unpruned stage's order, the
            // candidates are met by group (demand made), then point, then option.
            std::vector<std::array<uint32_t, 4>> steps;
            for (uint32_t q = range.first; q < range.second; ++q)
                for (uint32_t u : deeperSets[q]) {
                    const UpPoint& e = front[u];
                    steps.push_back({uint32_t(options.flat(e.option).first), q, e.option, e.up});
                }
            std::sort(steps.begin(), steps.end());
            for (size_t s = 0; s < steps.size();) {
                const auto [g, q, f, up] = steps[s];
                std::vector<uint32_t> above;
                for (; s < steps.size() && steps[s][1] == q && steps[s][2] == f; ++s)
                    above.push_back(steps[s][3]);
                Partial p;
                if (!candidate(k, options, deeper.points[q], q, *options.flat(f).second, p))
                    continue;
                p.tag = uint32_t(made[part].size());
                made[part].push_back(std::move(above));
                out.add(options.byDemand[g].first, p);
            }
        }
        tasks[part] = out.finish();
    });
    if (cancelled()) return false;
    // Remember which task made each kept point before the merge moves them.
    for (size_t part = 0; part < tasks.size(); ++part)
        for (auto& [d, pts] : tasks[part])
            for (Partial& p : pts)
                p.task = uint32_t(part);
    mergeTasks(tasks, fields, opt_.pool, stage);
    outSets.clear();
    for (const Partial& p : stage.points)
        outSets.push_back(made[p.task][p.tag]);
    return true;
}

bool SegmentSpace::producerStage(size_t k, const Stage& deeper, Stage& stage) {
    const Fields fields = k == 0 ? Fields::noP : Fields::all;
    const auto parts = splitRange(deeper.buckets.size(), partsFor(opt_.pool));
    std::vector<TaskOutput> tasks(parts.size());
    parallelFor(opt_.pool, parts.size(), [&](size_t part) {
        TaskCollector out(fields);
        for (size_t bi = parts[part].first; bi < parts[part].second && !cancelled(); ++bi) {
            const auto& [dem, range] = deeper.buckets[bi];
            const Options& options = *options_[k].at(dem);
            for (const auto& [newDem, opts] : options.byDemand)
                for (uint32_t q = range.first; q < range.second; ++q)
                    for (const Option& o : opts) {
                        Partial p;
                        if (candidate(k, options, deeper.points[q], q, o, p)) out.add(newDem, p);
                    }
        }
        tasks[part] = out.finish();
    });
    if (cancelled()) return false;
    mergeTasks(tasks, fields, opt_.pool, stage);
    return true;
}

} // namespace lf::segment
