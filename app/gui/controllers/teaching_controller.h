// TeachingController: what the teaching views ask of the document. A lesson opens as a new
// document (after offering to save changes); its solution or its start replaces the schedule
// as one undo step; the groups that differ from the Compare view's snapshot A are named in
// the status bar and outlined on the canvas (highlightRequested).
#pragma once

#include "studio/studio.h"

#include <QList>
#include <QObject>

namespace lf {

class CompareView;
class LessonsView;

class TeachingController : public QObject {
    Q_OBJECT
  public:
    explicit TeachingController(Studio* studio, QObject* parent = nullptr);

    // Acts on these views' intents.
    void attach(LessonsView* lessons, CompareView* compare);

    // false when the user kept the open document.
    bool openLesson(const Network& network, const Hardware& hardware, const Schedule& start,
                    const QString& title);
    bool replaceSchedule(const Schedule& schedule, const QString& text);
    void showDifferences(const QList<int>& groups);

  signals:
    void highlightRequested(const QList<int>& groups);

  private:
    Studio* studio_;
};

} // namespace lf
