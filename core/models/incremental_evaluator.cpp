// IncrementalEvaluator: evaluate() with a cache of group results keyed by value (the
// group's settings, its layers' schedules, the hardware and the network), so an edit that
// changes one group recomputes only that group.
#include "models/evaluate.h"
#include "models/evaluate_detail.h"

#include <unordered_map>

namespace lf {

namespace {

struct GroupKey {
    std::string network; // canonical hash
    Hardware hw;
    FusionGroup group;
    std::vector<LayerSchedule> schedules;
    bool burst_aware = true;
    bool operator==(const GroupKey&) const = default;
};

struct Hasher {
    size_t h = 1469598103934665603ull;
    void mix(uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }
    void mix(double v) { mix(std::hash<double>{}(v)); }
    void mix(const std::string& s) { mix(uint64_t(std::hash<std::string>{}(s))); }
};

size_t hashKey(const GroupKey& k) {
    Hasher h;
    h.mix(k.network);
    h.mix(k.hw.name);
    h.mix(uint64_t(k.hw.buffer.bytes));
    h.mix(uint64_t(k.hw.pe_array.cols) * 131 + uint64_t(k.hw.pe_array.rows));
    h.mix(k.hw.dram.bandwidth_bytes_per_cycle);
    h.mix(uint64_t(k.group.strategy) * 7 + uint64_t(k.group.partition.kind) * 3 +
          uint64_t(k.group.weights_resident));
    for (LayerId id : k.group.layers)
        h.mix(uint64_t(id));
    if (k.group.out_tile)
        h.mix(uint64_t(k.group.out_tile->h) * 65537 + uint64_t(k.group.out_tile->w));
    for (const auto& [id, s] : k.group.partition.subarrays)
        h.mix(uint64_t(id) ^ (uint64_t(s.col) << 8) ^ (uint64_t(s.row) << 20) ^
              (uint64_t(s.cols) << 32) ^ (uint64_t(s.rows) << 44));
    for (const auto& [id, r] : k.group.partition.rf_share) {
        h.mix(uint64_t(id));
        h.mix(r.weight + 3 * r.input + 7 * r.psum);
    }
    for (const LayerSchedule& s : k.schedules) {
        for (Dim d : s.order)
            h.mix(uint64_t(d));
        for (int64_t t : s.tile)
            h.mix(uint64_t(t));
        for (Level l : s.store)
            h.mix(uint64_t(l));
        for (Level l : s.compute)
            h.mix(uint64_t(l) + 11);
    }
    return h.h;
}

} // namespace

struct IncrementalEvaluator::Cache {
    struct Entry {
        GroupKey key;
        detail::GroupEval eval;
        uint64_t generation = 0;
    };
    std::unordered_multimap<size_t, Entry> map;
    uint64_t generation = 0;
    int recomputed = 0;
};

IncrementalEvaluator::IncrementalEvaluator() : cache_(std::make_unique<Cache>()) {}
IncrementalEvaluator::~IncrementalEvaluator() = default;

Metrics IncrementalEvaluator::evaluate(const Network& net, const Hardware& hw,
                                       const Schedule& sched, const EvaluateOptions& opt) {
    Cache& c = *cache_;
    ++c.generation;
    c.recomputed = 0;
    std::vector<const detail::GroupEval*> evals;
    evals.reserve(sched.groups.size());
    for (const FusionGroup& g : sched.groups) {
        GroupKey key{net.canonicalHash(), hw, g, {}, opt.burst_aware};
        key.schedules.reserve(g.layers.size());
        for (LayerId id : g.layers)
            key.schedules.push_back(sched.layers[size_t(id)]);
        const size_t h = hashKey(key);
        Cache::Entry* found = nullptr;
        auto range = c.map.equal_range(h);
        for (auto it = range.first; it != range.second; ++it)
            if (it->second.key == key) {
                found = &it->second;
                break;
            }
        if (!found) {
            Cache::Entry e{std::move(key), detail::evaluateGroup(net, hw, sched, g, opt),
                           c.generation};
            found = &c.map.emplace(h, std::move(e))->second;
            ++c.recomputed;
        }
        found->generation = c.generation;
        evals.push_back(&found->eval);
    }
    Metrics m = detail::assemble(net, hw, evals);
    // Keep the cache bounded: drop entries unused for a while.
    if (c.map.size() > 8 * sched.groups.size() + 256)
        for (auto it = c.map.begin(); it != c.map.end();)
            it = c.generation - it->second.generation > 4 ? c.map.erase(it) : std::next(it);
    return m;
}

int IncrementalEvaluator::lastRecomputedGroups() const {
    return cache_->recomputed;
}
void IncrementalEvaluator::clear() {
    cache_->map.clear();
}

} // namespace lf
