#include "controllers/repro_controller.h"

#include "qt_text.h"
#include "repro/repro_report.h"
#include "repro/repro_report_view.h"
#include "repro_plots/repro_plots.h"
#include "search/search_task.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QFileDialog>
#include <QGuiApplication>
#include <QSaveFile>
#include <QScreen>
#include <QVBoxLayout>

namespace lf {

ReproController::ReproController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this), task_(new SearchTask(this)) {
    setObjectName(QStringLiteral("reproController"));
    QAction* act = actions_.add(
        QStringLiteral("reproducePapers"), tr("Reproduce the &Papers…"), {}, {},
        tr("Recompute the published figures of the five papers beside the papers' values"));
    connect(act, &QAction::triggered, this, &ReproController::showReport);
    connect(task_, &SearchTask::started, this,
            [this] { actions_.setEnabled({"reproducePapers"}, false); });
    connect(task_, &SearchTask::finished, this, [this](bool cancelled) {
        actions_.setEnabled({"reproducePapers"}, true);
        if (cancelled) studio_->showStatus(tr("Reproduction of the papers cancelled"));
    });
    connect(task_, &SearchTask::failed, this, [this](const QString& message) {
        studio_->reportError(tr("Reproduce the Papers"), message);
    });
}

ReproController::~ReproController() {
    delete window_.data();
}

void ReproController::ensureWindow() {
    if (window_) return;
    // A window of its own (not modal): the user goes back and forth between it and the studio.
    window_ = new QDialog(studio_->window(), Qt::Window);
    window_->setObjectName(QStringLiteral("reproWindow"));
    window_->setWindowTitle(tr("Reproduce the Papers"));
    auto* layout = new QVBoxLayout(window_);
    view_ = new ReproReportView(window_);
    layout->addWidget(view_);
    QSize size(1000, 680);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize() * 0.9);
    window_->resize(size);
    connect(view_, &ReproReportView::openRequested, this, &ReproController::openRow);
    connect(view_, &ReproReportView::saveRequested, this, &ReproController::askSaveReport);
}

void ReproController::showReport() {
    ensureWindow();
    window_->show();
    window_->raise();
    window_->activateWindow();
    if (view_->reports().empty() && !task_->isRunning())
        reproduce({repro::kAllPapers.begin(), repro::kAllPapers.end()});
}

bool ReproController::reproduce(const std::vector<repro::Paper>& papers) {
    ensureWindow();
    const bool started = task_->start(
        tr("Reproducing the papers"),
        [this, papers](const SearchControl& control) -> std::function<void()> {
            repro::ReproOptions options;
            options.cancel = control.cancel;
            size_t finished = 0;
            options.progress = [&](repro::Paper p, bool done, const repro::PaperReport* r) {
                if (done) ++finished;
                const double fraction = double(finished) / double(papers.size());
                control.report(fraction, done && r ? repro::summaryLine(*r)
                                                   : std::string(repro::paperName(p)) + "…");
            };
            std::vector<repro::PaperReport> reports = repro::reproduce(papers, options);
            if (control.cancelled() || reports.empty()) return {};
            return [this, reports = std::move(reports)]() mutable {
                const repro::StatusCounts c = repro::countStatuses(reports);
                view_->setReports(std::move(reports));
                studio_->showStatus(tr("Papers reproduced: %1 rows, %2 match, %3 close, %4 differ")
                                        .arg(c.total())
                                        .arg(c.match)
                                        .arg(c.close)
                                        .arg(c.differs));
            };
        });
    if (started) attachProgressDialog(task_, window_);
    return started;
}

bool ReproController::openRow(const QString& rowId) {
    const repro::Row* row = view_ ? view_->row(rowId) : nullptr;
    if (!row || !row->open) return false;
    Result<repro::OpenedTarget> target = repro::loadTarget(*row->open);
    if (!target) {
        studio_->reportError(tr("Open in Studio"), qs(target.error()));
        return false;
    }
    const QString what = qs(std::string(repro::paperName(row->paper)) + " " + row->where);
    if (!studio_->confirmReplace(tr("Open the set-up of %1 instead?").arg(what))) return false;
    const repro::OpenTarget& t = *row->open;
    studio_->document()->reset(std::move(target->network), std::move(target->hardware),
                               std::move(target->schedule));
    QString message = tr("Opened %1: %2 on %3").arg(what, qs(t.network), qs(t.hardware));
    if (!t.hw_change.empty()) message += QStringLiteral(" (%1)").arg(qs(t.hw_change));
    if (!t.schedule_note.empty()) message += QStringLiteral(", %1").arg(qs(t.schedule_note));
    studio_->showStatus(message, 10000);
    return true;
}

bool ReproController::saveReport(const QString& path) {
    if (!view_ || view_->reports().empty()) return false;
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    const auto plots = repro::renderPlots(view_->reports());
    const std::string html = repro::reportHtml(view_->reports(), plots, {});
    QGuiApplication::restoreOverrideCursor();
    QSaveFile f(path);
    const QByteArray bytes = QByteArray::fromStdString(html);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        studio_->reportError(
            tr("Save Report"),
            QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
        return false;
    }
    studio_->showStatus(tr("Report saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void ReproController::askSaveReport() {
    const QString path = QFileDialog::getSaveFileName(
        window_, tr("Save Report"), QDir(studio_->dialogDirectory()).filePath("reproduce.html"),
        tr("HTML (*.html)"));
    if (!path.isEmpty()) saveReport(path);
}

} // namespace lf
