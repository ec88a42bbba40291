// ReproReportView: the reproduction of the five papers (core/repro/repro.h) as the studio
// shows it — every row beside the paper's printed value, filtered by paper, status or text,
// the details of the selected row (tolerance and why, the reason it differs, the set-up), and
// every plot drawn live with Qt Charts. A row whose network, hardware and schedule can be
// opened asks for it with openRequested(); the view itself changes no document.
#pragma once

#include "repro/repro.h"

#include <QString>
#include <QWidget>

#include <optional>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTabWidget;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace lf {

class ReproReportView : public QWidget {
    Q_OBJECT
  public:
    explicit ReproReportView(QWidget* parent = nullptr);

    void setReports(std::vector<repro::PaperReport> reports);
    const std::vector<repro::PaperReport>& reports() const { return reports_; }

    // The row with this id, or null.
    const repro::Row* row(const QString& id) const;
    // The id of the selected row, empty when a paper (or nothing) is selected.
    QString selectedRowId() const;
    // Selects a row (shows its paper and status even when filtered out); false if unknown.
    bool selectRow(const QString& id);
    // Number of row items the filters let through.
    int visibleRowCount() const;

    void setPaperFilter(std::optional<repro::Paper> paper);
    void setStatusFilter(std::optional<repro::RowStatus> status);
    void setTextFilter(const QString& text);

    // Shows the plot with this id in the Plots tab; false if unknown.
    bool showPlot(const QString& plotId);
    QString shownPlotId() const { return shownPlot_; }
    QChartView* chartView() const { return chartView_; }
    QTextBrowser* details() const { return details_; }
    QPushButton* openButton() const { return openButton_; }
    QTabWidget* tabs() const { return tabs_; }

  signals:
    void openRequested(const QString& rowId);
    void saveRequested();

  private:
    void rebuildTree();
    void applyFilters();
    void showDetails();
    void showPaperDetails(const repro::PaperReport& report);
    void showRowDetails(const repro::Row& row);
    void setChart(QChart* chart);

    std::vector<repro::PaperReport> reports_;
    QLabel* summary_;
    QComboBox* paperBox_;
    QComboBox* statusBox_;
    QLineEdit* search_;
    QTreeWidget* tree_;
    QTextBrowser* details_;
    QPushButton* openButton_;
    QTabWidget* tabs_;
    QListWidget* plotList_;
    QChartView* chartView_;
    QLabel* plotNote_;
    QString shownPlot_;
};

} // namespace lf
