#include "main_window.h"

#include "charts/charts_panel.h"
#include "elided_label.h"
#include "graph/graph_canvas.h"
#include "hardware/hardware_editor.h"
#include "inspectors/group_inspector.h"
#include "inspectors/layer_inspector.h"
#include "layer_list.h"
#include "main_window_automation.h"
#include "metrics/metrics_panel.h"
#include "metrics/units.h"
#include "partition/partition_editor.h"
#include "recent_files.h"
#include "recovery_store.h"
#include "studio_metatypes.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <QUndoView>

#include <algorithm>

namespace lf {

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
constexpr int kAutosaveMs = 60'000;
} // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent), options_(options) {
    gui::initResources();
    registerStudioMetaTypes();
    setWindowIcon(gui::appIcon());
    setObjectName(QStringLiteral("LayerFuseMainWindow"));
    setDockNestingEnabled(true);
    doc_ = new Document(this);
    evaluator_ = new Evaluator(this);

    createActions();
    createCentralCanvas();
    createDocks();
    createMenus();
    createToolBars();
    createStatusBar();
    StudioAutomation::install(this); // Optimize menu, ONNX / schedule import, exports

    connect(doc_, &Document::documentReset, this, &MainWindow::onDocumentReset);
    connect(doc_, &Document::changed, this, &MainWindow::onDocumentChanged);
    connect(doc_, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc_, &Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(doc_, &Document::editRefused, this,
            [this](const QString& reason) { showStatus(reason, 12000); });
    connect(evaluator_, &Evaluator::stateReady, this, &MainWindow::publish);
    connect(evaluator_, &Evaluator::evaluated, this, [this](double ms, int groups) {
        evalLabel_->setText(
            tr("Evaluated in %1 ms").arg(QString::number(ms, 'f', ms < 10 ? 1 : 0)));
        evalLabel_->setToolTip(
            tr("The last evaluation recomputed %n group(s); the rest came from the cache.", nullptr,
               groups));
    });
    connect(evaluator_, &Evaluator::evaluationFailed, this, [this](const QString& message) {
        showStatus(tr("Evaluation failed: %1").arg(message), 15000);
    });

    resize(1280, 800);
    if (options_.restoreSettings) readSettings();
    if (options_.autosave || options_.offerRecovery)
        recovery_ = std::make_unique<RecoveryStore>(options_.recoveryDirectory);
    if (options_.autosave) {
        autosaveTimer_ = new QTimer(this);
        autosaveTimer_->setInterval(kAutosaveMs);
        connect(autosaveTimer_, &QTimer::timeout, this, &MainWindow::autosave);
        autosaveTimer_->start();
    }
    updateActions();
    updateTitle();
}

MainWindow::~MainWindow() = default;

template <class View> void MainWindow::connectStudioView(View* view) {
    views_.push_back({[view](const StudioState& s) { view->setState(s); },
                      [view](const StudioSelection& s) { view->setSelection(s); }});
    if constexpr (requires { &View::selectionRequested; })
        connect(view, &View::selectionRequested, this, &MainWindow::setSelection);
    if constexpr (requires { &View::layerScheduleEdited; })
        connect(view, &View::layerScheduleEdited, this,
                [this](LayerId id, const LayerSchedule& s, const QString& text, int mergeId) {
                    afterEdit(doc_->setLayerSchedule(id, s, text, mergeId));
                });
    if constexpr (requires { &View::groupEdited; })
        connect(view, &View::groupEdited, this,
                [this](int index, const FusionGroup& g, const QString& text, int mergeId) {
                    afterEdit(doc_->setGroup(index, g, text, mergeId));
                });
    if constexpr (requires { &View::hardwareEdited; })
        connect(view, &View::hardwareEdited, this,
                [this](const Hardware& hw, const QString& text, int mergeId) {
                    afterEdit(doc_->setHardware(hw, text, mergeId));
                });
}

template <class View>
QDockWidget* MainWindow::addStudioDock(View* view, const QString& title, const QString& objectName,
                                       Qt::DockWidgetArea area, bool scrollable) {
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    if (scrollable) {
        // Forms taller or wider than the dock scroll instead of forcing the dock's size.
        auto* scroll = new QScrollArea(dock);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(view);
        dock->setWidget(scroll);
    } else {
        dock->setWidget(view);
    }
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    addDockWidget(area, dock);
    connectStudioView(view);
    return dock;
}

void MainWindow::createCentralCanvas() {
    canvas_ = new graph::GraphCanvas(this);
    setCentralWidget(canvas_);
    connectStudioView(canvas_);
    connect(canvas_, &graph::GraphCanvas::layerMoveRequested, this, &MainWindow::moveLayer);
    connect(canvas_, &graph::GraphCanvas::statusMessage, this,
            [this](const QString& m) { showStatus(m); });
    canvas_->setContextActions({action(QStringLiteral("fuse")), action(QStringLiteral("split")),
                                action(QStringLiteral("ungroup")), action(QStringLiteral("merge")),
                                nullptr, action(QStringLiteral("zoomFit")),
                                action(QStringLiteral("find"))});
}

void MainWindow::createDocks() {
    // Left: the layer table and the history; right: inspectors and editors over the metrics;
    // bottom: charts under the canvas. Side docks own the bottom corners so they run full height.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    layerList_ = new LayerList(this);
    QDockWidget* layers = addStudioDock(layerList_, tr("Layers"), QStringLiteral("layersDock"),
                                        Qt::LeftDockWidgetArea);
    undoView_ = new QUndoView(doc_->undoStack(), this);
    undoView_->setEmptyLabel(tr("<opened>"));
    auto* history = new QDockWidget(tr("History"), this);
    history->setObjectName(QStringLiteral("historyDock"));
    history->setWidget(undoView_);
    addDockWidget(Qt::LeftDockWidgetArea, history);
    tabifyDockWidget(layers, history);
    layers->raise();

    QDockWidget* layer =
        addStudioDock(new LayerInspector(this), tr("Layer"), QStringLiteral("layerInspectorDock"),
                      Qt::RightDockWidgetArea, true);
    QDockWidget* metrics = addStudioDock(new MetricsPanel(this), tr("Metrics"),
                                         QStringLiteral("metricsDock"), Qt::RightDockWidgetArea);
    QDockWidget* group =
        addStudioDock(new GroupInspector(this), tr("Group"), QStringLiteral("groupInspectorDock"),
                      Qt::RightDockWidgetArea, true);
    QDockWidget* partition =
        addStudioDock(new PartitionEditor(this), tr("Partition"),
                      QStringLiteral("partitionEditorDock"), Qt::RightDockWidgetArea, true);
    QDockWidget* hardware =
        addStudioDock(new HardwareEditor(this), tr("Hardware"),
                      QStringLiteral("hardwareEditorDock"), Qt::RightDockWidgetArea, true);
    tabifyDockWidget(layer, group);
    tabifyDockWidget(group, partition);
    tabifyDockWidget(partition, hardware);
    layer->raise();

    QDockWidget* charts = addStudioDock(new ChartsPanel(this), tr("Charts"),
                                        QStringLiteral("chartsDock"), Qt::BottomDockWidgetArea);
    createTeachingDocks();
    boundDockSizes();
    defaultDockSizes_ = [this, layers, layer, metrics, charts] {
        resizeDocks({layers, layer}, {280, 380}, Qt::Horizontal);
        resizeDocks({layer, metrics}, {430, 300}, Qt::Vertical);
        resizeDocks({charts}, {250}, Qt::Vertical);
    };
    defaultDockSizes_();
}

void MainWindow::boundDockSizes() {
    // A panel that needs more room than a 1280x800 screen spares scrolls instead of pushing
    // the window off the screen.
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        QWidget* content = dock->widget();
        if (!content || qobject_cast<QScrollArea*>(content)) continue;
        const QSize need = content->minimumSizeHint();
        if (need.width() <= 300 && need.height() <= 240) continue;
        auto* scroll = new QScrollArea(dock);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(content); // takes ownership; the view keeps its connections
        dock->setWidget(scroll);
    }
    // The layout keeps the minimum it computed while the panels were unbounded: recompute it.
    layout()->invalidate();
    layout()->activate();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // Dock sizes only settle once the window has its real size.
    if (!shownOnce_ && !stateRestored_ && defaultDockSizes_)
        QTimer::singleShot(0, this, [this] { defaultDockSizes_(); });
    shownOnce_ = true;
}

void MainWindow::createStatusBar() {
    summaryLabel_ = new ElidedLabel(this);
    overLabel_ = new QLabel(this);
    overLabel_->setStyleSheet(QStringLiteral("color: #e03a3a; font-weight: 600;"));
    overLabel_->hide();
    evalLabel_ = new QLabel(this);
    zoomLabel_ = new QLabel(this);
    zoomLabel_->setMinimumWidth(
        zoomLabel_->fontMetrics().horizontalAdvance(QStringLiteral("400 %")) + 8);
    zoomLabel_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    statusBar()->addWidget(summaryLabel_, 1); // a transient message takes its place for a while
    statusBar()->addPermanentWidget(overLabel_);
    statusBar()->addPermanentWidget(evalLabel_);
    statusBar()->addPermanentWidget(zoomLabel_);
    connect(canvas_, &graph::GraphCanvas::zoomChanged, this, [this](double z) {
        zoomLabel_->setText(QString::number(qRound(z * 100)) + QStringLiteral(" %"));
    });
}

void MainWindow::onDocumentReset() {
    evaluator_->resetHistory();
    selection_ = {};
    StudioState s = doc_->state();
    // Views show the structure at once; the metrics follow from the evaluator.
    publish(s);
    applyViewState(doc_->loadedView());
    evaluator_->request(std::move(s));
    updateTitle();
}

void MainWindow::onDocumentChanged() {
    evaluator_->request(doc_->state());
    updateActions();
}

void MainWindow::publish(const StudioState& state) {
    state_ = state;
    // Keep the selection meaningful for the new schedule.
    StudioSelection sel = selection_;
    std::erase_if(sel.layers, [&](LayerId id) { return id < 0 || id >= state.network.size(); });
    sel.group = -1;
    if (!pendingFocusGroup_.isEmpty()) {
        for (size_t gi = 0; gi < state.schedule.groups.size(); ++gi)
            if (q(state.schedule.groups[gi].name) == pendingFocusGroup_) {
                sel.layers = state.schedule.groups[gi].layers;
                sel.group = int(gi);
            }
        pendingFocusGroup_.clear();
    } else if (selection_.group >= 0) {
        for (size_t gi = 0; gi < state.schedule.groups.size(); ++gi)
            if (state.schedule.groups[gi].layers == sel.layers) sel.group = int(gi);
    }
    selection_ = sel;
    for (const ViewHooks& v : views_)
        v.setState(state);
    broadcastingSelection_ = true;
    for (const ViewHooks& v : views_)
        v.setSelection(selection_);
    broadcastingSelection_ = false;
    updateActions();
    updateStatusSummary();
    if (state.metrics) emit statePublished(state);
}

void MainWindow::setSelection(const StudioSelection& requested) {
    if (broadcastingSelection_) return;
    StudioSelection sel = requested;
    std::sort(sel.layers.begin(), sel.layers.end());
    sel.layers.erase(std::unique(sel.layers.begin(), sel.layers.end()), sel.layers.end());
    const Schedule& s = doc_->schedule();
    if (sel.group >= 0 && size_t(sel.group) >= s.groups.size()) sel.group = -1;
    if (sel.group >= 0 && sel.layers.empty()) sel.layers = s.groups[size_t(sel.group)].layers;
    selection_ = sel;
    broadcastingSelection_ = true;
    for (const ViewHooks& v : views_)
        v.setSelection(selection_);
    broadcastingSelection_ = false;
    updateActions();
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] — LayerFuse").arg(doc_->displayName()));
    setWindowModified(doc_->isModified());
}

void MainWindow::updateStatusSummary() {
    const Schedule& s = state_.schedule;
    const int fused = int(std::count_if(s.groups.begin(), s.groups.end(),
                                        [](const FusionGroup& g) { return g.layers.size() > 1; }));
    QString text = tr("%1 layers · %2 groups (%3 fused)")
                       .arg(state_.network.computeIds().size())
                       .arg(s.groups.size())
                       .arg(fused);
    int over = 0;
    if (const Metrics* m = state_.metrics.get()) {
        over = int(std::count_if(m->groups.begin(), m->groups.end(),
                                 [](const GroupMetrics& g) { return !g.fits; }));
        text += tr(" · DRAM %1 · %2 MACs · %3 · %4")
                    .arg(q(humanBytes(double(m->totals.dram_bytes))),
                         q(humanCount(double(m->totals.macs))), q(humanTime(m->totals.latency_s)),
                         q(humanEnergy(m->totals.energy.total())));
    }
    summaryLabel_->setText(text);
    overLabel_->setText(tr("%n over capacity", nullptr, over));
    overLabel_->setVisible(over > 0);
}

void MainWindow::showStatus(const QString& message, int ms) {
    statusBar()->showMessage(message, ms);
}

void MainWindow::showError(const QString& title, const QString& message) {
    showStatus(message, 15000);
    if (errorSink) {
        errorSink(title, message);
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

ProjectViewState MainWindow::viewState() const {
    ProjectViewState v;
    v.zoom = canvas_->zoom();
    const QPointF c = canvas_->viewCenter();
    v.center = std::make_pair(std::round(c.x() * 10) / 10, std::round(c.y() * 10) / 10);
    v.color_by = graph::colorByName(canvas_->colorBy()).toStdString();
    if (selection_.group >= 0 && size_t(selection_.group) < doc_->schedule().groups.size())
        v.selected_group = doc_->schedule().groups[size_t(selection_.group)].name;
    for (LayerId id : selection_.layers)
        if (id >= 0 && id < doc_->network().size())
            v.selected_layers.push_back(doc_->network().layer(id).name);
    v.dock_state = saveState().toBase64().toStdString();
    return v;
}

void MainWindow::applyViewState(const ProjectViewState& view) {
    if (!view.dock_state.empty())
        restoreState(QByteArray::fromBase64(QByteArray::fromStdString(view.dock_state)));
    if (auto mode = graph::colorByFromName(q(view.color_by))) setColorBy(int(*mode));
    if (view.center) {
        canvas_->setZoom(view.zoom);
        canvas_->setViewCenter(QPointF(view.center->first, view.center->second));
    }
    StudioSelection sel;
    for (const std::string& name : view.selected_layers)
        if (const LayerId id = doc_->network().find(name); id != kNoLayer) sel.layers.push_back(id);
    if (!view.selected_group.empty()) {
        const Schedule& s = doc_->schedule();
        for (size_t gi = 0; gi < s.groups.size(); ++gi)
            if (s.groups[gi].name == view.selected_group) {
                sel.group = int(gi);
                if (sel.layers.empty()) sel.layers = s.groups[gi].layers;
            }
    }
    if (!sel.layers.empty()) setSelection(sel);
}

void MainWindow::readSettings() {
    QSettings settings;
    if (const QByteArray g = settings.value(QStringLiteral("window/geometry")).toByteArray();
        !g.isEmpty())
        restoreGeometry(g);
    if (const QByteArray st = settings.value(QStringLiteral("window/state")).toByteArray();
        !st.isEmpty())
        stateRestored_ = restoreState(st);
    setTheme(gui::themeModeFromName(settings.value(QStringLiteral("theme")).toString()));
    if (auto mode = graph::colorByFromName(settings.value(QStringLiteral("colorBy")).toString()))
        setColorBy(int(*mode));
}

void MainWindow::writeSettings() {
    if (!options_.restoreSettings) return;
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("theme"), gui::themeModeName(theme_));
    settings.setValue(QStringLiteral("colorBy"), graph::colorByName(canvas_->colorBy()));
}

void MainWindow::setTheme(gui::ThemeMode mode) {
    theme_ = mode;
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance()))
        gui::applyStudioStyle(*app, mode);
    if (themeGroup_)
        for (QAction* a : themeGroup_->actions())
            a->setChecked(a->data().toString() == gui::themeModeName(mode));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave(tr("Save the changes before closing?"))) {
        event->ignore();
        return;
    }
    writeSettings();
    if (recovery_) recovery_->clear();
    event->accept();
}

} // namespace lf
