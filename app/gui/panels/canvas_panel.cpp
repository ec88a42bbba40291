#include "panels/canvas_panel.h"

#include "graph/graph_canvas.h"
#include "qt_text.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QSettings>

#include <cmath>

namespace lf {

CanvasPanel::CanvasPanel(Studio* studio, QWidget* parent)
    : QObject(parent), studio_(studio), canvas_(new graph::GraphCanvas(parent)), actions_(this),
      colorBy_(new QActionGroup(this)) {
    setObjectName(QStringLiteral("canvasPanel"));
    // Graphviz never holds up the GUI thread: the old picture stays until the new one is laid
    // out (a 5,000-layer graph takes dot tens of seconds).
    canvas_->setAsyncLayout(true);
    studio_->follow(canvas_);
    connect(canvas_, &graph::GraphCanvas::statusMessage, studio_,
            [this](const QString& m) { studio_->showStatus(m); });

    connect(actions_.add(QStringLiteral("zoomIn"), tr("Zoom &In"), QStringLiteral("zoom-in"),
                         QKeySequence::ZoomIn),
            &QAction::triggered, canvas_, &graph::GraphCanvas::zoomIn);
    connect(actions_.add(QStringLiteral("zoomOut"), tr("Zoom &Out"), QStringLiteral("zoom-out"),
                         QKeySequence::ZoomOut),
            &QAction::triggered, canvas_, &graph::GraphCanvas::zoomOut);
    connect(actions_.add(QStringLiteral("zoomFit"), tr("&Fit to View"), QStringLiteral("zoom-fit"),
                         QKeySequence(Qt::CTRL | Qt::Key_0)),
            &QAction::triggered, canvas_, &graph::GraphCanvas::fitToView);
    connect(actions_.add(QStringLiteral("zoomReset"), tr("&Actual Size"), {},
                         QKeySequence(Qt::CTRL | Qt::Key_1)),
            &QAction::triggered, this, [this] { canvas_->setZoom(1.0); });
    connect(actions_.add(QStringLiteral("find"), tr("&Find Layer…"), QStringLiteral("find"),
                         QKeySequence::Find),
            &QAction::triggered, canvas_, &graph::GraphCanvas::showFindBar);
    connect(actions_.add(QStringLiteral("exportSvg"), tr("DAG as SVG…")), &QAction::triggered, this,
            [this] { exportDagInteractively(true); });
    connect(actions_.add(QStringLiteral("exportPng"), tr("DAG as PNG…")), &QAction::triggered, this,
            [this] { exportDagInteractively(false); });
    for (graph::ColorBy mode : {graph::ColorBy::group, graph::ColorBy::dramTraffic,
                                graph::ColorBy::energy, graph::ColorBy::bufferFill}) {
        QAction* a = actions_.add(QStringLiteral("colorBy-") + graph::colorByName(mode),
                                  graph::colorByTitle(mode));
        a->setCheckable(true);
        a->setChecked(mode == graph::ColorBy::group);
        a->setData(int(mode));
        colorBy_->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] { setColorBy(mode); });
    }

    studio_->addViewStateWriter([this](ProjectViewState& v) {
        v.zoom = canvas_->zoom();
        const QPointF c = canvas_->viewCenter();
        v.center = std::make_pair(std::round(c.x() * 10) / 10, std::round(c.y() * 10) / 10);
        v.color_by = graph::colorByName(canvas_->colorBy()).toStdString();
    });
    connect(studio_, &Studio::viewStateLoaded, this, &CanvasPanel::applyViewState);
    connect(studio_->document(), &Document::documentReset, this, &CanvasPanel::updateActions);
    updateActions();
}

QList<QAction*> CanvasPanel::colorByActions() const {
    return colorBy_->actions();
}

QComboBox* CanvasPanel::makeColorByCombo(QWidget* parent) {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("colorByCombo"));
    for (QAction* a : colorBy_->actions())
        combo->addItem(a->text(), a->data());
    combo->setCurrentIndex(combo->findData(int(canvas_->colorBy())));
    connect(combo, &QComboBox::activated, this, [this, combo](int index) {
        setColorBy(graph::ColorBy(combo->itemData(index).toInt()));
    });
    combos_ << combo;
    return combo;
}

void CanvasPanel::setColorBy(graph::ColorBy mode) {
    canvas_->setColorBy(mode);
    for (QAction* a : colorBy_->actions())
        if (a->data().toInt() == int(mode)) a->setChecked(true);
    for (QComboBox* combo : combos_)
        combo->setCurrentIndex(combo->findData(int(mode)));
}

void CanvasPanel::highlightGroups(const QList<int>& groups) {
    canvas_->setHighlightedGroups(groups);
}

void CanvasPanel::updateActions() {
    actions_.setEnabled(
        {"find", "zoomIn", "zoomOut", "zoomFit", "zoomReset", "exportSvg", "exportPng"},
        !studio_->document()->network().empty());
}

void CanvasPanel::applyViewState(const ProjectViewState& view) {
    if (auto mode = graph::colorByFromName(qs(view.color_by))) setColorBy(*mode);
    if (view.center) {
        canvas_->setZoom(view.zoom);
        canvas_->setViewCenter(QPointF(view.center->first, view.center->second));
    }
}

bool CanvasPanel::exportDag(const QString& path, bool svg, QString* error) {
    QString why;
    if (!(svg ? canvas_->exportSvg(path, &why) : canvas_->exportPng(path, &why))) {
        if (error) *error = why;
        studio_->reportError(tr("Cannot export the graph"), why);
        return false;
    }
    studio_->showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void CanvasPanel::exportDagInteractively(bool svg) {
    const QString path = QFileDialog::getSaveFileName(
        studio_->window(), tr("Export Graph"),
        studio_->suggestedPath(svg ? QStringLiteral(".svg") : QStringLiteral(".png")),
        svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (!path.isEmpty()) exportDag(path, svg);
}

void CanvasPanel::readSettings(const QSettings& settings) {
    if (auto mode = graph::colorByFromName(settings.value(QStringLiteral("colorBy")).toString()))
        setColorBy(*mode);
}

void CanvasPanel::writeSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("colorBy"), graph::colorByName(canvas_->colorBy()));
}

} // namespace lf
