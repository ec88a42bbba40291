#include "teaching/strategy_comparison_view.h"

#include "models/evaluate.h"
#include "qt_text.h"
#include "teaching/compare_figures.h"
#include "teaching/teaching_subject.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace lf {

namespace {

QString strategyName(Strategy s) {
    return QString::fromLatin1(toString(s));
}

// Evaluates the network three times, the group under each strategy (pure, thread-safe).
StrategyComparisonView::Result evaluateVariants(const Network& net, const Hardware& hw,
                                                const Schedule& sched, int gi, quint64 generation) {
    StrategyComparisonView::Result r;
    r.generation = generation;
    r.group = gi;
    for (size_t k = 0; k < StrategyComparisonView::kStrategies.size(); ++k) {
        Schedule variant = sched;
        variant.groups[size_t(gi)].strategy = StrategyComparisonView::kStrategies[k];
        const Metrics m = evaluate(net, hw, variant);
        if (size_t(gi) < m.groups.size()) r.groups[k] = m.groups[size_t(gi)];
    }
    return r;
}

} // namespace

StrategyComparisonView::StrategyComparisonView(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    v->addWidget(title_);
    table_ = new QTableWidget(int(teaching::groupFigures().size()), int(kStrategies.size()), this);
    table_->setObjectName(QStringLiteral("strategyComparison"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    QStringList rows;
    for (const auto& f : teaching::groupFigures())
        rows << f.label.trimmed();
    table_->setVerticalHeaderLabels(rows);
    for (int r = 0; r < table_->rowCount(); ++r)
        for (int c = 0; c < table_->columnCount(); ++c) {
            auto* item = new QTableWidgetItem;
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
        }
    v->addWidget(table_, 1);
    auto* buttons = new QHBoxLayout;
    for (size_t k = 0; k < kStrategies.size(); ++k) {
        const Strategy s = kStrategies[k];
        use_[k] = new QPushButton(tr("Use %1").arg(strategyName(s)), this);
        use_[k]->setToolTip(
            tr("Switch the group to the %1 strategy (undoable)").arg(strategyName(s)));
        connect(use_[k], &QPushButton::clicked, this, [this, s] {
            if (shownGroup_ < 0 || size_t(shownGroup_) >= state_.schedule.groups.size()) return;
            FusionGroup g = state_.schedule.groups[size_t(shownGroup_)];
            if (g.strategy == s) return;
            g.strategy = s;
            emit groupEdited(shownGroup_, g,
                             tr("Use the %1 strategy for %2").arg(strategyName(s), qs(g.name)), 0);
        });
        buttons->addWidget(use_[k]);
    }
    v->addLayout(buttons);
    connect(&watcher_, &QFutureWatcher<Result>::finished, this,
            &StrategyComparisonView::onFinished);
    showPlaceholder(tr("Select a fusion group to compare the strategies on it."));
}

StrategyComparisonView::~StrategyComparisonView() {
    // The evaluation owns copies of its inputs; it may finish after the view is gone.
    watcher_.disconnect(this);
}

void StrategyComparisonView::setState(const StudioState& state) {
    state_ = state;
    request();
}

void StrategyComparisonView::setSelection(const StudioSelection& selection) {
    if (selection == selection_) return;
    selection_ = selection;
    request();
}

void StrategyComparisonView::setActive(bool active) {
    active_ = active;
    if (active_) request();
}

void StrategyComparisonView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    request();
}

void StrategyComparisonView::showPlaceholder(const QString& text) {
    shownGroup_ = -1;
    title_->setText(text);
    for (int r = 0; r < table_->rowCount(); ++r)
        for (int c = 0; c < table_->columnCount(); ++c)
            table_->item(r, c)->setText(QStringLiteral("—"));
    QStringList heads;
    for (Strategy s : kStrategies)
        heads << strategyName(s);
    table_->setHorizontalHeaderLabels(heads);
    for (QPushButton* b : use_)
        b->setEnabled(false);
}

void StrategyComparisonView::request() {
    const int gi = teaching::selectedGroup(state_, selection_);
    if (gi < 0 || state_.network.size() == 0) {
        requestedGroup_ = -1;
        ++generation_; // drop what is running
        showPlaceholder(tr("Select a fusion group to compare the strategies on it."));
        return;
    }
    // Three evaluations per edit: only while the table can be seen (a hidden dock catches
    // up when shown).
    if (!active_ || (window()->isVisible() && !isVisible())) {
        requestedGroup_ = -1; // evaluate when shown again
        ++generation_;
        return;
    }
    if (gi == requestedGroup_ && state_.schedule == requestedSchedule_ &&
        state_.hardware == requestedHardware_ &&
        state_.network.canonicalHash() == requestedNetwork_)
        return;
    requestedGroup_ = gi;
    requestedSchedule_ = state_.schedule;
    requestedHardware_ = state_.hardware;
    requestedNetwork_ = state_.network.canonicalHash();
    ++generation_;
    title_->setText(tr("Evaluating group %1 under each strategy…")
                        .arg(qs(state_.schedule.groups[size_t(gi)].name)));
    if (watcher_.isRunning())
        pending_ = true;
    else
        start();
}

void StrategyComparisonView::start() {
    pending_ = false;
    watcher_.setFuture(QtConcurrent::run(evaluateVariants, state_.network, state_.hardware,
                                         state_.schedule, requestedGroup_, generation_));
}

void StrategyComparisonView::onFinished() {
    const Result r = watcher_.result();
    if (pending_) start();
    if (r.generation == generation_) showResult(r);
}

void StrategyComparisonView::showResult(const Result& r) {
    if (r.group < 0 || size_t(r.group) >= state_.schedule.groups.size()) return;
    shownGroup_ = r.group;
    results_ = r.groups;
    const FusionGroup& g = state_.schedule.groups[size_t(r.group)];
    title_->setText(
        tr("Group %1 (%2) under each fusion strategy — the same schedule otherwise; best in bold")
            .arg(qs(g.name),
                 g.layers.size() == 1 ? tr("1 layer") : tr("%1 layers").arg(g.layers.size())));
    QStringList heads;
    for (size_t k = 0; k < kStrategies.size(); ++k)
        heads << (kStrategies[k] == g.strategy
                      ? tr("%1\n(current)").arg(strategyName(kStrategies[k])) // narrow docks
                      : strategyName(kStrategies[k]));
    table_->setHorizontalHeaderLabels(heads);
    const auto& figures = teaching::groupFigures();
    for (int row = 0; row < int(figures.size()); ++row) {
        const auto& f = figures[size_t(row)];
        std::array<double, 3> v{};
        for (size_t k = 0; k < 3; ++k)
            v[k] = f.value(results_[k]);
        const double best = f.better == Better::higher ? *std::max_element(v.begin(), v.end())
                                                       : *std::min_element(v.begin(), v.end());
        for (size_t k = 0; k < 3; ++k) {
            QTableWidgetItem* item = table_->item(row, int(k));
            item->setText(f.format(v[k], state_.hardware));
            QFont font = item->font();
            font.setBold(f.better != Better::neither && v[k] == best &&
                         std::count(v.begin(), v.end(), best) < 3);
            item->setFont(font);
        }
    }
    for (size_t k = 0; k < kStrategies.size(); ++k)
        use_[k]->setEnabled(kStrategies[k] != g.strategy);
    emit comparisonReady(r.group);
}

} // namespace lf
