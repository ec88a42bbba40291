#include "teaching/lessons_view.h"

#include "examples/bundled.h"
#include "metrics/metric_format.h"
#include "qt_text.h"
#include "teaching/teaching_style.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace lf {

namespace {

// Targets name whole counts (elements, cycles) or fractions (utilization).
QString figure(double v) {
    if (std::isfinite(v) && std::abs(v) < 9e15 && v == std::floor(v))
        return teaching::exactCount(int64_t(v));
    return QString::number(v, 'g', 4);
}

enum TargetColumn { tStatus, tTarget, tActual, tColumns };

} // namespace

LessonsView::LessonsView(QWidget* parent) : QWidget(parent) {
    registerStudioMetaTypes();
    qRegisterMetaType<lf::Network>("lf::Network");
    qRegisterMetaType<lf::Schedule>("lf::Schedule");
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto* split = new QSplitter(Qt::Vertical, this);
    v->addWidget(split, 1);

    auto* top = new QWidget(split);
    auto* tv = new QVBoxLayout(top);
    tv->setContentsMargins(0, 0, 0, 0);
    list_ = new QListWidget(top);
    list_->setObjectName(QStringLiteral("lessonList"));
    tv->addWidget(list_);
    open_ = new QPushButton(tr("Open lesson"), top);
    open_->setObjectName(QStringLiteral("openLesson"));
    open_->setToolTip(tr("Load the lesson's network, hardware and starting schedule"));
    tv->addWidget(open_);
    split->addWidget(top);

    auto* body = new QWidget(split);
    auto* bv = new QVBoxLayout(body);
    bv->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(body);
    QFont tf = title_->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.15);
    title_->setFont(tf);
    title_->setWordWrap(true);
    bv->addWidget(title_);
    banner_ = new QLabel(body);
    banner_->setObjectName(QStringLiteral("lessonBanner"));
    banner_->setWordWrap(true);
    banner_->setMargin(6);
    bv->addWidget(banner_);
    task_ = new QTextBrowser(body);
    task_->setObjectName(QStringLiteral("lessonTask"));
    task_->setOpenExternalLinks(true);
    bv->addWidget(task_, 3);
    targets_ = new QTreeWidget(body);
    targets_->setObjectName(QStringLiteral("lessonTargets"));
    targets_->setColumnCount(tColumns);
    targets_->setHeaderLabels({QString(), tr("Target"), tr("Now")});
    targets_->setRootIsDecorated(false);
    targets_->header()->setSectionResizeMode(tStatus, QHeaderView::ResizeToContents);
    targets_->header()->setSectionResizeMode(tTarget, QHeaderView::Stretch);
    targets_->header()->setSectionResizeMode(tActual, QHeaderView::ResizeToContents);
    targets_->header()->setStretchLastSection(false);
    bv->addWidget(targets_, 1);
    hints_ = new QLabel(body);
    hints_->setWordWrap(true);
    hints_->setTextFormat(Qt::RichText);
    bv->addWidget(hints_);
    auto* buttons = new QHBoxLayout;
    hint_ = new QPushButton(tr("Show a hint"), body);
    solution_ = new QPushButton(tr("Show solution"), body);
    solution_->setToolTip(tr("Apply the lesson's known solution (undo brings your schedule back)"));
    restart_ = new QPushButton(tr("Restart"), body);
    hint_->setObjectName(QStringLiteral("showHint"));
    solution_->setObjectName(QStringLiteral("showSolution"));
    restart_->setObjectName(QStringLiteral("restartLesson"));
    restart_->setToolTip(tr("Go back to the lesson's starting schedule (undoable)"));
    buttons->addWidget(hint_);
    buttons->addStretch(1);
    buttons->addWidget(restart_);
    buttons->addWidget(solution_);
    bv->addLayout(buttons);
    split->addWidget(body);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);

    connect(list_, &QListWidget::currentRowChanged, this, &LessonsView::setCurrentLesson);
    connect(list_, &QListWidget::itemActivated, this, [this] { openCurrentLesson(); });
    connect(open_, &QPushButton::clicked, this, &LessonsView::openCurrentLesson);
    connect(hint_, &QPushButton::clicked, this, &LessonsView::showNextHint);
    connect(solution_, &QPushButton::clicked, this, &LessonsView::showSolution);
    connect(restart_, &QPushButton::clicked, this, &LessonsView::restartLesson);

    loadBundled();
    // The list shows every lesson without scrolling; the task gets the rest.
    if (list_->count() > 0)
        list_->setMinimumHeight(list_->sizeHintForRow(0) * list_->count() +
                                2 * list_->frameWidth() + 2);
    split->setSizes({list_->minimumHeight() + open_->sizeHint().height(), 10000});
    setCurrentLesson(entries_.empty() ? -1 : 0);
}

void LessonsView::loadBundled() {
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::lesson) continue;
        Entry e;
        e.name = QString::fromUtf8(f.name);
        auto l = readLessonYaml(f.text, bundledFileLabel(f));
        auto* item = new QListWidgetItem(list_);
        if (l.ok()) {
            e.lesson = std::move(*l);
            item->setText(qs(e.lesson->title));
            item->setToolTip(
                tr("%1 — %2 on %3")
                    .arg(e.name, qs(e.lesson->network_ref), qs(e.lesson->hardware_ref)));
        } else {
            e.error = qs(l.error().toString());
            item->setText(tr("%1 (cannot be read)").arg(e.name));
            item->setToolTip(e.error);
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        }
        entries_.push_back(std::move(e));
    }
}

int LessonsView::addLesson(const Lesson& lesson) {
    const QString name = qs(lesson.name);
    int index = 0;
    while (index < lessonCount() && entries_[size_t(index)].name != name)
        ++index;
    if (index == lessonCount()) {
        new QListWidgetItem(list_);
        entries_.push_back({name, {}, {}});
    }
    Entry& e = entries_[size_t(index)];
    e.lesson = lesson;
    e.error.clear();
    QListWidgetItem* item = list_->item(index);
    item->setText(qs(lesson.title));
    item->setToolTip(tr("%1 — from a file").arg(name));
    current_ = -1; // shown anew, also when it was the current entry
    setCurrentLesson(index);
    return index;
}

QString LessonsView::lessonName(int index) const {
    return index >= 0 && index < lessonCount() ? entries_[size_t(index)].name : QString();
}

const Lesson* LessonsView::lesson(int index) const {
    if (index < 0 || index >= lessonCount() || !entries_[size_t(index)].lesson) return nullptr;
    return &*entries_[size_t(index)].lesson;
}

QString LessonsView::loadError(int index) const {
    return index >= 0 && index < lessonCount() ? entries_[size_t(index)].error : QString();
}

void LessonsView::setState(const StudioState& state) {
    state_ = state;
    refreshStatus();
}

void LessonsView::setSelection(const StudioSelection&) {}

void LessonsView::setCurrentLesson(int index) {
    if (index < -1 || index >= lessonCount()) index = -1;
    if (index == current_) return;
    current_ = index;
    hintsShown_ = 0;
    {
        const QSignalBlocker block(list_);
        list_->setCurrentRow(index);
    }
    showLesson();
}

void LessonsView::showLesson() {
    const Lesson* l = lesson(current_);
    open_->setEnabled(l != nullptr);
    hint_->setEnabled(l && !l->hints.empty());
    solution_->setEnabled(false);
    restart_->setEnabled(false);
    if (!l) {
        title_->setText(current_ >= 0 ? tr("This lesson cannot be read") : tr("Choose a lesson"));
        task_->setPlainText(loadError(current_));
        targets_->clear();
        hints_->clear();
        banner_->hide();
        return;
    }
    title_->setText(qs(l->title));
    task_->setMarkdown(qs(l->task));
    refreshHints();
    refreshStatus();
}

void LessonsView::refreshHints() {
    const Lesson* l = lesson(current_);
    if (!l) return;
    QString html;
    for (int k = 0; k < hintsShown_ && size_t(k) < l->hints.size(); ++k)
        html += QStringLiteral("<p><b>%1 %2.</b> %3</p>")
                    .arg(tr("Hint"))
                    .arg(k + 1)
                    .arg(qs(l->hints[size_t(k)]).toHtmlEscaped());
    hints_->setText(html);
    hints_->setVisible(!html.isEmpty());
    const int left = int(l->hints.size()) - hintsShown_;
    hint_->setEnabled(left > 0);
    hint_->setText(left > 0 ? tr("Show a hint (%1 left)").arg(left) : tr("No more hints"));
}

void LessonsView::showNextHint() {
    const Lesson* l = lesson(current_);
    if (!l || hintsShown_ >= int(l->hints.size())) return;
    ++hintsShown_;
    refreshHints();
}

void LessonsView::openCurrentLesson() {
    const Lesson* l = lesson(current_);
    if (!l) return;
    emit lessonOpened(l->network, l->hardware, l->start, qs(l->title));
}

void LessonsView::showSolution() {
    const Lesson* l = lesson(current_);
    if (!l || !active_) return;
    emit scheduleReplaced(l->solution, tr("Show the solution of “%1”").arg(qs(l->title)));
}

void LessonsView::restartLesson() {
    const Lesson* l = lesson(current_);
    if (!l || !active_) return;
    emit scheduleReplaced(l->start, tr("Restart “%1”").arg(qs(l->title)));
}

QString LessonsView::statusText() const {
    const Lesson* l = lesson(current_);
    if (!l) return {};
    if (!active_)
        return tr("Open this lesson to start: it uses %1 on %2.")
            .arg(qs(l->network_ref), qs(l->hardware_ref));
    if (!state_.metrics) return tr("Evaluating…");
    if (status_.met) return tr("✓ Target met — well done!");
    int met = 0;
    for (const TargetStatus& t : status_.targets)
        met += t.met ? 1 : 0;
    return tr("Not met yet — %1 of %2 targets met").arg(met).arg(status_.targets.size());
}

void LessonsView::refreshStatus() {
    const Lesson* l = lesson(current_);
    targets_->clear();
    status_ = {};
    active_ = l && state_.network.size() > 0 &&
              state_.network.canonicalHash() == l->network.canonicalHash();
    solution_->setEnabled(active_);
    restart_->setEnabled(active_);
    // The lesson the open document belongs to reads in bold.
    for (int k = 0; k < list_->count(); ++k) {
        QFont f = list_->item(k)->font();
        f.setBold(active_ && k == current_);
        list_->item(k)->setFont(f);
    }
    if (!l) {
        banner_->hide();
        return;
    }
    if (active_ && state_.metrics)
        status_ = checkLesson(*l, state_.network, state_.schedule, *state_.metrics);
    for (size_t k = 0; k < l->targets.size(); ++k) {
        const LessonTarget& t = l->targets[k];
        auto* item = new QTreeWidgetItem(targets_);
        item->setText(tTarget, qs(t.label));
        item->setToolTip(tTarget, qs(t.metric) + QStringLiteral(" · ") + qs(t.scope));
        if (k < status_.targets.size()) {
            const TargetStatus& s = status_.targets[k];
            item->setText(tStatus, s.met ? QStringLiteral("✓") : QStringLiteral("✗"));
            item->setForeground(tStatus, s.met ? improvedColor() : worsenedColor());
            item->setText(tActual, s.found ? figure(s.actual) : tr("not in this schedule"));
            if (!s.found) item->setToolTip(tActual, tr("The schedule has no %1").arg(qs(t.scope)));
        } else {
            item->setText(tStatus, QStringLiteral("·"));
            item->setText(tActual, QStringLiteral("—"));
        }
    }
    banner_->setText(statusText());
    banner_->setVisible(true);
    if (targetMet()) {
        banner_->setStyleSheet(
            QStringLiteral(
                "QLabel { background: %1; color: white; font-weight: bold; border-radius: 4px; }")
                .arg(improvedColor().name()));
    } else {
        banner_->setStyleSheet(QString());
    }
}

} // namespace lf
