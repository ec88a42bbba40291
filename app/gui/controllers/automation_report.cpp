#include "controllers/automation_report.h"

#include "graph/graph_canvas.h"
#include "graph/graph_items.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "history/undo_history_view.h"
#include "partition/partition_editor.h"
#include "partition/subarray_canvas.h"
#include "qt_text.h"
#include "studio/studio.h"
#include "teaching/lessons_view.h"
#include "text_fit/clipped_text.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QRadioButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QTabBar>
#include <QTableWidget>
#include <QTimer>
#include <QToolTip>

namespace lf {

namespace {

QJsonArray screenRect(const QWidget* w, const QRect& local) {
    const QPoint g = w->mapToGlobal(local.topLeft());
    return {g.x(), g.y(), local.width(), local.height()};
}

// The Lessons view: which lesson is shown, whether the open network is its, how many hints
// are out, whether its targets are met, and where each lesson of the list is on the screen.
QJsonObject lessonsOf(const QMainWindow* window) {
    const LessonsView* view = window->findChild<LessonsView*>();
    if (!view) return {};
    QJsonObject l;
    l[QStringLiteral("count")] = view->lessonCount();
    l[QStringLiteral("current")] = view->currentLesson();
    l[QStringLiteral("active")] = view->isActive();
    l[QStringLiteral("met")] = view->targetMet();
    l[QStringLiteral("hintsShown")] = view->hintsShown();
    const Lesson* lesson = view->lesson(view->currentLesson());
    l[QStringLiteral("hints")] = lesson ? int(lesson->hints.size()) : 0;
    l[QStringLiteral("status")] = view->statusText();
    QJsonArray rows;
    const QListWidget* list = view->lessonList();
    for (int i = 0; i < list->count(); ++i)
        rows.append(list->isVisible()
                        ? screenRect(list->viewport(), list->visualItemRect(list->item(i)))
                        : QJsonArray());
    l[QStringLiteral("rows")] = rows;
    return l;
}

// The Partition editor in sight: the group, its kind, and per layer the share the table shows
// and (spatial) where the layer's rectangle of PEs is on the screen.
QJsonObject partitionOf(const QMainWindow* window) {
    const PartitionEditor* editor = window->findChild<PartitionEditor*>();
    if (!editor || !editor->isVisible() || editor->visibleRegion().isEmpty()) return {};
    QJsonObject p;
    p[QStringLiteral("group")] = editor->group();
    p[QStringLiteral("spatial")] = editor->spatialButton()->isChecked();
    const QTableWidget* table = editor->resultTable();
    const SubArrayCanvas* canvas = editor->canvas();
    QJsonArray layers;
    for (int row = 0; row < table->rowCount(); ++row) {
        QJsonObject layer;
        const QTableWidgetItem* name = table->item(row, 0);
        const QTableWidgetItem* share = table->item(row, 1);
        layer[QStringLiteral("name")] = name ? name->text() : QString();
        layer[QStringLiteral("share")] = share ? share->text() : QString();
        if (canvas->isVisible() && size_t(row) < canvas->entries().size())
            layer[QStringLiteral("rect")] =
                screenRect(canvas, canvas->rectOf(canvas->entries()[size_t(row)].layer).toRect());
        layers.append(layer);
    }
    p[QStringLiteral("layers")] = layers;
    return p;
}

} // namespace

AutomationReport::AutomationReport(Studio* studio, QMainWindow* window, graph::GraphCanvas* canvas,
                                   QString path, QObject* parent)
    : QObject(parent), studio_(studio), window_(window), canvas_(canvas), path_(std::move(path)),
      timer_(new QTimer(this)) {
    setObjectName(QStringLiteral("uiReport"));
    connect(canvas_, &graph::GraphCanvas::firstPaint, this, [this] { painted_ = true; });
    timer_->setInterval(200);
    connect(timer_, &QTimer::timeout, this, &AutomationReport::write);
    timer_->start();
}

QJsonObject AutomationReport::snapshot() const {
    QJsonObject r;
    r[QStringLiteral("title")] = window_->windowTitle();
    r[QStringLiteral("modified")] = window_->isWindowModified();
    const StudioState& state = studio_->state();
    r[QStringLiteral("layers")] = int(state.network.size());
    r[QStringLiteral("groups")] = int(state.schedule.groups.size());
    r[QStringLiteral("evaluated")] = bool(state.metrics);
    r[QStringLiteral("painted")] = painted_;
    r[QStringLiteral("zoom")] = canvas_->zoom();
    QJsonArray groupLayers; // the layers of each group, by name
    for (const FusionGroup& g : state.schedule.groups) {
        QJsonArray names;
        for (const LayerId id : g.layers)
            names.append(qs(state.network.layer(id).name));
        groupLayers.append(names);
    }
    r[QStringLiteral("groupLayers")] = groupLayers;

    QJsonArray dialogs;
    for (QWidget* w : QApplication::topLevelWidgets()) {
        if (w == window_ || !w->isVisible() || qobject_cast<QMenu*>(w)) continue;
        const Qt::WindowType type = w->windowType();
        if (type == Qt::ToolTip || type == Qt::Popup || type == Qt::Desktop) continue;
        QJsonObject d;
        d[QStringLiteral("class")] = QString::fromLatin1(w->metaObject()->className());
        d[QStringLiteral("name")] = w->objectName();
        d[QStringLiteral("title")] = w->windowTitle();
        d[QStringLiteral("modal")] = w->isModal();
        dialogs.append(d);
    }
    r[QStringLiteral("dialogs")] = dialogs;

    QJsonArray clipped;
    for (const ClippedText& c : clippedTexts(window_))
        clipped.append(describe(c));
    r[QStringLiteral("clipped")] = clipped;

    // The layers in sight, by name: the centre of each node on the screen.
    QJsonObject nodes;
    const graph::GraphView* view = canvas_->view();
    const QRect viewport = view->viewport()->rect();
    for (const graph::NodeItem* n : canvas_->scene()->nodes()) {
        const QRect r2 = view->mapFromScene(n->sceneBoundingRect()).boundingRect();
        if (!viewport.contains(r2.center())) continue;
        const LayerId id = n->layerId();
        if (id < 0 || id >= LayerId(state.network.size())) continue;
        nodes[qs(state.network.layer(id).name)] = screenRect(view->viewport(), r2);
    }
    r[QStringLiteral("nodes")] = nodes;

    // Dock tabs by their text.
    QJsonObject tabs;
    for (const QTabBar* bar : window_->findChildren<QTabBar*>()) {
        if (!bar->isVisible()) continue;
        for (int i = 0; i < bar->count(); ++i)
            tabs[bar->tabText(i)] = screenRect(bar, bar->tabRect(i));
    }
    r[QStringLiteral("tabs")] = tabs;

    // Named buttons in sight (radio buttons, check boxes, push buttons), by object name.
    QJsonObject widgets;
    for (const QAbstractButton* b : window_->findChildren<QAbstractButton*>()) {
        if (b->objectName().isEmpty() || b->objectName().startsWith(QLatin1String("qt_")) ||
            !b->isVisible() || b->visibleRegion().isEmpty())
            continue;
        widgets[b->objectName()] = screenRect(b, b->rect());
    }
    r[QStringLiteral("widgets")] = widgets;

    // The docks on screen: their size and the least their content asks for.
    QJsonObject docks;
    for (const QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
        if (!dock->isVisible() || !dock->widget()) continue;
        const QWidget* content = dock->widget();
        if (auto* scroll = qobject_cast<const QScrollArea*>(content); scroll && scroll->widget())
            content = scroll->widget();
        const QSize least = content->minimumSizeHint();
        docks[dock->objectName()] =
            QJsonArray{dock->width(), dock->height(), least.width(), least.height()};
    }
    r[QStringLiteral("docks")] = docks;
    // The History dock's steps in sight (text and place) and the tooltip shown, if any.
    QJsonArray history;
    if (const auto* view = window_->findChild<UndoHistoryView*>();
        view && view->isVisible() && !view->visibleRegion().isEmpty())
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            const QModelIndex i = view->model()->index(row, 0);
            history.append(
                QJsonArray{i.data().toString(), screenRect(view->viewport(), view->visualRect(i))});
        }
    r[QStringLiteral("history")] = history;
    r[QStringLiteral("tooltip")] = QToolTip::isVisible() ? QToolTip::text() : QString();
    r[QStringLiteral("lessons")] = lessonsOf(window_);
    r[QStringLiteral("partition")] = partitionOf(window_);
    return r;
}

bool AutomationReport::write() {
    const QByteArray bytes = QJsonDocument(snapshot()).toJson(QJsonDocument::Indented);
    if (bytes == last_) return true;
    QSaveFile file(path_);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return false;
    last_ = bytes;
    return true;
}

} // namespace lf
