#include "charts/chart_data.h"

#include "metrics/metric_sections.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace lf {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("lf::ChartData", s);
}

struct Unit {
    double divisor;
    QString name;
};

// The largest unit in which `maxValue` is still at least 1.
Unit pickUnit(double maxValue, double base, const QStringList& names) {
    double div = 1;
    int k = 0;
    while (k + 1 < names.size() && maxValue >= div * base) {
        div *= base;
        ++k;
    }
    return {div, names[k]};
}

QStringList groupNames(const Metrics& m) {
    QStringList out;
    for (const GroupMetrics& g : m.groups)
        out << QString::fromStdString(g.name);
    return out;
}

// Keeps the kMaxChartGroups categories with the largest bars (stack height, or the tallest
// bar side by side), in their original order; ties keep the earlier group.
void limitCategories(BarChartData& d) {
    const qsizetype n = d.categories.size();
    d.totalGroups = int(n);
    d.groups.resize(n);
    for (qsizetype c = 0; c < n; ++c)
        d.groups[c] = int(c);
    if (n <= kMaxChartGroups) return;
    std::vector<std::pair<double, int>> extent(static_cast<size_t>(n));
    for (qsizetype c = 0; c < n; ++c) {
        double e = 0;
        for (const BarSetData& s : d.sets)
            e = d.stacked ? e + s.values[c] : std::max(e, s.values[c]);
        extent[size_t(c)] = {-e, int(c)};
    }
    std::nth_element(extent.begin(), extent.begin() + kMaxChartGroups, extent.end());
    std::vector<int> keep;
    keep.reserve(size_t(kMaxChartGroups));
    for (int k = 0; k < kMaxChartGroups; ++k)
        keep.push_back(extent[size_t(k)].second);
    std::sort(keep.begin(), keep.end());
    BarChartData out = d;
    out.categories.clear();
    out.groups.clear();
    for (BarSetData& s : out.sets)
        s.values.clear();
    for (int c : keep) {
        out.categories << d.categories[c];
        out.groups << c;
        for (size_t s = 0; s < d.sets.size(); ++s)
            out.sets[s].values << d.sets[s].values[c];
    }
    out.title = tr("%1, the %2 largest of %3 groups")
                    .arg(d.title)
                    .arg(kMaxChartGroups)
                    .arg(QLocale().toString(qlonglong(n)));
    d = std::move(out);
}

void finish(BarChartData& d, double base, const QStringList& units) {
    limitCategories(d);
    double maxStack = 0;
    const qsizetype n = d.categories.size();
    for (qsizetype c = 0; c < n; ++c) {
        double stack = 0;
        for (const BarSetData& s : d.sets)
            stack = d.stacked ? stack + s.values[c] : std::max(stack, s.values[c]);
        maxStack = std::max(maxStack, stack);
    }
    const Unit u = pickUnit(maxStack, base, units);
    for (BarSetData& s : d.sets)
        for (double& v : s.values)
            v /= u.divisor;
    d.unit = u.name;
    d.valueTitle = u.name;
    d.title = QStringLiteral("%1 (%2)").arg(d.title, u.name);
}

} // namespace

BarChartData trafficChartData(const Metrics& m, const Hardware& hw) {
    BarChartData d;
    d.title = tr("DRAM traffic per group");
    d.categories = groupNames(m);
    const Precision& p = hw.precision;
    d.sets = {{tr("input"), QColor(0x4c, 0x78, 0xa8), {}},
              {tr("weight"), QColor(0xf5, 0x85, 0x18), {}},
              {tr("output"), QColor(0x54, 0xa2, 0x4b), {}},
              {tr("psum"), QColor(0xb2, 0x79, 0xa2), {}}};
    for (const GroupMetrics& g : m.groups) {
        d.sets[0].values << elementBytes(double(g.dram.input), p.act_bits);
        d.sets[1].values << elementBytes(double(g.dram.weight), p.weight_bits);
        d.sets[2].values << elementBytes(double(g.dram.output), p.act_bits);
        d.sets[3].values << elementBytes(double(g.dram.psum), p.psum_bits);
    }
    finish(d, 1024,
           {QStringLiteral("B"), QStringLiteral("KB"), QStringLiteral("MB"), QStringLiteral("GB"),
            QStringLiteral("TB")});
    return d;
}

BarChartData energyChartData(const Metrics& m) {
    BarChartData d;
    d.title = tr("Energy per group");
    d.categories = groupNames(m);
    d.sets = {{tr("MAC"), QColor(0x4c, 0x78, 0xa8), {}},
              {tr("register file"), QColor(0x72, 0xb7, 0xb2), {}},
              {tr("SRAM"), QColor(0xee, 0xca, 0x3b), {}},
              {tr("DRAM"), QColor(0xe4, 0x57, 0x56), {}}};
    for (const GroupMetrics& g : m.groups) {
        d.sets[0].values << g.energy.mac;
        d.sets[1].values << g.energy.rf;
        d.sets[2].values << g.energy.sram;
        d.sets[3].values << g.energy.dram;
    }
    finish(d, 1000,
           {QStringLiteral("pJ"), QStringLiteral("nJ"), QStringLiteral("µJ"), QStringLiteral("mJ"),
            QStringLiteral("J")});
    return d;
}

BarChartData latencyChartData(const Metrics& m) {
    BarChartData d;
    d.title = tr("Latency per group");
    d.categories = groupNames(m);
    d.stacked = false;
    d.sets = {{tr("compute"), QColor(0x4c, 0x78, 0xa8), {}},
              {tr("memory"), QColor(0xe4, 0x57, 0x56), {}}};
    for (const GroupMetrics& g : m.groups) {
        d.sets[0].values << double(g.compute_cycles);
        d.sets[1].values << double(g.memory_cycles);
    }
    finish(d, 1000, {tr("cycles"), tr("K cycles"), tr("M cycles"), tr("G cycles")});
    return d;
}

RooflineData rooflineChartData(const Metrics& m, const Hardware& hw) {
    RooflineData d;
    d.title = tr("Roofline");
    d.computeRoof = double(hw.peCount()) * hw.pe_array.macs_per_pe_per_cycle;
    d.bandwidth = hw.dram.bandwidth_bytes_per_cycle;
    d.groups = int(m.groups.size());
    std::vector<int> plottable;
    for (size_t i = 0; i < m.groups.size(); ++i) {
        const GroupMetrics& g = m.groups[i];
        if (g.ctc > 0 && g.latency_cycles > 0 && g.macs > 0) plottable.push_back(int(i));
    }
    if (plottable.size() > size_t(kMaxRooflinePoints)) {
        // The groups with the most MACs (earlier group first on ties), in network order.
        auto more = [&](int a, int b) {
            const int64_t ma = m.groups[size_t(a)].macs, mb = m.groups[size_t(b)].macs;
            return ma != mb ? ma > mb : a < b;
        };
        std::nth_element(plottable.begin(), plottable.begin() + kMaxRooflinePoints, plottable.end(),
                         more);
        d.skipped = int(plottable.size()) - kMaxRooflinePoints;
        plottable.resize(size_t(kMaxRooflinePoints));
        std::sort(plottable.begin(), plottable.end());
        d.title = tr("Roofline, the %1 groups with the most MACs of %2")
                      .arg(kMaxRooflinePoints)
                      .arg(QLocale().toString(qlonglong(m.groups.size())));
    }
    for (int i : plottable) {
        const GroupMetrics& g = m.groups[size_t(i)];
        d.points.push_back(
            {g.ctc, double(g.macs) / double(g.latency_cycles), QString::fromStdString(g.name), i});
    }
    return d;
}

} // namespace lf
