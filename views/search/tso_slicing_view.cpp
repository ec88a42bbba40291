#include "search/tso_slicing_view.h"

#include "metrics/units.h"
#include "network/dims.h"
#include "qt_text.h"
#include "text_fit/column_fit.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lf {

namespace {

QTableWidgetItem* cell(const QString& text, bool number = false) {
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(text); // whole when the column elides it
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString cycles(double c) {
    return QString::number(c, 'f', 0);
}

} // namespace

Schedule scheduleWithTsoTiles(const Network& net, const Schedule& sched,
                              const TsoSearchResult& result, std::vector<std::string>* skipped) {
    Schedule s = sched;
    for (const TsoLayerChoice& c : result.layers) {
        if (c.id < 0 || c.id >= net.size() || !c.fits) continue;
        const int gi = s.groupOf(c.id);
        if (gi < 0 || s.groups[size_t(gi)].layers.size() != 1) {
            if (skipped) skipped->push_back(net.layer(c.id).name);
            continue;
        }
        const LayerDims d = layerDims(net, c.id);
        LayerSchedule& ls = s.layers[size_t(c.id)];
        auto clamp = [](int64_t v, int64_t hi) {
            return std::clamp<int64_t>(v, 1, std::max<int64_t>(1, hi));
        };
        const int64_t G = std::max<int64_t>(1, d.G);
        ls.tile[size_t(Dim::z)] = clamp((c.tile.tm + G - 1) / G, d.DzPerGroup());
        ls.tile[size_t(Dim::i)] = clamp(c.tile.tn, d.DiPerGroup());
        ls.tile[size_t(Dim::y)] = clamp(c.tile.tr, d.Dy);
        ls.tile[size_t(Dim::x)] = clamp(c.tile.tc, d.Dx);
        s.explicit_layer[size_t(c.id)] = 1;
    }
    return s;
}

TsoSlicingView::TsoSlicingView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("tsoSlicingView"));
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    table_ = new QTableWidget(0, 9, this);
    table_->setObjectName(QStringLiteral("tsoTable"));
    table_->setHorizontalHeaderLabels({tr("Layer"), tr("Partition"), tr("TLT"), tr("TLE slice"),
                                       tr("Tile M×N×R×C"), tr("MAC cycles"), tr("DRAM cycles"),
                                       tr("Time (cycles)"), tr("Fits")});
    table_->horizontalHeaderItem(1)->setToolTip(tr("Alg. 2: kernel (KS), kernel and output rows "
                                                   "(KS&OFM) or output rows (OFM) over the TLEs"));
    table_->horizontalHeaderItem(2)->setToolTip(
        tr("§IV-D: input (IS), output (OS) or weight (WS) stationary TLT schedule"));
    table_->horizontalHeaderItem(4)->setToolTip(
        tr("T_M filters × T_N channels × T_R × T_C outputs (Alg. 3, Eq. 2)"));
    table_->horizontalHeaderItem(7)->setToolTip(tr("Eq. 6: T_MAC + T_DRAM"));
    table_->verticalHeader()->setVisible(false);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Nine columns in a bottom dock: the figures whole, the layer name elided in the middle,
    // the rest of the columns there to scroll to (fitColumnsToView).
    table_->horizontalHeader()->setStretchLastSection(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    table_->viewport()->installEventFilter(this);
    run_ = new QPushButton(tr("Run Search"), this);
    run_->setObjectName(QStringLiteral("tsoRunButton"));
    apply_ = new QPushButton(tr("Apply Tiles"), this);
    apply_->setObjectName(QStringLiteral("tsoApplyButton"));
    apply_->setToolTip(tr("Write each unfused layer's TSO tile into its schedule (one undo "
                          "step). The partition and TLT schedule are shown only: the schedule "
                          "format has no place for them."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(summary_, 1);
    buttons->addWidget(run_);
    buttons->addWidget(apply_);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addLayout(buttons);
    v->addWidget(table_, 1);
    connect(run_, &QPushButton::clicked, this, &TsoSlicingView::runRequested);
    connect(apply_, &QPushButton::clicked, this, &TsoSlicingView::applyRequested);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && size_t(row) < result_.layers.size())
            emit layerActivated(result_.layers[size_t(row)].id);
    });
    clear(tr("Run the TSO slicing search on a multicore preset (Optimize ▸ TSO Slicing)."));
}

void TsoSlicingView::setResult(const Network& net, const Hardware& hw,
                               const TsoSearchResult& result, bool burstAware) {
    result_ = result;
    hasResult_ = true;
    table_->setRowCount(int(result.layers.size()));
    for (size_t r = 0; r < result.layers.size(); ++r) {
        const TsoLayerChoice& c = result.layers[r];
        const int row = int(r);
        table_->setItem(row, 0, cell(qs(net.layer(c.id).name)));
        table_->setItem(row, 1, cell(QString::fromLatin1(toString(c.partition))));
        table_->setItem(row, 2, cell(QString::fromLatin1(toString(c.schedule))));
        table_->setItem(row, 3,
                        cell(tr("%1 rows × %2 filters").arg(c.slice.rows).arg(c.slice.filters)));
        table_->setItem(row, 4,
                        cell(QStringLiteral("%1×%2×%3×%4")
                                 .arg(c.tile.tm)
                                 .arg(c.tile.tn)
                                 .arg(c.tile.tr)
                                 .arg(c.tile.tc)));
        table_->setItem(row, 5, cell(cycles(c.mac_cycles), true));
        table_->setItem(row, 6, cell(cycles(c.dram_cycles), true));
        table_->setItem(row, 7, cell(cycles(c.time_cycles), true));
        table_->setItem(row, 8, cell(c.fits ? tr("yes") : tr("no tile fits")));
    }
    const double seconds =
        hw.frequency_mhz > 0 ? result.total_cycles / (hw.frequency_mhz * 1e6) : 0;
    const QString cores =
        hw.cores ? tr("%1 TLE × %2 TLT").arg(hw.cores->tle).arg(hw.cores->tlt) : QString();
    summary_->setText(tr("<b>%1</b> on %2 (%3), TSO-%4: %5 cycles (%6) over %n layer(s); %7 tiles "
                         "costed in %8 ms.",
                         nullptr, int(result.layers.size()))
                          .arg(qs(net.name()), qs(hw.name), cores,
                               burstAware ? QStringLiteral("burst") : QStringLiteral("noburst"))
                          .arg(cycles(result.total_cycles), qs(humanTime(seconds)))
                          .arg(qs(humanCount(double(result.evaluated))))
                          .arg(result.seconds * 1000.0, 0, 'f', 1));
    apply_->setEnabled(!result.layers.empty());
    fitColumns();
}

void TsoSlicingView::fitColumns() {
    fitColumnsToView(table_, 0, table_->fontMetrics().horizontalAdvance(QStringLiteral("conv1…")));
}

bool TsoSlicingView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Resize) fitColumns();
    return QWidget::eventFilter(watched, event);
}

void TsoSlicingView::clear(const QString& message) {
    result_ = {};
    hasResult_ = false;
    table_->setRowCount(0);
    fitColumns();
    summary_->setText(message);
    apply_->setEnabled(false);
}

void TsoSlicingView::setRunEnabled(bool enabled) {
    run_->setEnabled(enabled);
}

} // namespace lf
