#include "layers/layer_list.h"

#include "graph/graph_labels.h"
#include "metrics/units.h"
#include "text_fit/column_fit.h"
#include "text_fit/size_hint_cache.h"

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace lf {

LayerTableModel::LayerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerTableModel::setState(const StudioState& state) {
    const bool reset = &state.network.layers() != &state_.network.layers() ||
                       state.network.size() != state_.network.size();
    if (reset) beginResetModel();
    state_ = state;
    groupOf_ = state_.schedule.groupIndexByLayer(state_.network.size());
    if (reset)
        endResetModel();
    else if (rowCount() > 0)
        emit dataChanged(index(0, Group), index(rowCount() - 1, Energy));
}

int LayerTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(state_.network.size());
}

int LayerTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Layer");
    case Type:
        return tr("Type");
    case Output:
        return tr("Output");
    case Group:
        return tr("Group");
    case Macs:
        return tr("MACs");
    case Dram:
        return tr("DRAM words");
    case Energy:
        return tr("Energy");
    default:
        return {};
    }
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const LayerId id = index.row();
    const Network& net = state_.network;
    const Layer& l = net.layer(id);
    if (role == LayerIdRole) return id;
    if (role == Qt::TextAlignmentRole && index.column() >= Macs && index.column() <= Energy)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    const LayerMetrics* lm = state_.metrics ? state_.metrics->layer(id) : nullptr;
    const int gi = size_t(id) < groupOf_.size() ? groupOf_[size_t(id)] : -1;
    if (role == SortRole) {
        switch (index.column()) {
        case Name:
            return id; // network order
        case Macs:
            return lm ? qlonglong(lm->macs) : -1;
        case Dram:
            return lm ? qlonglong(lm->dram.total()) : -1;
        case Energy:
            return lm ? lm->energy.total() : -1.0;
        default:
            break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::ToolTipRole && index.column() == Name) return graph::layerToolTip(state_, id);
    if (role == Qt::ToolTipRole && index.column() == Group) return data(index, Qt::DisplayRole);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Name:
        return QString::fromStdString(l.name);
    case Type:
        return graph::layerDetailText(net, id);
    case Output:
        return graph::shapeText(l.out);
    case Group:
        return gi >= 0 && state_.schedule.groups[size_t(gi)].layers.size() > 1
                   ? QString::fromStdString(state_.schedule.groups[size_t(gi)].name)
                   : QString();
    case Macs:
        return lm ? QString::fromStdString(humanCount(double(lm->macs))) : QString();
    case Dram:
        return lm ? QString::fromStdString(humanCount(double(lm->dram.total()))) : QString();
    case Energy:
        return lm ? QString::fromStdString(humanEnergy(lm->energy.total())) : QString();
    default:
        return {};
    }
}

LayerList::LayerList(QWidget* parent) : QWidget(parent) {
    model_ = new LayerTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(LayerTableModel::SortRole);
    proxy_->setFilterKeyColumn(LayerTableModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter layers"));
    filter_->setClearButtonEnabled(true);
    view_ = new QTableView(this);
    view_->setModel(proxy_);
    // Fitting the columns measures every row after every edit: sizes are remembered by text.
    delegate_ = new SizeHintCachingDelegate(view_);
    view_->setItemDelegate(delegate_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->setSortingEnabled(true);
    view_->sortByColumn(LayerTableModel::Name, Qt::AscendingOrder);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
    view_->horizontalHeader()->setStretchLastSection(false);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->viewport()->installEventFilter(this);
    view_->setShowGrid(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(filter_);
    layout->addWidget(view_, 1);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &LayerList::onViewSelectionChanged);
}

void LayerList::setState(const StudioState& state) {
    syncing_ = true;
    model_->setState(state);
    syncing_ = false;
    // Group names and figures change with every edit: the columns follow.
    sized_ = model_->rowCount() > 0;
    if (sized_) fitColumns();
}

bool LayerList::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->viewport() && event->type() == QEvent::Resize && sized_) fitColumns();
    return QWidget::eventFilter(watched, event);
}

void LayerList::changeEvent(QEvent* event) {
    if (event->type() == QEvent::StyleChange) delegate_->clear();
    QWidget::changeEvent(event);
}

void LayerList::fitColumns() {
    // Long group names ("layer1.1.conv1..layer2.0.add") are elided, whole in the tooltip.
    const QFontMetrics fm = view_->fontMetrics();
    fitColumnsToView(view_, LayerTableModel::Name,
                     fm.horizontalAdvance(QStringLiteral("layer1.0.con…")), LayerTableModel::Group,
                     fm.horizontalAdvance(QStringLiteral("layer1.1..2.0.add")));
}

void LayerList::setSelection(const StudioSelection& selection) {
    syncing_ = true;
    QItemSelection sel;
    for (LayerId id : selection.layers) {
        if (id < 0 || id >= model_->rowCount()) continue;
        const QModelIndex src = model_->index(id, 0);
        const QModelIndex p = proxy_->mapFromSource(src);
        if (p.isValid()) sel.select(p, p.siblingAtColumn(LayerTableModel::ColumnCount - 1));
    }
    view_->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect);
    if (!selection.layers.empty()) {
        const QModelIndex p = proxy_->mapFromSource(model_->index(selection.layers.front(), 0));
        if (p.isValid()) view_->scrollTo(p);
    }
    syncing_ = false;
}

void LayerList::onViewSelectionChanged() {
    if (syncing_) return;
    StudioSelection sel;
    for (const QModelIndex& p : view_->selectionModel()->selectedRows())
        sel.layers.push_back(proxy_->mapToSource(p).row());
    std::sort(sel.layers.begin(), sel.layers.end());
    emit selectionRequested(sel);
}

} // namespace lf
