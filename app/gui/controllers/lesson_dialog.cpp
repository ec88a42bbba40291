#include "controllers/lesson_dialog.h"

#include "qt_text.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace lf {

LessonDialog::LessonDialog(const QString& title, std::vector<LessonTarget> targets, QWidget* parent)
    : QDialog(parent), targets_(std::move(targets)) {
    setWindowTitle(tr("Save as Lesson"));
    auto* v = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    title_ = new QLineEdit(title, this);
    title_->setObjectName(QStringLiteral("lessonTitle"));
    form->addRow(tr("Title"), title_);
    task_ = new QPlainTextEdit(this);
    task_->setObjectName(QStringLiteral("lessonTask"));
    task_->setPlaceholderText(tr("What the student is asked to do (Markdown)"));
    form->addRow(tr("Task"), task_);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("lessonTargets"));
    for (const LessonTarget& t : targets_) {
        auto* item = new QListWidgetItem(qs(t.label), list_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    form->addRow(tr("Targets (met by the current schedule, the solution)"), list_);
    v->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto enable = [this, buttons] {
        buttons->button(QDialogButtonBox::Save)
            ->setEnabled(!title_->text().trimmed().isEmpty() && !chosenTargets().empty());
    };
    connect(title_, &QLineEdit::textChanged, this, enable);
    connect(list_, &QListWidget::itemChanged, this, enable);
    enable();
    v->addWidget(buttons);
    resize(520, 420);
}

QString LessonDialog::lessonTitle() const {
    return title_->text().trimmed();
}

QString LessonDialog::task() const {
    return task_->toPlainText();
}

std::vector<LessonTarget> LessonDialog::chosenTargets() const {
    std::vector<LessonTarget> out;
    for (int i = 0; i < list_->count() && size_t(i) < targets_.size(); ++i)
        if (list_->item(i)->checkState() == Qt::Checked) out.push_back(targets_[size_t(i)]);
    return out;
}

} // namespace lf
