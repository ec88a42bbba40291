#include "search/trade_off_dialog.h"

#include "metrics/metric_format.h"
#include "metrics/units.h"
#include "qt_text.h"
#include "search/objective.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace lf {

TradeOffDialog::TradeOffDialog(const Metrics& before, const Metrics& after,
                               const QString& objective, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Apply the Search Result?"));
    auto* v = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("The search minimised <b>%1</b>. Every figure before and after (lower is better; "
           "worse figures in red):")
            .arg(objective.toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    v->addWidget(intro);
    struct Row {
        QString name;
        double a, b;
        std::function<std::string(double)> text;
    };
    const Totals &x = before.totals, &y = after.totals;
    auto count = [](double n) { return humanCount(n); };
    const std::vector<Row> rows = {
        {tr("DRAM accesses"), double(x.dram_accesses), double(y.dram_accesses), count},
        {tr("DRAM bytes"), double(x.dram_bytes), double(y.dram_bytes),
         [](double n) { return humanBytes(n); }},
        {tr("MACs"), double(x.macs), double(y.macs), count},
        {tr("   recompute"), double(x.recompute_macs), double(y.recompute_macs), count},
        {tr("Buffer peak"), double(x.buffer_peak_bytes), double(y.buffer_peak_bytes),
         [](double n) { return humanBytes(n); }},
        {tr("Latency"), x.latency_s, y.latency_s, [](double s) { return humanTime(s); }},
        {tr("Energy"), x.energy.total(), y.energy.total(), [](double e) { return humanEnergy(e); }},
        {tr("Energy × delay"), objectiveValue(before, Objective::edp),
         objectiveValue(after, Objective::edp), [](double v) { return humanEdp(v); }},
    };
    table_ = new QTableWidget(int(rows.size()), 4, this);
    table_->setObjectName(QStringLiteral("tradeOff"));
    table_->setHorizontalHeaderLabels({tr("Figure"), tr("Before"), tr("After"), tr("Change")});
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection); // a statement, not a choice
    table_->setFocusPolicy(Qt::NoFocus);
    const QColor worse(0xd0, 0x45, 0x3a), better(0x2e, 0x8b, 0x57);
    for (int r = 0; r < int(rows.size()); ++r) {
        const Row& row = rows[size_t(r)];
        auto cell = [&](int c, const QString& t) {
            auto* item = new QTableWidgetItem(t);
            if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
            return item;
        };
        cell(0, row.name);
        cell(1, qs(row.text(row.a)));
        cell(2, qs(row.text(row.b)));
        const QString change = row.a > 0 || row.a == row.b
                                   ? percentChange(row.a, row.b)
                                   : QStringLiteral("+%1").arg(qs(row.text(row.b - row.a)));
        QTableWidgetItem* c = cell(3, change);
        if (row.b != row.a) c->setForeground(row.b > row.a ? worse : better);
        if (row.b > row.a) worse_ << row.name.trimmed();
    }
    // Every row shown and no blank below them; the figures' names take the width left over.
    QHeaderView* header = table_->horizontalHeader();
    table_->resizeColumnsToContents();
    table_->resizeRowsToContents();
    table_->setMinimumWidth(header->length() + 2 * table_->frameWidth());
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setFixedHeight(header->sizeHint().height() + table_->verticalHeader()->length() +
                           2 * table_->frameWidth());
    v->addWidget(table_);
    auto* buttons = new QDialogButtonBox(this);
    QPushButton* apply = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    apply->setObjectName(QStringLiteral("applyTradeOff"));
    apply->setDefault(true); // Return applies, as it started the search
    buttons->addButton(QDialogButtonBox::Discard)->setObjectName(QStringLiteral("discardTradeOff"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons->button(QDialogButtonBox::Discard), &QPushButton::clicked, this,
            &QDialog::reject);
    v->addWidget(buttons);
    resize(std::max(520, sizeHint().width()), sizeHint().height());
}

} // namespace lf
