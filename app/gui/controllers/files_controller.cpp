#include "controllers/files_controller.h"

#include "controllers/example_dialog.h"
#include "controllers/recent_files.h"
#include "examples/bundled.h"
#include "io/network_yaml.h"
#include "io/onnx_import.h"
#include "io/project_yaml.h"
#include "models/evaluate.h"
#include "qt_text.h"
#include "studio/busy_task.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QSaveFile>

namespace lf {

namespace {

Hardware defaultHardware() {
    if (auto hw = loadBundledHardware(kDefaultHardware)) return *hw;
    return Hardware{};
}

bool isProject(const QString& path) {
    return path.endsWith(QLatin1String(".lfproj"), Qt::CaseInsensitive);
}

// A schedule file: by its name, or by the format line at its top.
bool isSchedule(const QString& path) {
    if (path.endsWith(QLatin1String(".sched.yaml"), Qt::CaseInsensitive)) return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    return f.read(4096).contains("layerfuse/schedule@");
}

// A lesson file: by its name, or by the format line at its top.
bool isLesson(const QString& path) {
    static const QRegularExpression suffix(QStringLiteral("\\.lesson\\.ya?ml$"),
                                           QRegularExpression::CaseInsensitiveOption);
    if (suffix.match(path).hasMatch()) return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    return f.read(4096).contains("layerfuse/lesson@");
}

} // namespace

FilesController::FilesController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this),
      examples_(new QMenu(tr("E&xamples"), studio->window())),
      recentMenu_(new QMenu(tr("Open &Recent"), studio->window())),
      recent_(new RecentFiles(recentMenu_, this)) {
    setObjectName(QStringLiteral("filesController"));
    connect(actions_.add(QStringLiteral("newFromExample"), tr("&New from Example…"),
                         QStringLiteral("new"), QKeySequence::New),
            &QAction::triggered, this, &FilesController::newFromExample);
    connect(actions_.add(QStringLiteral("open"), tr("&Open…"), QStringLiteral("open"),
                         QKeySequence::Open),
            &QAction::triggered, this, &FilesController::openDialog);
    connect(actions_.add(QStringLiteral("save"), tr("&Save"), QStringLiteral("save"),
                         QKeySequence::Save),
            &QAction::triggered, this, &FilesController::save);
    connect(actions_.add(QStringLiteral("saveAs"), tr("Save &As…"), {}, QKeySequence::SaveAs),
            &QAction::triggered, this, &FilesController::saveAs);
    examples_->setToolTipsVisible(true);
    populateExamplesMenu();
    connect(recent_, &RecentFiles::openRequested, this, &FilesController::openRecent);
    if (const QStringList files = recent_->files(); !files.isEmpty())
        studio_->setRecentDirectory(QFileInfo(files.front()).absolutePath());
    studio_->saveDocument = [this] { return save(); };
    connect(studio_->document(), &Document::documentReset, this, &FilesController::updateActions);
    updateActions();
}

FilesController::~FilesController() {
    // Without a window the menus are this controller's.
    for (QMenu* m : {examples_.data(), recentMenu_.data()})
        if (m && !m->parent()) delete m;
}

void FilesController::updateActions() {
    actions_.setEnabled({"save", "saveAs"}, !studio_->document()->network().empty());
}

void FilesController::addRecent(const QString& path) {
    recent_->add(path);
    studio_->setRecentDirectory(QFileInfo(path).absolutePath());
}

bool FilesController::openPath(const QString& arg, QString* error) {
    const QFileInfo fi(arg);
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        studio_->reportError(
            tr("Cannot open %1").arg(fi.fileName().isEmpty() ? arg : fi.fileName()), message);
        return false;
    };
    if (fi.isFile()) {
        const QString path = fi.absoluteFilePath();
        const QString shown = QDir::toNativeSeparators(path);
        const QString label = tr("Opening %1…").arg(fi.fileName());
        const std::string file = path.toStdString();
        auto cancelled = [&] {
            studio_->showStatus(tr("Opening %1 cancelled").arg(shown));
            if (error) *error = tr("cancelled");
            return false;
        };
        if (isProject(path)) {
            auto p = gui::runBusy<Project>(studio_->window(), label,
                                           [file] { return loadProjectFile(file); });
            if (!p) return cancelled();
            if (!*p) return fail(qs(p->error()));
            Project& project = **p;
            studio_->document()->reset(std::move(project.network), std::move(project.hardware),
                                       std::move(project.schedule), path, project.view);
            addRecent(path);
            return true;
        }
        if (isSchedule(path)) return offerScheduleImport(path, error);
        if (isLesson(path)) {
            if (!openLesson) return fail(tr("%1: lessons open in the Lessons panel").arg(shown));
            if (!openLesson(path, error)) return false; // reported, or kept the document
            addRecent(path);
            return true;
        }
        // Network YAML, or ONNX through the engine's resolver.
        std::optional<Result<Network>> net;
        if (isOnnxPath(file))
            net = importOnnx(path);
        else
            net = gui::runBusy<Network>(studio_->window(), label,
                                        [file] { return resolveNetwork(file); });
        if (!net) return cancelled();
        if (!*net) return fail(qs(net->error()));
        const QString note = openNetwork(std::move(**net));
        addRecent(path);
        studio_->showStatus(note.isEmpty() ? tr("Opened %1").arg(shown) : note, 15000);
        return true;
    }
    if (findBundled(BundledKind::network, arg.toStdString())) return openBundled(arg, error);
    return fail(tr("%1: no such file, and no bundled example of that name").arg(arg));
}

bool FilesController::offerScheduleImport(const QString& path, QString* error) {
    const QString name = QFileInfo(path).fileName();
    const QString what = tr("%1 is a schedule, not a network: a schedule is applied to the open "
                            "network with File ▸ Import Schedule…")
                             .arg(name);
    bool import = false;
    if (confirmScheduleImport) {
        import = confirmScheduleImport(what);
    } else if (QWidget* w = studio_->window(); w && w->isVisible()) {
        import = QMessageBox::question(w, tr("Open a Schedule"),
                                       what + QStringLiteral("\n\n") +
                                           tr("Import it into the open network now?")) ==
                 QMessageBox::Yes;
    }
    if (import && importSchedule) return importSchedule(path);
    if (error) *error = what;
    studio_->reportError(tr("Cannot open %1").arg(name), what);
    return false;
}

std::optional<Result<Network>> FilesController::importOnnx(const QString& path) {
    OnnxImportOptions opt;
    const std::string file = path.toStdString();
    const QString label = tr("Importing %1…").arg(QFileInfo(path).fileName());
    QWidget* window = studio_->window();
    for (int attempt = 0; attempt < 3; ++attempt) {
        auto report = std::make_shared<OnnxImportReport>();
        auto busy = gui::runBusy<Network>(
            window, label, [file, opt, report] { return resolveNetwork(file, opt, report.get()); });
        if (!busy) return std::nullopt;
        Result<Network> net = std::move(*busy);
        // Dialogs only for a user at the window (tests and scripts get the error).
        if (net || !window || !window->isVisible()) return net;
        if (report->needs_input_shape && opt.input_shape.empty()) {
            // A shape that does not read is asked for again, with what is wrong and the text
            // as typed (a typo does not throw the whole open away).
            QString text = QStringLiteral("3,224,224"), problem;
            while (opt.input_shape.empty()) {
                bool ok = false;
                const QString question =
                    tr("%1 leaves its input size open. Input shape (C,H,W or N,C,H,W):")
                        .arg(QFileInfo(path).fileName());
                text = QInputDialog::getText(
                    window, tr("Input Shape"),
                    problem.isEmpty() ? question : problem + QStringLiteral("\n\n") + question,
                    QLineEdit::Normal, text, &ok);
                if (!ok) return net;
                auto shape = parseOnnxInputShape(text.toStdString());
                if (shape)
                    opt.input_shape = *shape;
                else
                    problem = qs(shape.error().message);
            }
            continue;
        }
        if (!report->unsupported.empty() && !opt.allow_opaque) {
            QStringList ops;
            for (const auto& u : report->unsupported)
                if (!ops.contains(qs(u.op_type))) ops << qs(u.op_type);
            const auto answer = QMessageBox::question(
                window, tr("Unsupported Operators"),
                tr("%1 uses operators LayerFuse cannot cost: %2.\nLoad them as pass-through layers "
                   "that are never fused?")
                    .arg(QFileInfo(path).fileName(), ops.join(QStringLiteral(", "))));
            if (answer != QMessageBox::Yes) return net;
            opt.allow_opaque = true;
            continue;
        }
        return net;
    }
    return gui::runBusy<Network>(window, label,
                                 [file, opt] { return resolveNetwork(file, opt, nullptr); });
}

bool FilesController::openBundled(const QString& name, QString* error) {
    auto net = loadBundledNetwork(name.toStdString());
    if (!net) {
        if (error) *error = qs(net.error());
        studio_->reportError(tr("Cannot open %1").arg(name), qs(net.error()));
        return false;
    }
    const QString note = openNetwork(std::move(*net));
    studio_->showStatus(note.isEmpty() ? tr("Opened the example %1").arg(name) : note, 15000);
    return true;
}

QString FilesController::openNetwork(Network network) {
    // A newly opened network keeps the hardware the user works with — not a lesson's: after
    // a lesson whose hardware was left as it came, the hardware in use before it returns.
    Document* doc = studio_->document();
    Hardware hw = doc->network().empty() ? defaultHardware() : doc->hardware();
    QString note;
    if (const auto& lesson = doc->lessonOrigin(); lesson && doc->hardware() == lesson->lesson) {
        hw = lesson->before;
        note = tr("%1 again, the hardware in use before the lesson “%2” (which used %3)")
                   .arg(qs(hw.name), lesson->title, qs(lesson->lesson.name));
    }
    Schedule schedule = defaultSchedule(network, hw);
    const QString name = qs(network.name());
    doc->reset(std::move(network), std::move(hw), std::move(schedule));
    return note.isEmpty() ? QString() : tr("Opened %1 on %2").arg(name, note);
}

void FilesController::openRecent(const QString& path) {
    if (!studio_->confirmReplace(tr("Save the changes before opening another file?"))) return;
    if (!QFileInfo::exists(path)) {
        studio_->reportError(tr("Open Recent"), tr("%1: the file no longer exists").arg(path));
        recent_->remove(path);
        return;
    }
    openPath(path);
}

bool FilesController::saveProjectTo(const QString& path, QString* error) {
    Document* doc = studio_->document();
    const QByteArray data =
        QByteArray::fromStdString(writeProjectYaml(doc->project(studio_->viewState())));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        const QString message = tr("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        if (error) *error = message;
        studio_->reportError(tr("Cannot save the project"), message);
        return false;
    }
    doc->markSaved(QFileInfo(path).absoluteFilePath());
    addRecent(path);
    emit saved(path);
    studio_->showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FilesController::save() {
    const QString path = studio_->document()->filePath();
    if (path.isEmpty() || !isProject(path)) return saveAs();
    return saveProjectTo(path);
}

bool FilesController::saveAs() {
    const Document* doc = studio_->document();
    QString path = QFileDialog::getSaveFileName(
        studio_->window(), tr("Save Project"),
        doc->filePath().isEmpty() ? studio_->suggestedPath(QStringLiteral(".lfproj"))
                                  : doc->filePath(),
        tr("LayerFuse projects (*.lfproj)"));
    if (path.isEmpty()) return false;
    if (!isProject(path)) path += QStringLiteral(".lfproj");
    return saveProjectTo(path);
}

void FilesController::openDialog() {
    if (!studio_->confirmReplace(tr("Save the changes before opening another file?"))) return;
    const QString path = QFileDialog::getOpenFileName(
        studio_->window(), tr("Open"), studio_->dialogDirectory(),
        tr("LayerFuse files (*.lfproj *.net.yaml *.lesson.yaml *.yaml *.yml *.onnx);;"
           "Projects (*.lfproj);;Networks (*.net.yaml *.yaml *.yml);;ONNX models (*.onnx);;"
           "Lessons (*.lesson.yaml);;All files (*)"));
    if (!path.isEmpty()) openPath(path);
}

void FilesController::newFromExample() {
    const Document* doc = studio_->document();
    ExampleDialog dialog(doc->network().empty() ? QString() : qs(doc->hardware().name),
                         studio_->window());
    if (dialog.exec() != QDialog::Accepted || dialog.network().isEmpty()) return;
    if (!studio_->confirmReplace(tr("Save the changes before opening another network?"))) return;
    auto net = loadBundledNetwork(dialog.network().toStdString());
    auto hw = loadBundledHardware(dialog.hardware().toStdString());
    if (!net || !hw) {
        studio_->reportError(tr("Cannot open the example"), net ? qs(hw.error()) : qs(net.error()));
        return;
    }
    Schedule schedule = defaultSchedule(*net, *hw);
    studio_->document()->reset(std::move(*net), std::move(*hw), std::move(schedule));
}

void FilesController::populateExamplesMenu() {
    examples_->clear();
    for (const BundledFile& f : bundledFiles()) {
        if (f.kind != BundledKind::network) continue;
        // The description is the network document's own (parsed, not built: cheap).
        QString description;
        if (auto spec = parseNetworkSpec(f.text, bundledFileLabel(f)))
            description = qs(spec->description);
        const QString name = QString::fromLatin1(f.name);
        QString text = name;
        if (!description.isEmpty())
            text += QStringLiteral(" — ") +
                    QFontMetrics(examples_->font()).elidedText(description, Qt::ElideRight, 420);
        QAction* a = examples_->addAction(text);
        a->setObjectName(QStringLiteral("example-") + name);
        a->setToolTip(description);
        a->setStatusTip(description);
        connect(a, &QAction::triggered, this, [this, name] {
            if (studio_->confirmReplace(tr("Save the changes before opening another network?")))
                openBundled(name);
        });
    }
}

} // namespace lf
