#include "repro/repro_report_view.h"

#include "qt_text.h"
#include "repro/repro_report.h"
#include "repro_plots/repro_plots.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lf {

namespace {

enum Column { colWhere, colMeasured, colPaper, colOurs, colRatio, colStatus, colCount };
constexpr int kRowIdRole = Qt::UserRole + 1;
constexpr int kPaperRole = Qt::UserRole + 2;

// Translucent tints readable on the light and the dark palette.
QColor statusTint(repro::RowStatus s) {
    switch (s) {
    case repro::RowStatus::match:
        return QColor(0, 158, 115, 70);
    case repro::RowStatus::close:
        return QColor(230, 159, 0, 80);
    case repro::RowStatus::differs:
        return QColor(213, 94, 0, 80);
    }
    return {};
}

QString esc(const std::string& s) {
    return qs(s).toHtmlEscaped();
}

QString countsText(const repro::StatusCounts& c) {
    return ReproReportView::tr("%1 rows: %2 match, %3 close, %4 differ")
        .arg(c.total())
        .arg(c.match)
        .arg(c.close)
        .arg(c.differs);
}

} // namespace

ReproReportView::ReproReportView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("reproReportView"));
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("reproSummary"));
    layout->addWidget(summary_);

    tabs_ = new QTabWidget(this);
    layout->addWidget(tabs_, 1);

    // --- Rows ---
    auto* rowsPage = new QWidget(tabs_);
    auto* rowsLayout = new QVBoxLayout(rowsPage);
    auto* filters = new QHBoxLayout;
    paperBox_ = new QComboBox(rowsPage);
    paperBox_->addItem(tr("All papers"), -1);
    for (repro::Paper p : repro::kAllPapers)
        paperBox_->addItem(qs(repro::paperName(p)), int(p));
    statusBox_ = new QComboBox(rowsPage);
    statusBox_->addItem(tr("Any status"), -1);
    for (auto s : {repro::RowStatus::match, repro::RowStatus::close, repro::RowStatus::differs})
        statusBox_->addItem(qs(repro::toString(s)), int(s));
    search_ = new QLineEdit(rowsPage);
    search_->setPlaceholderText(tr("Filter rows (figure, quantity, note)…"));
    search_->setClearButtonEnabled(true);
    filters->addWidget(paperBox_);
    filters->addWidget(statusBox_);
    filters->addWidget(search_, 1);
    rowsLayout->addLayout(filters);

    auto* split = new QSplitter(Qt::Vertical, rowsPage);
    tree_ = new QTreeWidget(split);
    tree_->setColumnCount(colCount);
    tree_->setHeaderLabels(
        {tr("Where"), tr("Measured"), tr("Paper"), tr("LayerFuse"), tr("Ratio"), tr("Status")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(false);
    tree_->setTextElideMode(Qt::ElideRight);
    tree_->header()->setSectionResizeMode(colMeasured, QHeaderView::Stretch);
    tree_->header()->setStretchLastSection(false);
    details_ = new QTextBrowser(split);
    details_->setOpenLinks(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    rowsLayout->addWidget(split, 1);

    auto* buttons = new QHBoxLayout;
    openButton_ = new QPushButton(tr("&Open in Studio"), rowsPage);
    openButton_->setToolTip(tr("Open the network, hardware and schedule this row was computed on"));
    openButton_->setEnabled(false);
    auto* save = new QPushButton(tr("&Save Report…"), rowsPage);
    save->setToolTip(tr("Write the report with its plots as one HTML file"));
    buttons->addWidget(openButton_);
    buttons->addStretch(1);
    buttons->addWidget(save);
    rowsLayout->addLayout(buttons);
    tabs_->addTab(rowsPage, tr("Rows"));

    // --- Plots ---
    auto* plotsPage = new QSplitter(Qt::Horizontal, tabs_);
    plotList_ = new QListWidget(plotsPage);
    plotList_->setTextElideMode(Qt::ElideMiddle);
    auto* plotPane = new QWidget(plotsPage);
    auto* plotLayout = new QVBoxLayout(plotPane);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    chartView_ = new QChartView(plotPane);
    chartView_->setRenderHint(QPainter::Antialiasing);
    chartView_->setMinimumSize(360, 260);
    plotNote_ = new QLabel(plotPane);
    plotNote_->setWordWrap(true);
    plotLayout->addWidget(chartView_, 1);
    plotLayout->addWidget(plotNote_);
    plotsPage->setStretchFactor(0, 1);
    plotsPage->setStretchFactor(1, 3);
    plotsPage->setSizes({fontMetrics().horizontalAdvance(QLatin1Char('x')) * 40, 700});
    // Names elided in the middle keep the paper and the figure readable; tooltips are whole.
    plotList_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    tabs_->addTab(plotsPage, tr("Plots"));

    connect(paperBox_, &QComboBox::currentIndexChanged, this, &ReproReportView::applyFilters);
    connect(statusBox_, &QComboBox::currentIndexChanged, this, &ReproReportView::applyFilters);
    connect(search_, &QLineEdit::textChanged, this, &ReproReportView::applyFilters);
    connect(tree_, &QTreeWidget::currentItemChanged, this, &ReproReportView::showDetails);
    connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QString id = item->data(0, kRowIdRole).toString();
        if (!id.isEmpty() && openButton_->isEnabled()) emit openRequested(id);
    });
    connect(openButton_, &QPushButton::clicked, this, [this] {
        const QString id = selectedRowId();
        if (!id.isEmpty()) emit openRequested(id);
    });
    connect(save, &QPushButton::clicked, this, &ReproReportView::saveRequested);
    connect(plotList_, &QListWidget::currentTextChanged, this, [this] {
        if (QListWidgetItem* it = plotList_->currentItem())
            showPlot(it->data(kRowIdRole).toString());
    });
    setReports({});
}

void ReproReportView::setReports(std::vector<repro::PaperReport> reports) {
    reports_ = std::move(reports);
    QStringList perPaper;
    for (const repro::PaperReport& r : reports_)
        perPaper << qs(repro::summaryLine(r));
    summary_->setText(reports_.empty()
                          ? tr("No paper reproduced yet.")
                          : countsText(repro::countStatuses(reports_)) + QStringLiteral("<br>") +
                                perPaper.join(QStringLiteral("<br>")));
    rebuildTree();
    plotList_->clear();
    for (const repro::PaperReport& r : reports_)
        for (const repro::Plot& p : r.plots) {
            auto* item = new QListWidgetItem(
                qs(std::string(repro::paperName(p.paper)) + " " + p.where + ": " + p.title),
                plotList_);
            item->setData(kRowIdRole, qs(p.id));
            item->setToolTip(item->text());
        }
    shownPlot_.clear();
    setChart(new QChart);
    plotNote_->clear();
    if (plotList_->count() > 0) plotList_->setCurrentRow(0);
}

void ReproReportView::rebuildTree() {
    tree_->clear();
    for (const repro::PaperReport& report : reports_) {
        auto* paper = new QTreeWidgetItem(tree_);
        paper->setText(
            colWhere, QStringLiteral("%1 — %2").arg(qs(repro::paperName(report.paper)),
                                                    countsText(repro::countStatuses(report.rows))));
        paper->setData(0, kPaperRole, int(report.paper));
        paper->setFirstColumnSpanned(true);
        QFont bold = paper->font(0);
        bold.setBold(true);
        paper->setFont(colWhere, bold);
        for (const repro::Row& r : report.rows) {
            auto* item = new QTreeWidgetItem(paper);
            item->setData(0, kRowIdRole, qs(r.id));
            item->setData(0, kPaperRole, int(r.paper));
            item->setText(colWhere, qs(r.where));
            item->setText(colMeasured, qs(r.measured));
            item->setText(colPaper, qs(repro::paperValueText(r)));
            item->setText(colOurs, qs(repro::oursText(r)));
            item->setText(colRatio, QString::number(r.ratio(), 'g', 3));
            item->setText(colStatus, qs(repro::toString(r.status)));
            item->setBackground(colStatus, statusTint(r.status));
            item->setToolTip(colMeasured, qs(r.measured));
            item->setToolTip(colPaper, qs(r.paper_text));
            if (!r.note.empty()) item->setToolTip(colStatus, qs(r.note));
            for (int c : {colPaper, colOurs, colRatio})
                item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    tree_->expandAll();
    // Value columns as wide as their text up to a limit (a long printed value is elided and
    // whole in the details); what is measured takes the rest.
    const int cap = fontMetrics().horizontalAdvance(QLatin1Char('x')) * 24;
    for (int c : {colWhere, colPaper, colOurs, colRatio, colStatus}) {
        tree_->resizeColumnToContents(c);
        tree_->setColumnWidth(c, std::min(tree_->columnWidth(c), cap));
    }
    applyFilters();
    showDetails();
}

void ReproReportView::applyFilters() {
    const int paper = paperBox_->currentData().toInt();
    const int status = statusBox_->currentData().toInt();
    const QString text = search_->text().trimmed();
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* paperItem = tree_->topLevelItem(i);
        const bool paperShown = paper < 0 || paperItem->data(0, kPaperRole).toInt() == paper;
        int shown = 0;
        for (int j = 0; j < paperItem->childCount(); ++j) {
            QTreeWidgetItem* item = paperItem->child(j);
            const repro::Row* r = row(item->data(0, kRowIdRole).toString());
            bool visible = paperShown && r;
            if (visible && status >= 0) visible = int(r->status) == status;
            if (visible && !text.isEmpty()) {
                const QString hay =
                    qs(r->id + " " + r->where + " " + r->measured + " " + r->note + " " + r->setup);
                visible = hay.contains(text, Qt::CaseInsensitive);
            }
            item->setHidden(!visible);
            shown += visible ? 1 : 0;
        }
        paperItem->setHidden(!paperShown || (shown == 0 && (status >= 0 || !text.isEmpty())));
    }
}

void ReproReportView::setPaperFilter(std::optional<repro::Paper> paper) {
    paperBox_->setCurrentIndex(paper ? paperBox_->findData(int(*paper)) : 0);
}

void ReproReportView::setStatusFilter(std::optional<repro::RowStatus> status) {
    statusBox_->setCurrentIndex(status ? statusBox_->findData(int(*status)) : 0);
}

void ReproReportView::setTextFilter(const QString& text) {
    search_->setText(text);
}

int ReproReportView::visibleRowCount() const {
    int n = 0;
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* paperItem = tree_->topLevelItem(i);
        if (paperItem->isHidden()) continue;
        for (int j = 0; j < paperItem->childCount(); ++j)
            n += paperItem->child(j)->isHidden() ? 0 : 1;
    }
    return n;
}

const repro::Row* ReproReportView::row(const QString& id) const {
    if (id.isEmpty()) return nullptr;
    const std::string key = id.toStdString();
    for (const repro::PaperReport& report : reports_)
        for (const repro::Row& r : report.rows)
            if (r.id == key) return &r;
    return nullptr;
}

QString ReproReportView::selectedRowId() const {
    const QTreeWidgetItem* item = tree_->currentItem();
    return item ? item->data(0, kRowIdRole).toString() : QString();
}

bool ReproReportView::selectRow(const QString& id) {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* paperItem = tree_->topLevelItem(i);
        for (int j = 0; j < paperItem->childCount(); ++j) {
            QTreeWidgetItem* item = paperItem->child(j);
            if (item->data(0, kRowIdRole).toString() != id) continue;
            if (item->isHidden()) {
                setPaperFilter(std::nullopt);
                setStatusFilter(std::nullopt);
                setTextFilter({});
            }
            tabs_->setCurrentIndex(0);
            tree_->setCurrentItem(item);
            tree_->scrollToItem(item);
            return true;
        }
    }
    return false;
}

void ReproReportView::showDetails() {
    const QTreeWidgetItem* item = tree_->currentItem();
    const repro::Row* r = item ? row(item->data(0, kRowIdRole).toString()) : nullptr;
    openButton_->setEnabled(r && r->open.has_value());
    if (r) return showRowDetails(*r);
    if (item)
        for (const repro::PaperReport& report : reports_)
            if (int(report.paper) == item->data(0, kPaperRole).toInt())
                return showPaperDetails(report);
    details_->setHtml(reports_.empty() ? QString()
                                       : tr("<p>Select a row to see how it was computed.</p>"));
}

void ReproReportView::showPaperDetails(const repro::PaperReport& report) {
    QString h = QStringLiteral("<h3>%1</h3><p>%2</p><p>%3</p>")
                    .arg(qs(repro::paperName(report.paper)), esc(repro::paperTitle(report.paper)),
                         esc(repro::summaryLine(report)));
    if (!report.not_reproduced.empty()) {
        h += tr("<p><b>Published figures not reproduced:</b></p><ul>");
        for (const std::string& s : report.not_reproduced)
            h += QStringLiteral("<li>%1</li>").arg(esc(s));
        h += QStringLiteral("</ul>");
    }
    details_->setHtml(h);
}

void ReproReportView::showRowDetails(const repro::Row& r) {
    QString h = QStringLiteral("<h3>%1 %2: %3</h3>")
                    .arg(qs(repro::paperName(r.paper)), esc(r.where), esc(r.measured));
    h += tr("<p>Paper: <b>%1</b> · LayerFuse: <b>%2</b> · ratio %3 · <b>%4</b></p>")
             .arg(esc(repro::paperValueText(r)), esc(repro::oursText(r)))
             .arg(r.ratio(), 0, 'g', 4)
             .arg(qs(repro::toString(r.status)));
    if (!r.tolerance_why.empty()) h += tr("<p>Tolerance: %1</p>").arg(esc(r.tolerance_why));
    if (!r.note.empty()) h += tr("<p>Why: %1</p>").arg(esc(r.note));
    if (!r.setup.empty()) h += tr("<p>Set-up: %1</p>").arg(esc(r.setup));
    if (r.open) {
        QString target = esc(r.open->network + " on " + r.open->hardware);
        if (!r.open->hw_change.empty())
            target += QStringLiteral(" (%1)").arg(esc(r.open->hw_change));
        if (!r.open->schedule_note.empty())
            target += QStringLiteral(", %1").arg(esc(r.open->schedule_note));
        h += tr("<p>Opens in the studio: %1</p>").arg(target);
    } else {
        h += tr("<p>Not a single network and schedule: nothing to open in the studio.</p>");
    }
    h += QStringLiteral("<p><small>%1</small></p>").arg(esc(r.id));
    details_->setHtml(h);
}

void ReproReportView::setChart(QChart* chart) {
    // The view takes the new chart but releases the old one without deleting it.
    QChart* previous = chartView_->chart();
    chartView_->setChart(chart);
    delete previous;
}

bool ReproReportView::showPlot(const QString& plotId) {
    for (const repro::PaperReport& report : reports_)
        for (const repro::Plot& p : report.plots) {
            if (qs(p.id) != plotId) continue;
            setChart(repro::makePlotChart(p));
            plotNote_->setText(qs(p.note));
            shownPlot_ = plotId;
            for (int i = 0; i < plotList_->count(); ++i)
                if (plotList_->item(i)->data(kRowIdRole).toString() == plotId &&
                    plotList_->currentRow() != i)
                    plotList_->setCurrentRow(i);
            return true;
        }
    return false;
}

} // namespace lf
