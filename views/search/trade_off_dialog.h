// TradeOffDialog: what an automatic search would change, before it is applied — every
// network figure before and after (DRAM accesses and bytes, MACs and recompute, buffer peak,
// latency, energy, energy-delay) with the change, worse figures marked, and the objective
// the search minimised. Apply or Discard. The figures are the two Metrics as evaluated.
#pragma once

#include "metrics/metrics.h"

#include <QDialog>

class QTableWidget;

namespace lf {

class TradeOffDialog : public QDialog {
    Q_OBJECT
  public:
    TradeOffDialog(const Metrics& before, const Metrics& after, const QString& objective,
                   QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    // The rows whose figure got worse, by name ("Latency", …).
    QStringList worse() const { return worse_; }

  private:
    QTableWidget* table_;
    QStringList worse_;
};

} // namespace lf
