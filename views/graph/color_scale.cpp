#include "graph/color_scale.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>

namespace lf::graph {

namespace {
QString tr(const char* s) {
    return QCoreApplication::translate("lf::graph::ColorScale", s);
}
} // namespace

QString colorByName(ColorBy c) {
    switch (c) {
    case ColorBy::group:
        return QStringLiteral("group");
    case ColorBy::dramTraffic:
        return QStringLiteral("dram");
    case ColorBy::energy:
        return QStringLiteral("energy");
    case ColorBy::bufferFill:
        return QStringLiteral("buffer");
    }
    return QStringLiteral("group");
}

std::optional<ColorBy> colorByFromName(const QString& s) {
    for (ColorBy c : {ColorBy::group, ColorBy::dramTraffic, ColorBy::energy, ColorBy::bufferFill})
        if (colorByName(c) == s) return c;
    return std::nullopt;
}

QString colorByTitle(ColorBy c) {
    switch (c) {
    case ColorBy::group:
        return tr("Fusion group");
    case ColorBy::dramTraffic:
        return tr("DRAM traffic");
    case ColorBy::energy:
        return tr("Energy");
    case ColorBy::bufferFill:
        return tr("Buffer fill");
    }
    return {};
}

CanvasTheme CanvasTheme::fromPalette(const QPalette& p) {
    CanvasTheme t;
    const QColor base = p.color(QPalette::Base);
    t.dark = base.lightnessF() < 0.5;
    t.background = base;
    t.text = p.color(QPalette::Text);
    t.mutedText = t.dark ? QColor(0xa8, 0xb0, 0xbc) : QColor(0x5a, 0x63, 0x70);
    t.nodeFill = t.dark ? QColor(0x2e, 0x34, 0x3e) : QColor(0xf4, 0xf6, 0xf9);
    t.nodeBorder = t.dark ? QColor(0x6b, 0x75, 0x84) : QColor(0x8c, 0x96, 0xa5);
    t.edge = t.dark ? QColor(0x8a, 0x93, 0xa0) : QColor(0x7a, 0x84, 0x92);
    t.edgeLabel = t.mutedText;
    t.selection = p.color(QPalette::Highlight);
    t.clusterBorder = t.dark ? QColor(0x9a, 0xa4, 0xb4) : QColor(0x60, 0x6a, 0x78);
    t.overCapacity = QColor(0xe0, 0x3a, 0x3a);
    t.invalid = QColor(0xe0, 0x8a, 0x00);
    t.barTrack = t.dark ? QColor(0x45, 0x4c, 0x57) : QColor(0xdd, 0xe2, 0xe8);
    t.barFill = t.dark ? QColor(0x4c, 0xaf, 0x7d) : QColor(0x2e, 0x9d, 0x62);
    t.dropTarget = t.selection;
    t.highlight = t.dark ? QColor(255, 183, 77) : QColor(230, 126, 0); // amber: "differs from A"
    return t;
}

QColor groupColor(int k, bool dark) {
    // Golden-angle hue steps keep neighbouring groups apart however many there are.
    const double hue = std::fmod(0.58 + 0.381966 * double(std::max(0, k)), 1.0);
    return dark ? QColor::fromHslF(float(hue), 0.45f, 0.32f)
                : QColor::fromHslF(float(hue), 0.70f, 0.86f);
}

QColor heatColor(double t) {
    // A yellow-orange-red-purple ramp (after matplotlib's "YlOrRd"/"magma" family).
    static constexpr std::array<std::array<int, 3>, 6> stops{{
        {255, 247, 188},
        {254, 217, 118},
        {253, 141, 60},
        {227, 26, 28},
        {177, 0, 38},
        {110, 0, 70},
    }};
    t = std::clamp(t, 0.0, 1.0) * double(stops.size() - 1);
    const size_t i = std::min(stops.size() - 2, size_t(t));
    const double f = t - double(i);
    auto mix = [&](int c) {
        return int(std::lround(stops[i][size_t(c)] * (1 - f) + stops[i + 1][size_t(c)] * f));
    };
    return QColor(mix(0), mix(1), mix(2));
}

QColor textOn(const QColor& fill) {
    const double l = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return l > 0.5 ? QColor(0x1b, 0x1f, 0x24) : QColor(0xf5, 0xf7, 0xfa);
}

HeatValues heatValues(const StudioState& state, ColorBy mode) {
    HeatValues h;
    if (mode == ColorBy::group || !state.metrics) return h;
    const Metrics& m = *state.metrics;
    h.value.assign(size_t(state.network.size()), std::nullopt);
    const double capacity = double(m.totals.buffer_capacity_bytes);
    for (const LayerMetrics& lm : m.layers) {
        if (lm.id < 0 || size_t(lm.id) >= h.value.size()) continue;
        double v = 0;
        switch (mode) {
        case ColorBy::dramTraffic:
            v = double(lm.dram.total());
            break;
        case ColorBy::energy:
            v = lm.energy.total();
            break;
        case ColorBy::bufferFill:
            if (lm.group < 0 || size_t(lm.group) >= m.groups.size() || capacity <= 0) continue;
            v = double(m.groups[size_t(lm.group)].buffer_bytes) / capacity;
            break;
        case ColorBy::group:
            break;
        }
        h.value[size_t(lm.id)] = v;
    }
    bool first = true;
    for (const auto& v : h.value) {
        if (!v) continue;
        h.min = first ? *v : std::min(h.min, *v);
        h.max = first ? *v : std::max(h.max, *v);
        first = false;
    }
    switch (mode) {
    case ColorBy::dramTraffic:
        h.unit = tr("DRAM accesses (words)");
        h.min = 0;
        break;
    case ColorBy::energy:
        h.unit = tr("Energy");
        h.min = 0;
        break;
    case ColorBy::bufferFill:
        h.unit = tr("Buffer use / capacity");
        h.ratio = true;
        h.min = 0;
        h.max = std::max(1.0, h.max);
        break;
    case ColorBy::group:
        break;
    }
    return h;
}

} // namespace lf::graph
