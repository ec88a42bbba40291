#include "controllers/teaching_controller.h"

#include "qt_text.h"
#include "teaching/compare_view.h"
#include "teaching/lessons_view.h"

#include <QStringList>

namespace lf {

TeachingController::TeachingController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio) {
    setObjectName(QStringLiteral("teachingController"));
}

void TeachingController::attach(LessonsView* lessons, CompareView* compare) {
    connect(lessons, &LessonsView::lessonOpened, this, &TeachingController::openLesson);
    connect(lessons, &LessonsView::scheduleReplaced, this, &TeachingController::replaceSchedule);
    connect(compare, &CompareView::groupsDiffer, this, &TeachingController::showDifferences);
}

bool TeachingController::openLesson(const Network& network, const Hardware& hardware,
                                    const Schedule& start, const QString& title) {
    if (!studio_->confirmReplace(tr("Save the changes before opening the lesson?"))) return false;
    studio_->document()->reset(network, hardware, start);
    studio_->showStatus(tr("Lesson “%1” opened").arg(title));
    return true;
}

bool TeachingController::replaceSchedule(const Schedule& schedule, const QString& text) {
    const Document::EditResult r = studio_->document()->setSchedule(schedule, text);
    studio_->afterEdit(r);
    return r.ok;
}

void TeachingController::showDifferences(const QList<int>& groups) {
    emit highlightRequested(groups);
    if (groups.isEmpty()) return;
    QStringList names;
    const Schedule& s = studio_->document()->schedule();
    for (int gi : groups)
        if (gi >= 0 && size_t(gi) < s.groups.size()) names << qs(s.groups[size_t(gi)].name);
    studio_->showStatus(tr("Differ from snapshot A: %1").arg(names.join(QStringLiteral(", "))),
                        8000);
}

} // namespace lf
