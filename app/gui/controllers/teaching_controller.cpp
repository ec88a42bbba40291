#include "controllers/teaching_controller.h"

#include "controllers/lesson_dialog.h"
#include "qt_text.h"
#include "teaching/compare_view.h"
#include "teaching/lesson_writer.h"
#include "teaching/lessons_view.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStringList>

namespace lf {

TeachingController::TeachingController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this) {
    setObjectName(QStringLiteral("teachingController"));
    connect(actions_.add(QStringLiteral("saveAsLesson"), tr("Save as &Lesson…"), {}, {},
                         tr("Save the network, hardware and schedule as a lesson for students")),
            &QAction::triggered, this, &TeachingController::saveAsLessonInteractively);
    connect(actions_.add(QStringLiteral("openLessonFile"), tr("Open &Lesson…")),
            &QAction::triggered, this, &TeachingController::openLessonInteractively);
}

std::vector<LessonTarget> TeachingController::proposedTargets() {
    studio_->evaluator()->waitForIdle();
    const StudioState& s = studio_->state();
    return s.metrics ? targetsMetBy(*s.metrics) : std::vector<LessonTarget>{};
}

bool TeachingController::saveLessonTo(const QString& path, const QString& title,
                                      const QString& task, const std::vector<LessonTarget>& targets,
                                      QString* error) {
    const Document* doc = studio_->document();
    QString name = QFileInfo(path).fileName();
    name.remove(QRegularExpression(QStringLiteral("\\.lesson\\.ya?ml$|\\.ya?ml$")));
    const Lesson lesson =
        lessonFromDocument(name.toStdString(), title.toStdString(), task.toStdString(),
                           doc->network(), doc->hardware(), doc->schedule(), targets);
    const QByteArray data = QByteArray::fromStdString(writeLessonYaml(lesson));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        const QString message = tr("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        if (error) *error = message;
        studio_->reportError(tr("Cannot save the lesson"), message);
        return false;
    }
    studio_->showStatus(
        tr("Saved the lesson “%1” to %2").arg(title, QDir::toNativeSeparators(path)));
    return true;
}

bool TeachingController::openLessonFile(const QString& path, QString* error, bool askToSave) {
    QFile f(path);
    Result<Lesson> lesson = Error(path.toStdString() + ": " + f.errorString().toStdString());
    if (f.open(QIODevice::ReadOnly))
        lesson = readLessonYaml(f.readAll().toStdString(), path.toStdString());
    if (!lesson) {
        if (error) *error = qs(lesson.error().toString());
        studio_->reportError(tr("Cannot open the lesson"), qs(lesson.error().toString()));
        return false;
    }
    if (!lessons_) return false;
    lessons_->addLesson(*lesson);
    askToSave_ = askToSave;
    lessonOpened_ = false;
    lessons_->openCurrentLesson(); // -> openLesson()
    askToSave_ = true;
    return lessonOpened_;
}

void TeachingController::saveAsLessonInteractively() {
    const Document* doc = studio_->document();
    LessonDialog dialog(tr("%1 on %2").arg(qs(doc->network().name()), qs(doc->hardware().name)),
                        proposedTargets(), studio_->window());
    if (dialog.exec() != QDialog::Accepted) return;
    const QString path = QFileDialog::getSaveFileName(
        studio_->window(), tr("Save as Lesson"),
        studio_->suggestedPath(QStringLiteral(".lesson.yaml")), tr("Lessons (*.lesson.yaml)"));
    if (path.isEmpty()) return;
    saveLessonTo(path, dialog.lessonTitle(), dialog.task(), dialog.chosenTargets());
}

void TeachingController::openLessonInteractively() {
    const QString path = QFileDialog::getOpenFileName(studio_->window(), tr("Open Lesson"),
                                                      studio_->dialogDirectory(),
                                                      tr("Lessons (*.lesson.yaml);;All files (*)"));
    if (!path.isEmpty()) openLessonFile(path);
}

void TeachingController::attach(LessonsView* lessons, CompareView* compare) {
    lessons_ = lessons;
    connect(lessons, &LessonsView::lessonOpened, this, &TeachingController::openLesson);
    connect(lessons, &LessonsView::scheduleReplaced, this, &TeachingController::replaceSchedule);
    connect(compare, &CompareView::groupsDiffer, this, &TeachingController::showDifferences);
}

bool TeachingController::openLesson(const Network& network, const Hardware& hardware,
                                    const Schedule& start, const QString& title) {
    if (askToSave_ && !studio_->confirmReplace(tr("Save the changes before opening the lesson?")))
        return false;
    Document* doc = studio_->document();
    // The hardware in use before the first of a row of lessons (none open yet: the lesson's).
    Hardware before = doc->lessonOrigin()      ? doc->lessonOrigin()->before
                      : doc->network().empty() ? hardware
                                               : doc->hardware();
    doc->reset(network, hardware, start);
    doc->markLesson({std::move(before), hardware, title});
    studio_->showStatus(tr("Lesson “%1” opened").arg(title));
    lessonOpened_ = true;
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
