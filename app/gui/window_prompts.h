// Feedback and questions that the studio's add-on flows (automation, ONNX import) put to the
// user through a MainWindow's public API, the way the window itself does: errors go to its
// errorSink when set (tests) or a message box, "save changes?" to its savePrompt or a box.
#pragma once

#include <QString>

namespace lf {

class MainWindow;

// Shows an error (FILE:LINE:COLUMN: message where it comes from a file) and puts it in the
// status bar.
void reportError(MainWindow* window, const QString& title, const QString& message);
void reportStatus(MainWindow* window, const QString& message, int ms = 8000);
// Asks to save unsaved changes before the document is replaced; true to go on.
bool askToSaveChanges(MainWindow* window, const QString& question);

} // namespace lf
