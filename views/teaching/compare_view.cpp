#include "teaching/compare_view.h"

#include "qt_text.h"
#include "teaching/compare_figures.h"
#include "teaching/strategy_comparison_view.h"
#include "teaching/teaching_style.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lf {

namespace {

QString groupTitle(const StudioState& s, int gi) {
    const FusionGroup& g = s.schedule.groups[size_t(gi)];
    QStringList names;
    for (LayerId id : g.layers)
        names << qs(s.network.layer(id).name);
    QString layers = names.size() <= 4 ? names.join(QLatin1Char('+'))
                                       : names.front() + QStringLiteral("+…+") + names.back() +
                                             QStringLiteral(" (%1)").arg(names.size());
    return QStringLiteral("%1 · %2 · %3")
        .arg(qs(g.name), layers, QString::fromLatin1(toString(g.strategy)));
}

// A group's figures in `m` by its index, if the metrics hold it.
const GroupMetrics* groupIn(const std::shared_ptr<const Metrics>& m, int gi) {
    if (!m || gi < 0 || size_t(gi) >= m->groups.size()) return nullptr;
    return &m->groups[size_t(gi)];
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    qRegisterMetaType<QList<int>>("QList<int>");
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    snapshot_ = new QPushButton(tr("Snapshot as A"), this);
    snapshot_->setToolTip(tr(
        "Keep the current schedule and its figures as A; go on editing to compare (B = current)"));
    clear_ = new QPushButton(tr("Clear A"), this);
    bar->addWidget(snapshot_);
    bar->addWidget(clear_);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    bar->addWidget(status_, 1);
    v->addLayout(bar);

    tabs_ = new QTabWidget(this);
    tree_ = new QTreeWidget(tabs_);
    tree_->setObjectName(QStringLiteral("compareTree"));
    tree_->setColumnCount(cColumns);
    tree_->setHeaderLabels({tr("Figure"), tr("A (snapshot)"), tr("B (current)"), tr("Change")});
    tree_->setAlternatingRowColors(true);
    tree_->header()->resizeSection(cFigure, 380);
    for (int c = cA; c < cColumns; ++c)
        tree_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    tabs_->addTab(tree_, tr("A vs B"));
    strategies_ = new StrategyComparisonView(tabs_);
    tabs_->addTab(strategies_, tr("Strategies on the group"));
    v->addWidget(tabs_, 1);
    strategies_->setActive(false);

    connect(snapshot_, &QPushButton::clicked, this, &CompareView::takeSnapshot);
    connect(clear_, &QPushButton::clicked, this, &CompareView::clearSnapshot);
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int) { strategies_->setActive(tabs_->currentWidget() == strategies_); });
    connect(strategies_, &StrategyComparisonView::groupEdited, this, &CompareView::groupEdited);
    connect(tree_, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* i) {
        if (!rebuilding_) expanded_[i->data(0, Qt::UserRole).toString()] = true;
    });
    connect(tree_, &QTreeWidget::itemCollapsed, this, [this](QTreeWidgetItem* i) {
        if (!rebuilding_) expanded_[i->data(0, Qt::UserRole).toString()] = false;
    });
    connect(tree_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* i) {
        // Double-clicking a group selects it on the canvas.
        const QStringList key = i->data(0, Qt::UserRole).toString().split(QLatin1Char('.'));
        if (key.size() < 2 || key[0] != QLatin1String("group")) return;
        const int gi = key[1].toInt();
        if (gi < 0 || size_t(gi) >= b_.schedule.groups.size()) return;
        StudioSelection sel;
        sel.layers = b_.schedule.groups[size_t(gi)].layers;
        sel.group = gi;
        emit selectionRequested(sel);
    });
    refresh();
}

void CompareView::setState(const StudioState& state) {
    b_ = state;
    strategies_->setState(state);
    refresh();
}

void CompareView::setSelection(const StudioSelection& selection) {
    selection_ = selection;
    strategies_->setSelection(selection);
}

bool CompareView::takeSnapshot() {
    if (!b_.metrics) return false;
    a_ = b_;
    snapshotTime_ = QDateTime::currentDateTime();
    refresh();
    return true;
}

void CompareView::clearSnapshot() {
    a_.reset();
    refresh();
}

QTreeWidgetItem* CompareView::item(const QString& key) const {
    return rows_.value(key, nullptr);
}

void CompareView::updateButtons() {
    snapshot_->setEnabled(b_.metrics != nullptr);
    clear_->setEnabled(a_.has_value());
}

void CompareView::publishDiffer(const QList<int>& groups) {
    if (groups == differing_) return;
    differing_ = groups;
    emit groupsDiffer(differing_);
}

void CompareView::refresh() {
    updateButtons();
    if (!a_) {
        status_->setText(tr("Take a snapshot (A), then edit: A and B are shown side by side."));
        rows_.clear();
        tree_->clear();
        publishDiffer({});
        return;
    }
    const bool comparable = teaching::sameNetwork(*a_, b_);
    const std::vector<teaching::GroupMatch> matches = teaching::matchGroups(*a_, b_);
    QList<int> differ;
    if (comparable)
        for (int k = 0; k < int(matches.size()); ++k)
            if (matches[size_t(k)].differs) differ << k;
    QString status = tr("A: %1 on %2, taken %3")
                         .arg(qs(a_->network.name()), qs(a_->hardware.name),
                              snapshotTime_.toString(QStringLiteral("HH:mm:ss")));
    if (!comparable)
        status +=
            tr(" — B is another network (%1): only the totals compare").arg(qs(b_.network.name()));
    else if (differ.size() == 1)
        status += tr(" — 1 group of B differs");
    else
        status += tr(" — %1 groups of B differ").arg(differ.size());
    if (comparable && !(a_->hardware == b_.hardware))
        status += tr("; the hardware differs (%1)").arg(qs(b_.hardware.name));
    status_->setText(status);
    rebuildTree();
    publishDiffer(differ);
}

QTreeWidgetItem* CompareView::addRow(QTreeWidgetItem* parent, const QString& key,
                                     const QString& label) {
    auto* row = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(tree_);
    row->setText(cFigure, label);
    row->setToolTip(cFigure, label);
    row->setData(0, Qt::UserRole, key);
    for (int c = cA; c < cColumns; ++c)
        row->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    rows_.insert(key, row);
    return row;
}

void CompareView::setDelta(QTreeWidgetItem* row, double b, std::optional<double> a, Better better) {
    const MetricDelta d = metricDelta(b, a, better);
    row->setText(cDelta, d.text.isEmpty() && a ? tr("=") : d.text);
    if (d.color().isValid()) row->setForeground(cDelta, d.color());
}

void CompareView::rebuildTree() {
    const int vscroll = tree_->verticalScrollBar()->value();
    rebuilding_ = true;
    tree_->clear();
    rows_.clear();
    const bool comparable = teaching::sameNetwork(*a_, b_);
    const Hardware& hw = b_.hardware;

    auto bold = [](QTreeWidgetItem* row) {
        QFont f = row->font(cFigure);
        f.setBold(true);
        for (int c = 0; c < cColumns; ++c)
            row->setFont(c, f);
    };
    auto restore = [this](QTreeWidgetItem* row, bool byDefault) {
        row->setExpanded(expanded_.value(row->data(0, Qt::UserRole).toString(), byDefault));
    };

    QTreeWidgetItem* totals = addRow(nullptr, QStringLiteral("total"), tr("Network totals"));
    bold(totals);
    for (const auto& f : teaching::totalsFigures()) {
        QTreeWidgetItem* row = addRow(totals, QStringLiteral("total.") + f.key, f.label);
        const std::optional<double> a =
            a_->metrics ? std::optional<double>(f.value(a_->metrics->totals)) : std::nullopt;
        if (a) row->setText(cA, f.format(*a, a_->hardware));
        if (b_.metrics) {
            const double b = f.value(b_.metrics->totals);
            row->setText(cB, f.format(b, hw));
            setDelta(row, b, a, f.better);
        } else {
            row->setText(cB, tr("evaluating…"));
        }
    }
    restore(totals, true);
    if (!comparable) {
        rebuilding_ = false;
        return;
    }

    const std::vector<teaching::GroupMatch> matches = teaching::matchGroups(*a_, b_);
    int nDiffer = 0;
    for (const auto& m : matches)
        nDiffer += m.differs ? 1 : 0;
    QTreeWidgetItem* groups =
        addRow(nullptr, QStringLiteral("groups"),
               tr("Groups — %1 of %2 differ from A").arg(nDiffer).arg(matches.size()));
    bold(groups);
    const QColor changed = teaching::pyramidColors(teaching::isDark(tree_)).highlight;
    const auto& dramFigure = teaching::groupFigures().front();
    for (int k = 0; k < int(matches.size()); ++k) {
        const teaching::GroupMatch& m = matches[size_t(k)];
        const QString key = QStringLiteral("group.%1").arg(k);
        QString label = groupTitle(b_, k);
        if (m.a < 0)
            label += tr("  ● new in B");
        else if (m.differs)
            label += tr("  ● changed (A: %1)").arg(groupTitle(*a_, m.a));
        QTreeWidgetItem* row = addRow(groups, key, label);
        const GroupMetrics* ga = groupIn(a_->metrics, m.a);
        const GroupMetrics* gb = groupIn(b_.metrics, k);
        // The group's row shows its DRAM traffic; its children show every figure.
        if (ga) row->setText(cA, dramFigure.format(dramFigure.value(*ga), a_->hardware));
        if (gb) {
            row->setText(cB, dramFigure.format(dramFigure.value(*gb), hw));
            setDelta(row, dramFigure.value(*gb),
                     ga ? std::optional<double>(dramFigure.value(*ga)) : std::nullopt,
                     dramFigure.better);
        }
        if (m.differs) {
            bold(row);
            row->setForeground(cFigure, changed);
        }
        for (const auto& f : teaching::groupFigures()) {
            QTreeWidgetItem* fr = addRow(row, key + QLatin1Char('.') + f.key, f.label);
            const std::optional<double> a = ga ? std::optional<double>(f.value(*ga)) : std::nullopt;
            if (a) fr->setText(cA, f.format(*a, a_->hardware));
            if (gb) {
                fr->setText(cB, f.format(f.value(*gb), hw));
                setDelta(fr, f.value(*gb), a, f.better);
            }
        }
        restore(row, m.differs);
    }
    restore(groups, true);
    const std::vector<int> gone = teaching::groupsOnlyInA(*a_, matches);
    if (!gone.empty()) {
        QTreeWidgetItem* onlyA =
            addRow(nullptr, QStringLiteral("onlyA"), tr("Only in A — %1").arg(gone.size()));
        bold(onlyA);
        for (int ai : gone) {
            QTreeWidgetItem* row =
                addRow(onlyA, QStringLiteral("onlyA.%1").arg(ai), groupTitle(*a_, ai));
            if (const GroupMetrics* ga = groupIn(a_->metrics, ai))
                row->setText(cA, dramFigure.format(dramFigure.value(*ga), a_->hardware));
        }
        restore(onlyA, true);
    }
    rebuilding_ = false;
    tree_->verticalScrollBar()->setValue(vscroll);
}

} // namespace lf
