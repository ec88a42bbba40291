#include "search/explore_dialog.h"

#include "metrics/units.h"
#include "qt_text.h"
#include "search/front_rows.h"
#include "search/pareto_chart.h"
#include "search/search_task.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>

#include <numeric>

namespace lf {

namespace {

// The figures of every front point without building its schedule (search/front_rows.h: each
// segment's group is costed once, the rows add them up as evaluate() does); a schedule is
// built only for the point that is applied. In blocks, for progress and cancel.
std::vector<ExploreFrontRow> costFront(const Network& net, const Hardware& hw,
                                       const ExploreResult& result, const SearchControl& control,
                                       double from) {
    constexpr size_t kBlock = 512;
    FrontRows costs(net, hw, result);
    const size_t n = result.front.size();
    std::vector<ExploreFrontRow> rows;
    rows.reserve(n);
    for (size_t begin = 0; begin < n && !control.cancelled(); begin += kBlock) {
        std::vector<size_t> block(std::min(n, begin + kBlock) - begin);
        std::iota(block.begin(), block.end(), begin);
        costs.prepare(block);
        for (size_t k : block) {
            const FrontRow f = costs.row(k);
            rows.push_back({f.point, f.recompute_macs, f.energy_pj, f.latency_cycles, f.latency_s,
                            f.groups, f.fused_groups, f.fits});
        }
        control.report(from + (1 - from) * double(begin + block.size()) / double(n),
                       "costing point " + std::to_string(begin + block.size()) + " of " +
                           std::to_string(n));
    }
    return rows;
}

} // namespace

namespace {

QComboBox* combo(QWidget* parent, const QString& objectName,
                 const std::vector<std::pair<QString, QString>>& items) {
    auto* c = new QComboBox(parent);
    c->setObjectName(objectName);
    for (const auto& [text, data] : items)
        c->addItem(text, data);
    return c;
}

void selectData(QComboBox* c, const QString& data) {
    if (const int i = c->findData(data); i >= 0) c->setCurrentIndex(i);
}

} // namespace

ExploreDialog::ExploreDialog(QWidget* parent) : QDialog(parent), task_(new SearchTask(this)) {
    setObjectName(QStringLiteral("exploreDialog"));
    setWindowTitle(tr("Explore the Pareto Front"));
    buildUi();
    connect(task_, &SearchTask::progress, this, [this](double f, const QString& step) {
        progress_->setValue(int(f * 1000.0));
        status_->setText(step);
    });
    connect(task_, &SearchTask::finished, this, &ExploreDialog::onFinished);
    connect(task_, &SearchTask::failed, this, [this](const QString& message) {
        status_->setText(tr("The exploration failed: %1").arg(message));
    });
    connect(chart_, &ParetoChartWidget::pointClicked, this, &ExploreDialog::applyPoint);
    connect(chart_, &ParetoChartWidget::pointHovered, this, [this](int k) {
        if (k < 0) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), summary(k), chart_);
    });
    setRunning(false);
    resize(900, 640);
}

ExploreDialog::~ExploreDialog() = default;

void ExploreDialog::buildUi() {
    auto* options = new QGroupBox(tr("Search space (ConvFusion §V-A)"), this);
    auto* grid = new QGridLayout(options);
    depth_ = new QSpinBox(options);
    depth_->setObjectName(QStringLiteral("maxDepth"));
    depth_->setRange(1, 8);
    depth_->setToolTip(tr("Longest fused segment, in layers (1: no fusion)"));
    depth_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    tiles_ = combo(options, QStringLiteral("tileSet"),
                   {{tr("Divisors"), QStringLiteral("divisors")},
                    {tr("Powers of two"), QStringLiteral("pow2")},
                    {tr("All sizes"), QStringLiteral("all")}});
    tiles_->setToolTip(tr("Candidate tile sizes per dimension. “All sizes” is exhaustive and can "
                          "take minutes on large networks."));
    strategy_ = combo(options, QStringLiteral("strategy"),
                      {{tr("Recompute (ConvFusion)"), QStringLiteral("recompute")},
                       {tr("Reuse buffers (HW-Flow-Fusion)"), QStringLiteral("reuse")},
                       {tr("Optimus"), QStringLiteral("optimus")}});
    levels_ = combo(options, QStringLiteral("levelSpace"),
                    {{tr("Sound folding"), QStringLiteral("sound")},
                     {tr("All legal levels"), QStringLiteral("legal")}});
    levels_->setToolTip(tr("Store/compute levels searched: “sound” keeps the buffer folds the "
                           "closed form sizes correctly (ConvFusion §III-C)."));
    recompute_ = new QCheckBox(tr("Allow recompute"), options);
    recompute_->setObjectName(QStringLiteral("allowRecompute"));
    resident_ = new QCheckBox(tr("Try weights resident"), options);
    resident_->setObjectName(QStringLiteral("tryResident"));
    fitOnly_ = new QCheckBox(tr("Only schedules that fit the buffer"), options);
    fitOnly_->setObjectName(QStringLiteral("fitOnly"));
    grid->addWidget(new QLabel(tr("Max fusion depth"), options), 0, 0);
    grid->addWidget(depth_, 0, 1);
    grid->addWidget(new QLabel(tr("Tiles"), options), 0, 2);
    grid->addWidget(tiles_, 0, 3);
    grid->addWidget(new QLabel(tr("Strategy"), options), 1, 0);
    grid->addWidget(strategy_, 1, 1);
    grid->addWidget(new QLabel(tr("Levels"), options), 1, 2);
    grid->addWidget(levels_, 1, 3);
    grid->addWidget(recompute_, 0, 4);
    grid->addWidget(resident_, 1, 4);
    grid->addWidget(fitOnly_, 2, 4);
    runButton_ = new QPushButton(tr("&Run"), options);
    runButton_->setObjectName(QStringLiteral("runButton"));
    runButton_->setDefault(true);
    cancelButton_ = new QPushButton(tr("&Cancel"), options);
    cancelButton_->setObjectName(QStringLiteral("cancelButton"));
    grid->addWidget(runButton_, 0, 5);
    grid->addWidget(cancelButton_, 1, 5);
    grid->setColumnStretch(6, 1);
    connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancelButton_, &QPushButton::clicked, this, &ExploreDialog::cancel);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    progress_->setMaximumHeight(8);
    status_ = new QLabel(tr("Run the exploration to see the network's Pareto front."), this);
    status_->setObjectName(QStringLiteral("exploreStatus"));
    status_->setWordWrap(true);

    chart_ = new ParetoChartWidget(this);
    auto* hint = new QLabel(tr("Hover a point for its figures; click it to apply its schedule "
                               "(one undo step). The open schedule is the hollow square."),
                            this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    csvButton_ = buttons->addButton(tr("Export &CSV…"), QDialogButtonBox::ActionRole);
    csvButton_->setObjectName(QStringLiteral("exportCsvButton"));
    imageButton_ = buttons->addButton(tr("Export C&hart…"), QDialogButtonBox::ActionRole);
    imageButton_->setObjectName(QStringLiteral("exportChartButton"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(csvButton_, &QPushButton::clicked, this, &ExploreDialog::exportCsvInteractively);
    connect(imageButton_, &QPushButton::clicked, this, &ExploreDialog::exportChartInteractively);

    auto* v = new QVBoxLayout(this);
    v->addWidget(options);
    v->addWidget(progress_);
    v->addWidget(status_);
    v->addWidget(chart_, 1);
    v->addWidget(hint);
    v->addWidget(buttons);
    setOptions(ExploreOptions{});
}

ExploreOptions ExploreDialog::options() const {
    ExploreOptions o;
    o.max_depth = depth_->value();
    o.tiles = tileSetFromString(tiles_->currentData().toString().toStdString())
                  .value_or(TileSet::divisors);
    o.strategy = strategyFromString(strategy_->currentData().toString().toStdString())
                     .value_or(Strategy::recompute);
    o.levels = levels_->currentData().toString() == QLatin1String("legal") ? LevelSpace::legal
                                                                           : LevelSpace::sound;
    o.allow_recompute = recompute_->isChecked();
    o.try_resident_weights = resident_->isChecked();
    o.max_buffer_bytes = fitOnly_->isChecked() ? state_.hardware.buffer.bytes : 0;
    return o;
}

void ExploreDialog::setOptions(const ExploreOptions& o) {
    depth_->setValue(o.max_depth);
    selectData(tiles_, QString::fromLatin1(toString(o.tiles)));
    selectData(strategy_, QString::fromLatin1(toString(o.strategy)));
    selectData(levels_,
               o.levels == LevelSpace::legal ? QStringLiteral("legal") : QStringLiteral("sound"));
    recompute_->setChecked(o.allow_recompute);
    resident_->setChecked(o.try_resident_weights);
    fitOnly_->setChecked(o.max_buffer_bytes > 0);
}

void ExploreDialog::setState(const StudioState& state) {
    state_ = state;
    if (result_ && (!(state.network == frontNetwork_) || !(state.hardware == frontHardware_))) {
        // The front's schedules belong to the old network or hardware: never apply them here.
        result_.reset();
        rows_.clear();
        updateChart();
        status_->setText(tr("The network or the hardware changed: run the exploration again."));
    }
    runButton_->setEnabled(!task_->isRunning() && !state.network.empty());
    if (!result_) updateChart(); // the title and capacity of the open problem
    updateCurrent();
}

bool ExploreDialog::run() {
    if (state_.network.empty() || task_->isRunning()) return false;
    const Network net = state_.network;
    const Hardware hw = state_.hardware;
    const ExploreOptions opt = options();
    const bool started = task_->start(
        tr("Exploring %1").arg(qs(net.name())),
        [this, net, hw, opt](const SearchControl& control) -> std::function<void()> {
            // The exploration takes 90 % of the bar, evaluating the front's points the rest.
            SearchControl inner;
            inner.cancel = control.cancel;
            inner.progress = [&control](double f, const std::string& what) {
                control.report(0.9 * f, what);
            };
            auto r = std::make_shared<const ExploreResult>(explore(net, hw, opt, inner));
            if (r->cancelled || control.cancelled()) return {};
            std::vector<ExploreFrontRow> rows = costFront(net, hw, *r, control, 0.9);
            if (control.cancelled()) return {};
            return [this, r, rows = std::move(rows), net, hw]() mutable {
                if (!(state_.network == net) || !(state_.hardware == hw)) {
                    status_->setText(tr("The network or the hardware changed while exploring: "
                                        "run the exploration again."));
                    return;
                }
                result_ = std::move(r);
                rows_ = std::move(rows);
                runApplied_ = true;
                frontNetwork_ = net;
                frontHardware_ = hw;
                updateChart();
                updateCurrent();
            };
        });
    if (started) {
        runApplied_ = false;
        setRunning(true);
        status_->setText(tr("Exploring %1…").arg(qs(net.name())));
    }
    return started;
}

void ExploreDialog::cancel() {
    task_->cancel();
}

void ExploreDialog::done(int r) {
    task_->cancel();
    QDialog::done(r);
}

void ExploreDialog::onFinished(bool cancelled) {
    setRunning(false);
    const QString seconds = QString::number(double(task_->elapsedMs()) / 1000.0, 'f', 2);
    if (cancelled) {
        status_->setText(
            result_ ? tr("Cancelled after %1 s; the front shown is the previous one.").arg(seconds)
                    : tr("Cancelled after %1 s.").arg(seconds));
        return;
    }
    if (!runApplied_ || !result_) return; // failed or outdated: the status says why
    const ExploreResult& r = *result_;
    status_->setText(tr("%1: %n Pareto point(s) from %2 segments, %3 layer evaluations, %4 s.",
                        nullptr, int(r.front.size()))
                         .arg(qs(frontNetwork_.name()))
                         .arg(r.segments)
                         .arg(qs(humanCount(double(r.evaluations))))
                         .arg(seconds));
}

void ExploreDialog::setRunning(bool running) {
    for (QWidget* w : std::initializer_list<QWidget*>{depth_, tiles_, strategy_, levels_,
                                                      recompute_, resident_, fitOnly_})
        w->setEnabled(!running);
    runButton_->setEnabled(!running && !state_.network.empty());
    cancelButton_->setEnabled(running);
    progress_->setVisible(running);
    progress_->setValue(0);
    csvButton_->setEnabled(!running && result_);
    imageButton_->setEnabled(!running);
}

void ExploreDialog::updateChart() {
    ParetoChartData d;
    if (result_) {
        d.title = tr("%1 on %2 — %n Pareto point(s)", nullptr, int(result_->front.size()))
                      .arg(qs(frontNetwork_.name()), qs(frontHardware_.name));
        for (const ExplorePoint& p : result_->front)
            d.points.push_back({double(p.dram_accesses), double(p.buffer_bytes), double(p.macs)});
        d.capacity_bytes = double(frontHardware_.buffer.bytes);
    } else if (!state_.network.empty()) {
        d.title = tr("%1 on %2").arg(qs(state_.network.name()), qs(state_.hardware.name));
        if (state_.metrics) d.capacity_bytes = double(state_.metrics->totals.buffer_capacity_bytes);
    }
    chart_->setData(d);
    csvButton_->setEnabled(!task_->isRunning() && result_);
}

void ExploreDialog::updateCurrent() {
    if (!state_.metrics) {
        chart_->setCurrent(std::nullopt);
        return;
    }
    const Totals& t = state_.metrics->totals;
    chart_->setCurrent(
        ParetoChartPoint{double(t.dram_accesses), double(t.buffer_peak_bytes), double(t.macs)});
    // The open schedule is a front point when its figures are that point's.
    int match = -1;
    if (result_)
        for (size_t k = 0; k < result_->front.size() && match < 0; ++k) {
            const ExplorePoint& p = result_->front[k];
            if (p.dram_accesses == t.dram_accesses && p.buffer_bytes == t.buffer_peak_bytes &&
                p.macs == t.macs)
                match = int(k);
        }
    chart_->setSelectedPoint(match);
}

Schedule ExploreDialog::scheduleOf(size_t k) const {
    if (!result_ || k >= result_->front.size()) return {};
    return result_->schedule(frontNetwork_, frontHardware_, k);
}

QString ExploreDialog::summary(int k) const {
    if (!result_ || k < 0 || size_t(k) >= result_->front.size()) return {};
    const ExplorePoint& p = result_->front[size_t(k)];
    QString text = tr("<b>Point %1</b>").arg(k);
    text += tr("<br>DRAM: %1 accesses").arg(qs(humanCount(double(p.dram_accesses))));
    text += tr("<br>Buffer: %1 of %2")
                .arg(qs(humanBytes(double(p.buffer_bytes))),
                     qs(humanBytes(double(frontHardware_.buffer.bytes))));
    text += tr("<br>MACs: %1").arg(qs(humanCount(double(p.macs))));
    if (size_t(k) < rows_.size()) {
        const ExploreFrontRow& r = rows_[size_t(k)];
        if (r.recompute_macs > 0)
            text += tr(" (%1 recomputed)").arg(qs(humanCount(double(r.recompute_macs))));
        text += tr("<br>Energy: %1").arg(qs(humanEnergy(r.energy_pj)));
        text += tr("<br>Latency: %1 (%2 cycles)")
                    .arg(qs(humanTime(r.latency_s)), qs(humanCount(double(r.latency_cycles))));
        text +=
            tr("<br>Energy × delay: %1").arg(qs(humanEdp(r.energy_pj * double(r.latency_cycles))));
        text += tr("<br>Groups: %1, %2 fused").arg(r.groups).arg(r.fused_groups);
    }
    text += tr("<br><i>Click to apply</i>");
    return text;
}

void ExploreDialog::applyPoint(int k) {
    if (!result_ || k < 0 || size_t(k) >= result_->front.size()) return;
    const ExplorePoint& p = result_->front[size_t(k)];
    chart_->setSelectedPoint(k);
    emit applyRequested(
        k, scheduleOf(size_t(k)),
        tr("Apply Pareto point %1 (DRAM %2, buffer %3)")
            .arg(k)
            .arg(qs(humanCount(double(p.dram_accesses))), qs(humanBytes(double(p.buffer_bytes)))));
}

QString ExploreDialog::exportCsv(const QString& path) const {
    if (!result_) return tr("nothing to export: run the exploration first");
    QSaveFile f(path);
    const QByteArray data = QByteArray::fromStdString(frontCsv(rows_));
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit())
        return tr("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
    return {};
}

QString ExploreDialog::exportChart(const QString& path) const {
    return chart_->exportImage(path);
}

void ExploreDialog::exportCsvInteractively() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the Front"), qs(frontNetwork_.name()) + QStringLiteral(".front.csv"),
        tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    const QString error = exportCsv(path);
    status_->setText(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path))
                                     : tr("Cannot save the front: %1").arg(error));
}

void ExploreDialog::exportChartInteractively() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the Chart"), qs(state_.network.name()) + QStringLiteral(".front.svg"),
        tr("SVG images (*.svg);;PNG images (*.png)"));
    if (path.isEmpty()) return;
    const QString error = exportChart(path);
    status_->setText(error.isEmpty() ? tr("Saved %1").arg(QDir::toNativeSeparators(path))
                                     : tr("Cannot save the chart: %1").arg(error));
}

} // namespace lf
