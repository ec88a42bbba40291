#include "inspectors/loop_order_list.h"

#include <QAbstractItemModel>
#include <QHBoxLayout>
#include <QListWidget>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace lf {

namespace {
constexpr int kDimRole = Qt::UserRole + 1;
}

QString LoopOrderList::label(Dim d) {
    switch (d) {
    case Dim::z:
        return tr("z — output channels");
    case Dim::y:
        return tr("y — output rows");
    case Dim::x:
        return tr("x — output columns");
    case Dim::i:
        return tr("i — input channels");
    }
    return {};
}

LoopOrderList::LoopOrderList(QWidget* parent) : QWidget(parent) {
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(0, 0, 0, 0);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("loopOrder"));
    list_->setDragDropMode(QAbstractItemView::InternalMove);
    list_->setDefaultDropAction(Qt::MoveAction);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setToolTip(tr("Tile loops from outermost (top) to innermost (bottom); drag to reorder"));
    for (Dim d : order_) {
        auto* item = new QListWidgetItem(label(d), list_);
        item->setData(kDimRole, int(d));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled);
    }
    // Four rows, no scrolling.
    list_->setFixedHeight(list_->sizeHintForRow(0) * 4 + 2 * list_->frameWidth() + 4);
    h->addWidget(list_, 1);

    auto* buttons = new QVBoxLayout;
    up_ = new QToolButton(this);
    up_->setObjectName(QStringLiteral("moveUp"));
    up_->setArrowType(Qt::UpArrow);
    up_->setToolTip(tr("Move the loop outward"));
    down_ = new QToolButton(this);
    down_->setObjectName(QStringLiteral("moveDown"));
    down_->setArrowType(Qt::DownArrow);
    down_->setToolTip(tr("Move the loop inward"));
    buttons->addWidget(up_);
    buttons->addWidget(down_);
    buttons->addStretch(1);
    h->addLayout(buttons);

    connect(up_, &QToolButton::clicked, this, [this] { moveRow(list_->currentRow(), -1); });
    connect(down_, &QToolButton::clicked, this, [this] { moveRow(list_->currentRow(), +1); });
    connect(list_, &QListWidget::currentRowChanged, this, [this] { updateButtons(); });
    // A drop removes and inserts rows (or moves them); read the order once it has settled.
    auto schedule = [this] {
        if (updating_ || readPending_) return;
        readPending_ = true;
        QTimer::singleShot(0, this, [this] {
            readPending_ = false;
            readBackFromList();
        });
    };
    connect(list_->model(), &QAbstractItemModel::rowsMoved, this, schedule);
    connect(list_->model(), &QAbstractItemModel::rowsInserted, this, schedule);
    connect(list_->model(), &QAbstractItemModel::rowsRemoved, this, schedule);
    updateButtons();
}

void LoopOrderList::setOrder(const std::array<Dim, 4>& order) {
    order_ = order;
    updating_ = true;
    const int current = list_->currentRow();
    for (int k = 0; k < 4 && k < list_->count(); ++k) {
        QListWidgetItem* item = list_->item(k);
        item->setText(label(order[size_t(k)]));
        item->setData(kDimRole, int(order[size_t(k)]));
    }
    if (current >= 0) list_->setCurrentRow(current);
    updating_ = false;
    updateButtons();
}

void LoopOrderList::moveRow(int row, int delta) {
    const int to = row + delta;
    if (row < 0 || row >= 4 || to < 0 || to >= 4) return;
    std::array<Dim, 4> o = order_;
    std::swap(o[size_t(row)], o[size_t(to)]);
    setOrder(o);
    list_->setCurrentRow(to);
    emit orderEdited(o);
}

void LoopOrderList::readBackFromList() {
    std::array<Dim, 4> o{};
    std::set<int> seen;
    if (list_->count() != 4) return;
    for (int k = 0; k < 4; ++k) {
        const int d = list_->item(k)->data(kDimRole).toInt();
        o[size_t(k)] = Dim(d);
        seen.insert(d);
    }
    if (seen.size() != 4 || o == order_) return;
    order_ = o;
    updateButtons();
    emit orderEdited(o);
}

void LoopOrderList::updateButtons() {
    const int r = list_->currentRow();
    up_->setEnabled(r > 0);
    down_->setEnabled(r >= 0 && r < 3);
}

} // namespace lf
