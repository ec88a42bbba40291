// The questions File ▸ Save as Lesson asks: the lesson's title, the task the student reads
// (Markdown) and which of the targets the current schedule meets the lesson keeps.
#pragma once

#include "teaching/lesson.h"

#include <QDialog>

#include <vector>

class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace lf {

class LessonDialog : public QDialog {
    Q_OBJECT
  public:
    LessonDialog(const QString& title, std::vector<LessonTarget> targets, QWidget* parent);

    QString lessonTitle() const;
    QString task() const;
    std::vector<LessonTarget> chosenTargets() const;

  private:
    std::vector<LessonTarget> targets_;
    QLineEdit* title_;
    QPlainTextEdit* task_;
    QListWidget* list_;
};

} // namespace lf
