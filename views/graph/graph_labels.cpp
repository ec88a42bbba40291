#include "graph/graph_labels.h"

#include "metrics/buffer_use.h"
#include "metrics/units.h"
#include "qt_text.h"

#include <QCoreApplication>
#include <QStringList>

namespace lf::graph {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("lf::graph::GraphLabels", s);
}
const QChar kTimes(0x00D7);
QString count(double n) {
    return qs(humanCount(n));
}
QString bytes(double n) {
    return qs(humanBytes(n));
}
QString esc(const std::string& s) {
    return qs(s).toHtmlEscaped();
}

QString pair(int h, int w) {
    return QString::number(h) + kTimes + QString::number(w);
}

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td>%2</td></tr>")
        .arg(key, value);
}

QString trafficText(const Traffic& t) {
    return tr("%1 words (in %2 · w %3 · out %4 · psum %5)")
        .arg(count(double(t.total())), count(double(t.input)), count(double(t.weight)),
             count(double(t.output)), count(double(t.psum)));
}

QString energyText(const Energy& e) {
    return tr("%1 (MAC %2 · RF %3 · SRAM %4 · DRAM %5)")
        .arg(qs(humanEnergy(e.total())), qs(humanEnergy(e.mac)), qs(humanEnergy(e.rf)),
             qs(humanEnergy(e.sram)), qs(humanEnergy(e.dram)));
}

QString bufferLine(int group, const Metrics& m) {
    const BufferUse use = groupBufferUse(m, group);
    const QString s = qs(use.text()).toHtmlEscaped();
    return use.fits ? s : QStringLiteral("<span style='color:#e03a3a'><b>%1</b></span>").arg(s);
}

} // namespace

QString layerDetailText(const Network& net, LayerId id) {
    const Layer& l = net.layer(id);
    auto window = [&](QString s) {
        s += QLatin1Char(' ') + pair(l.kernel_h, l.kernel_w);
        if (l.stride_h != 1 || l.stride_w != 1)
            s += QStringLiteral(" /") + (l.stride_h == l.stride_w ? QString::number(l.stride_h)
                                                                  : pair(l.stride_h, l.stride_w));
        return s;
    };
    switch (l.type) {
    case LayerType::input:
        return tr("input");
    case LayerType::conv: {
        QString s = window(QStringLiteral("conv"));
        if (l.groups > 1) {
            const Shape in = net.inputShape(id);
            s += l.groups == in.c ? QStringLiteral(" dw")
                                  : QStringLiteral(" g") + QString::number(l.groups);
        }
        return s;
    }
    case LayerType::deconv:
        return window(QStringLiteral("deconv"));
    case LayerType::fc:
        return QStringLiteral("fc");
    case LayerType::pool:
        return window(l.pool_mode == PoolMode::max ? QStringLiteral("maxpool")
                                                   : QStringLiteral("avgpool"));
    case LayerType::global_pool:
        return l.pool_mode == PoolMode::max ? QStringLiteral("global maxpool")
                                            : QStringLiteral("global avgpool");
    case LayerType::add:
        return QStringLiteral("add");
    case LayerType::mul:
        return QStringLiteral("mul");
    case LayerType::concat:
        return QStringLiteral("concat");
    case LayerType::resize:
        return QStringLiteral("resize ×") + QString::number(l.scale_h);
    case LayerType::opaque:
        return l.op_type.empty() ? tr("unsupported") : qs(l.op_type);
    case LayerType::reorg:
        return qs(l.op_type);
    }
    return {};
}

QString shapeText(const Shape& s) {
    return QString::number(s.c) + kTimes + QString::number(s.h) + kTimes + QString::number(s.w);
}

QString tensorBytesText(const Network& net, const Hardware& hw, LayerId producer) {
    const double b =
        elementBytes(double(net.layer(producer).out.elements()), hw.precision.act_bits);
    return bytes(b);
}

QStringList groupProblems(const StudioState& state, int gi) {
    QStringList out;
    if (gi < 0 || size_t(gi) >= state.schedule.groups.size()) return out;
    for (const Violation& v :
         checkGroup(state.network, state.hardware, state.schedule.groups[size_t(gi)]))
        out << qs(v.message);
    if (state.metrics && size_t(gi) < state.metrics->groups.size())
        for (const std::string& w : state.metrics->groups[size_t(gi)].warnings)
            if (!out.contains(qs(w))) out << qs(w);
    return out;
}

QString layerToolTip(const StudioState& state, LayerId id) {
    const Network& net = state.network;
    if (id < 0 || id >= net.size()) return {};
    const Layer& l = net.layer(id);
    QString html =
        QStringLiteral("<b>%1</b> — %2").arg(esc(l.name), layerDetailText(net, id).toHtmlEscaped());
    if (!l.activation.empty()) html += QStringLiteral(", ") + esc(l.activation);
    html += QStringLiteral("<table>");
    html += row(tr("Output"), shapeText(l.out) + QStringLiteral(" · ") +
                                  tensorBytesText(net, state.hardware, id));
    const int gi = state.schedule.groupOf(id);
    if (gi >= 0) {
        const FusionGroup& g = state.schedule.groups[size_t(gi)];
        html += row(tr("Group"), QStringLiteral("%1 (%2, %3 layers)")
                                     .arg(esc(g.name), QString::fromLatin1(toString(g.strategy)))
                                     .arg(g.layers.size()));
    }
    const LayerMetrics* lm = state.metrics ? state.metrics->layer(id) : nullptr;
    if (!isCompute(l.type)) {
        html += QStringLiteral("</table><i>%1</i>").arg(tr("No computation: not costed."));
        return html;
    }
    if (!lm) return html + QStringLiteral("</table><i>%1</i>").arg(tr("Evaluating…"));
    QString macs = count(double(lm->macs));
    if (lm->recompute_macs > 0)
        macs += tr(" (recompute %1)").arg(count(double(lm->recompute_macs)));
    html += row(tr("MACs"), macs);
    if (lm->ops > 0) html += row(tr("Other ops"), count(double(lm->ops)));
    html += row(tr("DRAM"), trafficText(lm->dram));
    html += row(tr("Buffer"), tr("X %1 · Y %2 · W %3 words")
                                  .arg(count(double(lm->buf_x)), count(double(lm->buf_y)),
                                       count(double(lm->buf_w))));
    html += row(tr("Cycles"),
                tr("compute %1 · memory %2")
                    .arg(count(double(lm->compute_cycles)), count(double(lm->memory_cycles))));
    html += row(tr("Utilization"),
                QString::number(lm->utilization * 100.0, 'f', 1) + QStringLiteral(" %"));
    html += row(tr("Energy"), energyText(lm->energy));
    if (gi >= 0 && size_t(gi) < state.metrics->groups.size())
        html += row(tr("Group buffer"), bufferLine(gi, *state.metrics));
    html += QStringLiteral("</table>");
    const QStringList problems = groupProblems(state, gi);
    for (const QString& p : problems)
        html +=
            QStringLiteral("<br><span style='color:#e08a00'>⚠ %1</span>").arg(p.toHtmlEscaped());
    return html;
}

QString groupToolTip(const StudioState& state, int gi) {
    if (gi < 0 || size_t(gi) >= state.schedule.groups.size()) return {};
    const FusionGroup& g = state.schedule.groups[size_t(gi)];
    QString html = QStringLiteral("<b>%1</b> — %2, %3 layers<table>")
                       .arg(esc(g.name), QString::fromLatin1(toString(g.strategy)))
                       .arg(g.layers.size());
    if (state.metrics && size_t(gi) < state.metrics->groups.size()) {
        const GroupMetrics& gm = state.metrics->groups[size_t(gi)];
        html += row(tr("Buffer"), bufferLine(gi, *state.metrics));
        QString macs = count(double(gm.macs));
        if (gm.recompute_macs > 0)
            macs += tr(" (recompute %1)").arg(count(double(gm.recompute_macs)));
        html += row(tr("MACs"), macs);
        html += row(tr("DRAM"), trafficText(gm.dram));
        html += row(tr("Latency"), tr("%1 cycles (%2-bound)")
                                       .arg(count(double(gm.latency_cycles)),
                                            QString::fromLatin1(toString(gm.bound))));
        html += row(tr("Energy"), energyText(gm.energy));
    } else {
        html += row(tr("Metrics"), tr("evaluating…"));
    }
    html += QStringLiteral("</table>");
    for (const QString& p : groupProblems(state, gi))
        html +=
            QStringLiteral("<br><span style='color:#e08a00'>⚠ %1</span>").arg(p.toHtmlEscaped());
    return html;
}

QString edgeToolTip(const StudioState& state, LayerId tail, LayerId head) {
    const Network& net = state.network;
    if (tail < 0 || head < 0 || tail >= net.size() || head >= net.size()) return {};
    const Layer& t = net.layer(tail);
    return QStringLiteral("<b>%1 → %2</b><br>%3 · %4")
        .arg(esc(t.name), esc(net.layer(head).name), shapeText(t.out),
             tensorBytesText(net, state.hardware, tail));
}

} // namespace lf::graph
