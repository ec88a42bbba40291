// LoopNestView: the C-like loop nest the current schedule stands for — ConvFusion Code 2 for
// the selected layer, ConvFusion Code 3 (or the reuse / Optimus pipeline) for the selected fusion
// group — with buffer allocations, loads and stores at their store and compute levels and
// annotated with their volumes. Syntax-highlighted (X, Y, W in their own colours, light and
// dark palettes) and rebuilt with every state. Pointing at a loop highlights every loop
// over the same dimension and tells the other teaching views (the tile pyramid) through
// loopHovered(). Shows only: the code comes from core/teaching/loop_nest.h.
#pragma once

#include "studio_metatypes.h"
#include "teaching/loop_nest.h"

#include <QList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;

namespace lf {

class LoopNestHighlighter;

class LoopNestView : public QWidget {
    Q_OBJECT
  public:
    explicit LoopNestView(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    // Whether a layer of a fused group shows its whole group's nest (default: the layer's).
    void setShowWholeGroup(bool whole);
    bool showsWholeGroup() const;

    // What is shown: the nest, its layer (kNoLayer for a group) and group (-1 for a layer).
    const LoopNest& loopNest() const { return nest_; }
    LayerId shownLayer() const { return layer_; }
    int shownGroup() const { return group_; }
    QString title() const;
    // The document's plain text (what the user reads).
    QString codeText() const;
    QPlainTextEdit* editor() const { return code_; }
    LoopNestHighlighter* highlighter() const { return highlighter_; }

    // As if the pointer rested on line `line` (-1: left the code); what mouse moves do.
    void hoverLine(int line);
    // Lines highlighted because they loop over the hovered dimension.
    QList<int> highlightedLines() const { return highlighted_; }

  signals:
    // The pointer rests on a loop over `dim` (Dim 0..3 = z, y, x, i; 4 = n, 5 = m) of
    // `layer`; (kNoLayer, -1) when it leaves the loops.
    void loopHovered(lf::LayerId layer, int dim);
    void selectionRequested(lf::StudioSelection selection);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void refresh();
    void applyPalette();
    void updateHoverHighlight();

    StudioState state_;
    StudioSelection selection_;
    LoopNest nest_;
    LayerId layer_ = kNoLayer;
    int group_ = -1;
    LayerId hoveredLayer_ = kNoLayer;
    int hoveredDim_ = -1;
    QList<int> highlighted_;

    QLabel* title_;
    QCheckBox* wholeGroup_;
    QLabel* legend_;
    QPlainTextEdit* code_;
    LoopNestHighlighter* highlighter_;
};

} // namespace lf
