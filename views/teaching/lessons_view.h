// LessonsView: the bundled guided lessons. Choosing one shows its task (markdown), its hints
// one at a time, and its measurable targets with their live status against the current
// metrics (lf::checkLesson: ✓/✗ with the actual values) and a "Target met" banner once all
// are met. Opening a lesson and showing its solution are intents: lessonOpened() carries
// the lesson's network, hardware and starting schedule for the Document to load, and
// scheduleReplaced() the known solution (an undoable edit on the Document side).
#pragma once

#include "studio_metatypes.h"
#include "teaching/lesson.h"

#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace lf {

class LessonsView : public QWidget {
    Q_OBJECT
  public:
    explicit LessonsView(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    // The bundled lessons, in the order of the list (a lesson that failed to load has an
    // error instead).
    int lessonCount() const { return int(entries_.size()); }
    QString lessonName(int index) const;
    const Lesson* lesson(int index) const;
    QString loadError(int index) const;

    // A lesson read from a file (e.g. one a teacher saved): listed after the bundled ones
    // and shown; returns its index. A lesson of a name already listed replaces that entry
    // (opening the same file again, or an edited copy of a bundled lesson, lists it once).
    int addLesson(const Lesson& lesson);

    // The lesson shown (-1: none) and its status against the current state.
    int currentLesson() const { return current_; }
    void setCurrentLesson(int index);
    bool isActive() const { return active_; } // the open network is the lesson's
    const LessonStatus& status() const { return status_; }
    bool targetMet() const { return active_ && status_.met; }
    QString statusText() const;
    int hintsShown() const { return hintsShown_; }

    // What the buttons do.
    void openCurrentLesson();
    void showNextHint();
    void showSolution();
    void restartLesson();

    QListWidget* lessonList() const { return list_; }
    QTreeWidget* targetList() const { return targets_; }
    QTextBrowser* taskBrowser() const { return task_; }
    QLabel* banner() const { return banner_; }

  signals:
    // Load this lesson: its network, hardware and starting schedule, and its title.
    void lessonOpened(lf::Network network, lf::Hardware hardware, lf::Schedule start,
                      QString title);
    // Replace the open schedule (the lesson's solution, or its start again).
    void scheduleReplaced(lf::Schedule schedule, QString text);

  private:
    struct Entry {
        QString name;
        std::optional<Lesson> lesson;
        QString error;
    };
    void loadBundled();
    void showLesson();
    void refreshStatus();
    void refreshHints();

    std::vector<Entry> entries_;
    StudioState state_;
    int current_ = -1;
    int hintsShown_ = 0;
    bool active_ = false;
    LessonStatus status_;

    QListWidget* list_;
    QLabel* title_;
    QLabel* banner_;
    QTextBrowser* task_;
    QTreeWidget* targets_;
    QLabel* hints_;
    QPushButton* open_;
    QPushButton* hint_;
    QPushButton* solution_;
    QPushButton* restart_;
};

} // namespace lf
