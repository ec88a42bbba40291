// MainWindow: the menu bar and toolbars, made of the parts' actions, and the window's own
// actions (Quit, the themes).
#include "main_window.h"

#include "controllers/automation_controller.h"
#include "controllers/exchange_controller.h"
#include "controllers/files_controller.h"
#include "panels/canvas_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QToolBar>
#include <QToolButton>

namespace lf {

namespace {

QToolBar* toolBar(QMainWindow* window, const QString& title, const QString& objectName) {
    auto* bar = new QToolBar(title, window);
    bar->setObjectName(objectName);
    bar->setMovable(false);
    bar->setIconSize(QSize(20, 20));
    bar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    window->addToolBar(bar);
    return bar;
}

// The studio's main verbs carry their names beside their icons.
void nameBesideIcon(QToolBar* bar, QAction* action) {
    if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action)))
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
}

} // namespace

void MainWindow::createThemeActions() {
    QAction* quit = actions_.add(QStringLiteral("quit"), tr("&Quit"), {}, QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    themeGroup_ = new QActionGroup(this);
    for (auto [mode, text] : {std::pair{gui::ThemeMode::system, tr("&System")},
                              std::pair{gui::ThemeMode::light, tr("&Light")},
                              std::pair{gui::ThemeMode::dark, tr("&Dark")}}) {
        QAction* a = actions_.add(QStringLiteral("theme-") + gui::themeModeName(mode), text);
        a->setCheckable(true);
        a->setData(gui::themeModeName(mode));
        a->setChecked(mode == theme_);
        themeGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] { setTheme(mode); });
    }
}

void MainWindow::createMenus() {
    auto add = [this](QMenu* menu, std::initializer_list<const char*> names) {
        for (const char* name : names)
            menu->addAction(action(QString::fromLatin1(name)));
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    add(file, {"newFromExample"});
    file->addMenu(files_->examplesMenu());
    add(file, {"open", "importOnnx", "onnxReport"});
    file->addMenu(files_->recentMenu());
    file->addSeparator();
    add(file, {"save", "saveAs"});
    file->addSeparator();
    add(file, {"openLessonFile", "saveAsLesson"});
    file->addSeparator();
    add(file, {"importSchedule", "importHardware"});
    QMenu* exports = file->addMenu(tr("&Export"));
    exports->setIcon(gui::studioIcon(QStringLiteral("export")));
    exports->addActions(exchange_->exportActions());
    exports->addSeparator();
    add(exports, {"exportSvg", "exportPng"});
    exports->addSeparator();
    add(exports, {"exportLoopNest", "exportPyramidSteps"});
    file->addSeparator();
    add(file, {"quit"});

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    add(edit, {"undo", "redo"});
    edit->addSeparator();
    add(edit, {"fuse", "split", "ungroup", "merge"});
    edit->addSeparator();
    add(edit, {"selectAll", "find"});

    QMenu* view = menuBar()->addMenu(tr("&View"));
    add(view, {"zoomIn", "zoomOut", "zoomFit", "zoomReset"});
    view->addSeparator();
    view->addMenu(tr("&Colour By"))->addActions(canvasPanel_->colorByActions());
    view->addMenu(tr("&Theme"))->addActions(themeGroup_->actions());
    view->addSeparator();
    QMenu* panels = view->addMenu(tr("&Panels"));
    for (QDockWidget* d : docks_)
        panels->addAction(d->toggleViewAction());
    add(view, {"resetLayout", "presenterMode"});

    QMenu* optimize = menuBar()->addMenu(tr("&Optimize"));
    optimize->setObjectName(QStringLiteral("optimizeMenu"));
    add(optimize, {"autoFuse", "optimizeTiles"});
    optimize->addSeparator();
    add(optimize, {"explore"});
    optimize->addSeparator();
    add(optimize, {"tsoSlicing"});
    optimize->addAction(tsoDock_->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    add(help, {"manual", "shortcuts", "whatsThis"});
    help->addSeparator();
    add(help, {"reproducePapers"});
    help->addSeparator();
    add(help, {"about"});
}

void MainWindow::createToolBars() {
    QToolBar* main = toolBar(this, tr("Main"), QStringLiteral("mainToolBar"));
    auto add = [this, main](std::initializer_list<const char*> names) {
        for (const char* name : names)
            main->addAction(action(QString::fromLatin1(name)));
        main->addSeparator();
    };
    add({"newFromExample", "open", "save"});
    add({"undo", "redo"});
    add({"fuse", "split", "ungroup", "merge"});
    add({"zoomIn", "zoomOut", "zoomFit", "find"});
    auto* label = new QLabel(tr("Colour by "), main);
    label->setContentsMargins(6, 0, 0, 0);
    main->addWidget(label);
    main->addWidget(canvasPanel_->makeColorByCombo(main));
    for (const char* name : {"fuse", "split", "ungroup", "merge"})
        nameBesideIcon(main, action(QString::fromLatin1(name)));

    QToolBar* automation = toolBar(this, tr("Automation"), QStringLiteral("automationToolBar"));
    for (const char* name : {"autoFuse", "optimizeTiles", "explore"})
        automation->addAction(action(QString::fromLatin1(name)));
    nameBesideIcon(automation, action(QStringLiteral("autoFuse")));
}

} // namespace lf
