// Pictures of the teaching views for slides: the loop nest as it reads in the view (its
// syntax colours, the whole text, not only what is scrolled into view) and the tile pyramid
// at each step of the walk over the output tiles. SVG by the suffix .svg, else an image
// format by suffix (PNG). Errors are returned as text (empty on success).
#pragma once

#include <QColor>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <functional>

class QPainter;
class QPlainTextEdit;

namespace lf {

class TilePyramidView;

// Draws `size` with `draw` into `path` on `background`.
QString writePicture(const QString& path, QSizeF size, const QColor& background,
                     const std::function<void(QPainter&)>& draw);

QString writeLoopNestPicture(const QPlainTextEdit& code, const QString& path);

// One picture per step into `directory` (<prefix>-step-001<suffix>, …), at most `maxSteps`
// (evenly spread over the walk, the first and the last included); the names go to
// `written`. The view is left at the step it showed.
QString writePyramidSteps(TilePyramidView& view, const QString& directory, const QString& suffix,
                          int maxSteps, QStringList* written);

} // namespace lf
