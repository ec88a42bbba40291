// Texts of the DAG canvas: node captions, edge labels and the hover tooltips that show a
// layer's, a group's or a tensor's figures (read from Metrics, never computed here).
#pragma once

#include "studio_state.h"

#include <QString>

namespace lf::graph {

QString layerDetailText(const Network& net, LayerId id); // "conv 3×3 /2", "maxpool 3×3 /2"
QString shapeText(const Shape& s);                       // "64×56×56"
QString tensorBytesText(const Network& net, const Hardware& hw, LayerId producer);

QString layerToolTip(const StudioState& state, LayerId id);
QString groupToolTip(const StudioState& state, int groupIndex);
QString edgeToolTip(const StudioState& state, LayerId tail, LayerId head);

// Why a group breaks a rule (checkGroup), and the evaluator's warnings; empty when fine.
QStringList groupProblems(const StudioState& state, int groupIndex);

} // namespace lf::graph
