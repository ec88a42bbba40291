// StatusPanel: the figures along the window's status bar — what the network and schedule
// hold and cost (layers, groups, DRAM, MACs, latency, energy), how many groups are over the
// buffer, how long the last evaluation took, the canvas zoom — and the studio's transient
// messages over them.
#pragma once

#include "studio/studio.h"

#include <QObject>

class QLabel;
class QStatusBar;
class QTimer;

namespace lf {

class ElidedLabel;

class StatusPanel : public QObject {
    Q_OBJECT
  public:
    StatusPanel(Studio* studio, QStatusBar* bar);

    void setZoom(double zoom);
    // A transient message in place of the summary for `ms` (0: until the next one).
    void showMessage(const QString& message, int ms);
    // What the left part of the status bar shows now (message or summary).
    QString shownText() const;
    ElidedLabel* messageLabel() const { return summary_; }
    QLabel* evaluationLabel() const { return evaluation_; }

  private:
    void showSummary(const StudioState& state);

    QStatusBar* bar_;
    ElidedLabel* summary_;
    QLabel* over_;
    QLabel* evaluation_;
    QLabel* zoom_;
    QTimer* messageTimer_;
    QString message_, summaryText_;
};

} // namespace lf
