#include "text_fit/column_fit.h"

#include <QHeaderView>
#include <QTableView>

#include <algorithm>
#include <vector>

namespace lf {

void fitColumnsToView(QTableView* view, int elastic, int leastElastic, int capped, int cap) {
    QHeaderView* header = view->horizontalHeader();
    const int columns = header->count();
    if (columns == 0 || elastic < 0 || elastic >= columns) return;
    std::vector<int> need(size_t(columns), 0);
    for (int c = 0; c < columns; ++c) {
        if (header->isSectionHidden(c)) continue;
        // sizeHintForColumn is protected in QTableView, public in its base.
        need[size_t(c)] =
            std::max(static_cast<const QAbstractItemView*>(view)->sizeHintForColumn(c),
                     header->sectionSizeHint(c));
    }
    if (capped >= 0 && capped < columns) need[size_t(capped)] = std::min(need[size_t(capped)], cap);
    const int least = std::min(need[size_t(elastic)], leastElastic);
    const int avail = view->viewport()->width();
    // The columns that fit whole beside the narrowest elastic column, in visual order.
    int used = 0;
    bool fits = true;
    for (int v = 0; v < columns; ++v) {
        const int c = header->logicalIndex(v);
        if (c == elastic || header->isSectionHidden(c)) continue;
        if (fits && least + used + need[size_t(c)] <= avail)
            used += need[size_t(c)];
        else
            fits = false;
    }
    for (int c = 0; c < columns; ++c)
        if (c != elastic && !header->isSectionHidden(c)) header->resizeSection(c, need[size_t(c)]);
    const int rest = std::max(least, avail - used);
    header->resizeSection(elastic, rest);
}

} // namespace lf
