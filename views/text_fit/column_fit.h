// fitColumnsToView: sizes a table's columns so that every column in sight is whole. Each
// column gets the width of its contents, except `elastic` (a name column, elided in the
// middle with its whole text in the tooltip), which takes what the columns after it leave:
// as many of them as fit are shown whole and the next one starts right at the view's edge,
// there to scroll to, never cut. Called again when the view or the contents change size.
#pragma once

class QTableView;

namespace lf {

// `leastElastic`: the narrowest the elastic column may become (px); `capped` columns (may be
// empty) are limited to `cap` px (long group names, elided in the middle too).
void fitColumnsToView(QTableView* view, int elastic, int leastElastic, int capped = -1,
                      int cap = 0);

} // namespace lf
