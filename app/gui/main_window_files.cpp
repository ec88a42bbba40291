// MainWindow: opening, saving, exporting, importing, autosave and crash recovery.
#include "main_window.h"

#include "busy_task.h"

#include "example_dialog.h"
#include "examples/bundled.h"
#include "graph/graph_canvas.h"
#include "io/onnx_import.h"
#include "io/project_yaml.h"
#include "io/schedule_yaml.h"
#include "metrics/metrics_io.h"
#include "models/evaluate.h"
#include "recent_files.h"
#include "recovery_store.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUndoStack>

namespace lf {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}
QString q(const Error& e) {
    return QString::fromStdString(e.toString());
}

Hardware defaultHardware() {
    if (auto hw = loadBundledHardware(kDefaultHardware)) return *hw;
    return Hardware{};
}

QString fileStem(const QString& name) {
    QString s = name;
    s.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    return s.isEmpty() ? QStringLiteral("network") : s;
}

} // namespace

QString MainWindow::dialogDirectory() const {
    if (!doc_->filePath().isEmpty()) return QFileInfo(doc_->filePath()).absolutePath();
    const QStringList recent = recent_ ? recent_->files() : QStringList();
    if (!recent.isEmpty()) return QFileInfo(recent.front()).absolutePath();
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

bool MainWindow::openPath(const QString& arg, QString* error) {
    const QFileInfo fi(arg);
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        showError(tr("Cannot open %1").arg(fi.fileName().isEmpty() ? arg : fi.fileName()), message);
        return false;
    };
    if (fi.isFile()) {
        const QString path = fi.absoluteFilePath();
        const QString shown = QDir::toNativeSeparators(path);
        const QString label = tr("Opening %1…").arg(fi.fileName());
        auto cancelledOpen = [&] {
            showStatus(tr("Opening %1 cancelled").arg(shown));
            if (error) *error = tr("cancelled");
            return false;
        };
        if (path.endsWith(QLatin1String(".lfproj"), Qt::CaseInsensitive)) {
            const std::string file = path.toStdString();
            auto p = gui::runBusy<Project>(this, label, [file] { return loadProjectFile(file); });
            if (!p) return cancelledOpen();
            if (!*p) return fail(q(p->error()));
            adoptProject(std::move(**p), path, false);
            recent_->add(path);
            return true;
        }
        // Network YAML, or ONNX through the engine's resolver.
        std::optional<Result<Network>> net;
        if (isOnnxPath(path.toStdString())) {
            net = importOnnxInteractively(path);
        } else {
            const std::string file = path.toStdString();
            net = gui::runBusy<Network>(this, label, [file] { return resolveNetwork(file); });
        }
        if (!net) return cancelledOpen();
        if (!*net) return fail(q(net->error()));
        openNetwork(std::move(**net), {});
        recent_->add(path);
        showStatus(tr("Opened %1").arg(shown));
        return true;
    }
    if (findBundled(BundledKind::network, arg.toStdString())) return openBundled(arg, error);
    return fail(tr("%1: no such file, and no bundled example of that name").arg(arg));
}

std::optional<Result<Network>> MainWindow::importOnnxInteractively(const QString& path) {
    OnnxImportOptions opt;
    const std::string file = path.toStdString();
    const QString label = tr("Importing %1…").arg(QFileInfo(path).fileName());
    for (int attempt = 0; attempt < 3; ++attempt) {
        auto report = std::make_shared<OnnxImportReport>();
        auto busy = gui::runBusy<Network>(
            this, label, [file, opt, report] { return resolveNetwork(file, opt, report.get()); });
        if (!busy) return std::nullopt;
        Result<Network> net = std::move(*busy);
        // Dialogs only for a user at the window (tests and scripts get the error).
        if (net || !isVisible()) return net;
        if (report->needs_input_shape && opt.input_shape.empty()) {
            bool ok = false;
            const QString text = QInputDialog::getText(
                this, tr("Input Shape"),
                tr("%1 leaves its input size open. Input shape (C,H,W or N,C,H,W):")
                    .arg(QFileInfo(path).fileName()),
                QLineEdit::Normal, QStringLiteral("3,224,224"), &ok);
            if (!ok) return net;
            auto shape = parseOnnxInputShape(text.toStdString());
            if (!shape) return Error(shape.error().message);
            opt.input_shape = *shape;
            continue;
        }
        if (!report->unsupported.empty() && !opt.allow_opaque) {
            QStringList ops;
            for (const auto& u : report->unsupported)
                if (!ops.contains(q(u.op_type))) ops << q(u.op_type);
            const auto answer = QMessageBox::question(
                this, tr("Unsupported Operators"),
                tr("%1 uses operators LayerFuse cannot cost: %2.\nLoad them as pass-through layers "
                   "that are never "
                   "fused?")
                    .arg(QFileInfo(path).fileName(), ops.join(QStringLiteral(", "))));
            if (answer != QMessageBox::Yes) return net;
            opt.allow_opaque = true;
            continue;
        }
        return net;
    }
    return gui::runBusy<Network>(this, label,
                                 [file, opt] { return resolveNetwork(file, opt, nullptr); });
}

bool MainWindow::openBundled(const QString& name, QString* error) {
    auto net = loadBundledNetwork(name.toStdString());
    if (!net) {
        if (error) *error = q(net.error());
        showError(tr("Cannot open %1").arg(name), q(net.error()));
        return false;
    }
    openNetwork(std::move(*net), {});
    showStatus(tr("Opened the example %1").arg(name));
    return true;
}

bool MainWindow::openNetwork(Network network, const QString& path) {
    // A newly opened network keeps the hardware the user works with.
    Hardware hw = doc_->network().empty() ? defaultHardware() : doc_->hardware();
    Schedule schedule = defaultSchedule(network, hw);
    doc_->reset(std::move(network), std::move(hw), std::move(schedule), path);
    return true;
}

bool MainWindow::adoptProject(Project project, const QString& path, bool recovered) {
    doc_->reset(std::move(project.network), std::move(project.hardware),
                std::move(project.schedule), path, project.view);
    if (recovered) doc_->markModified();
    return true;
}

bool MainWindow::writeFile(const QString& path, const QByteArray& data, const QString& what) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        showError(tr("Cannot save %1").arg(what),
                  tr("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
        return false;
    }
    showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool MainWindow::saveProjectTo(const QString& path, QString* error) {
    Project p = doc_->project(viewState());
    const std::string text = writeProjectYaml(p);
    QSaveFile f(path);
    const QByteArray data = QByteArray::fromStdString(text);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        const QString message = tr("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        if (error) *error = message;
        showError(tr("Cannot save the project"), message);
        return false;
    }
    doc_->markSaved(QFileInfo(path).absoluteFilePath());
    recent_->add(path);
    if (recovery_) recovery_->clear();
    showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool MainWindow::save() {
    const QString path = doc_->filePath();
    if (path.isEmpty() || !path.endsWith(QLatin1String(".lfproj"), Qt::CaseInsensitive))
        return saveAs();
    return saveProjectTo(path);
}

bool MainWindow::saveAs() {
    const QString suggested =
        QDir(dialogDirectory())
            .filePath(fileStem(q(doc_->network().name())) + QStringLiteral(".lfproj"));
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save Project"), doc_->filePath().isEmpty() ? suggested : doc_->filePath(),
        tr("LayerFuse projects (*.lfproj)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".lfproj"), Qt::CaseInsensitive))
        path += QStringLiteral(".lfproj");
    return saveProjectTo(path);
}

bool MainWindow::maybeSave(const QString& question) {
    if (!doc_->isModified()) return true;
    const QString text = tr("“%1” has unsaved changes.").arg(doc_->displayName());
    QMessageBox::StandardButton answer;
    if (savePrompt) {
        answer = savePrompt(question);
    } else {
        QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"), text,
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setInformativeText(question);
        box.setDefaultButton(QMessageBox::Save);
        answer = QMessageBox::StandardButton(box.exec());
    }
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::openDialog() {
    if (!maybeSave(tr("Save the changes before opening another file?"))) return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open"), dialogDirectory(),
        tr("LayerFuse files (*.lfproj *.net.yaml *.yaml *.yml *.onnx);;Projects (*.lfproj);;"
           "Networks (*.net.yaml *.yaml *.yml);;ONNX models (*.onnx);;All files (*)"));
    if (!path.isEmpty()) openPath(path);
}

void MainWindow::newFromExample() {
    ExampleDialog dialog(doc_->network().empty() ? QString() : q(doc_->hardware().name), this);
    if (dialog.exec() != QDialog::Accepted || dialog.network().isEmpty()) return;
    if (!maybeSave(tr("Save the changes before opening another network?"))) return;
    auto net = loadBundledNetwork(dialog.network().toStdString());
    auto hw = loadBundledHardware(dialog.hardware().toStdString());
    if (!net || !hw) {
        showError(tr("Cannot open the example"), net ? q(hw.error()) : q(net.error()));
        return;
    }
    Schedule schedule = defaultSchedule(*net, *hw);
    doc_->reset(std::move(*net), std::move(*hw), std::move(schedule));
}

void MainWindow::exportScheduleYaml() {
    const QString suggested =
        QDir(dialogDirectory())
            .filePath(fileStem(q(doc_->network().name())) + QStringLiteral(".sched.yaml"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Schedule"), suggested,
                                                      tr("Schedules (*.sched.yaml *.yaml)"));
    if (path.isEmpty()) return;
    evaluator_->waitForIdle();
    ScheduleWriteOptions opt;
    if (state_.metrics && state_.schedule == doc_->schedule() &&
        state_.hardware == doc_->hardware())
        opt.metrics = state_.metrics.get();
    writeFile(path,
              QByteArray::fromStdString(
                  writeScheduleYaml(doc_->network(), doc_->hardware(), doc_->schedule(), opt)),
              tr("the schedule"));
}

void MainWindow::exportMetrics(bool json) {
    const QString ext = json ? QStringLiteral(".json") : QStringLiteral(".csv");
    const QString suggested =
        QDir(dialogDirectory())
            .filePath(fileStem(q(doc_->network().name())) + QStringLiteral(".metrics") + ext);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Metrics"), suggested, json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    evaluator_->waitForIdle();
    if (!state_.metrics) return;
    const std::string text =
        json ? metricsToJsonText(*state_.metrics) + "\n" : metricsToCsv(*state_.metrics);
    writeFile(path, QByteArray::fromStdString(text), tr("the metrics"));
}

void MainWindow::exportDag(bool svg) {
    const QString ext = svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    const QString suggested =
        QDir(dialogDirectory()).filePath(fileStem(q(doc_->network().name())) + ext);
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Graph"), suggested,
                                     svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    const bool ok = svg ? canvas_->exportSvg(path, &error) : canvas_->exportPng(path, &error);
    if (!ok)
        showError(tr("Cannot export the graph"), error);
    else
        showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::importSchedule() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import Schedule"), dialogDirectory(),
                                     tr("Schedules (*.sched.yaml *.yaml *.yml);;All files (*)"));
    if (path.isEmpty()) return;
    ScheduleReadOptions opt;
    opt.check_hash = false; // applied by layer names; names that do not match are reported
    auto file = loadScheduleYamlFile(path.toStdString(), doc_->network(), doc_->hardware(), opt);
    if (!file) {
        showError(tr("Cannot import %1").arg(QFileInfo(path).fileName()), q(file.error()));
        return;
    }
    doc_->undoStack()->beginMacro(tr("Import schedule %1").arg(QFileInfo(path).fileName()));
    if (file->hardware)
        doc_->setHardware(*file->hardware, tr("Hardware from %1").arg(QFileInfo(path).fileName()),
                          0);
    const auto r =
        doc_->setSchedule(file->schedule, tr("Schedule from %1").arg(QFileInfo(path).fileName()));
    doc_->undoStack()->endMacro();
    if (r.ok && !file->skipped.empty())
        showStatus(tr("Imported; %n name(s) not in this network were skipped", nullptr,
                      int(file->skipped.size())),
                   12000);
}

void MainWindow::autosave() {
    if (!recovery_) return;
    if (!doc_->isModified()) {
        recovery_->clear();
        return;
    }
    QString error;
    const std::string text = writeProjectYaml(doc_->project(viewState()));
    if (!recovery_->save(QByteArray::fromStdString(text), doc_->filePath(), &error))
        showStatus(tr("Autosave failed: %1").arg(error), 10000);
}

void MainWindow::offerRecovery() {
    if (!options_.offerRecovery || !recovery_) return;
    for (const RecoveryStore::Orphan& o : recovery_->orphans()) {
        auto project = loadProjectFile(o.projectFile.toStdString());
        if (!project) {
            recovery_->discard(o); // unreadable leftovers help nobody
            continue;
        }
        const QString what = o.originalPath.isEmpty() ? q(project->network.name())
                                                      : QFileInfo(o.originalPath).fileName();
        const QString question =
            tr("LayerFuse did not close properly. Restore the unsaved changes to “%1” from %2?")
                .arg(what, QLocale().toString(o.when, QLocale::ShortFormat));
        QMessageBox::StandardButton answer;
        if (recoveryPrompt) {
            answer = recoveryPrompt(question);
        } else {
            QMessageBox box(QMessageBox::Question, tr("Restore Unsaved Work"), question,
                            QMessageBox::Yes | QMessageBox::No | QMessageBox::Ignore, this);
            box.button(QMessageBox::Yes)->setText(tr("Restore"));
            box.button(QMessageBox::No)->setText(tr("Discard"));
            box.button(QMessageBox::Ignore)->setText(tr("Ask Later"));
            box.setDefaultButton(QMessageBox::Yes);
            answer = QMessageBox::StandardButton(box.exec());
        }
        if (answer == QMessageBox::Ignore) continue;
        recovery_->discard(o);
        if (answer == QMessageBox::Yes) {
            adoptProject(std::move(*project), o.originalPath, true);
            autosave(); // our own session now holds it, should this one end badly too
            showStatus(tr("Restored unsaved work on %1").arg(what), 10000);
            return;
        }
    }
}

} // namespace lf
