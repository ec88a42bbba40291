// Document: the open project — network, hardware and schedule, its file and view state —
// and the QUndoStack of every edit made to it. Views never change it directly: their
// intents arrive here, are validated, and become undo commands. A refused edit leaves the
// document untouched and reports why (returned, and through editRefused()).
#pragma once

#include "io/edit_history_yaml.h"
#include "io/project_yaml.h"
#include "studio_state.h"

#include <QObject>

#include <QString>
#include <optional>

#include <vector>

class QUndoStack;

namespace lf {

class Document : public QObject {
    Q_OBJECT
  public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    // Opens a new project: replaces everything and clears the undo history.
    void reset(Network network, Hardware hardware, Schedule schedule, const QString& filePath = {},
               const ProjectViewState& view = {});

    // Opens a project with an undo history: the state after `history.index` edits, undo and
    // redo as they were, the saved state where `history.clean` says (a recovered session).
    void restore(Network network, const EditHistory& history, const QString& filePath,
                 const ProjectViewState& view);
    // The undo history as values (for the recovery file): cheap, the values are shared.
    EditHistory history() const;

    const Network& network() const { return network_; }
    const Hardware& hardware() const { return hardware_; }
    const Schedule& schedule() const { return schedule_; }
    // The state views show (metrics come from the Evaluator).
    StudioState state() const;
    // The whole project (for saving), with `view` as given.
    Project project(const ProjectViewState& view) const;
    const ProjectViewState& loadedView() const { return loadedView_; }

    QString filePath() const { return filePath_; }
    // The file name, or the network's name for an unsaved project.
    QString displayName() const;
    bool isModified() const;
    // Marks the current state as saved under `path`.
    void markSaved(const QString& path);
    // Marks a restored (recovered) document as unsaved.
    void markModified();

    QUndoStack* undoStack() const { return undo_; }

    // A lesson brings its own hardware; the one in use before it comes back when another
    // network is opened (while the lesson's hardware is still the document's).
    struct LessonOrigin {
        Hardware before; // the hardware in use before the lesson
        Hardware lesson; // the lesson's hardware as it was opened
        QString title;
    };
    // Call right after reset() for a lesson; any later reset() forgets it.
    void markLesson(LessonOrigin origin) { lesson_ = std::move(origin); }
    const std::optional<LessonOrigin>& lessonOrigin() const { return lesson_; }

    struct EditResult {
        bool ok = false;
        QString message;    // the reason when refused
        QString focusGroup; // the group an edit created or grew
    };

    EditResult fuse(std::vector<LayerId> layers);
    EditResult splitAt(LayerId layer);
    EditResult ungroup(int groupIndex);
    EditResult mergeGroups(std::vector<int> groupIndices);
    EditResult moveLayer(LayerId layer, int groupIndex);
    EditResult setLayerSchedule(LayerId layer, const LayerSchedule& schedule, const QString& text,
                                int mergeId);
    EditResult setGroup(int groupIndex, const FusionGroup& group, const QString& text, int mergeId);
    EditResult setHardware(const Hardware& hardware, const QString& text, int mergeId);
    // Replaces the whole schedule (schedule import, automatic tools).
    EditResult setSchedule(Schedule schedule, const QString& text);
    // Replaces hardware and schedule as one undo step (an import that brings both). One
    // command, not a QUndoStack macro: the undo history is read back command by command
    // (history()).
    EditResult setHardwareAndSchedule(const Hardware& hardware, Schedule schedule,
                                      const QString& text);

  signals:
    void documentReset();
    // Hardware or schedule changed (an edit, undo or redo).
    void changed();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void editRefused(const QString& reason);

  private:
    friend class DocumentCommand;
    void applyValues(const Hardware* hardware, const Schedule* schedule);
    EditResult refuse(const QString& reason);
    EditResult pushSchedule(Schedule after, const QString& text, int mergeId,
                            const QString& focus = {});

    Network network_;
    Hardware hardware_;
    Schedule schedule_;
    QString filePath_;
    ProjectViewState loadedView_;
    QUndoStack* undo_;
    bool forcedModified_ = false;
    std::optional<LessonOrigin> lesson_;
};

} // namespace lf
