// The on-chip buffer use of a group or of the network: one figure, read by every view that
// shows it (metrics panel, group inspector, canvas fill bars and tooltips, tile pyramid), so
// they cannot disagree. The footprint is the one the group's model counts (ConvFusion §IV-E,
// HWFF Eq. 5, Optimus Eq. 4), evaluated once in Metrics.
#pragma once

#include "metrics/metrics.h"

#include <cstdint>
#include <string>

namespace lf {

struct BufferUse {
    int64_t bytes = 0;          // the footprint
    int64_t capacity_bytes = 0; // the hardware's buffer
    bool fits = true;
    double fraction() const { return capacity_bytes > 0 ? double(bytes) / capacity_bytes : 0.0; }
    // "467 KB of 512 KB (91.2 %)"; over capacity adds " · over capacity".
    std::string text() const;
};

BufferUse groupBufferUse(const Metrics& m, int group);
BufferUse peakBufferUse(const Metrics& m);

// Where a strategy's footprint comes from, for the "why" of a figure:
// "ConvFusion §IV-E: …", "HWFF Eq. 5: …", "Optimus Eq. 4: …".
std::string bufferFootprintSource(Strategy strategy);

} // namespace lf
