#include "text_fit/clipped_text.h"

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QTableView>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeView>

#include <algorithm>

namespace lf {

namespace {

// "dock/…/leaf": the nearest named ancestors and the widget, so that a report says where.
QString pathOf(const QWidget* w, const QWidget* root) {
    QStringList parts;
    parts << (w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className())
                                        : w->objectName());
    for (const QWidget* p = w->parentWidget(); p && parts.size() < 3; p = p->parentWidget()) {
        if (!p->objectName().isEmpty() && !p->objectName().startsWith(QLatin1String("qt_")))
            parts.prepend(p->objectName());
        if (p == root) break;
    }
    return parts.join(QLatin1Char('/'));
}

QString plain(const QString& text) {
    if (!Qt::mightBeRichText(text)) return text;
    QTextDocument doc;
    doc.setHtml(text);
    return doc.toPlainText();
}

void add(QList<ClippedText>& out, const QWidget* w, const QWidget* root, const QString& text,
         int need, int have, const char* unit) {
    out.append(
        {pathOf(w, root), plain(text).simplified().left(80),
         QStringLiteral("needs %1 %3, has %2").arg(need).arg(have).arg(QString::fromLatin1(unit))});
}

void checkLabel(const QLabel* l, const QWidget* root, QList<ClippedText>& out) {
    if (l->text().isEmpty()) return;
    const QMargins m = l->contentsMargins();
    if (l->wordWrap()) {
        const int need = l->heightForWidth(l->width());
        if (need > l->height() + 1) add(out, l, root, l->text(), need, l->height(), "px high");
    } else {
        const int need = l->sizeHint().width();
        if (need > l->width() + 1 && need - m.left() - m.right() > l->contentsRect().width() + 1)
            add(out, l, root, l->text(), need, l->width(), "px");
    }
}

void checkButton(const QAbstractButton* b, const QWidget* root, QList<ClippedText>& out) {
    if (b->text().isEmpty() || qobject_cast<const QToolButton*>(b)) return;
    const int need = b->sizeHint().width();
    if (need > b->width() + 1) add(out, b, root, b->text(), need, b->width(), "px");
}

// The rows on screen, in order (a tree's expanded children included).
QList<QModelIndex> rowsOnScreen(const QAbstractItemView* view) {
    QList<QModelIndex> rows;
    const QRect vp = view->viewport()->rect();
    if (auto* tree = qobject_cast<const QTreeView*>(view)) {
        for (QModelIndex i = tree->indexAt(QPoint(1, 1)); i.isValid() && rows.size() < 400;
             i = tree->indexBelow(i)) {
            if (tree->visualRect(i).top() > vp.bottom()) break;
            rows << i.siblingAtColumn(0);
        }
        return rows;
    }
    const QAbstractItemModel* m = view->model();
    for (int r = 0; r < m->rowCount() && rows.size() < 400; ++r) {
        const QModelIndex i = m->index(r, 0);
        const QRect rect = view->visualRect(i);
        if (rect.bottom() < 0) continue;
        if (rect.top() > vp.bottom()) break;
        rows << i;
    }
    return rows;
}

void checkItemView(const QAbstractItemView* view, const QWidget* root, QList<ClippedText>& out) {
    const QAbstractItemModel* m = view->model();
    if (!m) return;
    const QHeaderView* header = nullptr;
    bool wraps = false;
    if (auto* tree = qobject_cast<const QTreeView*>(view)) {
        header = tree->header();
        wraps = tree->wordWrap(); // a tree sizes each row for its wrapped text
    } else if (auto* table = qobject_cast<const QTableView*>(view)) {
        header = table->horizontalHeader();
        wraps = table->wordWrap() &&
                table->verticalHeader()->sectionResizeMode(0) == QHeaderView::ResizeToContents;
    }
    const int columns = m->columnCount();
    if (header && !header->isHidden()) {
        const int margin =
            2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
        for (int c = 0; c < columns; ++c) {
            if (header->isSectionHidden(c)) continue;
            const QString text = m->headerData(c, Qt::Horizontal).toString();
            const int need = header->fontMetrics().horizontalAdvance(text) + margin;
            const int x = header->sectionViewportPosition(c);
            const int shown =
                std::min(x + header->sectionSize(c), header->width()) - std::max(x, 0);
            if (!text.isEmpty() && shown > 0 && need > shown + 1)
                add(out, view, root, text, need, shown, "px");
        }
    }
    const int frame =
        2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
    for (const QModelIndex& row : rowsOnScreen(view)) {
        for (int c = 0; c < columns; ++c) {
            if (header && header->isSectionHidden(c)) continue;
            const QModelIndex i = row.siblingAtColumn(c);
            const QString text = i.data(Qt::DisplayRole).toString();
            if (text.isEmpty()) continue;
            // A cell cut by the viewport's edge shows part of its text (a column scrolled
            // out of sight entirely is there to scroll to).
            const QRect rect = view->visualRect(i) & view->viewport()->rect();
            if (rect.isEmpty()) continue;
            // Elided with the whole text in the tooltip: readable by pointing at it.
            if (view->textElideMode() != Qt::ElideNone &&
                !i.data(Qt::ToolTipRole).toString().isEmpty())
                continue;
            if (wraps) {
                const QRect need = view->fontMetrics().boundingRect(
                    QRect(0, 0, std::max(1, rect.width() - frame), 100000), Qt::TextWordWrap, text);
                if (need.height() > rect.height() + 1)
                    add(out, view, root, text, need.height(), rect.height(), "px high");
                continue;
            }
            const int need = view->sizeHintForIndex(i).width();
            if (need > rect.width() + 1) add(out, view, root, text, need, rect.width(), "px");
        }
    }
}

} // namespace

QList<ClippedText> clippedTexts(const QWidget* root) {
    QList<ClippedText> out;
    if (!root || !root->isVisible()) return out;
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    for (const QWidget* w : widgets) {
        // Hidden, or in a dock tabbed behind another: nothing of it is on the screen.
        if (!w->isVisible() || w->visibleRegion().isEmpty()) continue;
        if (w->window() != root->window()) continue; // a dialog on top is a window of its own
        if (auto* l = qobject_cast<const QLabel*>(w))
            checkLabel(l, root, out);
        else if (auto* b = qobject_cast<const QAbstractButton*>(w))
            checkButton(b, root, out);
        else if (auto* v = qobject_cast<const QAbstractItemView*>(w))
            checkItemView(v, root, out);
    }
    return out;
}

QString describe(const ClippedText& c) {
    return QStringLiteral("%1: “%2” %3").arg(c.widget, c.text, c.why);
}

} // namespace lf
