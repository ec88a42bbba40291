#include "history/undo_history_view.h"

#include <QItemSelectionModel>
#include <QStyledItemDelegate>

namespace lf {

namespace {

// Rows ask for no width of their own: QListView then lays each row out at the view's width
// (not the longest text's), so a long text is elided at the edge instead of scrolled past it.
class ViewWidthRows : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        return {0, QStyledItemDelegate::sizeHint(option, index).height()};
    }
};

} // namespace

UndoHistoryModel::UndoHistoryModel(QUndoStack* stack, QObject* parent)
    : QAbstractListModel(parent), stack_(stack) {
    // Any change of the stack (push, undo, redo, merge, clear) may change every row.
    connect(stack_, &QUndoStack::indexChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(stack_, &QObject::destroyed, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

void UndoHistoryModel::setEmptyLabel(const QString& label) {
    emptyLabel_ = label;
    emit dataChanged(index(0), index(0));
}

int UndoHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !stack_ ? 0 : stack_->count() + 1;
}

QVariant UndoHistoryModel::data(const QModelIndex& index, int role) const {
    if (!stack_ || !index.isValid() || index.row() > stack_->count()) return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    return index.row() == 0 ? emptyLabel_ : stack_->text(index.row() - 1);
}

UndoHistoryView::UndoHistoryView(QUndoStack* stack, QWidget* parent)
    : QListView(parent), stack_(stack), model_(new UndoHistoryModel(stack, this)) {
    setModel(model_);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setItemDelegate(new ViewWidthRows(this));
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(model_, &QAbstractItemModel::modelReset, this, &UndoHistoryView::showStackIndex);
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (!following_ && current.isValid() && stack_) stack_->setIndex(current.row());
            });
    showStackIndex();
}

void UndoHistoryView::setEmptyLabel(const QString& label) {
    model_->setEmptyLabel(label);
}

void UndoHistoryView::showStackIndex() {
    if (!stack_) return;
    following_ = true;
    const QModelIndex current = model_->index(stack_->index());
    selectionModel()->setCurrentIndex(current, QItemSelectionModel::ClearAndSelect);
    scrollTo(current);
    following_ = false;
}

} // namespace lf
