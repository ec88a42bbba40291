// MainWindow: the studio. The DAG canvas in the middle, docks around it (layers, metrics,
// inspectors, editors, charts, history), menus and toolbars whose actions turn into
// Document edits. Views get StudioState snapshots from the Evaluator and the common
// selection; their intents (signals) come back here.
#pragma once

#include "document.h"
#include "evaluator.h"
#include "studio_style.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTimer;
class QToolBar;
class QUndoView;

namespace lf::graph {
class GraphCanvas;
}

namespace lf {

class ElidedLabel;
class LayerList;
class RecentFiles;
class RecoveryStore;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    struct Options {
        bool restoreSettings = true; // window geometry, dock layout, theme from QSettings
        bool autosave = true;        // recovery file every minute while modified
        bool offerRecovery = true;   // ask to restore files left by a crashed session
        QString recoveryDirectory;   // empty: AppLocalDataLocation/recovery
    };
    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    MainWindow() : MainWindow(Options{}) {}
    ~MainWindow() override;

    // Opens a project, a network file or a bundled example by short name. On failure the
    // current document stays and the error (FILE:LINE:COLUMN: message) is returned and shown.
    bool openPath(const QString& pathOrName, QString* error = nullptr);
    bool openBundled(const QString& name, QString* error = nullptr);
    // Offers to restore what a crashed session left (when the options allow it).
    void offerRecovery();
    bool saveProjectTo(const QString& path, QString* error = nullptr);
    // Writes the recovery file now when there are unsaved changes (a timer does it every minute).
    void autosave();

    Document* document() const { return doc_; }
    Evaluator* evaluator() const { return evaluator_; }
    graph::GraphCanvas* canvas() const { return canvas_; }
    LayerList* layerList() const { return layerList_; }
    // Actions by object name ("fuse", "split", "ungroup", "merge", "undo", "save", ...).
    QAction* action(const QString& name) const;
    const StudioState& state() const { return state_; }
    const StudioSelection& selection() const { return selection_; }
    // Selects as if the user had (every view follows).
    void setSelection(const StudioSelection& selection);
    ProjectViewState viewState() const;
    void setTheme(gui::ThemeMode mode);
    gui::ThemeMode theme() const { return theme_; }

    // Decides the "save changes?" question (tests); unset: a modal message box asks.
    std::function<QMessageBox::StandardButton(const QString& question)> savePrompt;
    // Answers "restore the work of a crashed session?" (Yes / No / Ignore = ask next time).
    std::function<QMessageBox::StandardButton(const QString& question)> recoveryPrompt;
    // Shows errors (tests may capture them); unset: a message box.
    std::function<void(const QString& title, const QString& message)> errorSink;

  signals:
    // A StudioState with metrics reached every view.
    void statePublished(const lf::StudioState& state);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    // --- construction (main_window.cpp) ---
    void createCentralCanvas();
    void createDocks();
    void createStatusBar();
    void boundDockSizes();
    template <class View>
    QDockWidget* addStudioDock(View* view, const QString& title, const QString& objectName,
                               Qt::DockWidgetArea area, bool scrollable = false);
    template <class View> void connectStudioView(View* view);
    void publish(const StudioState& state);
    void onDocumentReset();
    void onDocumentChanged();
    void updateTitle();
    void updateStatusSummary();
    void showStatus(const QString& message, int ms = 6000);
    void showError(const QString& title, const QString& message);
    void applyViewState(const ProjectViewState& view);
    void readSettings();
    void writeSettings();

    // --- actions and menus (main_window_actions.cpp) ---
    void createActions();
    void createMenus();
    void createToolBars();
    void updateActions();
    QAction* makeAction(const QString& name, const QString& text, const QString& icon = {},
                        const QKeySequence& shortcut = {});
    void fuseSelection();
    void splitAtSelection();
    void ungroupSelection();
    void mergeSelection();
    void moveLayer(LayerId layer, int groupIndex);
    std::vector<int> selectedGroups() const;
    void afterEdit(const Document::EditResult& r);
    void populateExamplesMenu();
    void setColorBy(int mode);
    void about();

    // --- teaching docks (main_window_teaching.cpp) ---
    void createTeachingDocks();

    // --- files (main_window_files.cpp) ---
    bool maybeSave(const QString& why);
    void openDialog();
    void newFromExample();
    bool save();
    bool saveAs();
    void exportScheduleYaml();
    void exportMetrics(bool json);
    void exportDag(bool svg);
    void importSchedule();
    bool adoptProject(Project project, const QString& path, bool recovered);
    bool openNetwork(Network network, const QString& path);
    // nullopt: the user cancelled the import.
    std::optional<Result<Network>> importOnnxInteractively(const QString& path);
    bool writeFile(const QString& path, const QByteArray& data, const QString& what);
    QString dialogDirectory() const;

    Options options_;
    Document* doc_;
    Evaluator* evaluator_;
    graph::GraphCanvas* canvas_ = nullptr;
    LayerList* layerList_ = nullptr;
    QUndoView* undoView_ = nullptr;
    RecentFiles* recent_ = nullptr;
    std::unique_ptr<RecoveryStore> recovery_;
    QTimer* autosaveTimer_ = nullptr;

    StudioState state_;
    StudioSelection selection_;
    gui::ThemeMode theme_ = gui::ThemeMode::system;

    struct ViewHooks {
        std::function<void(const StudioState&)> setState;
        std::function<void(const StudioSelection&)> setSelection;
    };
    std::vector<ViewHooks> views_;
    bool broadcastingSelection_ = false;
    QString pendingFocusGroup_;

    QMenu* fileMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QMenu* examplesMenu_ = nullptr;
    QMenu* exportMenu_ = nullptr;
    QMenu* editMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* docksMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QToolBar* mainToolBar_ = nullptr;
    QActionGroup* colorByGroup_ = nullptr;
    QActionGroup* themeGroup_ = nullptr;
    std::map<QString, QAction*> actions_;

    std::function<void()> defaultDockSizes_;
    bool stateRestored_ = false;
    bool shownOnce_ = false;

    ElidedLabel* summaryLabel_ = nullptr;
    QLabel* overLabel_ = nullptr;
    QLabel* evalLabel_ = nullptr;
    QLabel* zoomLabel_ = nullptr;
};

} // namespace lf
