#include "panels/teaching_panel.h"

#include "metrics/metric_sections.h"
#include "panels/studio_dock.h"
#include "teaching/compare_view.h"
#include "teaching/explain_view.h"
#include "teaching/lessons_view.h"
#include "teaching/loop_nest_view.h"
#include "teaching/slide_export.h"
#include "teaching/tile_pyramid_view.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMessageBox>

namespace lf {

TeachingPanel::TeachingPanel(Studio* studio, QWidget* window)
    : QObject(window), studio_(studio), actions_(this), loopNest_(new LoopNestView(window)),
      pyramid_(new TilePyramidView(window)), explain_(new ExplainView(window)),
      compare_(new CompareView(window)), lessons_(new LessonsView(window)) {
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
    connect(actions_.add(QStringLiteral("exportLoopNest"), tr("Loop Nest as &Picture…")),
            &QAction::triggered, this, &TeachingPanel::exportLoopNestInteractively);
    connect(
        actions_.add(QStringLiteral("exportPyramidSteps"), tr("Tile Pyramid &Steps as Pictures…")),
        &QAction::triggered, this, &TeachingPanel::exportPyramidStepsInteractively);
}

bool TeachingPanel::explainMetric(const QString& key) {
    const MetricExplanation e = metricExplanation(key);
    for (QDockWidget* dock : bottom_)
        if (dock->objectName() == QLatin1String("explainDock")) {
            dock->show();
            dock->raise();
        }
    return !e.formulas.isEmpty() && explain_->showFormula(e.formulas, e.ofGroup);
}

bool TeachingPanel::exportLoopNest(const QString& path) {
    const QString error = writeLoopNestPicture(*loopNest_->editor(), path);
    if (!error.isEmpty()) {
        studio_->reportError(tr("Cannot export the loop nest"), error);
        return false;
    }
    studio_->showStatus(tr("Wrote the loop nest to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool TeachingPanel::exportPyramidSteps(const QString& directory, const QString& suffix) {
    QStringList written;
    const QString error =
        writePyramidSteps(*pyramid_, directory, suffix, kMaxPyramidPictures, &written);
    if (!error.isEmpty()) {
        studio_->reportError(tr("Cannot export the tile pyramid"), error);
        return false;
    }
    studio_->showStatus(
        tr("Wrote %n step picture(s) of the tile pyramid to %1", nullptr, int(written.size()))
            .arg(QDir::toNativeSeparators(directory)));
    return true;
}

void TeachingPanel::exportLoopNestInteractively() {
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(studio_->window(), tr("Loop Nest as Picture"),
                                     studio_->suggestedPath(QStringLiteral("-loop-nest.svg")),
                                     tr("SVG pictures (*.svg);;PNG images (*.png)"), &filter);
    if (path.isEmpty()) return;
    exportLoopNest(path);
}

void TeachingPanel::exportPyramidStepsInteractively() {
    const QString dir = QFileDialog::getExistingDirectory(
        studio_->window(), tr("Tile Pyramid Steps: Choose a Folder"), studio_->dialogDirectory());
    if (dir.isEmpty()) return;
    const auto answer =
        QMessageBox::question(studio_->window(), tr("Tile Pyramid Steps"),
                              tr("Write the steps as SVG pictures? (No: PNG images)"),
                              QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return;
    exportPyramidSteps(dir, answer == QMessageBox::Yes ? QStringLiteral(".svg")
                                                       : QStringLiteral(".png"));
}

} // namespace lf
