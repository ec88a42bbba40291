#include "search/automation_dialogs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace lf {

namespace {

void selectData(QComboBox* c, const QVariant& data) {
    if (const int i = c->findData(data); i >= 0) c->setCurrentIndex(i);
}

QComboBox* objectiveCombo(QWidget* parent, bool withOptimus) {
    auto* c = new QComboBox(parent);
    c->setObjectName(QStringLiteral("objective"));
    if (withOptimus)
        c->addItem(objectiveTitle(AutoFuseObjective::optimus), int(AutoFuseObjective::optimus));
    for (AutoFuseObjective o : {AutoFuseObjective::dram, AutoFuseObjective::energy,
                                AutoFuseObjective::latency, AutoFuseObjective::edp})
        c->addItem(objectiveTitle(o), int(o));
    return c;
}

QDialogButtonBox* okCancel(QDialog* d, const QString& okText) {
    auto* b = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, d);
    b->button(QDialogButtonBox::Ok)->setText(okText);
    QObject::connect(b, &QDialogButtonBox::accepted, d, &QDialog::accept);
    QObject::connect(b, &QDialogButtonBox::rejected, d, &QDialog::reject);
    return b;
}

} // namespace

QString objectiveTitle(AutoFuseObjective o) {
    switch (o) {
    case AutoFuseObjective::optimus:
        return QObject::tr("Optimus memory cost (Eq. 3)");
    case AutoFuseObjective::dram:
        return QObject::tr("DRAM accesses");
    case AutoFuseObjective::energy:
        return QObject::tr("Energy");
    case AutoFuseObjective::latency:
        return QObject::tr("Latency");
    case AutoFuseObjective::edp:
        return QObject::tr("Energy-delay product");
    }
    return {};
}

OptimusFuserOptions fuserOptions(const AutoFuseSettings& s) {
    OptimusFuserOptions o;
    o.strategy = s.strategy;
    o.online = s.online;
    switch (s.objective) {
    case AutoFuseObjective::optimus:
        o.cost = FuserCost::optimus;
        break;
    case AutoFuseObjective::dram:
        o.cost = FuserCost::evaluate;
        o.objective = Objective::dram;
        break;
    case AutoFuseObjective::energy:
        o.cost = FuserCost::evaluate;
        o.objective = Objective::energy;
        break;
    case AutoFuseObjective::latency:
        o.cost = FuserCost::evaluate;
        o.objective = Objective::latency;
        break;
    case AutoFuseObjective::edp:
        o.cost = FuserCost::evaluate;
        o.objective = Objective::edp;
        break;
    }
    return o;
}

AutoFuseDialog::AutoFuseDialog(const AutoFuseSettings& initial, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("autoFuseDialog"));
    setWindowTitle(tr("Auto-fuse"));
    auto* intro = new QLabel(
        tr("Finds the optimal partition of the whole network into fusion groups with the "
           "Optimus dynamic program (Cai et al., Alg. 1) under the buffer capacity. The "
           "current groups are replaced; one undo step restores them."),
        this);
    intro->setWordWrap(true);
    objective_ = objectiveCombo(this, true);
    objective_->setToolTip(tr("Eq. 3 is Optimus' own off-chip memory cost; the others cost each "
                              "candidate group with the studio's models"));
    strategy_ = new QComboBox(this);
    strategy_->setObjectName(QStringLiteral("strategy"));
    strategy_->addItem(tr("Optimus (tile, ISOA)"), int(Strategy::optimus));
    strategy_->addItem(tr("Recompute (ConvFusion)"), int(Strategy::recompute));
    strategy_->addItem(tr("Reuse buffers (HW-Flow-Fusion)"), int(Strategy::reuse));
    online_ = new QCheckBox(tr("On-line variant (§6: fan-out rule, group size limit)"), this);
    online_->setObjectName(QStringLiteral("online"));
    tiles_ = new QCheckBox(tr("Then optimize every group's tiles"), this);
    tiles_->setObjectName(QStringLiteral("optimizeTiles"));
    auto* form = new QFormLayout;
    form->addRow(tr("Minimize"), objective_);
    form->addRow(tr("Groups' strategy"), strategy_);
    form->addRow(QString(), online_);
    form->addRow(QString(), tiles_);
    auto* v = new QVBoxLayout(this);
    v->addWidget(intro);
    v->addLayout(form);
    v->addWidget(okCancel(this, tr("Auto-fuse")));
    selectData(objective_, int(initial.objective));
    selectData(strategy_, int(initial.strategy));
    online_->setChecked(initial.online);
    tiles_->setChecked(initial.optimize_tiles);
}

AutoFuseSettings AutoFuseDialog::settings() const {
    AutoFuseSettings s;
    s.objective = AutoFuseObjective(objective_->currentData().toInt());
    s.strategy = Strategy(strategy_->currentData().toInt());
    s.online = online_->isChecked();
    s.optimize_tiles = tiles_->isChecked();
    return s;
}

TileOptimizeDialog::TileOptimizeDialog(const TileOptimizeSettings& initial,
                                       const QString& selectionText, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("tileOptimizeDialog"));
    setWindowTitle(tr("Optimize Tiles"));
    auto* intro = new QLabel(tr("Searches tiles, loop orders and store/compute levels "
                                "(ConvFusion Table 2) for the least objective under the buffer "
                                "capacity, with branch and bound on the capacity."),
                             this);
    intro->setWordWrap(true);
    objective_ = objectiveCombo(this, false);
    tiles_ = new QComboBox(this);
    tiles_->setObjectName(QStringLiteral("tileSet"));
    tiles_->addItem(tr("Divisors"), int(TileSet::divisors));
    tiles_->addItem(tr("Powers of two"), int(TileSet::pow2));
    tiles_->addItem(tr("All sizes"), int(TileSet::all));
    levels_ = new QComboBox(this);
    levels_->setObjectName(QStringLiteral("levelSpace"));
    levels_->addItem(tr("Sound folding"), int(LevelSpace::sound));
    levels_->addItem(tr("All legal levels"), int(LevelSpace::legal));
    selection_ = new QRadioButton(
        selectionText.isEmpty() ? tr("Selection (nothing selected)") : selectionText, this);
    selection_->setObjectName(QStringLiteral("scopeSelection"));
    selection_->setEnabled(!selectionText.isEmpty());
    all_ = new QRadioButton(tr("Every group of the schedule"), this);
    all_->setObjectName(QStringLiteral("scopeAll"));
    auto* form = new QFormLayout;
    form->addRow(tr("Minimize"), objective_);
    form->addRow(tr("Tile sizes"), tiles_);
    form->addRow(tr("Levels"), levels_);
    form->addRow(tr("Optimize"), selection_);
    form->addRow(QString(), all_);
    auto* v = new QVBoxLayout(this);
    v->addWidget(intro);
    v->addLayout(form);
    v->addWidget(okCancel(this, tr("Optimize")));
    // As wide as Auto-fuse: the introduction in a few lines and the whole title shown.
    setMinimumWidth(fontMetrics().averageCharWidth() * 64);
    if (const int h = heightForWidth(minimumWidth()); h > 0) resize(minimumWidth(), h);
    const Objective o = initial.search.objective;
    selectData(objective_, int(o == Objective::dram      ? AutoFuseObjective::dram
                               : o == Objective::energy  ? AutoFuseObjective::energy
                               : o == Objective::latency ? AutoFuseObjective::latency
                                                         : AutoFuseObjective::edp));
    selectData(tiles_, int(initial.search.tiles));
    selectData(levels_, int(initial.search.levels));
    const bool useSelection = initial.scope == TileScope::selection && !selectionText.isEmpty();
    selection_->setChecked(useSelection);
    all_->setChecked(!useSelection);
}

TileOptimizeSettings TileOptimizeDialog::settings() const {
    TileOptimizeSettings s;
    switch (AutoFuseObjective(objective_->currentData().toInt())) {
    case AutoFuseObjective::energy:
        s.search.objective = Objective::energy;
        break;
    case AutoFuseObjective::latency:
        s.search.objective = Objective::latency;
        break;
    case AutoFuseObjective::edp:
        s.search.objective = Objective::edp;
        break;
    default:
        s.search.objective = Objective::dram;
    }
    s.search.tiles = TileSet(tiles_->currentData().toInt());
    s.search.levels = LevelSpace(levels_->currentData().toInt());
    s.scope = selection_->isChecked() ? TileScope::selection : TileScope::all;
    return s;
}

} // namespace lf
