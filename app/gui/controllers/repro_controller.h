// ReproController: Help ▸ Reproduce the Papers. Recomputes every figure of the five papers
// that the models can (core/repro/repro.h) on a worker thread with progress and Cancel, shows
// the rows and plots in a window of their own (views/repro/repro_report_view.h), opens a
// row's network, hardware and schedule in the studio (after the usual "save changes?"), and
// saves the report as one HTML file with its plots, as `layerfuse-cli reproduce --format html`
// writes it.
#pragma once

#include "repro/repro.h"
#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <vector>

class QDialog;

namespace lf {

class ReproReportView;
class SearchTask;

class ReproController : public QObject {
    Q_OBJECT
  public:
    explicit ReproController(Studio* studio, QObject* parent = nullptr);
    ~ReproController() override;

    // reproducePapers.
    const ActionSet& actions() const { return actions_; }

    // Shows the report window; computes the report first if it has not been (all papers).
    void showReport();
    // Recomputes the given papers on a worker thread; false while a computation runs.
    bool reproduce(const std::vector<repro::Paper>& papers);
    // Opens the target of a row in the studio; false when the row has none, it does not load,
    // or the user keeps the unsaved document.
    bool openRow(const QString& rowId);
    // Writes the report as self-contained HTML with its plots; false on a write error.
    bool saveReport(const QString& path);

    SearchTask* task() const { return task_; }
    ReproReportView* view() const { return view_; }
    QDialog* window() const { return window_; }

  private:
    void ensureWindow();
    void askSaveReport();

    Studio* studio_;
    ActionSet actions_;
    SearchTask* task_;
    QPointer<QDialog> window_;
    ReproReportView* view_ = nullptr;
};

} // namespace lf
