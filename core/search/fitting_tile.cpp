#include "search/fitting_tile.h"

#include "metrics/units.h"
#include "models/evaluate_detail.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace lf {

std::string FittingTile::text() const {
    return "output tile " + std::to_string(h) + " × " + std::to_string(w) + " (" +
           humanBytes(double(buffer_bytes)) + ")";
}

namespace {

// Sizes tried along one axis of extent n, at most `cur`: the divisors of n (tiles without a
// partial last one) and the halvings of `cur` (1 included).
std::vector<int64_t> candidates(int64_t n, int64_t cur) {
    std::vector<int64_t> v;
    for (int64_t d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            v.push_back(d);
            v.push_back(n / d);
        }
    for (int64_t t = cur; t >= 1; t /= 2)
        v.push_back(t);
    v.push_back(cur);
    std::erase_if(v, [&](int64_t t) { return t > cur || t < 1; });
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

} // namespace

std::optional<FittingTile> nearestFittingTile(const Network& net, const Hardware& hw,
                                              const Schedule& sched, int group,
                                              const EvaluateOptions& opt) {
    if (group < 0 || size_t(group) >= sched.groups.size()) return std::nullopt;
    const FusionGroup& g = sched.groups[size_t(group)];
    if (g.layers.empty()) return std::nullopt;
    const detail::GroupEval now = detail::evaluateGroup(net, hw, sched, g, opt);
    if (now.gm.fits) return std::nullopt;
    const LayerId last = g.layers.back();
    const Layer& bottom = net.layer(last);
    const bool groupTile = g.strategy != Strategy::recompute;
    const int64_t curH = std::clamp<int64_t>(
        now.gm.out_tile_h > 0 ? now.gm.out_tile_h : sched.layers[size_t(last)].T(Dim::y), 1,
        bottom.out.h);
    const int64_t curW = std::clamp<int64_t>(
        now.gm.out_tile_w > 0 ? now.gm.out_tile_w : sched.layers[size_t(last)].T(Dim::x), 1,
        bottom.out.w);
    struct Candidate {
        int64_t h, w;
    };
    std::vector<Candidate> all;
    for (int64_t h : candidates(bottom.out.h, curH))
        for (int64_t w : candidates(bottom.out.w, curW))
            if (h != curH || w != curW) all.push_back({h, w});
    // Largest area first; among equal areas the shape closest to the tile in use.
    std::sort(all.begin(), all.end(), [&](const Candidate& a, const Candidate& b) {
        if (a.h * a.w != b.h * b.w) return a.h * a.w > b.h * b.w;
        return std::llabs(a.h * curW - a.w * curH) < std::llabs(b.h * curW - b.w * curH);
    });
    for (const Candidate& c : all) {
        Schedule trial = sched;
        FittingTile fix;
        fix.group = group;
        fix.h = c.h;
        fix.w = c.w;
        if (groupTile) {
            trial.groups[size_t(group)].out_tile = OutputTile{c.h, c.w};
            fix.sets_group_tile = true;
            fix.group_value = trial.groups[size_t(group)];
        } else {
            LayerSchedule& ls = trial.layers[size_t(last)];
            ls.tile[size_t(Dim::y)] = c.h;
            ls.tile[size_t(Dim::x)] = c.w;
            fix.layer = last;
            fix.layer_schedule = ls;
        }
        const detail::GroupEval ev =
            detail::evaluateGroup(net, hw, trial, trial.groups[size_t(group)], opt);
        if (!ev.gm.fits) continue;
        fix.buffer_bytes = ev.gm.buffer_bytes;
        return fix;
    }
    return std::nullopt;
}

} // namespace lf
