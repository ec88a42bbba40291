#include "controllers/exchange_controller.h"

#include "controllers/onnx_import_flow.h"
#include "examples/bundled.h"
#include "io/schedule_yaml.h"
#include "io/zigzag_hardware_yaml.h"
#include "models/evaluate.h"
#include "qt_text.h"
#include "studio/studio_style.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>

namespace lf {

namespace {

bool writeBytes(const QString& path, const QByteArray& data, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    return true;
}

QString shortHash(const QString& h) {
    return h.isEmpty() ? QObject::tr("none") : h.left(12) + QStringLiteral("…");
}

// Spatial partitions drawn for another PE array: a group whose sub-arrays no longer fit
// falls back to equal column strips of the new array (effectiveSubarrays), named in `notes`.
Schedule refitPartitions(const Network& net, const Hardware& hw, Schedule s, QStringList* notes) {
    for (FusionGroup& g : s.groups) {
        if (g.partition.subarrays.empty() || checkGroup(net, hw, g).empty()) continue;
        g.partition.subarrays.clear();
        *notes << QObject::tr("The spatial partition of group %1 did not fit the %2 × %3 PE "
                              "array: its layers share the array in equal column strips.")
                      .arg(qs(g.name))
                      .arg(hw.pe_array.cols)
                      .arg(hw.pe_array.rows);
    }
    return s;
}

} // namespace

ExchangeController::ExchangeController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this), onnx_(new OnnxImportFlow(studio, this)) {
    setObjectName(QStringLiteral("exchangeController"));
    connect(actions_.add(QStringLiteral("importSchedule"), tr("&Import Schedule…")),
            &QAction::triggered, this, &ExchangeController::importScheduleInteractively);
    connect(actions_.add(QStringLiteral("importHardware"), tr("Import &Hardware…"), {}, {},
                         tr("Use a LayerFuse hardware file or a ZigZag accelerator")),
            &QAction::triggered, this, &ExchangeController::importHardwareInteractively);
    connect(actions_.add(QStringLiteral("importOnnx"), tr("Import &ONNX…"), {},
                         QKeySequence(Qt::CTRL | Qt::Key_I),
                         tr("Open an ONNX model as a new network")),
            &QAction::triggered, onnx_, &OnnxImportFlow::chooseAndImport);
    connect(actions_.add(QStringLiteral("onnxReport"), tr("ONNX Import &Report…"), {}, {},
                         tr("What became of every node of the last imported ONNX model")),
            &QAction::triggered, onnx_, &OnnxImportFlow::showReport);
    for (const ExportFormat& f : exportFormats()) {
        QAction* a = actions_.add(f.name, f.menuText, {}, {}, f.statusTip);
        connect(a, &QAction::triggered, this, [this, &f] { exportInteractively(f); });
    }
    if (QAction* a = actions_[QStringLiteral("exportSchedule")])
        a->setIcon(gui::studioIcon(QStringLiteral("export")));
    connect(onnx_, &OnnxImportFlow::finished, this, &ExchangeController::updateActions);
    connect(onnx_, &OnnxImportFlow::reportChanged, this, &ExchangeController::updateActions);
    connect(studio_, &Studio::stateShown, this, &ExchangeController::updateActions);
    updateActions();
}

QList<QAction*> ExchangeController::exportActions() const {
    QList<QAction*> list;
    for (const ExportFormat& f : exportFormats())
        list << actions_[f.name];
    return list;
}

void ExchangeController::updateActions() {
    const bool open = !studio_->document()->network().empty();
    const bool haveMetrics = bool(studio_->state().metrics);
    for (const ExportFormat& f : exportFormats())
        actions_[f.name]->setEnabled(f.needsMetrics ? haveMetrics : open);
    actions_[QStringLiteral("importSchedule")]->setEnabled(open);
    actions_[QStringLiteral("importHardware")]->setEnabled(open);
    actions_[QStringLiteral("importOnnx")]->setEnabled(!onnx_->isRunning());
    actions_[QStringLiteral("onnxReport")]->setEnabled(!onnx_->reportText().isEmpty());
}

void ExchangeController::say(const QString& message, int ms) {
    lastMessage_ = message;
    studio_->showStatus(message, ms);
}

std::shared_ptr<const Metrics> ExchangeController::currentMetrics() const {
    const Document* doc = studio_->document();
    studio_->evaluator()->waitForIdle();
    const StudioState& shown = studio_->state();
    if (shown.metrics && shown.schedule == doc->schedule() && shown.hardware == doc->hardware() &&
        shown.network == doc->network())
        return shown.metrics;
    return std::make_shared<const Metrics>(
        evaluate(doc->network(), doc->hardware(), doc->schedule()));
}

// --- exports ----------------------------------------------------------------------------------

bool ExchangeController::exportTo(const QString& name, const QString& path, QString* error) {
    const ExportFormat* format = findExportFormat(name);
    auto fail = [&](const QString& title, const QString& why) {
        if (error) *error = why;
        studio_->reportError(title, why);
        return false;
    };
    if (!format) return fail(tr("Cannot export"), tr("no export named %1").arg(name));
    const Document* doc = studio_->document();
    const std::shared_ptr<const Metrics> metrics = currentMetrics();
    const ExportOutput out =
        format->write({doc->network(), doc->hardware(), doc->schedule(), *metrics});
    if (!out.error.isEmpty()) return fail(format->errorTitle, out.error);
    QString why;
    if (format->directory) {
        QDir dir(path);
        if (!dir.mkpath(QStringLiteral(".")))
            return fail(format->errorTitle,
                        tr("%1: cannot create the directory").arg(QDir::toNativeSeparators(path)));
        for (const auto& [file, bytes] : out.files)
            if (!writeBytes(dir.filePath(file), bytes, &why)) return fail(format->errorTitle, why);
        say(out.message.arg(QDir::toNativeSeparators(dir.absolutePath())));
        return true;
    }
    if (out.files.size() != 1 || !writeBytes(path, out.files.front().second, &why))
        return fail(format->errorTitle, why);
    say(out.message.arg(QDir::toNativeSeparators(path)));
    return true;
}

void ExchangeController::exportInteractively(const ExportFormat& f) {
    const QString path =
        f.directory ? QFileDialog::getExistingDirectory(studio_->window(), f.dialogTitle,
                                                        studio_->dialogDirectory())
                    : QFileDialog::getSaveFileName(studio_->window(), f.dialogTitle,
                                                   studio_->suggestedPath(f.suffix), f.filter);
    if (!path.isEmpty()) exportTo(f.name, path);
}

// --- schedule import ----------------------------------------------------------------------------

bool ExchangeController::importSchedule(const QString& path, QString* error) {
    Document* doc = studio_->document();
    const Network& net = doc->network();
    const QString file = QFileInfo(path).fileName();
    auto fail = [&](const QString& message, bool show = true) {
        if (error) *error = message;
        if (show) studio_->reportError(tr("Cannot import %1").arg(file), message);
        return false;
    };
    if (net.empty()) return fail(tr("open a network before importing a schedule"));
    // The hash is compared here rather than by the reader, so that a schedule of another
    // network can be offered for applying by layer names; violations still refuse the file
    // with their position.
    ScheduleReadOptions ro;
    ro.check_hash = false;
    auto read = loadScheduleYamlFile(path.toStdString(), net, doc->hardware(), ro);
    if (!read) return fail(qs(read.error()));
    Hardware hw = read->hardware ? *read->hardware : doc->hardware();
    QString hardwareNote;
    if (!read->hardware && !read->hardware_name.empty() && read->hardware_name != hw.name) {
        // The file names another preset: the schedule was made for it.
        if (auto preset = loadBundledHardware(read->hardware_name)) {
            hw = *preset;
            read = loadScheduleYamlFile(path.toStdString(), net, hw, ro);
            if (!read) return fail(qs(read.error()));
        } else {
            hardwareNote = tr("; the file's hardware %1 is unknown, %2 was kept")
                               .arg(qs(read->hardware_name), qs(hw.name));
        }
    }
    const QString openHash = qs(net.canonicalHash());
    if (!read->network_sha256.empty() && qs(read->network_sha256) != openHash) {
        ScheduleMismatch m;
        m.file = QDir::toNativeSeparators(path);
        m.fileNetwork = qs(read->network_name);
        m.fileHash = qs(read->network_sha256);
        m.openNetwork = qs(net.name());
        m.openHash = openHash;
        m.skipped = read->skipped;
        if (!askApplyByNames(m)) {
            say(tr("Import of %1 cancelled: it was made for another network").arg(file), 10000);
            return fail(tr("%1: made for another network (%2)").arg(file, m.fileNetwork), false);
        }
    }
    const auto violations = checkSchedule(net, hw, read->schedule);
    if (!violations.empty())
        return fail(QStringLiteral("%1: %2: %3")
                        .arg(QDir::toNativeSeparators(path), qs(violations.front().where),
                             qs(violations.front().message)));

    // One undo step, also when the file brings its hardware.
    const QString text = tr("Import schedule %1").arg(file);
    const bool newHardware = !(hw == doc->hardware());
    const Document::EditResult r = doc->setHardwareAndSchedule(hw, read->schedule, text);
    if (!r.ok) return fail(r.message);

    QString message = tr("Imported %1: %2 groups").arg(file).arg(read->schedule.groups.size());
    if (newHardware) message += tr(", hardware %1").arg(qs(hw.name));
    if (!read->skipped.empty()) {
        QStringList names;
        for (const std::string& s : read->skipped)
            names << qs(s);
        message +=
            tr("; not in %1, skipped: %2").arg(qs(net.name()), names.join(QStringLiteral(", ")));
    }
    say(message + hardwareNote, 20000);
    emit scheduleApplied(text);
    return true;
}

bool ExchangeController::askApplyByNames(const ScheduleMismatch& m) {
    if (applyByNamesPrompt) return applyByNamesPrompt(m);
    QMessageBox box(QMessageBox::Question, tr("Schedule of Another Network"),
                    tr("“%1” was made for the network %2 (sha256 %3), not for the open %4 "
                       "(sha256 %5).")
                        .arg(QFileInfo(m.file).fileName(),
                             m.fileNetwork.isEmpty() ? tr("(unnamed)") : m.fileNetwork,
                             shortHash(m.fileHash), m.openNetwork, shortHash(m.openHash)),
                    QMessageBox::Cancel, studio_->window());
    box.setInformativeText(
        m.skipped.empty()
            ? tr("Every layer and group it names exists here. Its schedule can be applied by "
                 "layer names.")
            : tr("It can be applied by layer names where they match; %n name(s) of the file are "
                 "not in this network and would be skipped (see details).",
                 nullptr, int(m.skipped.size())));
    if (!m.skipped.empty()) {
        QStringList names;
        for (const std::string& s : m.skipped)
            names << qs(s);
        box.setDetailedText(tr("Skipped:\n%1").arg(names.join(QLatin1Char('\n'))));
    }
    QPushButton* apply = box.addButton(tr("Apply by Layer Names"), QMessageBox::AcceptRole);
    box.setDefaultButton(apply);
    box.exec();
    return box.clickedButton() == apply;
}

void ExchangeController::importScheduleInteractively() {
    const QString path = QFileDialog::getOpenFileName(
        studio_->window(), tr("Import Schedule"), studio_->dialogDirectory(),
        tr("Schedules (*.sched.yaml *.yaml *.yml);;All files (*)"));
    if (!path.isEmpty()) importSchedule(path);
}

// --- hardware import ---------------------------------------------------------------------------

bool ExchangeController::importHardware(const QString& path, QString* error) {
    Document* doc = studio_->document();
    const QString file = QFileInfo(path).fileName();
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        studio_->reportError(tr("Cannot import %1").arg(file), message);
        return false;
    };
    if (doc->network().empty()) return fail(tr("open a network before importing hardware"));
    auto read = importHardwareFile(path.toStdString());
    if (!read) return fail(qs(read.error().toString()));
    const Hardware& hw = read->hw;
    if (const auto problems = validate(hw); !problems.empty())
        return fail(tr("%1: %2").arg(QDir::toNativeSeparators(path), qs(problems.front())));
    QStringList notes;
    for (const std::string& n : read->notes)
        notes << qs(n);
    hardwareFile_ = QDir::toNativeSeparators(path);
    if (hw == doc->hardware()) {
        hardwareNotes_ = notes;
        say(tr("%1 describes the hardware in use: nothing changed").arg(file));
        return true;
    }
    const Schedule schedule = refitPartitions(doc->network(), hw, doc->schedule(), &notes);
    if (const auto v = checkSchedule(doc->network(), hw, schedule); !v.empty())
        return fail(
            tr("%1: the open schedule does not suit this hardware: %2: %3")
                .arg(QDir::toNativeSeparators(path), qs(v.front().where), qs(v.front().message)));

    // One undo step, also when partitions had to be redrawn for the new array.
    const Document::EditResult r =
        doc->setHardwareAndSchedule(hw, schedule, tr("Import hardware %1").arg(file));
    if (!r.ok) return fail(r.message);
    hardwareNotes_ = notes;
    const bool zigzag = read->notes.size() > 0;
    QString message = zigzag
                          ? tr("Imported the ZigZag accelerator %1 from %2").arg(qs(hw.name), file)
                          : tr("Imported the hardware %1 from %2").arg(qs(hw.name), file);
    if (!notes.isEmpty())
        message += tr("; %n note(s) on what was mapped and left out", nullptr, int(notes.size()));
    say(message, 20000);
    return true;
}

QMessageBox* ExchangeController::showHardwareImportNotes() {
    if (hardwareNotes_.isEmpty()) return nullptr;
    auto* box = new QMessageBox(QMessageBox::Information, tr("Hardware Import"),
                                tr("%1 became the hardware (one step: Edit ▸ Undo returns the "
                                   "previous one).")
                                    .arg(hardwareFile_.toHtmlEscaped()),
                                QMessageBox::Ok, studio_->window());
    box->setObjectName(QStringLiteral("hardwareImportNotes"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::RichText);
    QString list = QStringLiteral("<p>%1</p><ul>").arg(tr("What the import assumed or left out:"));
    for (const QString& n : hardwareNotes_)
        list += QStringLiteral("<li>%1</li>").arg(n.toHtmlEscaped());
    box->setInformativeText(list + QStringLiteral("</ul>"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
    return box;
}

void ExchangeController::importHardwareInteractively() {
    const QString path = QFileDialog::getOpenFileName(
        studio_->window(), tr("Import Hardware"), studio_->dialogDirectory(),
        tr("Hardware (*.hw.yaml *.yaml *.yml);;All files (*)"));
    if (!path.isEmpty() && importHardware(path)) showHardwareImportNotes();
}

} // namespace lf
