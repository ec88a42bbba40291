// TsoSlicingView: the TSO slicing search of a multicore preset (Sousa et al.,
// TSO Alg. 1-3; core/search/tso_search.h) per layer — the TLE partition (KS | KS&OFM | OFM), the
// TLT schedule (IS | OS | WS), the TLE slice, the tile and the time split into MAC and DRAM
// cycles (TSO Eq. 6). A row selects its layer; "Apply tiles" asks to write the tiles into the
// schedule (the partition and TLT schedule have no place in the schedule format).
#pragma once

#include "network/network.h"
#include "schedule/schedule.h"
#include "search/tso_search.h"

#include <QWidget>

#include <string>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace lf {

// The schedule with each conv / fc layer that is alone in its group given its TSO tile:
// T_z = ⌈T_M / G⌉, T_i = T_N, T_y = T_R, T_x = T_C (the mapping evaluate() reads back for
// the multicore MAC time). Layers in fused groups keep their tiles and are listed in
// `skipped` (the group model derives their tiles).
Schedule scheduleWithTsoTiles(const Network& net, const Schedule& sched,
                              const TsoSearchResult& result,
                              std::vector<std::string>* skipped = nullptr);

class TsoSlicingView : public QWidget {
    Q_OBJECT
  public:
    explicit TsoSlicingView(QWidget* parent = nullptr);

    void setResult(const Network& net, const Hardware& hw, const TsoSearchResult& result,
                   bool burstAware);
    // No result (the message says why: no multicore preset, network changed, ...).
    void clear(const QString& message);
    bool hasResult() const { return hasResult_; }
    const TsoSearchResult& result() const { return result_; }
    QTableWidget* table() const { return table_; }
    void setRunEnabled(bool enabled);

  signals:
    void runRequested();
    void applyRequested();
    void layerActivated(lf::LayerId id);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void fitColumns();

    TsoSearchResult result_;
    bool hasResult_ = false;
    QLabel* summary_;
    QTableWidget* table_;
    QPushButton* run_;
    QPushButton* apply_;
};

} // namespace lf
