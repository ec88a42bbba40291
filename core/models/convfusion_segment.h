// ConvFusion fused segments with recompute — ConvFusion §IV-E (layer fusion by chaining the
// single-layer models) and ConvFusion §IV-F (complete network); docs/models/convfusion.md.
//
// A segment L1 → … → Ln is evaluated from the last layer up. Ln uses its own schedule and
// real dims; each producer Lk is evaluated with its output dims replaced by the X tile of
// its consumer (D_x, D_y ← the extents of Vol_X(Lk+1), D_z ← the channels of that tile)
// and runs P_k = Trans_X(Lk+1) · P_{k+1} times. MACs beyond the plain count are recompute.
// Only inputs from outside the segment are read from DRAM, weights are fetched P_k times
// unless resident, and only outputs that leave the segment are written.
//
// Reading for groups that are not chains (docs/model-notes.md): a producer with several
// consumers inside the group produces the union of their tiles — the largest extents — as
// often as all of them together need it (P = Σ over consumers); a layer whose output also
// leaves the group writes it once, in full; concat layers inside a group are transparent.
#pragma once

#include "hardware/hardware.h"
#include "models/group_cost.h"

namespace lf {

GroupCost convFusionGroup(const Network& net, const Hardware& hw, const Schedule& sched,
                          const FusionGroup& group);

} // namespace lf
