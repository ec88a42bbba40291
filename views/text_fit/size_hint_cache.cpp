#include "text_fit/size_hint_cache.h"

#include <QVariant>

namespace lf {

QSize SizeHintCachingDelegate::sizeHint(const QStyleOptionViewItem& option,
                                        const QModelIndex& index) const {
    if (option.font != font_) {
        sizes_.clear();
        font_ = option.font;
    }
    Key key{index.column(), index.data(Qt::TextAlignmentRole).toInt(),
            index.data(Qt::DisplayRole).toString()};
    if (const auto it = sizes_.constFind(key); it != sizes_.constEnd()) return *it;
    const QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (sizes_.size() >= kMaxSizes) sizes_.clear();
    sizes_.insert(std::move(key), size);
    return size;
}

} // namespace lf
