// MainWindow: actions, menus, toolbars and the fusion edits they trigger.
#include "main_window.h"

#include "examples/bundled.h"
#include "graph/graph_canvas.h"
#include "graph/layouter.h"
#include "io/network_yaml.h"
#include "recent_files.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

#include <algorithm>
#include <set>

namespace lf {

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

bool isFusable(const Network& net, LayerId id) {
    const LayerType t = net.layer(id).type;
    return isCompute(t) || t == LayerType::concat;
}
} // namespace

QAction* MainWindow::makeAction(const QString& name, const QString& text, const QString& icon,
                                const QKeySequence& shortcut) {
    auto* a = new QAction(text, this);
    a->setObjectName(name);
    if (!icon.isEmpty()) a->setIcon(gui::studioIcon(icon));
    if (!shortcut.isEmpty()) {
        a->setShortcut(shortcut);
        a->setToolTip(QStringLiteral("%1 (%2)").arg(
            QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…")),
            shortcut.toString(QKeySequence::NativeText)));
    }
    actions_[name] = a;
    return a;
}

QAction* MainWindow::action(const QString& name) const {
    auto it = actions_.find(name);
    return it == actions_.end() ? nullptr : it->second;
}

void MainWindow::createActions() {
    // File
    connect(makeAction("newFromExample", tr("&New from Example…"), "new", QKeySequence::New),
            &QAction::triggered, this, &MainWindow::newFromExample);
    connect(makeAction("open", tr("&Open…"), "open", QKeySequence::Open), &QAction::triggered, this,
            &MainWindow::openDialog);
    connect(makeAction("save", tr("&Save"), "save", QKeySequence::Save), &QAction::triggered, this,
            &MainWindow::save);
    connect(makeAction("saveAs", tr("Save &As…"), {}, QKeySequence::SaveAs), &QAction::triggered,
            this, &MainWindow::saveAs);
    connect(makeAction("importSchedule", tr("&Import Schedule…")), &QAction::triggered, this,
            &MainWindow::importSchedule);
    connect(makeAction("exportSchedule", tr("Schedule (YAML)…"), "export"), &QAction::triggered,
            this, &MainWindow::exportScheduleYaml);
    connect(makeAction("exportMetricsCsv", tr("Metrics (CSV)…")), &QAction::triggered, this,
            [this] { exportMetrics(false); });
    connect(makeAction("exportMetricsJson", tr("Metrics (JSON)…")), &QAction::triggered, this,
            [this] { exportMetrics(true); });
    connect(makeAction("exportSvg", tr("DAG as SVG…")), &QAction::triggered, this,
            [this] { exportDag(true); });
    connect(makeAction("exportPng", tr("DAG as PNG…")), &QAction::triggered, this,
            [this] { exportDag(false); });
    QAction* quit = makeAction("quit", tr("&Quit"), {}, QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    // Edit
    QAction* undo = doc_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName("undo");
    undo->setIcon(gui::studioIcon("undo"));
    undo->setShortcut(QKeySequence::Undo);
    actions_["undo"] = undo;
    QAction* redo = doc_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName("redo");
    redo->setIcon(gui::studioIcon("redo"));
    redo->setShortcut(QKeySequence::Redo);
    actions_["redo"] = redo;
    connect(makeAction("fuse", tr("&Fuse Selection"), "fuse", QKeySequence(Qt::CTRL | Qt::Key_G)),
            &QAction::triggered, this, &MainWindow::fuseSelection);
    connect(makeAction("split", tr("&Split Group at Layer"), "split",
                       QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G)),
            &QAction::triggered, this, &MainWindow::splitAtSelection);
    connect(makeAction("ungroup", tr("&Ungroup"), "ungroup",
                       QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)),
            &QAction::triggered, this, &MainWindow::ungroupSelection);
    connect(makeAction("merge", tr("&Merge Groups"), "merge", QKeySequence(Qt::CTRL | Qt::Key_M)),
            &QAction::triggered, this, &MainWindow::mergeSelection);
    connect(makeAction("find", tr("&Find Layer…"), "find", QKeySequence::Find), &QAction::triggered,
            this, [this] { canvas_->showFindBar(); });
    connect(makeAction("selectAll", tr("Select &All Layers"), {}, QKeySequence::SelectAll),
            &QAction::triggered, this, [this] {
                StudioSelection all;
                for (LayerId id = 0; id < doc_->network().size(); ++id)
                    all.layers.push_back(id);
                setSelection(all);
            });

    // View
    connect(makeAction("zoomIn", tr("Zoom &In"), "zoom-in", QKeySequence::ZoomIn),
            &QAction::triggered, this, [this] { canvas_->zoomIn(); });
    connect(makeAction("zoomOut", tr("Zoom &Out"), "zoom-out", QKeySequence::ZoomOut),
            &QAction::triggered, this, [this] { canvas_->zoomOut(); });
    connect(
        makeAction("zoomFit", tr("&Fit to View"), "zoom-fit", QKeySequence(Qt::CTRL | Qt::Key_0)),
        &QAction::triggered, this, [this] { canvas_->fitToView(); });
    connect(makeAction("zoomReset", tr("&Actual Size"), {}, QKeySequence(Qt::CTRL | Qt::Key_1)),
            &QAction::triggered, this, [this] { canvas_->setZoom(1.0); });

    colorByGroup_ = new QActionGroup(this);
    for (graph::ColorBy mode : {graph::ColorBy::group, graph::ColorBy::dramTraffic,
                                graph::ColorBy::energy, graph::ColorBy::bufferFill}) {
        QAction* a = makeAction("colorBy-" + graph::colorByName(mode), graph::colorByTitle(mode));
        a->setCheckable(true);
        a->setChecked(mode == graph::ColorBy::group);
        a->setData(int(mode));
        colorByGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] { setColorBy(int(mode)); });
    }
    themeGroup_ = new QActionGroup(this);
    for (auto [mode, text] : {std::pair{gui::ThemeMode::system, tr("&System")},
                              std::pair{gui::ThemeMode::light, tr("&Light")},
                              std::pair{gui::ThemeMode::dark, tr("&Dark")}}) {
        QAction* a = makeAction("theme-" + gui::themeModeName(mode), text);
        a->setCheckable(true);
        a->setData(gui::themeModeName(mode));
        a->setChecked(mode == theme_);
        themeGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] { setTheme(mode); });
    }
    QAction* about = makeAction("about", tr("&About LayerFuse"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::about);
}

void MainWindow::createMenus() {
    fileMenu_ = menuBar()->addMenu(tr("&File"));
    fileMenu_->addAction(action("newFromExample"));
    examplesMenu_ = fileMenu_->addMenu(tr("E&xamples"));
    examplesMenu_->setToolTipsVisible(true);
    populateExamplesMenu();
    fileMenu_->addAction(action("open"));
    recentMenu_ = fileMenu_->addMenu(tr("Open &Recent"));
    recent_ = new RecentFiles(recentMenu_, this);
    connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (!maybeSave(tr("Save the changes before opening another file?"))) return;
        if (!QFileInfo::exists(path)) {
            showError(tr("Open Recent"), tr("%1: the file no longer exists").arg(path));
            recent_->remove(path);
            return;
        }
        openPath(path);
    });
    fileMenu_->addSeparator();
    fileMenu_->addAction(action("save"));
    fileMenu_->addAction(action("saveAs"));
    fileMenu_->addSeparator();
    fileMenu_->addAction(action("importSchedule"));
    exportMenu_ = fileMenu_->addMenu(tr("&Export"));
    exportMenu_->setIcon(gui::studioIcon("export"));
    for (const char* name : {"exportSchedule", "exportMetricsCsv", "exportMetricsJson"})
        exportMenu_->addAction(action(name));
    exportMenu_->addSeparator();
    exportMenu_->addAction(action("exportSvg"));
    exportMenu_->addAction(action("exportPng"));
    fileMenu_->addSeparator();
    fileMenu_->addAction(action("quit"));

    editMenu_ = menuBar()->addMenu(tr("&Edit"));
    editMenu_->addAction(action("undo"));
    editMenu_->addAction(action("redo"));
    editMenu_->addSeparator();
    for (const char* name : {"fuse", "split", "ungroup", "merge"})
        editMenu_->addAction(action(name));
    editMenu_->addSeparator();
    editMenu_->addAction(action("selectAll"));
    editMenu_->addAction(action("find"));

    viewMenu_ = menuBar()->addMenu(tr("&View"));
    for (const char* name : {"zoomIn", "zoomOut", "zoomFit", "zoomReset"})
        viewMenu_->addAction(action(name));
    viewMenu_->addSeparator();
    QMenu* colorBy = viewMenu_->addMenu(tr("&Colour By"));
    colorBy->addActions(colorByGroup_->actions());
    QMenu* theme = viewMenu_->addMenu(tr("&Theme"));
    theme->addActions(themeGroup_->actions());
    viewMenu_->addSeparator();
    docksMenu_ = viewMenu_->addMenu(tr("&Panels"));
    for (QDockWidget* d : findChildren<QDockWidget*>())
        docksMenu_->addAction(d->toggleViewAction());

    helpMenu_ = menuBar()->addMenu(tr("&Help"));
    helpMenu_->addAction(action("about"));
}

void MainWindow::createToolBars() {
    mainToolBar_ = addToolBar(tr("Main"));
    mainToolBar_->setObjectName(QStringLiteral("mainToolBar"));
    mainToolBar_->setMovable(false);
    mainToolBar_->setIconSize(QSize(20, 20));
    mainToolBar_->setToolButtonStyle(Qt::ToolButtonIconOnly);
    for (const char* name : {"newFromExample", "open", "save"})
        mainToolBar_->addAction(action(name));
    mainToolBar_->addSeparator();
    mainToolBar_->addAction(action("undo"));
    mainToolBar_->addAction(action("redo"));
    mainToolBar_->addSeparator();
    for (const char* name : {"fuse", "split", "ungroup", "merge"})
        mainToolBar_->addAction(action(name));
    mainToolBar_->addSeparator();
    for (const char* name : {"zoomIn", "zoomOut", "zoomFit", "find"})
        mainToolBar_->addAction(action(name));
    mainToolBar_->addSeparator();
    auto* label = new QLabel(tr("Colour by "), mainToolBar_);
    label->setContentsMargins(6, 0, 0, 0);
    mainToolBar_->addWidget(label);
    auto* combo = new QComboBox(mainToolBar_);
    combo->setObjectName(QStringLiteral("colorByCombo"));
    for (QAction* a : colorByGroup_->actions())
        combo->addItem(a->text(), a->data());
    mainToolBar_->addWidget(combo);
    connect(combo, &QComboBox::activated, this,
            [this, combo](int index) { setColorBy(combo->itemData(index).toInt()); });
    connect(colorByGroup_, &QActionGroup::triggered, combo,
            [combo](QAction* a) { combo->setCurrentIndex(combo->findData(a->data())); });
    // Fusion edits carry text beside their icons: they are the studio's main verbs.
    for (const char* name : {"fuse", "split", "ungroup", "merge"})
        if (auto* button = mainToolBar_->widgetForAction(action(name)))
            if (auto* tb = qobject_cast<QToolButton*>(button))
                tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
}

void MainWindow::setColorBy(int mode) {
    const auto m = graph::ColorBy(mode);
    canvas_->setColorBy(m);
    for (QAction* a : colorByGroup_->actions())
        if (a->data().toInt() == mode) a->setChecked(true);
    if (auto* combo = mainToolBar_
                          ? mainToolBar_->findChild<QComboBox*>(QStringLiteral("colorByCombo"))
                          : nullptr)
        combo->setCurrentIndex(combo->findData(mode));
}

std::vector<int> MainWindow::selectedGroups() const {
    std::set<int> groups;
    const Schedule& s = doc_->schedule();
    if (selection_.group >= 0 && size_t(selection_.group) < s.groups.size())
        groups.insert(selection_.group);
    for (LayerId id : selection_.layers)
        if (const int gi = s.groupOf(id); gi >= 0) groups.insert(gi);
    return {groups.begin(), groups.end()};
}

void MainWindow::updateActions() {
    const Network& net = doc_->network();
    const Schedule& s = doc_->schedule();
    const bool open = !net.empty();
    int fusable = 0;
    for (LayerId id : selection_.layers)
        if (id >= 0 && id < net.size() && isFusable(net, id)) ++fusable;
    const std::vector<int> groups = selectedGroups();
    bool canSplit = false;
    if (selection_.layers.size() == 1) {
        const LayerId id = selection_.layers.front();
        const int gi = s.groupOf(id);
        canSplit = gi >= 0 && s.groups[size_t(gi)].layers.size() > 1 &&
                   s.groups[size_t(gi)].layers.front() != id;
    }
    const bool oneFusedGroup =
        groups.size() == 1 && s.groups[size_t(groups.front())].layers.size() > 1;
    action("fuse")->setEnabled(fusable >= 2);
    action("split")->setEnabled(canSplit);
    action("ungroup")->setEnabled(oneFusedGroup);
    action("merge")->setEnabled(groups.size() >= 2);
    for (const char* name :
         {"save", "saveAs", "exportSchedule", "exportSvg", "exportPng", "importSchedule", "find",
          "selectAll", "zoomIn", "zoomOut", "zoomFit", "zoomReset"})
        action(name)->setEnabled(open);
    const bool haveMetrics = bool(state_.metrics);
    action("exportMetricsCsv")->setEnabled(haveMetrics);
    action("exportMetricsJson")->setEnabled(haveMetrics);
}

void MainWindow::afterEdit(const Document::EditResult& r) {
    if (!r.ok) return; // the reason is already in the status bar (editRefused)
    if (!r.focusGroup.isEmpty()) pendingFocusGroup_ = r.focusGroup;
    showStatus(doc_->undoStack()->undoText(), 4000);
}

void MainWindow::fuseSelection() {
    afterEdit(doc_->fuse(selection_.layers));
}

void MainWindow::splitAtSelection() {
    if (selection_.layers.size() != 1) return;
    afterEdit(doc_->splitAt(selection_.layers.front()));
}

void MainWindow::ungroupSelection() {
    const std::vector<int> groups = selectedGroups();
    if (groups.size() != 1) return;
    afterEdit(doc_->ungroup(groups.front()));
}

void MainWindow::mergeSelection() {
    afterEdit(doc_->mergeGroups(selectedGroups()));
}

void MainWindow::moveLayer(LayerId layer, int groupIndex) {
    afterEdit(doc_->moveLayer(layer, groupIndex));
}

void MainWindow::populateExamplesMenu() {
    examplesMenu_->clear();
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::network) continue;
        // The description is the network document's own (parsed, not built: cheap).
        QString description;
        if (auto spec = parseNetworkSpec(f.text, bundledFileLabel(f)))
            description = q(spec->description);
        const QString name = QString::fromLatin1(f.name);
        QString text = name;
        if (!description.isEmpty()) {
            const QString shortText =
                QFontMetrics(examplesMenu_->font()).elidedText(description, Qt::ElideRight, 420);
            text += QStringLiteral(" — ") + shortText;
        }
        QAction* a = examplesMenu_->addAction(text);
        a->setObjectName(QStringLiteral("example-") + name);
        a->setToolTip(description);
        a->setStatusTip(description);
        connect(a, &QAction::triggered, this, [this, name] {
            if (maybeSave(tr("Save the changes before opening another network?")))
                openBundled(name);
        });
    }
}

void MainWindow::about() {
    QMessageBox box(this);
    box.setWindowTitle(tr("About LayerFuse"));
    box.setIconPixmap(gui::appIcon().pixmap(64, 64));
    box.setTextFormat(Qt::RichText);
    box.setText(
        tr("<h3>LayerFuse %1</h3><p>A design studio for layer-fusion scheduling of CNNs on "
           "accelerators: edit fusion groups on the network's graph and see buffer footprint, DRAM "
           "traffic, latency and energy recomputed at once.</p>"
           "<p>Qt %2 · %3</p>")
            .arg(QStringLiteral(LAYERFUSE_VERSION), QString::fromLatin1(qVersion()),
                 q(graph::graphvizBackendInfo())));
    box.exec();
}

} // namespace lf
