// The teaching docks of the studio: loop nest, tile pyramid, "why this number", A/B and
// strategy comparison, and the guided lessons — created with the other docks, fed with every
// published state and selection, their intents turned into Document edits.
#include "main_window.h"

#include "graph/graph_canvas.h"

#include "teaching/compare_view.h"
#include "teaching/explain_view.h"
#include "teaching/lessons_view.h"
#include "teaching/loop_nest_view.h"
#include "teaching/tile_pyramid_view.h"

#include <QDockWidget>
#include <QUndoStack>

namespace lf {

namespace {

template <class View>
QDockWidget* teachingDock(QMainWindow* window, View* view, const QString& title,
                          const QString& objectName, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(view);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    window->addDockWidget(area, dock);
    return dock;
}

} // namespace

void MainWindow::createTeachingDocks() {
    auto* loopNest = new LoopNestView(this);
    auto* pyramid = new TilePyramidView(this);
    auto* explain = new ExplainView(this);
    auto* compare = new CompareView(this);
    auto* lessons = new LessonsView(this);

    // Every teaching view shows the published state and follows the common selection.
    auto follow = [this](auto* view) {
        views_.push_back({[view](const StudioState& s) { view->setState(s); },
                          [view](const StudioSelection& s) { view->setSelection(s); }});
    };
    follow(loopNest);
    follow(pyramid);
    follow(explain);
    follow(compare);
    follow(lessons);
    connect(loopNest, &LoopNestView::selectionRequested, this, &MainWindow::setSelection);
    connect(pyramid, &TilePyramidView::selectionRequested, this, &MainWindow::setSelection);
    connect(compare, &CompareView::selectionRequested, this, &MainWindow::setSelection);

    // Pointing at a loop outlines what it iterates on the tile pyramid.
    connect(loopNest, &LoopNestView::loopHovered, pyramid, &TilePyramidView::highlightLoop);

    connect(compare, &CompareView::groupEdited, this,
            [this](int index, const FusionGroup& g, const QString& text, int mergeId) {
                afterEdit(doc_->setGroup(index, g, text, mergeId));
            });
    connect(compare, &CompareView::groupsDiffer, this, [this](const QList<int>& groups) {
        canvas_->setHighlightedGroups(groups);
        if (groups.isEmpty()) return;
        QStringList names;
        const Schedule& s = doc_->schedule();
        for (int gi : groups)
            if (gi >= 0 && size_t(gi) < s.groups.size())
                names << QString::fromStdString(s.groups[size_t(gi)].name);
        showStatus(tr("Differ from snapshot A: %1").arg(names.join(QStringLiteral(", "))), 8000);
    });

    connect(lessons, &LessonsView::lessonOpened, this,
            [this](const Network& network, const Hardware& hardware, const Schedule& start,
                   const QString& title) {
                if (!maybeSave(tr("Save the changes before opening the lesson?"))) return;
                doc_->reset(network, hardware, start);
                showStatus(tr("Lesson “%1” opened").arg(title));
            });
    connect(lessons, &LessonsView::scheduleReplaced, this,
            [this](const Schedule& schedule, const QString& text) {
                afterEdit(doc_->setSchedule(schedule, text));
            });

    // Beside the charts under the canvas; the lessons with the layer list.
    QDockWidget* charts = findChild<QDockWidget*>(QStringLiteral("chartsDock"));
    QDockWidget* layers = findChild<QDockWidget*>(QStringLiteral("layersDock"));
    QDockWidget* nest = teachingDock(this, loopNest, tr("Loop Nest"),
                                     QStringLiteral("loopNestDock"), Qt::BottomDockWidgetArea);
    QDockWidget* pyr = teachingDock(this, pyramid, tr("Tile Pyramid"),
                                    QStringLiteral("tilePyramidDock"), Qt::BottomDockWidgetArea);
    QDockWidget* why = teachingDock(this, explain, tr("Why This Number"),
                                    QStringLiteral("explainDock"), Qt::BottomDockWidgetArea);
    QDockWidget* cmp = teachingDock(this, compare, tr("Compare"), QStringLiteral("compareDock"),
                                    Qt::BottomDockWidgetArea);
    QDockWidget* les = teachingDock(this, lessons, tr("Lessons"), QStringLiteral("lessonsDock"),
                                    Qt::LeftDockWidgetArea);
    QDockWidget* previous = charts;
    for (QDockWidget* d : {nest, pyr, why, cmp}) {
        if (previous) tabifyDockWidget(previous, d);
        previous = d;
    }
    if (charts) charts->raise();
    if (layers) {
        tabifyDockWidget(layers, les);
        layers->raise();
    }
}

} // namespace lf
