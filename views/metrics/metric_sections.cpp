#include "metrics/metric_sections.h"

#include "metrics/metric_grid.h"
#include "metrics/units.h"

#include <QCoreApplication>
#include <QHash>

#include <optional>

namespace lf {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("lf::MetricSections", s);
}

QString fmtBytes(double v) {
    return formatBytes(v);
}
QString fmtCount(double v) {
    return formatCount(v);
}
QString fmtWords(double v) {
    return formatCount(v) + QStringLiteral(" words");
}
QString fmtEnergy(double v) {
    return formatEnergy(v);
}
QString fmtPercent(double v) {
    return formatPercent(v);
}
QString fmtEdp(double v) {
    return QString::fromStdString(humanEdp(v));
}
QString fmtRatio(double v) {
    return formatRatio(v) + QStringLiteral(" MAC/B");
}

template <class T, class F> std::optional<double> prevOf(const T* prev, F get) {
    if (!prev) return std::nullopt;
    return double(get(*prev));
}

QString boundText(Bound b) {
    return b == Bound::compute ? tr("compute-bound") : tr("memory-bound");
}

// Rows of a DRAM split plus its byte total.
void addTrafficRows(MetricGrid& g, const QString& p) {
    g.addRow(p + "dram_bytes", tr("DRAM traffic"),
             tr("Bytes moved between DRAM and the on-chip buffer (reads + writes)"));
    g.addRow(p + "dram_input", tr("   input"), tr("Input elements read from DRAM"));
    g.addRow(p + "dram_weight", tr("   weight"), tr("Weight elements read from DRAM"));
    g.addRow(p + "dram_output", tr("   output"), tr("Output elements written to DRAM"));
    g.addRow(p + "dram_psum", tr("   partial sums"),
             tr("Partial sums written to and read back from DRAM (at psum precision)"));
}

void showTraffic(MetricGrid& g, const QString& p, const Traffic& cur, const Traffic* prev,
                 std::optional<double> bytes, std::optional<double> prevBytes) {
    if (bytes) g.setFigure(p + "dram_bytes", *bytes, prevBytes, Better::lower, fmtBytes);
    g.setFigure(p + "dram_input", double(cur.input),
                prevOf(prev, [](const Traffic& t) { return t.input; }), Better::lower, fmtWords);
    g.setFigure(p + "dram_weight", double(cur.weight),
                prevOf(prev, [](const Traffic& t) { return t.weight; }), Better::lower, fmtWords);
    g.setFigure(p + "dram_output", double(cur.output),
                prevOf(prev, [](const Traffic& t) { return t.output; }), Better::lower, fmtWords);
    g.setFigure(p + "dram_psum", double(cur.psum),
                prevOf(prev, [](const Traffic& t) { return t.psum; }), Better::lower, fmtWords);
}

void addEnergyRows(MetricGrid& g, const QString& p) {
    g.addRow(p + "energy", tr("Energy"), tr("MAC + register file + SRAM + DRAM energy"));
    g.addRow(p + "energy_mac", tr("   MAC"));
    g.addRow(p + "energy_rf", tr("   register file"));
    g.addRow(p + "energy_sram", tr("   SRAM"));
    g.addRow(p + "energy_dram", tr("   DRAM"));
}

void showEnergy(MetricGrid& g, const QString& p, const Energy& cur, const Energy* prev) {
    g.setFigure(p + "energy", cur.total(), prevOf(prev, [](const Energy& e) { return e.total(); }),
                Better::lower, fmtEnergy);
    g.setFigure(p + "energy_mac", cur.mac, prevOf(prev, [](const Energy& e) { return e.mac; }),
                Better::lower, fmtEnergy);
    g.setFigure(p + "energy_rf", cur.rf, prevOf(prev, [](const Energy& e) { return e.rf; }),
                Better::lower, fmtEnergy);
    g.setFigure(p + "energy_sram", cur.sram, prevOf(prev, [](const Energy& e) { return e.sram; }),
                Better::lower, fmtEnergy);
    g.setFigure(p + "energy_dram", cur.dram, prevOf(prev, [](const Energy& e) { return e.dram; }),
                Better::lower, fmtEnergy);
}

void addLatencyRows(MetricGrid& g, const QString& p, bool total) {
    if (total)
        g.addRow(p + "latency", tr("Latency"),
                 tr("Compute and memory time combined by the overlap mode"));
    g.addRow(p + "compute_cycles", tr(total ? "   compute" : "Compute"),
             tr("Cycles the PE array needs, recomputed MACs included"));
    g.addRow(p + "memory_cycles", tr(total ? "   memory" : "Memory"),
             tr("Cycles of DRAM transfers (burst-aware)"));
    if (total) g.addRow(p + "bound", tr("   bound"));
}

// Energy × latency, the objective Auto-fuse can minimise (search/objective.h).
void addEdpRow(MetricGrid& g, const QString& p) {
    g.addRow(p + "edp", tr("Energy × delay"),
             tr("Energy-delay product: energy (pJ) × latency (cycles); 8.31e16 reads "
                "8.31 × 10¹⁶"));
}

template <class T> void showEdp(MetricGrid& g, const QString& p, const T& cur, const T* prev) {
    auto edp = [](const T& t) { return t.energy.total() * double(t.latency_cycles); };
    g.setFigure(p + "edp", edp(cur), prevOf(prev, edp), Better::lower, fmtEdp);
}

} // namespace

// --- totals --------------------------------------------------------------------------------

void addTotalsRows(MetricGrid& g, const QString& p) {
    g.addRow(p + "macs", tr("MACs"), tr("Multiply-accumulates, recomputed overlap included"));
    g.addRow(p + "recompute_macs", tr("   recompute"), tr("MACs spent recomputing tile overlap"));
    g.addRow(p + "ops", tr("Other ops"), tr("Pooling compares/adds and element-wise operations"));
    g.addRow(p + "dram_accesses", tr("DRAM accesses"),
             tr("Elements moved between DRAM and the chip"));
    addTrafficRows(g, p);
    g.addRow(p + "buffer", tr("Buffer peak"), tr("Largest on-chip footprint of any group"));
    g.addRow(p + "fits", tr("   fits"), tr("Whether every group fits the on-chip buffer"));
    addLatencyRows(g, p, true);
    addEnergyRows(g, p);
    addEdpRow(g, p);
    g.addRow(p + "ctc", tr("CTC ratio"), tr("Computation-to-communication: MACs per DRAM byte"));
    g.addRow(p + "utilization", tr("PE utilization"), tr("MACs / (cycles × PEs)"));
}

void showTotals(MetricGrid& g, const QString& p, const Totals& c, const Totals* v,
                const Hardware& hw) {
    const double f = hw.frequency_mhz;
    auto cycles = [f](double x) { return formatCycles(x, f); };
    g.setFigure(p + "macs", double(c.macs), prevOf(v, [](const Totals& t) { return t.macs; }),
                Better::lower, fmtCount);
    g.setFigure(p + "recompute_macs", double(c.recompute_macs),
                prevOf(v, [](const Totals& t) { return t.recompute_macs; }), Better::lower,
                fmtCount);
    g.setFigure(p + "ops", double(c.ops), prevOf(v, [](const Totals& t) { return t.ops; }),
                Better::lower, fmtCount);
    g.setFigure(p + "dram_accesses", double(c.dram_accesses),
                prevOf(v, [](const Totals& t) { return t.dram_accesses; }), Better::lower,
                fmtCount);
    showTraffic(g, p, c.dram, v ? &v->dram : nullptr, double(c.dram_bytes),
                prevOf(v, [](const Totals& t) { return t.dram_bytes; }));
    const double cap = double(c.buffer_capacity_bytes);
    g.setFigure(p + "buffer", double(c.buffer_peak_bytes),
                prevOf(v, [](const Totals& t) { return t.buffer_peak_bytes; }), Better::lower,
                [cap](double x) { return formatBytes(x) + tr(" of ") + formatBytes(cap); });
    g.setText(p + "fits", c.fits ? tr("yes") : tr("NO — over capacity"), !c.fits);
    g.setFigure(p + "latency", double(c.latency_cycles),
                prevOf(v, [](const Totals& t) { return t.latency_cycles; }), Better::lower, cycles);
    g.setFigure(p + "compute_cycles", double(c.compute_cycles),
                prevOf(v, [](const Totals& t) { return t.compute_cycles; }), Better::lower, cycles);
    g.setFigure(p + "memory_cycles", double(c.memory_cycles),
                prevOf(v, [](const Totals& t) { return t.memory_cycles; }), Better::lower, cycles);
    g.setText(p + "bound", boundText(c.bound));
    showEnergy(g, p, c.energy, v ? &v->energy : nullptr);
    showEdp(g, p, c, v);
    g.setFigure(p + "ctc", c.ctc, prevOf(v, [](const Totals& t) { return t.ctc; }), Better::higher,
                fmtRatio);
    g.setFigure(p + "utilization", c.utilization,
                prevOf(v, [](const Totals& t) { return t.utilization; }), Better::higher,
                fmtPercent);
}

// --- group ---------------------------------------------------------------------------------

void addGroupRows(MetricGrid& g, const QString& p) {
    g.addRow(p + "layers", tr("Layers"));
    g.addRow(p + "macs", tr("MACs"), tr("Multiply-accumulates, recomputed overlap included"));
    g.addRow(p + "recompute_macs", tr("   recompute"), tr("MACs spent recomputing tile overlap"));
    addTrafficRows(g, p);
    g.addRow(p + "buffer", tr("Buffer"), tr("On-chip footprint of the group"));
    g.addRow(p + "fits", tr("   fits"));
    g.addRow(p + "out_tile", tr("Output tile in use"));
    addLatencyRows(g, p, true);
    addEnergyRows(g, p);
    addEdpRow(g, p);
    g.addRow(p + "ctc", tr("CTC ratio"), tr("Computation-to-communication: MACs per DRAM byte"));
    g.addRow(p + "utilization", tr("PE utilization"));
}

void showGroup(MetricGrid& g, const QString& p, const GroupMetrics& c, const GroupMetrics* v,
               int64_t capacityBytes, const Hardware& hw) {
    const double f = hw.frequency_mhz;
    auto cycles = [f](double x) { return formatCycles(x, f); };
    g.setText(p + "layers", QString::number(c.layers.size()));
    g.setFigure(p + "macs", double(c.macs), prevOf(v, [](const GroupMetrics& t) { return t.macs; }),
                Better::lower, fmtCount);
    g.setFigure(p + "recompute_macs", double(c.recompute_macs),
                prevOf(v, [](const GroupMetrics& t) { return t.recompute_macs; }), Better::lower,
                fmtCount);
    showTraffic(g, p, c.dram, v ? &v->dram : nullptr, double(c.dram_bytes),
                prevOf(v, [](const GroupMetrics& t) { return t.dram_bytes; }));
    const double cap = double(capacityBytes);
    g.setFigure(p + "buffer", double(c.buffer_bytes),
                prevOf(v, [](const GroupMetrics& t) { return t.buffer_bytes; }), Better::lower,
                [cap](double x) { return formatBytes(x) + tr(" of ") + formatBytes(cap); });
    g.setText(p + "fits", c.fits ? tr("yes") : tr("NO — over capacity"), !c.fits);
    g.setText(p + "out_tile", c.out_tile_h > 0 && c.out_tile_w > 0
                                  ? QStringLiteral("%1 × %2").arg(c.out_tile_h).arg(c.out_tile_w)
                                  : tr("—"));
    g.setFigure(p + "latency", double(c.latency_cycles),
                prevOf(v, [](const GroupMetrics& t) { return t.latency_cycles; }), Better::lower,
                cycles);
    g.setFigure(p + "compute_cycles", double(c.compute_cycles),
                prevOf(v, [](const GroupMetrics& t) { return t.compute_cycles; }), Better::lower,
                cycles);
    g.setFigure(p + "memory_cycles", double(c.memory_cycles),
                prevOf(v, [](const GroupMetrics& t) { return t.memory_cycles; }), Better::lower,
                cycles);
    g.setText(p + "bound", boundText(c.bound));
    showEnergy(g, p, c.energy, v ? &v->energy : nullptr);
    showEdp(g, p, c, v);
    g.setFigure(p + "ctc", c.ctc, prevOf(v, [](const GroupMetrics& t) { return t.ctc; }),
                Better::higher, fmtRatio);
    g.setFigure(p + "utilization", c.utilization,
                prevOf(v, [](const GroupMetrics& t) { return t.utilization; }), Better::higher,
                fmtPercent);
}

// --- layer ---------------------------------------------------------------------------------

void addLayerRows(MetricGrid& g, const QString& p) {
    g.addRow(p + "macs", tr("MACs"), tr("Multiply-accumulates, recomputed overlap included"));
    g.addRow(p + "recompute_macs", tr("   recompute"), tr("MACs spent recomputing tile overlap"));
    g.addRow(p + "ops", tr("Other ops"), tr("Pooling compares/adds and element-wise operations"));
    g.addRow(p + "weights", tr("Weights"), tr("Weight elements of the layer"));
    g.addRow(p + "buf_x", tr("Buffer X"), tr("Input buffer: elements × act_bits"));
    g.addRow(p + "buf_y", tr("Buffer Y"),
             tr("Output buffer: elements × psum_bits (outputs accumulate there)"));
    g.addRow(p + "buf_w", tr("Buffer W"), tr("Weight buffer: elements × weight_bits"));
    addTrafficRows(g, p);
    g.addRow(p + "sram_rf", tr("SRAM ↔ RF"),
             tr("Elements moved between the buffer and the register files"));
    addLatencyRows(g, p, false);
    g.addRow(p + "pes", tr("PEs"), tr("Processing elements the layer runs on"));
    g.addRow(p + "utilization", tr("PE utilization"), tr("MACs / (compute cycles × PEs)"));
    addEnergyRows(g, p);
}

void showLayer(MetricGrid& g, const QString& p, const LayerMetrics& c, const LayerMetrics* v,
               const Hardware& hw) {
    const double f = hw.frequency_mhz;
    const Precision& pr = hw.precision;
    auto cycles = [f](double x) { return formatCycles(x, f); };
    g.setFigure(p + "macs", double(c.macs), prevOf(v, [](const LayerMetrics& t) { return t.macs; }),
                Better::lower, fmtCount);
    g.setFigure(p + "recompute_macs", double(c.recompute_macs),
                prevOf(v, [](const LayerMetrics& t) { return t.recompute_macs; }), Better::lower,
                fmtCount);
    g.setFigure(p + "ops", double(c.ops), prevOf(v, [](const LayerMetrics& t) { return t.ops; }),
                Better::lower, fmtCount);
    g.setFigure(p + "weights", double(c.weights),
                prevOf(v, [](const LayerMetrics& t) { return t.weights; }), Better::neither,
                fmtCount);
    const int ab = pr.act_bits, wb = pr.weight_bits, pb = pr.psum_bits;
    g.setFigure(
        p + "buf_x", elementBytes(double(c.buf_x), ab),
        prevOf(v, [ab](const LayerMetrics& t) { return elementBytes(double(t.buf_x), ab); }),
        Better::lower, fmtBytes);
    g.setFigure(
        p + "buf_y", elementBytes(double(c.buf_y), pb),
        prevOf(v, [pb](const LayerMetrics& t) { return elementBytes(double(t.buf_y), pb); }),
        Better::lower, fmtBytes);
    g.setFigure(
        p + "buf_w", elementBytes(double(c.buf_w), wb),
        prevOf(v, [wb](const LayerMetrics& t) { return elementBytes(double(t.buf_w), wb); }),
        Better::lower, fmtBytes);
    showTraffic(g, p, c.dram, v ? &v->dram : nullptr, trafficBytes(c.dram, pr),
                prevOf(v, [&pr](const LayerMetrics& t) { return trafficBytes(t.dram, pr); }));
    g.setFigure(p + "sram_rf", double(c.sram_rf_traffic),
                prevOf(v, [](const LayerMetrics& t) { return t.sram_rf_traffic; }), Better::lower,
                fmtWords);
    g.setFigure(p + "compute_cycles", double(c.compute_cycles),
                prevOf(v, [](const LayerMetrics& t) { return t.compute_cycles; }), Better::lower,
                cycles);
    g.setFigure(p + "memory_cycles", double(c.memory_cycles),
                prevOf(v, [](const LayerMetrics& t) { return t.memory_cycles; }), Better::lower,
                cycles);
    g.setFigure(p + "pes", double(c.pes), prevOf(v, [](const LayerMetrics& t) { return t.pes; }),
                Better::neither, fmtCount);
    g.setFigure(p + "utilization", c.utilization,
                prevOf(v, [](const LayerMetrics& t) { return t.utilization; }), Better::higher,
                fmtPercent);
    showEnergy(g, p, c.energy, v ? &v->energy : nullptr);
}

// --- what's this -----------------------------------------------------------------------

MetricExplanation metricExplanation(const QString& key) {
    const qsizetype dot = key.indexOf(QLatin1Char('.'));
    const QString scope = key.left(dot), name = key.mid(dot + 1);
    const QStringList traffic{QStringLiteral("Acc_X"), QStringLiteral("Acc_W"),
                              QStringLiteral("Acc_Y")};
    if (scope == QLatin1String("layer")) {
        static const QHash<QString, QStringList> layer{
            {QStringLiteral("macs"), {QStringLiteral("MACs")}},
            {QStringLiteral("recompute_macs"), {QStringLiteral("MACs")}},
            {QStringLiteral("buf_x"), {QStringLiteral("Buf_X")}},
            {QStringLiteral("buf_y"), {QStringLiteral("Buf_Y")}},
            {QStringLiteral("buf_w"), {QStringLiteral("Buf_W")}},
            {QStringLiteral("dram_bytes"), traffic},
            {QStringLiteral("dram_input"), {QStringLiteral("Acc_X")}},
            {QStringLiteral("dram_weight"), {QStringLiteral("Acc_W")}},
            {QStringLiteral("dram_output"), {QStringLiteral("Acc_Y")}},
            {QStringLiteral("dram_psum"), {QStringLiteral("Acc_Y")}}};
        return {layer.value(name), false};
    }
    if (scope == QLatin1String("group")) {
        const QStringList groupTraffic{QStringLiteral("Traffic"), QStringLiteral("MemoryCost")};
        static const QHash<QString, QStringList> group{
            {QStringLiteral("macs"), {QStringLiteral("MACs")}},
            {QStringLiteral("recompute_macs"), {QStringLiteral("MACs")}},
            {QStringLiteral("buffer"),
             {QStringLiteral("Buffer"), QStringLiteral("Fusion buffer"),
              QStringLiteral("fmap buffer")}},
            {QStringLiteral("out_tile"), {QStringLiteral("t_h")}},
            {QStringLiteral("dram_bytes"), groupTraffic},
            {QStringLiteral("dram_input"), groupTraffic},
            {QStringLiteral("dram_weight"), groupTraffic},
            {QStringLiteral("dram_output"), groupTraffic},
            {QStringLiteral("dram_psum"), groupTraffic}};
        return {group.value(name), true};
    }
    return {};
}

QString metricWhatsThis(const QString& key, const QString& label, const QString& toolTip) {
    QString text = QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped());
    if (!toolTip.isEmpty()) text += QStringLiteral(": ") + toolTip.toHtmlEscaped();
    const MetricExplanation e = metricExplanation(key);
    if (!e.formulas.isEmpty())
        text += tr("<p>Why This Number shows its formula <i>%1</i> term by term, with the "
                   "paper and equation it comes from.</p>")
                    .arg(e.formulas.join(QStringLiteral(" / ")).toHtmlEscaped());
    else if (key.startsWith(QLatin1String("total.")))
        text += tr("<p>The whole network's figure, summed over its fusion groups. Select a group "
                   "or a layer: What's This on its buffers, traffic and MACs opens their "
                   "formulas in Why This Number.</p>");
    else
        text += tr("<p>Computed from the figures that Why This Number breaks down (buffers, "
                   "traffic, MACs) and the hardware; the manual's Metrics section gives its "
                   "source.</p>");
    return text;
}

const GroupMetrics* findGroupMetrics(const Metrics* m, const std::string& name) {
    if (!m) return nullptr;
    for (const GroupMetrics& g : m->groups)
        if (g.name == name) return &g;
    return nullptr;
}

const LayerMetrics* findLayerMetrics(const Metrics* m, LayerId id, const std::string& name) {
    if (!m) return nullptr;
    const LayerMetrics* l = m->layer(id);
    if (l && l->name == name) return l;
    for (const LayerMetrics& x : m->layers)
        if (x.name == name) return &x;
    return nullptr;
}

} // namespace lf
