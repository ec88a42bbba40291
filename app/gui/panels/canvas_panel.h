// CanvasPanel: the network's graph in the middle of the window (graph::GraphCanvas) with
// what belongs to it — View ▸ zoom, Find Layer, Colour By (menu actions and the toolbar's
// combo box), File ▸ Export ▸ DAG as SVG / PNG — and its share of the project's view state
// (zoom, centre, colouring) and of the settings (colouring).
#pragma once

#include "graph/color_scale.h"
#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>

class QActionGroup;
class QComboBox;
class QSettings;

namespace lf {

namespace graph {
class GraphCanvas;
}

class CanvasPanel : public QObject {
    Q_OBJECT
  public:
    // The canvas is a child of `parent` (the window puts it in the middle).
    CanvasPanel(Studio* studio, QWidget* parent);

    graph::GraphCanvas* canvas() const { return canvas_; }
    const ActionSet& actions() const { return actions_; }
    // The Colour By actions (checkable, one checked).
    QList<QAction*> colorByActions() const;
    // A combo box choosing the colouring, kept in step with the actions.
    QComboBox* makeColorByCombo(QWidget* parent);

    void setColorBy(graph::ColorBy mode);
    // Outlines these groups (e.g. those that differ from the Compare view's snapshot A).
    void highlightGroups(const QList<int>& groups);
    bool exportDag(const QString& path, bool svg, QString* error = nullptr);

    void readSettings(const QSettings& settings);
    void writeSettings(QSettings& settings) const;

  private:
    void exportDagInteractively(bool svg);
    void applyViewState(const ProjectViewState& view);
    void updateActions();

    Studio* studio_;
    graph::GraphCanvas* canvas_;
    ActionSet actions_;
    QActionGroup* colorBy_;
    QList<QComboBox*> combos_;
};

} // namespace lf
