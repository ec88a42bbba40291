#include "main_window.h"

#include "charts/charts_panel.h"
#include "controllers/automation_controller.h"
#include "controllers/edit_controller.h"
#include "controllers/exchange_controller.h"
#include "controllers/files_controller.h"
#include "controllers/help_controller.h"
#include "controllers/onnx_import_flow.h"
#include "controllers/recovery_controller.h"
#include "controllers/repro_controller.h"
#include "controllers/teaching_controller.h"
#include "graph/graph_canvas.h"
#include "hardware/hardware_editor.h"
#include "history/undo_history_view.h"
#include "input/field_guard.h"
#include "inspectors/group_inspector.h"
#include "inspectors/layer_inspector.h"
#include "layers/layer_list.h"
#include "metrics/metrics_panel.h"
#include "panels/canvas_panel.h"
#include "panels/dock_layout.h"
#include "panels/status_panel.h"
#include "panels/studio_dock.h"
#include "panels/teaching_panel.h"
#include "partition/partition_editor.h"
#include "search/tso_slicing_view.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QSettings>
#include <QStatusBar>

namespace lf {

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent), options_(options), studio_(new Studio(this)), actions_(this) {
    gui::initResources();
    FieldGuard::install(); // the wheel scrolls panels; Ctrl+Z in a field undoes the last edit
    setWindowIcon(gui::appIcon());
    setObjectName(QStringLiteral("LayerFuseMainWindow"));
    setDockNestingEnabled(true);
    studio_->setWindow(this);
    // The window keeps the dock layout in projects; restored before the canvas restores its
    // zoom and centre, so that the centre is the one of the final canvas size.
    studio_->addViewStateWriter(
        [this](ProjectViewState& v) { v.dock_state = saveState().toBase64().toStdString(); });
    connect(studio_, &Studio::viewStateLoaded, this, [this](const ProjectViewState& view) {
        if (!view.dock_state.empty())
            restoreState(QByteArray::fromBase64(QByteArray::fromStdString(view.dock_state)));
    });

    canvasPanel_ = new CanvasPanel(studio_, this);
    setCentralWidget(canvasPanel_->canvas());
    edits_ = new EditController(studio_, this);
    files_ = new FilesController(studio_, this);
    recovery_ = new RecoveryController(
        studio_, {options_.autosave, options_.offerRecovery, options_.recoveryDirectory}, this);
    exchange_ = new ExchangeController(studio_, this);
    automation_ = new AutomationController(studio_, this);
    teaching_ = new TeachingController(studio_, this);
    help_ = new HelpController(studio_, this);
    repro_ = new ReproController(studio_, this);
    createDocks();
    createThemeActions();
    createMenus();
    createToolBars();
    statusPanel_ = new StatusPanel(studio_, statusBar());

    // What one part does for another.
    canvasPanel_->canvas()->setContextActions(
        {action(QStringLiteral("fuse")), action(QStringLiteral("split")),
         action(QStringLiteral("ungroup")), action(QStringLiteral("merge")), nullptr,
         action(QStringLiteral("zoomFit")), action(QStringLiteral("find"))});
    connect(canvas(), &graph::GraphCanvas::zoomChanged, statusPanel_, &StatusPanel::setZoom);
    connect(files_, &FilesController::saved, recovery_, &RecoveryController::clear);
    files_->importSchedule = [this](const QString& path) {
        return exchange_->importSchedule(path);
    };
    connect(exchange_->onnxImport(), &OnnxImportFlow::imported, files_,
            &FilesController::addRecent);
    teaching_->attach(teachingPanel_->lessons(), teachingPanel_->compare());
    files_->openLesson = [this](const QString& path, QString* error) {
        if (!teaching_->openLessonFile(path, error, false)) return false;
        teachingPanel_->lessonsDock()->show();
        teachingPanel_->lessonsDock()->raise();
        return true;
    };
    connect(teaching_, &TeachingController::highlightRequested, canvasPanel_,
            &CanvasPanel::highlightGroups);
    connect(automation_, &AutomationController::tsoResultReady, this, [this] {
        tsoDock_->show();
        tsoDock_->raise();
    });
    Document* doc = studio_->document();
    connect(doc, &Document::documentReset, this, &MainWindow::updateTitle);
    connect(doc, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(doc, &Document::filePathChanged, this, &MainWindow::updateTitle);

    if (options_.restoreSettings) readSettings();
    updateTitle();
}

MainWindow::~MainWindow() = default;

graph::GraphCanvas* MainWindow::canvas() const {
    return canvasPanel_->canvas();
}

QAction* MainWindow::action(const QString& name) const {
    for (const ActionSet* set :
         {&actions_, &canvasPanel_->actions(), &edits_->actions(), &files_->actions(),
          &exchange_->actions(), &automation_->actions(), &help_->actions(), &repro_->actions(),
          &teaching_->actions(), &teachingPanel_->actions(), &dockLayout_->actions()})
        if (QAction* a = set->get(name)) return a;
    return nullptr;
}

void MainWindow::createDocks() {
    // Left: the layer table, the history and the lessons; right: inspectors and editors over
    // the metrics; bottom: charts and the teaching views under the canvas. Side docks own the
    // bottom corners so they run full height.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    layerList_ = new LayerList(this);
    QDockWidget* layers =
        studioDock(studio_, this, layerList_, tr("Layers"), QStringLiteral("layersDock"));
    auto* undoView = new UndoHistoryView(studio_->document()->undoStack(), this);
    undoView->setObjectName(QStringLiteral("historyView"));
    undoView->setEmptyLabel(tr("<opened>"));
    QDockWidget* history = makeDock(this, undoView, tr("History"), QStringLiteral("historyDock"));
    addDockWidget(Qt::LeftDockWidgetArea, layers);
    addDockWidget(Qt::LeftDockWidgetArea, history);
    tabifyDockWidget(layers, history);

    QDockWidget* layer = studioDock(studio_, this, new LayerInspector(this), tr("Layer"),
                                    QStringLiteral("layerInspectorDock"), true);
    auto* metricsPanel = new MetricsPanel(this);
    QDockWidget* metrics =
        studioDock(studio_, this, metricsPanel, tr("Metrics"), QStringLiteral("metricsDock"));
    QDockWidget* group = studioDock(studio_, this, new GroupInspector(this), tr("Group"),
                                    QStringLiteral("groupInspectorDock"), true);
    QDockWidget* partition = studioDock(studio_, this, new PartitionEditor(this), tr("Partition"),
                                        QStringLiteral("partitionEditorDock"), true);
    QDockWidget* hardware = studioDock(studio_, this, new HardwareEditor(this), tr("Hardware"),
                                       QStringLiteral("hardwareEditorDock"), true);
    for (QDockWidget* d : {layer, metrics, group, partition, hardware})
        addDockWidget(Qt::RightDockWidgetArea, d);
    tabifyDockWidget(layer, group);
    tabifyDockWidget(group, partition);
    tabifyDockWidget(partition, hardware);
    layer->raise();

    QDockWidget* charts = studioDock(studio_, this, new ChartsPanel(this), tr("Charts"),
                                     QStringLiteral("chartsDock"));
    addDockWidget(Qt::BottomDockWidgetArea, charts);
    teachingPanel_ = new TeachingPanel(studio_, this);
    connect(metricsPanel, &MetricsPanel::explainRequested, teachingPanel_,
            &TeachingPanel::explainMetric);
    QDockWidget* previous = charts;
    for (QDockWidget* d : teachingPanel_->bottomDocks()) {
        addDockWidget(Qt::BottomDockWidgetArea, d);
        tabifyDockWidget(previous, d);
        previous = d;
    }
    addDockWidget(Qt::LeftDockWidgetArea, teachingPanel_->lessonsDock());
    tabifyDockWidget(layers, teachingPanel_->lessonsDock());
    tsoDock_ =
        makeDock(this, automation_->tsoView(), tr("TSO Slicing"), QStringLiteral("tsoSlicingDock"));
    addDockWidget(Qt::BottomDockWidgetArea, tsoDock_);
    tabifyDockWidget(charts, tsoDock_);
    tsoDock_->hide();
    charts->raise();
    layers->raise();
    docks_ = {layers, history, layer, metrics, group, partition, hardware, charts};
    docks_ << teachingPanel_->bottomDocks() << teachingPanel_->lessonsDock() << tsoDock_;

    dockLayout_ = new DockLayout(this, layers, layer, metrics, charts);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    dockLayout_->windowShown();
}

void MainWindow::updateTitle() {
    const Document* doc = studio_->document();
    setWindowTitle(QStringLiteral("%1[*] — LayerFuse").arg(doc->displayName()));
    setWindowModified(doc->isModified());
}

void MainWindow::readSettings() {
    QSettings settings;
    if (const QByteArray g = settings.value(QStringLiteral("window/geometry")).toByteArray();
        !g.isEmpty())
        restoreGeometry(g);
    if (const QByteArray st = settings.value(QStringLiteral("window/state")).toByteArray();
        !st.isEmpty())
        dockLayout_->setRestored(restoreState(st));
    setTheme(gui::themeModeFromName(settings.value(QStringLiteral("theme")).toString()));
    canvasPanel_->readSettings(settings);
    dockLayout_->readSettings(settings);
}

void MainWindow::writeSettings() {
    if (!options_.restoreSettings) return;
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("theme"), gui::themeModeName(theme_));
    canvasPanel_->writeSettings(settings);
    dockLayout_->writeSettings(settings);
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
    if (!studio_->confirmReplace(tr("Save the changes before closing?"))) {
        event->ignore();
        return;
    }
    writeSettings();
    recovery_->clear();
    event->accept();
}

} // namespace lf
