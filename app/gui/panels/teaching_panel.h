// TeachingPanel: the docks that explain the numbers — Loop Nest (the C-like loop nest of the
// schedule), Tile Pyramid (a fused group's maps step by step), Why This Number (every
// formula with its terms), Compare (snapshot A against now, one group under three
// strategies) and Lessons (guided tasks). Every view follows the studio; pointing at a loop
// outlines what it iterates on the pyramid. What the teaching views ask of the document
// (open a lesson, show the differences on the canvas) is the TeachingController's. For slides
// the panel writes the loop nest and the pyramid's steps as pictures (exportLoopNest,
// exportPyramidSteps).
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"

#include <QList>
#include <QObject>

class QDockWidget;
class QWidget;

namespace lf {

class CompareView;
class ExplainView;
class LessonsView;
class LoopNestView;
class TilePyramidView;

class TeachingPanel : public QObject {
    Q_OBJECT
  public:
    // The views' docks are children of `window` (not yet placed in it).
    TeachingPanel(Studio* studio, QWidget* window);

    LoopNestView* loopNest() const { return loopNest_; }
    TilePyramidView* pyramid() const { return pyramid_; }
    ExplainView* explain() const { return explain_; }
    CompareView* compare() const { return compare_; }
    LessonsView* lessons() const { return lessons_; }
    // Loop Nest, Tile Pyramid, Why This Number, Compare: the docks beside the charts.
    QList<QDockWidget*> bottomDocks() const { return bottom_; }
    QDockWidget* lessonsDock() const { return lessonsDock_; }
    const ActionSet& actions() const { return actions_; }

    // The loop nest as shown, to `path` (.svg or .png); the pyramid's steps (at most
    // kMaxPyramidPictures) into `directory` as SVG or PNG. Errors go to the studio.
    // What's This on a figure of the metrics panel: Why This Number comes forward at the
    // figure's formula (metrics/metric_sections.h metricExplanation); false when it has none
    // for the selection.
    bool explainMetric(const QString& key);

    bool exportLoopNest(const QString& path);
    bool exportPyramidSteps(const QString& directory, const QString& suffix);
    static constexpr int kMaxPyramidPictures = 64;

  private:
    void exportLoopNestInteractively();
    void exportPyramidStepsInteractively();

    Studio* studio_;
    ActionSet actions_;
    LoopNestView* loopNest_;
    TilePyramidView* pyramid_;
    ExplainView* explain_;
    CompareView* compare_;
    LessonsView* lessons_;
    QList<QDockWidget*> bottom_;
    QDockWidget* lessonsDock_;
};

} // namespace lf
