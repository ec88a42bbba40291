// TeachingController: what the teaching views ask of the document. A lesson opens as a new
// document (after offering to save changes); its solution or its start replaces the schedule
// as one undo step; the groups that differ from the Compare view's snapshot A are named in
// the status bar and outlined on the canvas (highlightRequested). File ▸ Save as Lesson
// writes the open network, hardware and schedule (the solution) as a lesson file; File ▸
// Open Lesson adds a lesson file to the Lessons view and opens it.
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"
#include "teaching/lesson.h"

#include <QList>
#include <QObject>

namespace lf {

class CompareView;
class LessonsView;

class TeachingController : public QObject {
    Q_OBJECT
  public:
    explicit TeachingController(Studio* studio, QObject* parent = nullptr);

    // saveAsLesson, openLessonFile.
    const ActionSet& actions() const { return actions_; }

    // Acts on these views' intents.
    void attach(LessonsView* lessons, CompareView* compare);

    // false when the user kept the open document.
    bool openLesson(const Network& network, const Hardware& hardware, const Schedule& start,
                    const QString& title);
    bool replaceSchedule(const Schedule& schedule, const QString& text);
    void showDifferences(const QList<int>& groups);

    // Writes the open document as a lesson to `path` (its name: the file name without
    // .lesson.yaml): the default schedule as the start, the current one as the solution.
    bool saveLessonTo(const QString& path, const QString& title, const QString& task,
                      const std::vector<LessonTarget>& targets, QString* error = nullptr);
    // Reads a lesson file into the Lessons view (attach()) and opens it; false when the file
    // is bad or the user kept the open document. `askToSave` false: the caller has already
    // asked about unsaved changes (File ▸ Open, Open Recent).
    bool openLessonFile(const QString& path, QString* error = nullptr, bool askToSave = true);
    // The targets the current schedule meets (what Save as Lesson proposes).
    std::vector<LessonTarget> proposedTargets();

  signals:
    void highlightRequested(const QList<int>& groups);

  private:
    void saveAsLessonInteractively();
    void openLessonInteractively();

    Studio* studio_;
    ActionSet actions_;
    LessonsView* lessons_ = nullptr;
    bool askToSave_ = true; // whether openLesson asks about unsaved changes
    bool lessonOpened_ = false;
};

} // namespace lf
