#include "panels/teaching_panel.h"

#include "panels/studio_dock.h"
#include "teaching/compare_view.h"
#include "teaching/explain_view.h"
#include "teaching/lessons_view.h"
#include "teaching/loop_nest_view.h"
#include "teaching/tile_pyramid_view.h"

#include <QDockWidget>

namespace lf {

TeachingPanel::TeachingPanel(Studio* studio, QWidget* window)
    : QObject(window), loopNest_(new LoopNestView(window)), pyramid_(new TilePyramidView(window)),
      explain_(new ExplainView(window)), compare_(new CompareView(window)),
      lessons_(new LessonsView(window)) {
    setObjectName(QStringLiteral("teachingPanel"));
    bottom_ << studioDock(studio, window, loopNest_, tr("Loop Nest"),
                          QStringLiteral("loopNestDock"))
            << studioDock(studio, window, pyramid_, tr("Tile Pyramid"),
                          QStringLiteral("tilePyramidDock"))
            << studioDock(studio, window, explain_, tr("Why This Number"),
                          QStringLiteral("explainDock"))
            << studioDock(studio, window, compare_, tr("Compare"), QStringLiteral("compareDock"));
    lessonsDock_ =
        studioDock(studio, window, lessons_, tr("Lessons"), QStringLiteral("lessonsDock"));
    // Pointing at a loop outlines what it iterates on the tile pyramid.
    connect(loopNest_, &LoopNestView::loopHovered, pyramid_, &TilePyramidView::highlightLoop);
}

} // namespace lf
