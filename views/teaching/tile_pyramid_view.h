// TilePyramidView: the tile pyramid of the selected fusion group — every feature map to
// scale with the output tile propagated backwards (R(l,t) = (t−1)·S + K), and, step by step
// over the output tiles (slider, or play/pause), what each map loads, computes, recomputes,
// keeps in reuse buffers and evicts, with a gauge of the group's buffer footprint (the
// metrics' figure, core/metrics/buffer_use.h) against the buffer. A hovered loop of the loop-nest
// view is outlined on the maps (highlightLoop). Shows only: the pyramid and its accounting come
// from core/teaching/tile_pyramid.h.
#pragma once

#include "studio_metatypes.h"
#include "teaching/tile_pyramid.h"

#include <QWidget>

#include <optional>

class QGraphicsView;
class QLabel;
class QProgressBar;
class QSlider;
class QTableWidget;
class QTimer;
class QToolButton;

namespace lf {

class TilePyramidScene;

class TilePyramidView : public QWidget {
    Q_OBJECT
  public:
    explicit TilePyramidView(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    // The group shown (-1: none) and its pyramid (valid while a group is shown).
    int shownGroup() const { return group_; }
    const TilePyramid& pyramid() const { return pyramid_; }
    const PyramidStep& currentStep() const { return current_; }
    int step() const { return current_.index; }
    int stepCount() const { return group_ >= 0 ? pyramid_.steps() : 0; }
    void setStep(int step);

    bool isPlaying() const;
    void setPlaying(bool playing);
    void setInterval(int milliseconds);

    TilePyramidScene* scene() const { return scene_; }
    QGraphicsView* graphicsView() const { return view_; }
    QTableWidget* stepTable() const { return table_; }
    QProgressBar* occupancyGauge() const { return gauge_; }
    QString stepText() const;
    // The layer whose map is under a scene position (kNoLayer if none).
    LayerId layerAt(const QPointF& scenePos) const;

  public slots:
    // Outlines what a loop over `dim` (Dim 0..3 = z, y, x, i; 4 = n, 5 = m) of `layer`
    // iterates on the maps; (kNoLayer, -1) clears.
    void highlightLoop(lf::LayerId layer, int dim);

  signals:
    // Double-clicking a map selects its layer.
    void selectionRequested(lf::StudioSelection selection);

  protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void refresh();
    void rebuildScene();
    void showCurrentStep();
    void updateTable();
    void updateGauge();
    void updateHighlight();
    void fitScene();
    Qt::Orientation preferredOrientation() const;

    StudioState state_;
    StudioSelection selection_;
    // What the shown pyramid was built from.
    struct Inputs {
        int group = -1;
        FusionGroup group_value;
        std::vector<LayerSchedule> layers;
        Hardware hardware;
        std::string network;
        friend bool operator==(const Inputs&, const Inputs&) = default;
    };
    int group_ = -1;
    Inputs shown_;
    bool dirty_ = false;
    Network pyramidNetwork_;
    TilePyramid pyramid_;
    PyramidStep current_;
    std::optional<PyramidStep> previous_;
    LayerId hoverLayer_ = kNoLayer;
    int hoverDim_ = -1;

    QLabel* title_;
    QLabel* legend_;
    QGraphicsView* view_;
    TilePyramidScene* scene_;
    QToolButton* play_;
    QSlider* slider_;
    QLabel* stepLabel_;
    QProgressBar* gauge_;
    QTableWidget* table_;
    QTimer* timer_;
};

} // namespace lf
