#include "metrics/buffer_use.h"

#include "metrics/units.h"

namespace lf {

std::string BufferUse::text() const {
    std::string s = humanBytes(double(bytes)) + " of " + humanBytes(double(capacity_bytes));
    if (capacity_bytes > 0) s += " (" + fixedText(fraction() * 100.0, 1) + " %)";
    if (!fits) s += " · over capacity";
    return s;
}

BufferUse groupBufferUse(const Metrics& m, int group) {
    BufferUse u;
    u.capacity_bytes = m.totals.buffer_capacity_bytes;
    if (group < 0 || size_t(group) >= m.groups.size()) return u;
    const GroupMetrics& g = m.groups[size_t(group)];
    u.bytes = g.buffer_bytes;
    u.fits = g.fits;
    return u;
}

BufferUse peakBufferUse(const Metrics& m) {
    BufferUse u;
    u.capacity_bytes = m.totals.buffer_capacity_bytes;
    u.bytes = m.totals.buffer_peak_bytes;
    u.fits = m.totals.fits;
    return u;
}

std::string bufferFootprintSource(Strategy strategy) {
    switch (strategy) {
    case Strategy::recompute:
        return "ConvFusion §IV-E: the X, Y and W arrays at the level each is stored at";
    case Strategy::reuse:
        return "HWFF Eq. 5: every layer's input tile, its weights and the bottom output tile, "
               "plus the reuse buffers of HWFF Eq. 8";
    case Strategy::optimus:
        return "Optimus Eq. 4: t_c(l)·R_h·R_w of every feature map (only T_c channels of an "
               "ISOA operator), plus the weights when they stay on chip";
    }
    return {};
}

} // namespace lf
