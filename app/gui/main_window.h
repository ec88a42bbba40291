// MainWindow: assembles the studio. It creates the Studio (document, evaluator, selection),
// the panels (the canvas in the middle, docks around it, the status bar) and the controllers
// (edits, files, recovery, exchange, automation, teaching, help); puts the docks in place and
// the parts' actions into menus and toolbars; and keeps what is the window's own: its
// geometry, dock layout and theme. Everything a panel or a controller does, it does itself.
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"
#include "studio/studio_style.h"

#include <QMainWindow>

class QActionGroup;
class QDockWidget;

namespace lf {

namespace graph {
class GraphCanvas;
}
class AutomationController;
class CanvasPanel;
class DockLayout;
class EditController;
class ExchangeController;
class FilesController;
class HelpController;
class ReproController;
class LayerList;
class RecoveryController;
class StatusPanel;
class TeachingController;
class TeachingPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    struct Options {
        bool restoreSettings = true; // window geometry, dock layout, theme from QSettings
        bool autosave = true;        // recovery files a few seconds after each edit
        bool offerRecovery = true;   // ask to restore files left by a crashed session
        QString recoveryDirectory;   // empty: AppLocalDataLocation/recovery
    };
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    MainWindow() : MainWindow(Options{}) {}
    ~MainWindow() override;

    Studio* studio() const { return studio_; }
    Document* document() const { return studio_->document(); }

    // The parts.
    CanvasPanel* canvasPanel() const { return canvasPanel_; }
    graph::GraphCanvas* canvas() const;
    LayerList* layerList() const { return layerList_; }
    TeachingPanel* teachingPanel() const { return teachingPanel_; }
    DockLayout* dockLayout() const { return dockLayout_; }
    EditController* edits() const { return edits_; }
    FilesController* files() const { return files_; }
    RecoveryController* recovery() const { return recovery_; }
    ExchangeController* exchange() const { return exchange_; }
    AutomationController* automation() const { return automation_; }
    TeachingController* teaching() const { return teaching_; }

    // Any part's action by name ("fuse", "save", "exportStream", "autoFuse", ...).
    QAction* action(const QString& name) const;

    void setTheme(gui::ThemeMode mode);
    gui::ThemeMode theme() const { return theme_; }

  protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    // main_window.cpp
    void createDocks();
    void updateTitle();
    void readSettings();
    void writeSettings();
    // main_window_menus.cpp
    void createMenus();
    void createToolBars();
    void createThemeActions();

    Options options_;
    Studio* studio_;
    ActionSet actions_; // the window's own: quit, the themes
    CanvasPanel* canvasPanel_ = nullptr;
    LayerList* layerList_ = nullptr;
    TeachingPanel* teachingPanel_ = nullptr;
    StatusPanel* statusPanel_ = nullptr;
    DockLayout* dockLayout_ = nullptr;
    EditController* edits_ = nullptr;
    FilesController* files_ = nullptr;
    RecoveryController* recovery_ = nullptr;
    ExchangeController* exchange_ = nullptr;
    AutomationController* automation_ = nullptr;
    TeachingController* teaching_ = nullptr;
    HelpController* help_ = nullptr;
    ReproController* repro_ = nullptr;

    QList<QDockWidget*> docks_; // in the order View ▸ Panels lists them
    QDockWidget* tsoDock_ = nullptr;
    QActionGroup* themeGroup_ = nullptr;
    gui::ThemeMode theme_ = gui::ThemeMode::system;
};

} // namespace lf
