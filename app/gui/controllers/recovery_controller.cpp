#include "controllers/recovery_controller.h"

#include "controllers/autosave_writer.h"
#include "controllers/recovery_store.h"
#include "io/edit_history_yaml.h"
#include "io/project_yaml.h"
#include "qt_text.h"

#include <QAbstractButton>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QTimer>

#include <algorithm>

namespace lf {

RecoveryController::RecoveryController(Studio* studio, const Options& options, QObject* parent)
    : QObject(parent), studio_(studio), options_(options) {
    setObjectName(QStringLiteral("recoveryController"));
    if (options_.autosave || options_.offerRecovery)
        store_ = std::make_unique<RecoveryStore>(options_.directory);
    if (!options_.autosave) return;
    writer_ = std::make_unique<AutosaveWriter>();
    connect(writer_.get(), &AutosaveWriter::finished, this, [this](const QString& error) {
        if (!error.isEmpty()) studio_->showStatus(tr("Autosave failed: %1").arg(error), 10000);
        emit autosaved(error);
    });
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, &RecoveryController::autosave);
    const Document* doc = studio_->document();
    connect(doc, &Document::changed, this, &RecoveryController::scheduleAutosave);
    connect(doc, &Document::modifiedChanged, this, &RecoveryController::scheduleAutosave);
    connect(doc, &Document::documentReset, this, &RecoveryController::scheduleAutosave);
}

RecoveryController::~RecoveryController() = default;

bool RecoveryController::autosavePending() const {
    return timer_ && timer_->isActive();
}

void RecoveryController::scheduleAutosave() {
    if (!timer_->isActive()) {
        sinceFirstUnsaved_.start();
        timer_->start(options_.delayMs);
        return;
    }
    // Each edit restarts the quiet time, but a long burst is still written in time.
    const qint64 left = kMaxAutosaveWaitMs - sinceFirstUnsaved_.elapsed();
    timer_->start(int(std::clamp<qint64>(left, 0, options_.delayMs)));
}

void RecoveryController::clear() {
    if (!store_) return;
    if (timer_) timer_->stop();
    RecoveryStore* store = store_.get();
    if (!writer_) {
        store->clear();
        return;
    }
    writer_->submit([store] {
        store->clear();
        return QString();
    });
}

void RecoveryController::waitForWrites() {
    if (writer_) writer_->waitUntilIdle();
}

void RecoveryController::autosave() {
    if (!store_ || !writer_) return;
    if (!studio_->document()->isModified()) {
        clear();
        return;
    }
    timer_->stop();
    // The snapshot: the project's values and the history's shared ones. Serializing and
    // writing them is the writer's work.
    const Document* doc = studio_->document();
    RecoveryStore* store = store_.get();
    writer_->submit([store, project = doc->project(studio_->viewState()), history = doc->history(),
                     original = doc->filePath()] {
        const std::string projectText = writeProjectYaml(project);
        const std::string historyText = writeEditHistoryYaml(project.network, history);
        QString error;
        store->save(QByteArray::fromStdString(projectText), QByteArray::fromStdString(historyText),
                    original, &error);
        return error;
    });
}

void RecoveryController::restore(Project project, const QString& historyFile,
                                 const QString& originalPath) {
    Document* doc = studio_->document();
    // The history, when there is a readable one of this network, brings back the state and
    // undo/redo; else the project alone.
    QFile file(historyFile);
    std::optional<EditHistory> history;
    if (file.open(QIODevice::ReadOnly)) {
        auto read = readEditHistoryYaml(file.readAll().toStdString(), historyFile.toStdString(),
                                        project.network);
        if (read) history = std::move(*read);
    }
    if (history)
        doc->restore(std::move(project.network), *history, originalPath, project.view);
    else
        doc->reset(std::move(project.network), std::move(project.hardware),
                   std::move(project.schedule), originalPath, project.view);
    doc->markModified();
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
        if (answer == QMessageBox::Yes) {
            restore(std::move(*project), o.historyFile, o.originalPath);
            store_->discard(o);
            autosave(); // our own session now holds it, should this one end badly too
            studio_->showStatus(tr("Restored unsaved work on %1").arg(what), 10000);
            return;
        }
        store_->discard(o);
    }
}

} // namespace lf
