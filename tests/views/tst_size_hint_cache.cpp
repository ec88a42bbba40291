// SizeHintCachingDelegate: the column widths a table fits to its contents are those the
// plain delegate gives, also after the texts change; repeated texts are measured once.
#include "text_fit/size_hint_cache.h"

#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace lf;

namespace {

// QTableView::sizeHintForColumn is protected; its base's is public.
int widthOf(const QTableView& view, int column) {
    return static_cast<const QAbstractItemView&>(view).sizeHintForColumn(column);
}

void fill(QStandardItemModel& model, const QString& suffix) {
    for (int r = 0; r < model.rowCount(); ++r) {
        model.setItem(r, 0, new QStandardItem(QStringLiteral("layer%1.conv").arg(r % 7) + suffix));
        auto* figure = new QStandardItem(QString::number(r * 1234.5 + suffix.size()));
        figure->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        model.setItem(r, 1, figure);
    }
}

} // namespace

class TestSizeHintCache : public QObject {
    Q_OBJECT
  private slots:
    void widthsEqualThePlainDelegates() {
        QStandardItemModel model(50, 2);
        fill(model, QString());
        QTableView plain, cached;
        plain.setModel(&model);
        cached.setModel(&model);
        auto* delegate = new SizeHintCachingDelegate(&cached);
        cached.setItemDelegate(delegate);
        for (const QString& suffix :
             {QString(), QStringLiteral("..a_much_longer_name"), QStringLiteral("_2")}) {
            fill(model, suffix);
            for (int c = 0; c < 2; ++c)
                QCOMPARE(widthOf(cached, c), widthOf(plain, c));
        }
        QVERIFY(delegate->cachedSizes() > 0);
        // Seven distinct names per fill and one figure per row.
        QVERIFY(delegate->cachedSizes() <= 3 * (7 + 50));
        QFont bigger = cached.font();
        bigger.setPointSizeF(bigger.pointSizeF() * 2);
        cached.setFont(bigger);
        plain.setFont(bigger);
        QCOMPARE(widthOf(cached, 0), widthOf(plain, 0));
    }
};

QTEST_MAIN(TestSizeHintCache)
#include "tst_size_hint_cache.moc"
