#include "controllers/recovery_controller.h"

#include "controllers/recovery_store.h"
#include "io/project_yaml.h"
#include "qt_text.h"

#include <QAbstractButton>
#include <QFileInfo>
#include <QLocale>
#include <QTimer>

namespace lf {

RecoveryController::RecoveryController(Studio* studio, const Options& options, QObject* parent)
    : QObject(parent), studio_(studio), options_(options) {
    setObjectName(QStringLiteral("recoveryController"));
    if (options_.autosave || options_.offerRecovery)
        store_ = std::make_unique<RecoveryStore>(options_.directory);
    if (options_.autosave) {
        timer_ = new QTimer(this);
        timer_->setInterval(options_.intervalMs);
        connect(timer_, &QTimer::timeout, this, &RecoveryController::autosave);
        timer_->start();
    }
}

RecoveryController::~RecoveryController() = default;

void RecoveryController::clear() {
    if (store_) store_->clear();
}

void RecoveryController::autosave() {
    if (!store_) return;
    const Document* doc = studio_->document();
    if (!doc->isModified()) {
        store_->clear();
        return;
    }
    QString error;
    const std::string text = writeProjectYaml(doc->project(studio_->viewState()));
    if (!store_->save(QByteArray::fromStdString(text), doc->filePath(), &error))
        studio_->showStatus(tr("Autosave failed: %1").arg(error), 10000);
}

void RecoveryController::offerRecovery() {
    if (!options_.offerRecovery || !store_) return;
    for (const RecoveryStore::Orphan& o : store_->orphans()) {
        auto project = loadProjectFile(o.projectFile.toStdString());
        if (!project) {
            store_->discard(o); // unreadable leftovers help nobody
            continue;
        }
        const QString what = o.originalPath.isEmpty() ? qs(project->network.name())
                                                      : QFileInfo(o.originalPath).fileName();
        const QString question =
            tr("LayerFuse did not close properly. Restore the unsaved changes to “%1” from %2?")
                .arg(what, QLocale().toString(o.when, QLocale::ShortFormat));
        QMessageBox::StandardButton answer;
        if (recoveryPrompt) {
            answer = recoveryPrompt(question);
        } else {
            QMessageBox box(QMessageBox::Question, tr("Restore Unsaved Work"), question,
                            QMessageBox::Yes | QMessageBox::No | QMessageBox::Ignore,
                            studio_->window());
            box.button(QMessageBox::Yes)->setText(tr("Restore"));
            box.button(QMessageBox::No)->setText(tr("Discard"));
            box.button(QMessageBox::Ignore)->setText(tr("Ask Later"));
            box.setDefaultButton(QMessageBox::Yes);
            answer = QMessageBox::StandardButton(box.exec());
        }
        if (answer == QMessageBox::Ignore) continue;
        store_->discard(o);
        if (answer == QMessageBox::Yes) {
            Document* doc = studio_->document();
            doc->reset(std::move(project->network), std::move(project->hardware),
                       std::move(project->schedule), o.originalPath, project->view);
            doc->markModified();
            autosave(); // our own session now holds it, should this one end badly too
            studio_->showStatus(tr("Restored unsaved work on %1").arg(what), 10000);
            return;
        }
    }
}

} // namespace lf
