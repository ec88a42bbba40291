// clippedTexts: the texts of a widget tree that cannot be read whole because their widget is
// too small — a one-line label or a button narrower than its text, a wrapped label shorter
// than its lines, an item view cell or header narrower than its text — unless the widget
// shows the whole text another way: it scrolls to it, or it elides the text and its tooltip
// holds the whole of it. Only widgets shown on screen in root's window count (a dock tabbed
// away does not, nor a dialog on top).
// The layout tests and the studio's automation report (--ui-report) use it.
#pragma once

#include <QList>
#include <QString>

class QWidget;

namespace lf {

struct ClippedText {
    QString widget; // the widget's object name path, e.g. "lessonsDock/lessonTargets"
    QString text;   // the text that does not fit
    QString why;    // e.g. "needs 212 px, has 180"
};

QList<ClippedText> clippedTexts(const QWidget* root);
// "lessonsDock/lessonTargets: “Target” needs 212 px, has 180".
QString describe(const ClippedText& clipped);

} // namespace lf
