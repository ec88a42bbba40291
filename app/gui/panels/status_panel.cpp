#include "panels/status_panel.h"

#include "metrics/units.h"
#include "panels/elided_label.h"
#include "qt_text.h"

#include <QLabel>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>

namespace lf {

StatusPanel::StatusPanel(Studio* studio, QStatusBar* bar)
    : QObject(bar), bar_(bar), summary_(new ElidedLabel(bar)), over_(new QLabel(bar)),
      evaluation_(new QLabel(bar)), zoom_(new QLabel(bar)), messageTimer_(new QTimer(this)) {
    setObjectName(QStringLiteral("statusPanel"));
    over_->setStyleSheet(QStringLiteral("color: #e03a3a; font-weight: 600;"));
    over_->hide();
    zoom_->setMinimumWidth(zoom_->fontMetrics().horizontalAdvance(QStringLiteral("400 %")) + 8);
    zoom_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    bar_->addWidget(summary_, 1); // a transient message takes its place for a while
    bar_->addPermanentWidget(over_);
    bar_->addPermanentWidget(evaluation_);
    bar_->addPermanentWidget(zoom_);

    // Transient messages (the studio's, and the status tips of menus) take the summary's
    // place in its elided label: painted by QStatusBar they would run under the permanent
    // figures on the right.
    messageTimer_->setSingleShot(true);
    connect(messageTimer_, &QTimer::timeout, this, [this] { showMessage({}, 0); });
    connect(studio, &Studio::statusMessage, this, &StatusPanel::showMessage);
    // `m` by value: a reference would be the bar's own text, which clearMessage() empties.
    connect(bar_, &QStatusBar::messageChanged, this, [this](QString m) {
        if (m.isEmpty()) return;
        bar_->clearMessage();
        showMessage(m, 0);
    });
    connect(studio, &Studio::stateShown, this, &StatusPanel::showSummary);
    connect(studio->evaluator(), &Evaluator::evaluated, this, [this](double ms, int groups) {
        evaluation_->setText(
            tr("Evaluated in %1 ms").arg(QString::number(ms, 'f', ms < 10 ? 1 : 0)));
        evaluation_->setToolTip(
            tr("The last evaluation recomputed %n group(s); the rest came from the cache.", nullptr,
               groups));
    });
}

void StatusPanel::showMessage(const QString& message, int ms) {
    message_ = message;
    summary_->setText(message.isEmpty() ? summaryText_ : message);
    if (message.isEmpty() || ms <= 0)
        messageTimer_->stop();
    else
        messageTimer_->start(ms);
}

QString StatusPanel::shownText() const {
    return summary_->text();
}

void StatusPanel::setZoom(double zoom) {
    zoom_->setText(QString::number(qRound(zoom * 100)) + QStringLiteral(" %"));
}

void StatusPanel::showSummary(const StudioState& state) {
    const Schedule& s = state.schedule;
    const int fused = int(std::count_if(s.groups.begin(), s.groups.end(),
                                        [](const FusionGroup& g) { return g.layers.size() > 1; }));
    QString text = tr("%1 layers · %2 groups (%3 fused)")
                       .arg(state.network.computeIds().size())
                       .arg(s.groups.size())
                       .arg(fused);
    int over = 0;
    if (const Metrics* m = state.metrics.get()) {
        over = int(std::count_if(m->groups.begin(), m->groups.end(),
                                 [](const GroupMetrics& g) { return !g.fits; }));
        text += tr(" · DRAM %1 · %2 MACs · %3 · %4")
                    .arg(qs(humanBytes(double(m->totals.dram_bytes))),
                         qs(humanCount(double(m->totals.macs))), qs(humanTime(m->totals.latency_s)),
                         qs(humanEnergy(m->totals.energy.total())));
    }
    summaryText_ = text;
    if (message_.isEmpty()) summary_->setText(text);
    over_->setText(tr("%n over capacity", nullptr, over));
    over_->setVisible(over > 0);
}

} // namespace lf
