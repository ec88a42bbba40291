#include "window_prompts.h"

#include "main_window.h"

#include <QAction>
#include <QMessageBox>
#include <QStatusBar>

namespace lf {

void reportError(MainWindow* window, const QString& title, const QString& message) {
    reportStatus(window, message, 15000);
    if (window->errorSink) {
        window->errorSink(title, message);
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void reportStatus(MainWindow* window, const QString& message, int ms) {
    window->statusBar()->showMessage(message, ms);
}

bool askToSaveChanges(MainWindow* window, const QString& question) {
    Document* doc = window->document();
    if (!doc->isModified()) return true;
    QMessageBox::StandardButton answer;
    if (window->savePrompt) {
        answer = window->savePrompt(question);
    } else {
        QMessageBox box(QMessageBox::Warning, QObject::tr("Unsaved Changes"),
                        QObject::tr("“%1” has unsaved changes.").arg(doc->displayName()),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window);
        box.setInformativeText(question);
        box.setDefaultButton(QMessageBox::Save);
        answer = QMessageBox::StandardButton(box.exec());
    }
    if (answer == QMessageBox::Save) {
        if (QAction* save = window->action(QStringLiteral("save"))) save->trigger();
        return !doc->isModified();
    }
    return answer == QMessageBox::Discard;
}

} // namespace lf
