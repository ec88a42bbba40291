// Studio: the open document as every part of the studio window sees it — the Document (and
// its undo stack), the Evaluator that computes its metrics off the GUI thread, the state last
// published to the views, the common selection, and the way to talk to the user (status
// messages, errors, the "save changes?" question). Panels and controllers receive a Studio*
// and wire themselves to it; none of them needs the main window, so each works (and is
// tested) on its own. The flow of an edit: a view's intent -> follow() turns it into a
// Document edit -> Document::changed -> the Evaluator -> publish() -> every followed view,
// then stateShown / statePublished.
#pragma once

#include "studio/document.h"
#include "studio/evaluator.h"
#include "studio/view_feed.h"

#include <QMessageBox>
#include <QObject>
#include <QPointer>

#include <functional>
#include <vector>

class QWidget;

namespace lf {

class Studio : public QObject {
    Q_OBJECT
  public:
    explicit Studio(QObject* parent = nullptr);
    ~Studio() override;

    Document* document() const { return doc_; }
    Evaluator* evaluator() const { return evaluator_; }
    // The state every view shows now (its metrics may lag behind the document while the
    // Evaluator works; null before the first result).
    const StudioState& state() const { return state_; }

    // --- views --------------------------------------------------------------------------
    // Feeds `view` every published state and selection, and turns its intents into edits:
    // selectionRequested, layerScheduleEdited, groupEdited, hardwareEdited and
    // layerMoveRequested (a layer dragged onto a group) where the view has them.
    template <class View> void follow(View* view);

    // --- selection ----------------------------------------------------------------------
    const StudioSelection& selection() const { return selection_; }
    // Selects as if the user had: every view follows.
    void setSelection(const StudioSelection& selection);
    // The groups the selection names: the selected group and the groups of selected layers.
    std::vector<int> selectedGroups() const;

    // --- edits --------------------------------------------------------------------------
    // After an edit: selects the group it created or grew and says what was done (a refused
    // edit already said why through Document::editRefused).
    void afterEdit(const Document::EditResult& result);

    // --- the project's view state -------------------------------------------------------
    // Each part adds what it keeps (canvas zoom and colouring, window layout) when a project
    // is saved, and restores it from viewStateLoaded() when one is opened.
    void addViewStateWriter(std::function<void(ProjectViewState&)> writer);
    ProjectViewState viewState() const;

    // --- the user -----------------------------------------------------------------------
    // The window dialogs belong to (nullptr: no window, e.g. in tests).
    QWidget* window() const { return window_; }
    void setWindow(QWidget* window) { window_ = window; }
    // Where file dialogs start: the document's folder, else the folder of the file opened
    // last (setRecentDirectory), else the user's documents.
    QString dialogDirectory() const;
    void setRecentDirectory(const QString& directory) { recentDirectory_ = directory; }
    // dialogDirectory()/<network name><suffix>, the name made safe for a file name.
    QString suggestedPath(const QString& suffix) const;
    void showStatus(const QString& message, int ms = 6000);
    // Shows an error (FILE:LINE:COLUMN: message where it comes from a file): errorSink when
    // set, else a message box; the status bar shows it too.
    void reportError(const QString& title, const QString& message);
    // Before the document is replaced: asks to save unsaved changes; true to go on.
    bool confirmReplace(const QString& question);

    // Captures errors (tests); unset: a message box.
    std::function<void(const QString& title, const QString& message)> errorSink;
    // Answers "save changes?" (Save / Discard / Cancel); unset: a message box asks.
    std::function<QMessageBox::StandardButton(const QString& question)> savePrompt;
    // How the document is saved when the user answers Save (the files controller sets it);
    // true when it was saved.
    std::function<bool()> saveDocument;

  signals:
    // Every state the views got (after them), with or without metrics.
    void stateShown(const lf::StudioState& state);
    // A state with metrics reached every view.
    void statePublished(const lf::StudioState& state);
    void selectionChanged(const lf::StudioSelection& selection);
    // A project was opened: restore what you keep of its view state.
    void viewStateLoaded(const lf::ProjectViewState& view);
    void statusMessage(const QString& message, int ms);

  private:
    struct ViewHooks {
        std::function<void(const StudioState&)> setState;
        std::function<void(const StudioSelection&)> setSelection;
    };
    void publish(const StudioState& state);
    void broadcastSelection();
    void onDocumentReset();
    void applyLoadedSelection(const ProjectViewState& view);

    Document* doc_;
    Evaluator* evaluator_;
    StudioState state_;
    StudioSelection selection_;
    std::vector<ViewHooks> views_;
    std::vector<std::function<void(ProjectViewState&)>> viewStateWriters_;
    bool broadcastingSelection_ = false;
    QString pendingFocusGroup_;
    QPointer<QWidget> window_;
    QString recentDirectory_;
};

template <class View> void Studio::follow(View* view) {
    QPointer<View> v(view);
    // Out of sight, the view catches up when it is shown (ViewFeed).
    QPointer<ViewFeed> feed = new ViewFeed(
        view,
        [v](const StudioState& s) {
            if (v) v->setState(s);
        },
        [v](const StudioSelection& s) {
            if (v) v->setSelection(s);
        },
        requires { &View::groupsDiffer; }); // the canvas outlines what Compare finds
    views_.push_back({[feed](const StudioState& s) {
                          if (feed) feed->state(s);
                      },
                      [feed](const StudioSelection& s) {
                          if (feed) feed->selection(s);
                      }});
    if constexpr (requires { &View::selectionRequested; })
        connect(view, &View::selectionRequested, this, &Studio::setSelection);
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
    if constexpr (requires { &View::layerMoveRequested; })
        connect(view, &View::layerMoveRequested, this, [this](LayerId layer, int groupIndex) {
            afterEdit(doc_->moveLayer(layer, groupIndex));
        });
    if constexpr (requires { &View::hardwareEdited; })
        connect(view, &View::hardwareEdited, this,
                [this](const Hardware& hw, const QString& text, int mergeId) {
                    afterEdit(doc_->setHardware(hw, text, mergeId));
                });
}

} // namespace lf
