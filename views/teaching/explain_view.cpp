#include "teaching/explain_view.h"

#include "qt_text.h"
#include "teaching/teaching_style.h"
#include "teaching/teaching_subject.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace lf {

namespace {

constexpr int kKeyRole = Qt::UserRole + 1;
constexpr int kFormulaRole = Qt::UserRole + 2;

} // namespace

ExplainView::ExplainView(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    v->addWidget(title_);
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("explainTree"));
    tree_->setColumnCount(cColumns);
    tree_->setHeaderLabels({tr("Figure / term"), tr("Value"), tr("Source"), tr("Why")});
    tree_->setWordWrap(false);
    tree_->setTextElideMode(Qt::ElideMiddle);
    tree_->setUniformRowHeights(false);
    tree_->setAlternatingRowColors(true);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    // Value and Source are short and read whole; the formula and the reason share the rest
    // (a formula wider than the dock used to push Why out of sight).
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(cValue, QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(cSource, QHeaderView::ResizeToContents);
    tree_->viewport()->installEventFilter(this);
    connect(tree_->header(), &QHeaderView::sectionResized, this, [this](int section) {
        if (section == cValue || section == cSource) fitColumns();
    });
    v->addWidget(tree_, 1);
    auto remember = [this](QTreeWidgetItem* item, bool collapsed) {
        if (rebuilding_) return;
        const QString key = item->data(0, kKeyRole).toString();
        if (key.isEmpty()) return;
        expanded_[key] = !collapsed;
    };
    connect(tree_, &QTreeWidget::itemCollapsed, this,
            [remember](QTreeWidgetItem* i) { remember(i, true); });
    connect(tree_, &QTreeWidget::itemExpanded, this,
            [remember](QTreeWidgetItem* i) { remember(i, false); });
    refresh();
}

bool ExplainView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == tree_->viewport() && event->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, event);
}

void ExplainView::fitColumns() {
    QHeaderView* h = tree_->header();
    const int rest = tree_->viewport()->width() - h->sectionSize(cValue) - h->sectionSize(cSource);
    const int least = tree_->fontMetrics().horizontalAdvance(QStringLiteral("the product of"));
    const int figure = std::max(least, rest * 3 / 5);
    h->resizeSection(cFigure, figure);
    h->resizeSection(cWhy, std::max(least, rest - figure));
}

void ExplainView::setState(const StudioState& state) {
    state_ = state;
    refresh();
}

void ExplainView::setSelection(const StudioSelection& selection) {
    if (selection == selection_) return;
    selection_ = selection;
    refresh();
}

QTreeWidgetItem* ExplainView::formulaItem(const QString& name, bool ofGroup) const {
    for (int s = 0; s < tree_->topLevelItemCount(); ++s) {
        QTreeWidgetItem* section = tree_->topLevelItem(s);
        const bool groupSection =
            section->data(0, kKeyRole).toString().startsWith(QLatin1String("group:"));
        if (groupSection != ofGroup) continue;
        for (int k = 0; k < section->childCount(); ++k)
            if (section->child(k)->data(0, kFormulaRole).toString() == name)
                return section->child(k);
    }
    return nullptr;
}

bool ExplainView::showFormula(const QStringList& names, bool ofGroup) {
    auto find = [&](bool group) -> QTreeWidgetItem* {
        for (const QString& n : names)
            if (QTreeWidgetItem* item = formulaItem(n, group)) return item;
        return nullptr;
    };
    QTreeWidgetItem* item = find(ofGroup);
    if (!item && ofGroup && !group_) item = find(false);
    if (!item) return false;
    for (QTreeWidgetItem* p = item; p; p = p->parent())
        p->setExpanded(true);
    tree_->setCurrentItem(item);
    tree_->scrollToItem(item, QAbstractItemView::PositionAtTop);
    return true;
}

QTreeWidgetItem* ExplainView::addSection(const QString& key, const QString& title,
                                         bool expandedByDefault) {
    auto* item = new QTreeWidgetItem(tree_);
    item->setText(cFigure, title);
    item->setData(0, kKeyRole, key);
    item->setFirstColumnSpanned(true);
    QFont f = item->font(cFigure);
    f.setBold(true);
    item->setFont(cFigure, f);
    item->setExpanded(expanded_.value(key, expandedByDefault));
    return item;
}

void ExplainView::addFormula(QTreeWidgetItem* section, const Formula& f, const QString& key) {
    auto* item = new QTreeWidgetItem(section);
    item->setText(cFigure, qs(f.text()));
    item->setToolTip(cFigure, qs(f.text()));
    item->setText(cValue, teaching::exactCount(f.value) + QLatin1Char(' ') + qs(f.unit));
    item->setTextAlignment(cValue, Qt::AlignRight | Qt::AlignVCenter);
    item->setText(cWhy, f.terms.size() <= 1 ? QString()
                        : f.sum             ? tr("the sum of the terms below")
                                            : tr("the product of the terms below"));
    item->setText(cSource, qs(f.source));
    item->setData(0, kFormulaRole, qs(f.name));
    const QString itemKey = key + QLatin1Char('/') + qs(f.name);
    item->setData(0, kKeyRole, itemKey);
    for (const FormulaTerm& t : f.terms) {
        auto* term = new QTreeWidgetItem(item);
        term->setText(cFigure, qs(t.symbol));
        term->setText(cValue, teaching::exactCount(t.value));
        term->setTextAlignment(cValue, Qt::AlignRight | Qt::AlignVCenter);
        term->setText(cWhy, qs(t.why));
        term->setToolTip(cWhy, qs(t.why));
    }
    item->setExpanded(expanded_.value(itemKey, true));
}

void ExplainView::addNote(QTreeWidgetItem* section, const QString& text) {
    auto* item = new QTreeWidgetItem(section);
    item->setText(cFigure, text);
    item->setToolTip(cFigure, text);
    item->setFirstColumnSpanned(true);
    QFont f = item->font(cFigure);
    f.setItalic(true);
    item->setFont(cFigure, f);
}

void ExplainView::addLayerSection(LayerId id, bool primary) {
    const Layer& l = state_.network.layer(id);
    const LayerExplanation ex = explainLayer(state_.network, state_.hardware, state_.schedule, id);
    if (primary) layer_ = ex;
    QString title = tr("Layer %1 — ConvFusion §IV").arg(qs(l.name));
    if (ex.fused) title += tr(" (fused producer, P = %1)").arg(ex.productions);
    const QString key = QStringLiteral("layer:") + qs(l.name);
    QTreeWidgetItem* section = addSection(key, title, primary);
    if (ex.formulas.empty())
        addNote(section, tr("This layer has no ConvFusion formulas (it is not a windowed layer)."));
    for (const Formula& f : ex.formulas)
        addFormula(section, f, key);

    // DRAM reload over the compulsory minimum: each element moved once.
    QTreeWidgetItem* reload =
        addSection(key + QStringLiteral("/reload"),
                   tr("DRAM reload over the compulsory minimum — %1").arg(qs(l.name)), primary);
    auto addReload = [&](const QString& what, double factor, int64_t compulsory) {
        if (compulsory <= 0) return;
        auto* item = new QTreeWidgetItem(reload);
        item->setText(cFigure, tr("%1: %2× the minimum").arg(what, teaching::twoDecimals(factor)));
        item->setText(cValue, QStringLiteral("×") + teaching::twoDecimals(factor));
        item->setTextAlignment(cValue, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(cWhy, factor == 0 ? tr("nothing read from DRAM (produced inside the group)")
                                        : tr("DRAM reads over %1 elements (each read once)")
                                              .arg(teaching::exactCount(compulsory)));
        item->setData(0, kFormulaRole, what);
    };
    addReload(tr("Inputs X"), ex.reload_x, ex.compulsory_x);
    addReload(tr("Weights W"), ex.reload_w, ex.compulsory_w);
    if (reload->childCount() == 0) addNote(reload, tr("No DRAM reads to compare."));
    for (const std::string& n : ex.notes)
        addNote(section, qs(n));
}

void ExplainView::addGroupSection(int gi) {
    const FusionGroup& g = state_.schedule.groups[size_t(gi)];
    group_ = explainGroup(state_.network, state_.hardware, state_.schedule, gi);
    const QString key = QStringLiteral("group:") + qs(g.name);
    QStringList names;
    for (LayerId id : g.layers)
        names << qs(state_.network.layer(id).name);
    QTreeWidgetItem* section =
        addSection(key, tr("Group %1 (%2): %3")
                            .arg(qs(g.name), QString::fromLatin1(toString(g.strategy)),
                                 names.join(QStringLiteral(", "))));
    for (const Formula& f : group_->formulas)
        addFormula(section, f, key);
    for (const std::string& n : group_->notes)
        addNote(section, qs(n));
}

void ExplainView::refresh() {
    const int vscroll = tree_->verticalScrollBar()->value();
    rebuilding_ = true;
    tree_->clear();
    layer_.reset();
    group_.reset();
    if (state_.network.size() > 0) {
        const LayerId layer = teaching::selectedLayer(state_, selection_);
        const int group = teaching::selectedGroup(state_, selection_);
        if (layer != kNoLayer) addLayerSection(layer, true);
        // The group's own formulas matter once it fuses layers or changes the strategy.
        if (group >= 0) {
            const FusionGroup& g = state_.schedule.groups[size_t(group)];
            if (g.layers.size() > 1 || g.strategy != Strategy::recompute || layer == kNoLayer)
                addGroupSection(group);
            // A whole group: each member's breakdown follows, closed until asked for.
            if (layer == kNoLayer)
                for (LayerId id : g.layers)
                    if (isCompute(state_.network.layer(id).type)) addLayerSection(id, false);
        }
    }
    rebuilding_ = false;
    // A cell too narrow for its text elides it in the middle; pointing at it shows it whole.
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        for (int c = 0; c < cColumns; ++c)
            if ((*it)->toolTip(c).isEmpty() && !(*it)->text(c).isEmpty())
                (*it)->setToolTip(c, (*it)->text(c));
    if (tree_->topLevelItemCount() == 0) {
        title_->setText(tr("Select a layer or a fusion group: every figure is broken into the "
                           "terms of its formula."));
    } else {
        title_->setText(tr("Expand a figure to see which loops contribute a tile, a full dimension "
                           "or a kernel extent."));
        tree_->verticalScrollBar()->setValue(vscroll);
    }
}

} // namespace lf
