// ExplainView ("Why this number"): every figure of the selected layer and of its fusion
// group broken into the terms of its formula — the formula as text ("Buf_X = T_i · D_n ·
// ((T_x−1)·S_x + D_m) = 4 · 3 · 6 = 72"), each term's symbol, value and reason (which
// loop contributes a tile, a full dimension or a kernel extent), the paper and equation it
// comes from — plus the DRAM reload factors over the compulsory minimum and the notes.
// Shows only: the breakdowns come from core/teaching/explain.h.
#pragma once

#include "studio_metatypes.h"
#include "teaching/explain.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace lf {

class ExplainView : public QWidget {
    Q_OBJECT
  public:
    explicit ExplainView(QWidget* parent = nullptr);

    void setState(const lf::StudioState& state);
    void setSelection(const lf::StudioSelection& selection);

    // What is explained (empty when nothing is).
    const std::optional<LayerExplanation>& layerExplanation() const { return layer_; }
    const std::optional<GroupExplanation>& groupExplanation() const { return group_; }
    QTreeWidget* tree() const { return tree_; }
    // The row of a formula ("Buf_X", "Trans_X", "MACs", "Fusion buffer"): the layer's when
    // `ofGroup` is false, else the group's; nullptr when not shown.
    QTreeWidgetItem* formulaItem(const QString& name, bool ofGroup = false) const;
    // Selects, expands and scrolls to the first of `names` shown (in the group's section when
    // `ofGroup`; the layer's when the group has no section of its own: a one-layer group's
    // figures are its layer's). False when none is shown.
    bool showFormula(const QStringList& names, bool ofGroup);

    enum Column { cFigure, cValue, cSource, cWhy, cColumns };

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void refresh();
    // Value and Source whole, the formula and the reason share the rest.
    void fitColumns();
    QTreeWidgetItem* addSection(const QString& key, const QString& title,
                                bool expandedByDefault = true);
    void addFormula(QTreeWidgetItem* section, const Formula& f, const QString& key);
    void addNote(QTreeWidgetItem* section, const QString& text);
    // The breakdown of one layer; the primary one is the selected layer (layerExplanation()).
    void addLayerSection(LayerId id, bool primary);
    void addGroupSection(int group);

    StudioState state_;
    StudioSelection selection_;
    std::optional<LayerExplanation> layer_;
    std::optional<GroupExplanation> group_;
    QHash<QString, bool> expanded_; // the user's choice per row (kept across edits)
    bool rebuilding_ = false;
    QLabel* title_;
    QTreeWidget* tree_;
};

} // namespace lf
