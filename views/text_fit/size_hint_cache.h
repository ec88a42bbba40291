// SizeHintCachingDelegate: a QStyledItemDelegate that remembers the size hint of each
// (column, text, alignment) it measured. Fitting a table's columns asks for the size hint of
// every row (up to a thousand per column) after every edit, and each hint lays the text
// out; the texts of an edit are mostly those of the previous one. Only for models whose
// cells differ in nothing else that sizes them (no icons, fonts or check boxes by row).
#pragma once

#include <QFont>
#include <QHash>
#include <QStyledItemDelegate>

namespace lf {

class SizeHintCachingDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // Forget every size (after a style change; font changes are noticed).
    void clear() { sizes_.clear(); }
    qsizetype cachedSizes() const { return sizes_.size(); }

  private:
    struct Key {
        int column = 0;
        int alignment = 0;
        QString text;
        bool operator==(const Key&) const = default;
    };
    friend size_t qHash(const Key& k, size_t seed) {
        return qHashMulti(seed, k.column, k.alignment, k.text);
    }
    mutable QHash<Key, QSize> sizes_;
    mutable QFont font_;
    // Beyond this many texts the cache starts afresh (figures of long edit sessions).
    static constexpr qsizetype kMaxSizes = 50000;
};

} // namespace lf
