// Optimus DP fuser — Cai et al., "Optimus: An Operator Fusion Framework for Deep Neural
// Networks", ACM TECS 2022: Optimus Alg. 1 (bottom-up DP over the DAG in reverse
// topological order with ISValid), Optimus §6 on-line variant (fan-out all-or-none rule, group size
// limit from the Optimus Alg. 3 look-up table); docs/models/optimus.md.
//
// Optimus Eq. 2: cost(V) = min over groups G holding the first vertex u of V of
// cost(V − G) + MemoryCost(G). Sub-problems are memoized by their vertex set (a bitset);
// on a chain they are the suffixes and the candidate groups the n(n+1)/2 runs. The groups
// are those of search/optimus_groups.h: every weakly connected, cycle-free group (each
// costed once, when a sub-problem first needs it), so the result is the optimum over all
// partitions of the network into valid groups (docs/models/optimus.md).
//
// Which layers are operators: by default every compute layer (conv, fc, pool, global pool,
// element-wise, resize); `fusible` narrows it (Optimus Table 5 counts VGG's 13 conv and 5
// pool operators, not its fc layers). Layers outside that set stay single-layer groups.
// Concat layers join groups (a group may run through a concat) but are never a group on
// their own: alone they cost nothing.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"
#include "search/optimus_groups.h"
#include "search/search_types.h"

#include <cstdint>
#include <vector>

namespace lf {

enum class FuserCost : uint8_t {
    // Optimus Eq. 3 with the Optimus Eq. 4 scheduler (capacity = the buffer); a group without an
    // Optimus Eq. 4 solution is invalid.
    optimus,
    evaluate, // the objective of evaluate's group pipeline; a group that does not fit = invalid
};

// Optimus Alg. 3: memo[n] = min over candidate groups of n vertices of Optimus Eq. 4's fmap term at
// t_h = ⌈O_h/4⌉, t_w = ⌈O_w/4⌉, in bits (activations at act_bits).
struct OptimusLookupTable {
    std::vector<int64_t> memo_bits; // index n − 1; INT64_MAX when no group has n vertices
    // The largest group size n the on-line variant allows for a buffer of `capacity_bits`:
    // groups larger than n are rejected once memo[n + 1] exceeds the capacity (at least 1).
    int maxGroupSize(int64_t capacity_bits) const;
};

struct OptimusFuserOptions {
    FuserCost cost = FuserCost::optimus;
    Objective objective = Objective::dram; // FuserCost::evaluate (edp: see optimusFuse)
    Strategy strategy = Strategy::optimus; // of the result's groups (and of evaluate costs)
    int64_t capacity_bytes = -1;           // < 0: the hardware's buffer
    bool online = false;                   // Optimus §6 variant
    int max_group_size = 0;                // > 0: an explicit limit (on-line: else Optimus Alg. 3)
    std::vector<LayerType> fusible;        // empty: every compute layer
    const OptimusLookupTable* table = nullptr; // on-line: a pre-built table (else built)
    // Do not grow groups whose operators' fmaps at the smallest tile already exceed the
    // buffer (every group holding them is invalid under Optimus Eq. 4): the scheme is the same, the
    // groups formed are fewer. Off, every candidate group is formed and counted as the
    // paper counts them (Optimus Table 5). Only FuserCost::optimus has such a bound.
    bool prune_hopeless = true;
    // Cost the groups whose fmaps fit whatever their ISOA decision only when the DP needs
    // them (OptimusDeferral; docs/model-notes.md, "Optimus deferred costs"): the scheme is
    // the same, fewer groups are costed. Only FuserCost::optimus defers, and only for
    // networks with a fan-out of three or more (large group spaces).
    bool defer = true;
    // With `defer`: groups the bound cannot show to fit are deferred too once this many groups
    // were formed under the deferral rule and the bound showed all but 1 % of them to fit
    // (OptimusDeferral::unproven_sample); 0: every group under the rule, from the first;
    // < 0: never. The scheme is the same.
    int64_t defer_unproven_sample = 10000;
    int threads = 0; // threads costing candidate groups (0: two for wide fan-outs, else one);
                     // the result does not depend on it
    // Bounds (docs/model-notes.md, "Optimus DP bounds"). The candidate groups (five bitsets
    // over the layers each) and the memo of sub-problems (one bitset each) share this much
    // memory, half each; a vertex forms at most `max_groups_per_vertex` groups; the DP tries
    // at most `max_dp_steps` candidate groups over all its sub-problems. Within the bounds the
    // search is exact; OptimusFuserResult says what they left out. 0: unbounded.
    int64_t memory_budget_bytes = int64_t(512) << 20;
    int64_t max_groups_per_vertex = int64_t(1) << 14;
    int64_t max_dp_steps = int64_t(1) << 26;
};

struct OptimusFuserResult {
    std::vector<std::vector<LayerId>> groups; // the scheme, groups in topological order
    double cost = 0;                          // Σ group cost (elements for Optimus Eq. 3)
    // Candidate groups formed (Optimus Table 5 "#groups"); all are costed but the deferred
    // ones the DP did not need (below).
    int64_t groups_evaluated = 0;
    int64_t candidate_groups = 0;    // the same (kept for callers that name it so)
    int64_t classified_by_bound = 0; // of those, found invalid by a hopeless part without costing
    // Of those, formed deferred (OptimusDeferral: valid whatever their ISOA decision, costed
    // only when the DP needs them), and of those costed by the DP.
    int64_t groups_deferred = 0, deferred_costed = 0;
    // Of those, classified from their components' records without costing them (shown invalid
    // or dominated: docs/model-notes.md, "Optimus inherited sub-groups").
    int64_t groups_inherited = 0;
    // Of those, costed exactly (or shown invalid) from their component's records and figures
    // without the coster (docs/model-notes.md, "Optimus costs from records").
    int64_t costed_from_records = 0;
    // Groups whose cost the coster computed: formed and not deferred (or deferred and costed
    // by the DP), not inherited and not costed from records.
    int64_t groupsCosted() const {
        return groups_evaluated - groups_deferred + deferred_costed - groups_inherited -
               costed_from_records;
    }
    int operators = 0;       // vertices of the DP (operators and concat joiners)
    int max_group_size = 0;  // the limit applied (0 = none)
    double seconds = 0;      // run time of the DP (the table excluded)
    double form_seconds = 0; // of it, forming and classifying the candidate groups
    bool cancelled = false;
    // What the bounds left out. `complete`: nothing — the scheme is the optimum over every
    // partition into valid groups. Otherwise: vertices whose groups were limited to a size
    // (and how many larger groups at least were not formed there), and sub-problems the memo
    // bound left unsearched (their vertices each a group of its own).
    bool complete = true;
    std::vector<OptimusVertexLimit> limited_vertices;
    int64_t groups_not_formed = 0;
    int64_t subproblems = 0;                     // sub-problems solved (memo entries)
    int64_t dp_steps = 0;                        // candidate groups the DP tried
    int64_t subproblems_unsearched = 0;          // met once the memo or the steps ran out
    int64_t largest_vertex_share = 0;            // the most groups one vertex formed
    int64_t max_groups = 0, max_subproblems = 0; // the bounds applied (0: none)
    Schedule schedule;                           // the scheme: every group with `strategy`
};

// With FuserCost::evaluate and Objective::edp, which is not additive over groups, the DP
// runs once for energy and once for latency and keeps the scheme whose network EDP
// (evaluate) is lower.
OptimusFuserResult optimusFuse(const Network& net, const Hardware& hw,
                               const OptimusFuserOptions& opt, const SearchControl& control = {});

// The floor of the DP's branch and bound (docs/model-notes.md, "Optimus DP floor"). From
// `weights` (by layer: each operator's weights, which every partition reads at least once;
// zero elsewhere), by layer what every partition of the network into groups of `space` that
// the DP may choose (valid, not above their split) pays at least for that layer, each group's
// cost shared among its operators by weight: over any such group the floors add up to at
// most its cost (for a deferred group, to at most its lower bound). `space` must be formed
// with a deferral (OptimusGroupSpace::weights).
std::vector<double> optimusDpFloor(const Network& net, const OptimusGroupSpace& space,
                                   std::vector<double> weights);

OptimusLookupTable buildOptimusLookupTable(const Network& net, const Hardware& hw,
                                           const std::vector<LayerType>& fusible = {});

} // namespace lf
