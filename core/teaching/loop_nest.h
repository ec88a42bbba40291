// The loop nest a schedule stands for, as C-like code (ConvFusion Code 2 for one layer,
// ConvFusion Code 3 for a fused segment: producers inlined into the consumer), with buffer
// allocations, loads and stores placed at the store and compute levels and annotated with
// their volumes. Plain data: views highlight it; nothing here knows about widgets.
#pragma once

#include "hardware/hardware.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lf {

struct CodeLine {
    enum class Kind : uint8_t { comment, loop, alloc, load, store, compute, close };
    enum class LoopKind : uint8_t { none, outer, inner, kernel, tile };
    Kind kind = Kind::comment;
    LoopKind loop = LoopKind::none;
    int indent = 0;
    std::string code;    // "for (int yi = yo; yi < yo + 4; yi++) {"
    std::string comment; // "// SL_X: Vol_X = 72 elements, Trans_X = 256"
    LayerId layer = kNoLayer;
    int dim = -1;       // Dim (0..3) for tiled loops, 4 = n, 5 = m, -1 otherwise
    int array = -1;     // Arr for alloc/load/store lines, -1 otherwise
    int64_t volume = 0; // elements the line allocates or moves (0 = not applicable)
};

struct LoopNest {
    std::vector<CodeLine> lines;
    std::string text() const; // code with comments, two spaces per indent
};

// ConvFusion Code 2 for one layer with its schedule (the layer alone, not fused).
LoopNest layerLoopNest(const Network& net, const Hardware& hw, const Schedule& sched, LayerId id);

// The loop nest of a fused group: ConvFusion Code 3 for `recompute` (each producer's production
// inlined at its consumer's X store level, over the substituted tile and repeated as often
// as the consumer loads it), the bottom-up multi-tiled pipeline with reuse buffers for
// `reuse`, and the sub-group loop with line buffers / ISOA for `optimus`.
LoopNest groupLoopNest(const Network& net, const Hardware& hw, const Schedule& sched,
                       int groupIndex);

} // namespace lf
