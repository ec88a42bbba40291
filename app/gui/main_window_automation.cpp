// StudioAutomation: actions, menus, the TSO dock, and the searches they run.
#include "main_window_automation.h"

#include "import_onnx.h"
#include "main_window.h"
#include "metrics/metrics_io.h"
#include "models/evaluate.h"
#include "search/explore_dialog.h"
#include "search/search_task.h"
#include "search/tso_slicing_view.h"
#include "window_prompts.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
#include <set>

namespace lf {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// The menu an action of the window sits in (the window's menus have no names of their own).
QMenu* menuHolding(QAction* a) {
    if (!a) return nullptr;
    for (QObject* o : a->associatedObjects())
        if (auto* m = qobject_cast<QMenu*>(o)) return m;
    return nullptr;
}

void insertAfter(QMenu* menu, QAction* anchor, const std::vector<QAction*>& actions) {
    const QList<QAction*> list = menu->actions();
    const qsizetype at = list.indexOf(anchor);
    QAction* before = at >= 0 && at + 1 < list.size() ? list[at + 1] : nullptr;
    for (QAction* a : actions)
        menu->insertAction(before, a);
}

// A control that reports into [from, to] of `c`'s range (c outlives it: both live in one work).
SearchControl scaled(const SearchControl& c, double from, double to) {
    SearchControl s;
    s.cancel = c.cancel;
    s.progress = [&c, from, to](double f, const std::string& what) {
        c.report(from + (to - from) * f, what);
    };
    return s;
}

double objectiveOf(const Metrics& m, Objective o) {
    switch (o) {
    case Objective::dram:
        return double(m.totals.dram_accesses);
    case Objective::energy:
        return m.totals.energy.total();
    case Objective::latency:
        return double(m.totals.latency_cycles);
    case Objective::edp:
        return m.totals.energy.total() * double(m.totals.latency_cycles);
    }
    return 0;
}

QString objectiveValue(double v, Objective o) {
    switch (o) {
    case Objective::dram:
        return QObject::tr("%1 DRAM accesses").arg(q(humanCount(v)));
    case Objective::energy:
        return q(humanEnergy(v));
    case Objective::latency:
        return QObject::tr("%1 cycles").arg(q(humanCount(v)));
    case Objective::edp:
        return QObject::tr("%1 pJ·cycles").arg(v, 0, 'g', 4);
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

StudioAutomation* StudioAutomation::install(MainWindow* window) {
    return new StudioAutomation(window);
}

StudioAutomation::StudioAutomation(MainWindow* window)
    : QObject(window), window_(window), task_(new SearchTask(this)),
      onnx_(new OnnxImportFlow(window)) {
    setObjectName(QStringLiteral("studioAutomation"));
    tileSettings_.scope = TileScope::selection;
    createActions();
    createDock();
    createMenus();
    Document* doc = window_->document();
    connect(doc, &Document::documentReset, this, &StudioAutomation::onDocumentChanged);
    connect(doc, &Document::changed, this, &StudioAutomation::onDocumentChanged);
    connect(window_, &MainWindow::statePublished, this, [this](const StudioState& s) {
        if (explore_) explore_->setState(s);
    });
    connect(task_, &SearchTask::started, this, &StudioAutomation::updateActions);
    connect(task_, &SearchTask::finished, this, [this](bool cancelled) {
        if (cancelled) say(tr("%1: cancelled; nothing changed").arg(task_->title()));
        updateActions();
    });
    connect(task_, &SearchTask::failed, this,
            [this](const QString& message) { reportError(window_, task_->title(), message); });
    connect(onnx_, &OnnxImportFlow::finished, this, &StudioAutomation::updateActions);
    updateActions();
}

StudioAutomation::~StudioAutomation() = default;

QAction* StudioAutomation::makeAction(const QString& name, const QString& text, const QString& icon,
                                      const QKeySequence& shortcut, const QString& tip) {
    auto* a = new QAction(text, window_);
    a->setObjectName(name);
    if (!icon.isEmpty()) a->setIcon(gui::studioIcon(icon));
    const QString plain = QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    a->setIconText(plain);
    if (!shortcut.isEmpty()) {
        a->setShortcut(shortcut);
        a->setToolTip(
            QStringLiteral("%1 (%2)").arg(plain, shortcut.toString(QKeySequence::NativeText)));
    }
    a->setStatusTip(tip);
    actions_[name] = a;
    return a;
}

void StudioAutomation::createActions() {
    connect(makeAction(QStringLiteral("autoFuse"), tr("&Auto-fuse…"), QStringLiteral("auto-fuse"),
                       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                       tr("Fuse the whole network optimally with the Optimus dynamic program")),
            &QAction::triggered, this, &StudioAutomation::autoFuseInteractively);
    connect(makeAction(QStringLiteral("optimizeTiles"), tr("Optimize &Tiles…"),
                       QStringLiteral("tiles"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                       tr("Search tiles, loop orders and levels of the selected or all groups")),
            &QAction::triggered, this, &StudioAutomation::optimizeTilesInteractively);
    connect(makeAction(QStringLiteral("explore"), tr("&Explore Pareto Front…"),
                       QStringLiteral("explore"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                       tr("Explore DRAM accesses, buffer and MACs of the whole network")),
            &QAction::triggered, this, &StudioAutomation::showExplore);
    connect(makeAction(QStringLiteral("tsoSlicing"), tr("TSO &Slicing Search"), {},
                       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L),
                       tr("Best tensor slicing per layer on a multicore preset (TSO)")),
            &QAction::triggered, this, [this] { runTsoSearch(true); });
    connect(makeAction(QStringLiteral("importOnnx"), tr("Import &ONNX…"), {},
                       QKeySequence(Qt::CTRL | Qt::Key_I),
                       tr("Open an ONNX model as a new network")),
            &QAction::triggered, onnx_, &OnnxImportFlow::chooseAndImport);
    connect(makeAction(QStringLiteral("exportTimeloop"), tr("Timeloop Mappings…"), {}, {},
                       tr("One Timeloop problem and mapping per unfused conv / fc layer")),
            &QAction::triggered, this, &StudioAutomation::exportTimeloopInteractively);
    connect(
        makeAction(QStringLiteral("exportStream"), tr("Stream Workload and Mapping…"), {}, {},
                   tr("Stream's ONNX workload, mapping with the fusion groups, and accelerator")),
        &QAction::triggered, this, &StudioAutomation::exportStreamInteractively);

    // The window's schedule export and import become the complete ones (every layer and the
    // metrics on export; the network-hash guard and apply-by-names on import).
    if (QAction* a = window_->action(QStringLiteral("exportSchedule"))) {
        disconnect(a, &QAction::triggered, window_, nullptr);
        connect(a, &QAction::triggered, this, &StudioAutomation::exportScheduleInteractively);
    }
    if (QAction* a = window_->action(QStringLiteral("importSchedule"))) {
        disconnect(a, &QAction::triggered, window_, nullptr);
        connect(a, &QAction::triggered, this, &StudioAutomation::importScheduleInteractively);
    }
}

void StudioAutomation::createDock() {
    tsoView_ = new TsoSlicingView(window_);
    tsoDock_ = new QDockWidget(tr("TSO Slicing"), window_);
    tsoDock_->setObjectName(QStringLiteral("tsoSlicingDock"));
    tsoDock_->setWidget(tsoView_);
    tsoDock_->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                          QDockWidget::DockWidgetFloatable);
    window_->addDockWidget(Qt::BottomDockWidgetArea, tsoDock_);
    if (auto* charts = window_->findChild<QDockWidget*>(QStringLiteral("chartsDock"))) {
        window_->tabifyDockWidget(charts, tsoDock_);
        charts->raise();
    }
    tsoDock_->hide();
    connect(tsoView_, &TsoSlicingView::runRequested, this, [this] { runTsoSearch(true); });
    connect(tsoView_, &TsoSlicingView::applyRequested, this, &StudioAutomation::applyTsoTiles);
    connect(tsoView_, &TsoSlicingView::layerActivated, this, [this](LayerId id) {
        window_->setSelection({{id}, -1});
    });
}

void StudioAutomation::createMenus() {
    menu_ = new QMenu(tr("&Optimize"), window_);
    menu_->setObjectName(QStringLiteral("optimizeMenu"));
    menu_->addAction(actions_[QStringLiteral("autoFuse")]);
    menu_->addAction(actions_[QStringLiteral("optimizeTiles")]);
    menu_->addSeparator();
    menu_->addAction(actions_[QStringLiteral("explore")]);
    menu_->addSeparator();
    menu_->addAction(actions_[QStringLiteral("tsoSlicing")]);
    menu_->addAction(tsoDock_->toggleViewAction());
    QMenuBar* bar = window_->menuBar();
    if (QMenu* help = menuHolding(window_->action(QStringLiteral("about"))))
        bar->insertMenu(help->menuAction(), menu_);
    else
        bar->addMenu(menu_);

    if (QMenu* file = menuHolding(window_->action(QStringLiteral("open"))))
        insertAfter(file, window_->action(QStringLiteral("open")),
                    {actions_[QStringLiteral("importOnnx")]});
    if (QMenu* exports = menuHolding(window_->action(QStringLiteral("exportSchedule"))))
        insertAfter(
            exports, window_->action(QStringLiteral("exportMetricsJson")),
            {actions_[QStringLiteral("exportTimeloop")], actions_[QStringLiteral("exportStream")]});
    if (auto* layers = window_->findChild<QDockWidget*>(QStringLiteral("layersDock")))
        if (QMenu* panels = menuHolding(layers->toggleViewAction()))
            panels->addAction(tsoDock_->toggleViewAction());

    toolBar_ = new QToolBar(tr("Automation"), window_);
    toolBar_->setObjectName(QStringLiteral("automationToolBar"));
    toolBar_->setIconSize(QSize(20, 20));
    toolBar_->setMovable(false);
    for (const char* name : {"autoFuse", "optimizeTiles", "explore"})
        toolBar_->addAction(actions_[QString::fromLatin1(name)]);
    // Auto-fuse is the one-click verb: its name beside the icon.
    if (auto* b = qobject_cast<QToolButton*>(
            toolBar_->widgetForAction(actions_[QStringLiteral("autoFuse")])))
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    window_->addToolBar(toolBar_);
}

void StudioAutomation::updateActions() {
    const Document* doc = window_->document();
    const bool open = !doc->network().empty();
    const bool idle = !task_->isRunning();
    actions_[QStringLiteral("autoFuse")]->setEnabled(open && idle);
    actions_[QStringLiteral("optimizeTiles")]->setEnabled(open && idle);
    actions_[QStringLiteral("explore")]->setEnabled(open);
    const bool multicore = open && doc->hardware().cores.has_value();
    actions_[QStringLiteral("tsoSlicing")]->setEnabled(multicore && idle);
    actions_[QStringLiteral("tsoSlicing")]->setToolTip(
        multicore ? tr("Best tensor slicing per layer (TSO, Algs. 1-3)")
                  : tr("Needs a multicore preset (hardware with cores, e.g. tso-nmp)"));
    tsoView_->setRunEnabled(multicore && idle);
    actions_[QStringLiteral("importOnnx")]->setEnabled(!onnx_->isRunning());
    actions_[QStringLiteral("exportTimeloop")]->setEnabled(open);
    actions_[QStringLiteral("exportStream")]->setEnabled(open);
}

void StudioAutomation::onDocumentChanged() {
    updateActions();
    const Document* doc = window_->document();
    if (tsoView_->hasResult() &&
        (!(doc->network() == tsoNetwork_) || !(doc->hardware() == tsoHardware_)))
        tsoView_->clear(tr("The network or the hardware changed: run the search again."));
}

void StudioAutomation::say(const QString& message, int ms) {
    lastMessage_ = message;
    reportStatus(window_, message, ms);
}

bool StudioAutomation::applySearched(const StudioState& searched, Schedule result,
                                     const QString& text) {
    Document* doc = window_->document();
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

std::vector<int> StudioAutomation::selectedGroups() const {
    const StudioSelection& sel = window_->selection();
    const Schedule& s = window_->document()->schedule();
    std::set<int> groups;
    if (sel.group >= 0 && size_t(sel.group) < s.groups.size()) groups.insert(sel.group);
    for (LayerId id : sel.layers)
        if (const int gi = s.groupOf(id); gi >= 0) groups.insert(gi);
    return {groups.begin(), groups.end()};
}

QString StudioAutomation::selectionText() const {
    const std::vector<int> groups = selectedGroups();
    const Schedule& s = window_->document()->schedule();
    if (groups.empty()) return {};
    if (groups.size() > 1) return tr("The %1 selected groups").arg(groups.size());
    const FusionGroup& g = s.groups[size_t(groups.front())];
    if (g.layers.size() == 1)
        return tr("Layer %1").arg(q(window_->document()->network().layer(g.layers.front()).name));
    return tr("Group %1 (%2 layers)").arg(q(g.name)).arg(g.layers.size());
}

// --- Auto-fuse ---------------------------------------------------------------------------------

void StudioAutomation::autoFuseInteractively() {
    AutoFuseDialog dialog(fuseSettings_, window_);
    if (dialog.exec() == QDialog::Accepted) autoFuse(dialog.settings());
}

bool StudioAutomation::autoFuse(const AutoFuseSettings& settings) {
    Document* doc = window_->document();
    if (doc->network().empty() || task_->isRunning()) {
        say(task_->isRunning() ? tr("Another search is running.") : tr("Open a network first."));
        return false;
    }
    fuseSettings_ = settings;
    const StudioState searched = doc->state();
    const bool started = task_->start(
        tr("Auto-fusing %1").arg(q(searched.network.name())),
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
                   "candidate groups")
                    .arg(fusedGroups(s))
                    .arg(q(humanCount(double(before.totals.dram_accesses))),
                         q(humanCount(double(after.totals.dram_accesses))),
                         q(humanEnergy(before.totals.energy.total())),
                         q(humanEnergy(after.totals.energy.total())))
                    .arg(r.seconds * 1000.0, 0, 'f', 2)
                    .arg(r.groups_evaluated);
            return [this, searched, s, text, message]() mutable {
                if (applySearched(searched, std::move(s), text)) say(message, 20000);
            };
        });
    if (started) attachProgressDialog(task_, window_);
    return started;
}

// --- Optimize tiles ----------------------------------------------------------------------------

void StudioAutomation::optimizeTilesInteractively() {
    TileOptimizeDialog dialog(tileSettings_, selectionText(), window_);
    if (dialog.exec() == QDialog::Accepted) optimizeTiles(dialog.settings());
}

bool StudioAutomation::optimizeTiles(const TileOptimizeSettings& settings) {
    Document* doc = window_->document();
    if (doc->network().empty() || task_->isRunning()) {
        say(task_->isRunning() ? tr("Another search is running.") : tr("Open a network first."));
        return false;
    }
    std::vector<int> groups;
    QString scope = tr("every group");
    if (settings.scope == TileScope::selection) {
        groups = selectedGroups();
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
                    if (!r.fits) overCapacity << q(s.groups[gi].name);
                    evaluations += r.evaluations;
                }
            }
            const Objective o = settings.search.objective;
            const double before = objectiveOf(evaluate(net, hw, searched.schedule), o);
            const double after = objectiveOf(evaluate(net, hw, s), o);
            const QString text = tr("Optimize tiles of %1").arg(scope.toLower());
            QString message = tr("Tiles optimized (%1): %2 → %3, %4 schedules costed")
                                  .arg(scope, objectiveValue(before, o), objectiveValue(after, o),
                                       q(humanCount(double(evaluations))));
            if (!overCapacity.isEmpty())
                message += tr("; nothing fits the buffer for %1")
                               .arg(overCapacity.join(QStringLiteral(", ")));
            return [this, searched, s, text, message]() mutable {
                if (applySearched(searched, std::move(s), text)) say(message, 20000);
            };
        });
    if (started) attachProgressDialog(task_, window_);
    return started;
}

// --- TSO slicing ------------------------------------------------------------------------------

bool StudioAutomation::runTsoSearch(bool burstAware) {
    Document* doc = window_->document();
    if (doc->network().empty() || task_->isRunning()) {
        say(task_->isRunning() ? tr("Another search is running.") : tr("Open a network first."));
        return false;
    }
    if (!doc->hardware().cores) {
        say(tr("The TSO slicing search needs a multicore preset (hardware with cores, e.g. "
               "tso-nmp)."));
        return false;
    }
    const StudioState searched = doc->state();
    const bool started = task_->start(
        tr("TSO slicing of %1").arg(q(searched.network.name())),
        [this, searched, burstAware](const SearchControl& control) -> std::function<void()> {
            TsoSearchOptions o;
            o.burst_aware = burstAware;
            TsoSearchResult r = tsoSearch(searched.network, searched.hardware, o, control);
            if (r.cancelled || control.cancelled()) return {};
            return [this, searched, r, burstAware] {
                const Document* d = window_->document();
                if (!(d->network() == searched.network) || !(d->hardware() == searched.hardware)) {
                    say(tr("The document changed while the search ran; its result was dropped."));
                    return;
                }
                tsoNetwork_ = searched.network;
                tsoHardware_ = searched.hardware;
                tsoView_->setResult(searched.network, searched.hardware, r, burstAware);
                tsoDock_->show();
                tsoDock_->raise();
                say(tr("TSO slicing: %n layer(s), %1 cycles in all", nullptr, int(r.layers.size()))
                        .arg(r.total_cycles, 0, 'f', 0));
            };
        });
    if (started) attachProgressDialog(task_, window_);
    return started;
}

bool StudioAutomation::applyTsoTiles() {
    Document* doc = window_->document();
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

ExploreDialog* StudioAutomation::exploreDialog() {
    if (explore_) return explore_;
    explore_ = new ExploreDialog(window_);
    explore_->setState(window_->state());
    connect(explore_, &ExploreDialog::applyRequested, this,
            [this](int, const Schedule& schedule, const QString& text) {
                Document* doc = window_->document();
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

void StudioAutomation::showExplore() {
    ExploreDialog* d = exploreDialog();
    d->setState(window_->state());
    d->show();
    d->raise();
    d->activateWindow();
}

} // namespace lf
