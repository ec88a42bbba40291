// StatusPanel: the figures along the window's status bar — what the network and schedule
// hold and cost (layers, groups, DRAM, MACs, latency, energy), how many groups are over the
// buffer, how long the last evaluation took, the canvas zoom — and the studio's transient
// messages over them.
#pragma once

#include "studio/studio.h"

#include <QObject>

class QLabel;
class QStatusBar;

namespace lf {

class ElidedLabel;

class StatusPanel : public QObject {
    Q_OBJECT
  public:
    StatusPanel(Studio* studio, QStatusBar* bar);

    void setZoom(double zoom);

  private:
    void showSummary(const StudioState& state);

    QStatusBar* bar_;
    ElidedLabel* summary_;
    QLabel* over_;
    QLabel* evaluation_;
    QLabel* zoom_;
};

} // namespace lf
