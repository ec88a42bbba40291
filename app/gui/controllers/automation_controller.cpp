// AutomationController: the searches it runs and their results in the document.
#include "controllers/automation_controller.h"

#include "metrics/units.h"
#include "models/evaluate.h"
#include "qt_text.h"
#include "search/explore_dialog.h"
#include "search/objective.h"
#include "search/search_task.h"
#include "search/trade_off_dialog.h"
#include "search/tso_slicing_view.h"

#include <QAction>
#include <QTimer>

#include <algorithm>

namespace lf {

namespace {

// A control that reports into [from, to] of `c`'s range (c outlives it: both live in one work).
SearchControl scaled(const SearchControl& c, double from, double to) {
    SearchControl s;
    s.cancel = c.cancel;
    s.progress = [&c, from, to](double f, const std::string& what) {
        c.report(from + (to - from) * f, what);
    };
    return s;
}

QString objectiveValue(double v, Objective o) {
    switch (o) {
    case Objective::dram:
        return QObject::tr("%1 DRAM accesses").arg(qs(humanCount(v)));
    case Objective::energy:
        return qs(humanEnergy(v));
    case Objective::latency:
        return QObject::tr("%1 cycles").arg(qs(humanCount(v)));
    case Objective::edp:
        return qs(humanEdp(v));
    }
    return {};
}

Objective tileObjective(AutoFuseObjective o) {
    switch (o) {
    case AutoFuseObjective::energy:
        return Objective::energy;
    case AutoFuseObjective::latency:
        return Objective::latency;
    case AutoFuseObjective::edp:
        return Objective::edp;
    default:
        return Objective::dram;
    }
}

int fusedGroups(const Schedule& s) {
    return int(std::count_if(s.groups.begin(), s.groups.end(),
                             [](const FusionGroup& g) { return g.layers.size() > 1; }));
}

} // namespace

AutomationController::AutomationController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this), task_(new SearchTask(this)),
      tsoView_(new TsoSlicingView(studio->window())) {
    setObjectName(QStringLiteral("automationController"));
    tileSettings_.scope = TileScope::selection;
    createActions();
    Document* doc = studio_->document();
    connect(doc, &Document::documentReset, this, &AutomationController::onDocumentChanged);
    connect(doc, &Document::changed, this, &AutomationController::onDocumentChanged);
    connect(studio_, &Studio::statePublished, this, [this](const StudioState& s) {
        if (explore_) explore_->setState(s);
    });
    connect(task_, &SearchTask::started, this, &AutomationController::updateActions);
    connect(task_, &SearchTask::finished, this, [this](bool cancelled) {
        if (cancelled) say(tr("%1: cancelled; nothing changed").arg(task_->title()));
        updateActions();
    });
    connect(task_, &SearchTask::failed, this,
            [this](const QString& message) { studio_->reportError(task_->title(), message); });
    connect(tsoView_, &TsoSlicingView::runRequested, this, [this] { runTsoSearch(true); });
    connect(tsoView_, &TsoSlicingView::applyRequested, this, &AutomationController::applyTsoTiles);
    connect(tsoView_, &TsoSlicingView::layerActivated, this, [this](LayerId id) {
        studio_->setSelection({{id}, -1});
    });
    updateActions();
}

AutomationController::~AutomationController() {
    // Without a window these are this controller's.
    if (tsoView_ && !tsoView_->parent()) delete tsoView_;
    if (explore_ && !explore_->parent()) delete explore_;
}

TsoSlicingView* AutomationController::tsoView() const {
    return tsoView_;
}

void AutomationController::createActions() {
    connect(actions_.add(QStringLiteral("autoFuse"), tr("&Auto-fuse…"), QStringLiteral("auto-fuse"),
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                         tr("Fuse the whole network optimally with the Optimus dynamic program")),
            &QAction::triggered, this, &AutomationController::autoFuseInteractively);
    connect(actions_.add(QStringLiteral("optimizeTiles"), tr("Optimize &Tiles…"),
                         QStringLiteral("tiles"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                         tr("Search tiles, loop orders and levels of the selected or all groups")),
            &QAction::triggered, this, &AutomationController::optimizeTilesInteractively);
    connect(actions_.add(QStringLiteral("explore"), tr("&Explore Pareto Front…"),
                         QStringLiteral("explore"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                         tr("Explore DRAM accesses, buffer and MACs of the whole network")),
            &QAction::triggered, this, &AutomationController::showExplore);
    connect(actions_.add(QStringLiteral("tsoSlicing"), tr("TSO &Slicing Search"), {},
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
                         tr("Best tensor slicing per layer on a multicore preset (TSO)")),
            &QAction::triggered, this, [this] { runTsoSearch(true); });
}

void AutomationController::updateActions() {
    const Document* doc = studio_->document();
    const bool open = !doc->network().empty();
    const bool idle = !task_->isRunning();
    actions_[QStringLiteral("autoFuse")]->setEnabled(open && idle);
    actions_[QStringLiteral("optimizeTiles")]->setEnabled(open && idle);
    actions_[QStringLiteral("explore")]->setEnabled(open);
    const bool multicore = open && doc->hardware().cores.has_value();
    actions_[QStringLiteral("tsoSlicing")]->setEnabled(multicore && idle);
    actions_[QStringLiteral("tsoSlicing")]->setToolTip(
        multicore ? tr("Best tensor slicing per layer (TSO Alg. 1-3)")
                  : tr("Needs a multicore preset (hardware with cores, e.g. tso-nmp)"));
    tsoView_->setRunEnabled(multicore && idle);
}

bool AutomationController::refuseWhenBusy() {
    if (!studio_->document()->network().empty() && !task_->isRunning()) return false;
    say(task_->isRunning() ? tr("Another search is running.") : tr("Open a network first."));
    return true;
}

void AutomationController::onDocumentChanged() {
    updateActions();
    const Document* doc = studio_->document();
    if (tsoView_->hasResult() &&
        (!(doc->network() == tsoNetwork_) || !(doc->hardware() == tsoHardware_)))
        tsoView_->clear(tr("The network or the hardware changed: run the search again."));
}

void AutomationController::say(const QString& message, int ms) {
    lastMessage_ = message;
    studio_->showStatus(message, ms);
}

bool AutomationController::applySearched(const StudioState& searched, Schedule result,
                                         const QString& text) {
    Document* doc = studio_->document();
    if (!(doc->network() == searched.network) || !(doc->hardware() == searched.hardware) ||
        !(doc->schedule() == searched.schedule)) {
        say(tr("The document changed while the search ran; its result was dropped."));
        return false;
    }
    const Document::EditResult r = doc->setSchedule(std::move(result), text);
    if (!r.ok) {
        say(tr("The search result was refused: %1").arg(r.message));
        return false;
    }
    emit scheduleApplied(text);
    return true;
}

bool AutomationController::acceptTradeOff(const Metrics& before, const Metrics& after,
                                          const QString& objective) {
    if (confirmTradeOff) return confirmTradeOff(before, after, objective);
    QWidget* w = studio_->window();
    if (!w || !w->isVisible()) return true;
    TradeOffDialog dialog(before, after, objective, w);
    return dialog.exec() == QDialog::Accepted;
}

QString AutomationController::selectionText() const {
    const std::vector<int> groups = studio_->selectedGroups();
    const Schedule& s = studio_->document()->schedule();
    if (groups.empty()) return {};
    if (groups.size() > 1) return tr("The %1 selected groups").arg(groups.size());
    const FusionGroup& g = s.groups[size_t(groups.front())];
    if (g.layers.size() == 1)
        return tr("Layer %1").arg(qs(studio_->document()->network().layer(g.layers.front()).name));
    return tr("Group %1 (%2 layers)").arg(qs(g.name)).arg(g.layers.size());
}

// --- Auto-fuse ---------------------------------------------------------------------------------

void AutomationController::autoFuseInteractively() {
    AutoFuseDialog dialog(fuseSettings_, studio_->window());
    if (dialog.exec() == QDialog::Accepted) autoFuse(dialog.settings());
}

bool AutomationController::autoFuse(const AutoFuseSettings& settings) {
    if (refuseWhenBusy()) return false;
    Document* doc = studio_->document();
    fuseSettings_ = settings;
    const StudioState searched = doc->state();
    const bool started = task_->start(
        tr("Auto-fusing %1").arg(qs(searched.network.name())),
        [this, searched, settings](const SearchControl& control) -> std::function<void()> {
            const Network& net = searched.network;
            const Hardware& hw = searched.hardware;
            const double fuseShare = settings.optimize_tiles ? 0.3 : 1.0;
            const OptimusFuserResult r =
                optimusFuse(net, hw, fuserOptions(settings), scaled(control, 0, fuseShare));
            if (r.cancelled || control.cancelled()) return {};
            Schedule s = r.schedule;
            if (settings.optimize_tiles) {
                TileSearchOptions to;
                to.objective = tileObjective(settings.objective);
                ScheduleTileResult t =
                    optimizeScheduleTiles(net, hw, s, to, scaled(control, fuseShare, 1));
                if (t.cancelled || control.cancelled()) return {};
                s = std::move(t.schedule);
            }
            const Metrics before = evaluate(net, hw, searched.schedule);
            const Metrics after = evaluate(net, hw, s);
            const QString text = tr("Auto-fuse (%1): %2 fused groups")
                                     .arg(objectiveTitle(settings.objective))
                                     .arg(fusedGroups(s));
            const QString message =
                tr("Auto-fuse: %n group(s)", nullptr, int(s.groups.size())) +
                tr(", %1 fused · DRAM %2 → %3 accesses · energy %4 → %5 · Optimus DP %6 ms, %7 "
                   "candidate groups (%8 costed)")
                    .arg(fusedGroups(s))
                    .arg(qs(humanCount(double(before.totals.dram_accesses))),
                         qs(humanCount(double(after.totals.dram_accesses))),
                         qs(humanEnergy(before.totals.energy.total())),
                         qs(humanEnergy(after.totals.energy.total())))
                    .arg(r.seconds * 1000.0, 0, 'f', 2)
                    .arg(r.groups_evaluated)
                    .arg(r.groupsCosted());
            const QString objective = objectiveTitle(settings.objective);
            return [this, searched, s, text, message, before, after, objective]() {
                // Asked once the search and its progress dialog are done (a question under a
                // progress dialog could not be answered).
                QTimer::singleShot(0, this, [=, this]() mutable {
                    if (!acceptTradeOff(before, after, objective)) {
                        say(tr("Auto-fuse result discarded; the schedule is unchanged."));
                        return;
                    }
                    if (applySearched(searched, std::move(s), text)) say(message, 20000);
                });
            };
        });
    if (started) attachProgressDialog(task_, studio_->window());
    return started;
}

// --- Optimize tiles ----------------------------------------------------------------------------

void AutomationController::optimizeTilesInteractively() {
    TileOptimizeDialog dialog(tileSettings_, selectionText(), studio_->window());
    if (dialog.exec() == QDialog::Accepted) optimizeTiles(dialog.settings());
}

bool AutomationController::optimizeTiles(const TileOptimizeSettings& settings) {
    if (refuseWhenBusy()) return false;
    Document* doc = studio_->document();
    std::vector<int> groups;
    QString scope = tr("every group");
    if (settings.scope == TileScope::selection) {
        groups = studio_->selectedGroups();
        if (groups.empty()) {
            say(tr("Select a layer or a group to optimize, or choose every group."));
            return false;
        }
        scope = selectionText();
    }
    tileSettings_ = settings;
    const StudioState searched = doc->state();
    const bool started = task_->start(
        tr("Optimizing tiles of %1").arg(scope.toLower()),
        [this, searched, settings, groups,
         scope](const SearchControl& control) -> std::function<void()> {
            const Network& net = searched.network;
            const Hardware& hw = searched.hardware;
            Schedule s = searched.schedule;
            int64_t evaluations = 0;
            QStringList overCapacity;
            if (groups.empty()) {
                ScheduleTileResult r = optimizeScheduleTiles(net, hw, s, settings.search, control);
                if (r.cancelled || control.cancelled()) return {};
                s = std::move(r.schedule);
                evaluations = r.evaluations;
            } else {
                for (size_t k = 0; k < groups.size(); ++k) {
                    const size_t gi = size_t(groups[k]);
                    const double n = double(groups.size());
                    const GroupTileResult r =
                        optimizeGroupTiles(net, hw, s, s.groups[gi], settings.search,
                                           scaled(control, double(k) / n, double(k + 1) / n));
                    if (r.cancelled || control.cancelled()) return {};
                    s.groups[gi] = r.group;
                    for (const auto& [id, ls] : r.layers) {
                        s.layers[size_t(id)] = ls;
                        s.explicit_layer[size_t(id)] = 1;
                    }
                    if (!r.fits) overCapacity << qs(s.groups[gi].name);
                    evaluations += r.evaluations;
                }
            }
            const Objective o = settings.search.objective;
            const double before = objectiveValue(evaluate(net, hw, searched.schedule), o);
            const double after = objectiveValue(evaluate(net, hw, s), o);
            const QString text = tr("Optimize tiles of %1").arg(scope.toLower());
            QString message = tr("Tiles optimized (%1): %2 → %3, %4 schedules costed")
                                  .arg(scope, objectiveValue(before, o), objectiveValue(after, o),
                                       qs(humanCount(double(evaluations))));
            if (!overCapacity.isEmpty())
                message += tr("; nothing fits the buffer for %1")
                               .arg(overCapacity.join(QStringLiteral(", ")));
            return [this, searched, s, text, message]() mutable {
                if (applySearched(searched, std::move(s), text)) say(message, 20000);
            };
        });
    if (started) attachProgressDialog(task_, studio_->window());
    return started;
}

// --- TSO slicing ------------------------------------------------------------------------------

bool AutomationController::runTsoSearch(bool burstAware) {
    if (refuseWhenBusy()) return false;
    Document* doc = studio_->document();
    if (!doc->hardware().cores) {
        say(tr("The TSO slicing search needs a multicore preset (hardware with cores, e.g. "
               "tso-nmp)."));
        return false;
    }
    const StudioState searched = doc->state();
    const bool started = task_->start(
        tr("TSO slicing of %1").arg(qs(searched.network.name())),
        [this, searched, burstAware](const SearchControl& control) -> std::function<void()> {
            TsoSearchOptions o;
            o.burst_aware = burstAware;
            TsoSearchResult r = tsoSearch(searched.network, searched.hardware, o, control);
            if (r.cancelled || control.cancelled()) return {};
            return [this, searched, r, burstAware] {
                const Document* d = studio_->document();
                if (!(d->network() == searched.network) || !(d->hardware() == searched.hardware)) {
                    say(tr("The document changed while the search ran; its result was dropped."));
                    return;
                }
                tsoNetwork_ = searched.network;
                tsoHardware_ = searched.hardware;
                tsoView_->setResult(searched.network, searched.hardware, r, burstAware);
                emit tsoResultReady();
                say(tr("TSO slicing: %n layer(s), %1 cycles in all", nullptr, int(r.layers.size()))
                        .arg(r.total_cycles, 0, 'f', 0));
            };
        });
    if (started) attachProgressDialog(task_, studio_->window());
    return started;
}

bool AutomationController::applyTsoTiles() {
    Document* doc = studio_->document();
    if (!tsoView_->hasResult() || !(doc->network() == tsoNetwork_) ||
        !(doc->hardware() == tsoHardware_)) {
        say(tr("Run the TSO slicing search for this network and hardware first."));
        return false;
    }
    std::vector<std::string> skipped;
    Schedule s =
        scheduleWithTsoTiles(doc->network(), doc->schedule(), tsoView_->result(), &skipped);
    const Document::EditResult r = doc->setSchedule(std::move(s), tr("Apply TSO tiles"));
    if (!r.ok) {
        say(tr("The TSO tiles were refused: %1").arg(r.message));
        return false;
    }
    QString message = tr("TSO tiles applied");
    if (!skipped.empty())
        message += tr("; %n fused layer(s) kept their tiles", nullptr, int(skipped.size()));
    say(message);
    emit scheduleApplied(tr("Apply TSO tiles"));
    return true;
}

// --- Explore ----------------------------------------------------------------------------------

ExploreDialog* AutomationController::exploreDialog() {
    if (explore_) return explore_;
    explore_ = new ExploreDialog(studio_->window());
    explore_->setState(studio_->state());
    connect(explore_, &ExploreDialog::applyRequested, this,
            [this](int, const Schedule& schedule, const QString& text) {
                Document* doc = studio_->document();
                if (!explore_->frontMatches(doc->network(), doc->hardware())) {
                    say(tr("The front belongs to another network or hardware: run it again."));
                    return;
                }
                const Document::EditResult r = doc->setSchedule(schedule, text);
                if (!r.ok) {
                    say(tr("The point's schedule was refused: %1").arg(r.message));
                    return;
                }
                say(text);
                emit scheduleApplied(text);
            });
    return explore_;
}

void AutomationController::showExplore() {
    ExploreDialog* d = exploreDialog();
    d->setState(studio_->state());
    d->show();
    d->raise();
    d->activateWindow();
}

} // namespace lf
