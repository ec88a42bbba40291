// Option dialogs of the studio's automatic scheduling actions: Auto-fuse (the Optimus DP
// fuser, Optimus Alg. 1, with its objective and the strategy of the groups it forms) and
// Optimize Tiles (core/search/tile_optimizer.h: objective, tile set, level space, scope).
// They only collect settings; the searches run elsewhere.
#pragma once

#include "search/optimus_fuser.h"
#include "search/tile_optimizer.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QRadioButton;

namespace lf {

// What Auto-fuse minimizes: Optimus' own memory cost (Optimus Eq. 3 with the Optimus Eq. 4
// scheduler) or an objective of evaluate()'s group pipeline under the buffer capacity.
enum class AutoFuseObjective { optimus, dram, energy, latency, edp };

struct AutoFuseSettings {
    AutoFuseObjective objective = AutoFuseObjective::optimus;
    Strategy strategy = Strategy::optimus; // of the groups formed
    // Optimus §6 variant (fan-out rule, Optimus Alg. 3 size limit).
    bool online = false;
    bool optimize_tiles = false; // then run the tile optimizer on every group
};

OptimusFuserOptions fuserOptions(const AutoFuseSettings& s);
QString objectiveTitle(AutoFuseObjective o);

class AutoFuseDialog : public QDialog {
    Q_OBJECT
  public:
    AutoFuseDialog(const AutoFuseSettings& initial, QWidget* parent = nullptr);
    AutoFuseSettings settings() const;

  private:
    QComboBox* objective_;
    QComboBox* strategy_;
    QCheckBox* online_;
    QCheckBox* tiles_;
};

enum class TileScope { selection, all };

struct TileOptimizeSettings {
    TileSearchOptions search;
    TileScope scope = TileScope::selection;
};

class TileOptimizeDialog : public QDialog {
    Q_OBJECT
  public:
    // `selectionText` names what the selection scope optimizes (empty: nothing selected).
    TileOptimizeDialog(const TileOptimizeSettings& initial, const QString& selectionText,
                       QWidget* parent = nullptr);
    TileOptimizeSettings settings() const;

  private:
    QComboBox* objective_;
    QComboBox* tiles_;
    QComboBox* levels_;
    QRadioButton* selection_;
    QRadioButton* all_;
};

} // namespace lf
