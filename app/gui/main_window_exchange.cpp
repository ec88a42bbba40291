// StudioAutomation: schedules in and out of the studio, and the exports for other tools
// (docs/INTERFACES.md; core/io/exports).
#include "main_window_automation.h"

#include "examples/bundled.h"
#include "io/exports/stream_export.h"
#include "io/exports/timeloop_export.h"
#include "io/schedule_yaml.h"
#include "main_window.h"
#include "models/evaluate.h"
#include "window_prompts.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
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

bool writeBytes(const QString& path, const QByteArray& data, QString* error) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    return true;
}

QString shortHash(const QString& h) {
    return h.isEmpty() ? QObject::tr("none") : h.left(12) + QStringLiteral("…");
}

} // namespace

QString StudioAutomation::suggestedPath(const QString& suffix) const {
    const Document* doc = window_->document();
    QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!doc->filePath().isEmpty()) dir = QFileInfo(doc->filePath()).absolutePath();
    QString stem = q(doc->network().name());
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    if (stem.isEmpty()) stem = QStringLiteral("network");
    return QDir(dir).filePath(stem + suffix);
}

// --- schedule YAML ----------------------------------------------------------------------------

bool StudioAutomation::exportSchedule(const QString& path, QString* error) {
    const Document* doc = window_->document();
    const Network& net = doc->network();
    const Hardware& hw = doc->hardware();
    const Schedule& sched = doc->schedule();
    // The metrics the studio shows when they are those of this schedule, else computed now.
    window_->evaluator()->waitForIdle();
    const StudioState& shown = window_->state();
    Metrics computed;
    const Metrics* metrics = shown.metrics.get();
    if (!metrics || !(shown.schedule == sched) || !(shown.hardware == hw) ||
        !(shown.network == net)) {
        computed = evaluate(net, hw, sched);
        metrics = &computed;
    }
    ScheduleWriteOptions opt;
    opt.all_layers = true;
    opt.metrics = metrics;
    // A hardware that is not a bundled preset as shipped goes into the file whole.
    const auto preset = loadBundledHardware(hw.name);
    opt.inline_hardware = !preset || !(*preset == hw);
    const QByteArray text = QByteArray::fromStdString(writeScheduleYaml(net, hw, sched, opt));
    QString why;
    if (!writeBytes(path, text, &why)) {
        if (error) *error = why;
        reportError(window_, tr("Cannot export the schedule"), why);
        return false;
    }
    say(tr("Saved the schedule of %1 to %2").arg(q(net.name()), QDir::toNativeSeparators(path)));
    return true;
}

bool StudioAutomation::importSchedule(const QString& path, QString* error) {
    Document* doc = window_->document();
    const Network& net = doc->network();
    const QString file = QFileInfo(path).fileName();
    auto fail = [&](const QString& message, bool show = true) {
        if (error) *error = message;
        if (show) reportError(window_, tr("Cannot import %1").arg(file), message);
        return false;
    };
    if (net.empty()) return fail(tr("open a network before importing a schedule"));
    // The hash is compared here rather than by the reader, so that a schedule of another
    // network can be offered for applying by layer names; violations still refuse the file
    // with their position.
    ScheduleReadOptions ro;
    ro.check_hash = false;
    auto read = loadScheduleYamlFile(path.toStdString(), net, doc->hardware(), ro);
    if (!read) return fail(q(read.error()));
    Hardware hw = read->hardware ? *read->hardware : doc->hardware();
    QString hardwareNote;
    if (!read->hardware && !read->hardware_name.empty() && read->hardware_name != hw.name) {
        // The file names another preset: the schedule was made for it.
        if (auto preset = loadBundledHardware(read->hardware_name)) {
            hw = *preset;
            read = loadScheduleYamlFile(path.toStdString(), net, hw, ro);
            if (!read) return fail(q(read.error()));
        } else {
            hardwareNote = tr("; the file's hardware %1 is unknown, %2 was kept")
                               .arg(q(read->hardware_name), q(hw.name));
        }
    }
    const QString openHash = q(net.canonicalHash());
    if (!read->network_sha256.empty() && q(read->network_sha256) != openHash) {
        ScheduleMismatch m;
        m.file = QDir::toNativeSeparators(path);
        m.fileNetwork = q(read->network_name);
        m.fileHash = q(read->network_sha256);
        m.openNetwork = q(net.name());
        m.openHash = openHash;
        m.skipped = read->skipped;
        if (!askApplyByNames(m)) {
            say(tr("Import of %1 cancelled: it was made for another network").arg(file));
            return fail(tr("%1: made for another network (%2)").arg(file, m.fileNetwork), false);
        }
    }
    const auto violations = checkSchedule(net, hw, read->schedule);
    if (!violations.empty())
        return fail(QStringLiteral("%1: %2: %3")
                        .arg(QDir::toNativeSeparators(path), q(violations.front().where),
                             q(violations.front().message)));

    // One undo step, also when the file brings its hardware.
    const QString text = tr("Import schedule %1").arg(file);
    const bool newHardware = !(hw == doc->hardware());
    QUndoStack* undo = doc->undoStack();
    if (newHardware) {
        undo->beginMacro(text);
        doc->setHardware(hw, tr("Hardware from %1").arg(file), 0);
    }
    const Document::EditResult r = doc->setSchedule(read->schedule, text);
    if (newHardware) undo->endMacro();
    if (!r.ok) return fail(r.message);

    QString message = tr("Imported %1: %2 groups").arg(file).arg(read->schedule.groups.size());
    if (newHardware) message += tr(", hardware %1").arg(q(hw.name));
    if (!read->skipped.empty()) {
        QStringList names;
        for (const std::string& s : read->skipped)
            names << q(s);
        message +=
            tr("; not in %1, skipped: %2").arg(q(net.name()), names.join(QStringLiteral(", ")));
    }
    say(message + hardwareNote, 20000);
    emit scheduleApplied(text);
    return true;
}

bool StudioAutomation::askApplyByNames(const ScheduleMismatch& m) {
    if (applyByNamesPrompt) return applyByNamesPrompt(m);
    QMessageBox box(QMessageBox::Question, tr("Schedule of Another Network"),
                    tr("“%1” was made for the network %2 (sha256 %3), not for the open %4 "
                       "(sha256 %5).")
                        .arg(QFileInfo(m.file).fileName(),
                             m.fileNetwork.isEmpty() ? tr("(unnamed)") : m.fileNetwork,
                             shortHash(m.fileHash), m.openNetwork, shortHash(m.openHash)),
                    QMessageBox::Cancel, window_);
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
            names << q(s);
        box.setDetailedText(tr("Skipped:\n%1").arg(names.join(QLatin1Char('\n'))));
    }
    QPushButton* apply = box.addButton(tr("Apply by Layer Names"), QMessageBox::AcceptRole);
    box.setDefaultButton(apply);
    box.exec();
    return box.clickedButton() == apply;
}

void StudioAutomation::exportScheduleInteractively() {
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export Schedule"),
                                                      suggestedPath(QStringLiteral(".sched.yaml")),
                                                      tr("Schedules (*.sched.yaml *.yaml)"));
    if (!path.isEmpty()) exportSchedule(path);
}

void StudioAutomation::importScheduleInteractively() {
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Import Schedule"), QFileInfo(suggestedPath({})).absolutePath(),
        tr("Schedules (*.sched.yaml *.yaml *.yml);;All files (*)"));
    if (!path.isEmpty()) importSchedule(path);
}

// --- exports for other tools ------------------------------------------------------------------

bool StudioAutomation::exportTimeloop(const QString& directory, QString* error) {
    const Document* doc = window_->document();
    const TimeloopExport e = lf::exportTimeloop(doc->network(), doc->hardware(), doc->schedule());
    auto fail = [&](const QString& message) {
        if (error) *error = message;
        reportError(window_, tr("Cannot export Timeloop mappings"), message);
        return false;
    };
    if (e.files.empty()) {
        QString why =
            tr("%1 has no unfused conv or fc layer to export").arg(q(doc->network().name()));
        if (!e.skipped.empty()) why += QStringLiteral(" (%1)").arg(q(e.skipped.front().reason));
        return fail(why);
    }
    QDir dir(directory);
    if (!dir.mkpath(QStringLiteral(".")))
        return fail(tr("%1: cannot create the directory").arg(QDir::toNativeSeparators(directory)));
    for (const TimeloopFile& f : e.files) {
        QString why;
        if (!writeBytes(dir.filePath(q(f.file_name)), QByteArray::fromStdString(f.text), &why))
            return fail(why);
    }
    QString message = tr("Wrote %n Timeloop mapping(s) to %1", nullptr, int(e.files.size()))
                          .arg(QDir::toNativeSeparators(dir.absolutePath()));
    if (!e.skipped.empty())
        message +=
            tr("; %n layer(s) left out (fused, or not conv / fc)", nullptr, int(e.skipped.size()));
    say(message, 15000);
    return true;
}

bool StudioAutomation::exportStream(const QString& directory, QString* error) {
    const Document* doc = window_->document();
    const auto written = writeStreamExport(directory.toStdString(), doc->network(), doc->hardware(),
                                           doc->schedule());
    if (!written) {
        const QString why = q(written.error());
        if (error) *error = why;
        reportError(window_, tr("Cannot export for Stream"), why);
        return false;
    }
    QString message = tr("Wrote the Stream workload, mapping and accelerator to %1")
                          .arg(QDir::toNativeSeparators(directory));
    if (!written->notes.empty())
        message += tr(" (%n note(s) in the files' headers on what Stream cannot express)", nullptr,
                      int(written->notes.size()));
    say(message, 15000);
    return true;
}

void StudioAutomation::exportTimeloopInteractively() {
    const QString dir = QFileDialog::getExistingDirectory(
        window_, tr("Export Timeloop Mappings Into"), QFileInfo(suggestedPath({})).absolutePath());
    if (!dir.isEmpty()) exportTimeloop(dir);
}

void StudioAutomation::exportStreamInteractively() {
    const QString dir = QFileDialog::getExistingDirectory(
        window_, tr("Export for Stream Into"), QFileInfo(suggestedPath({})).absolutePath());
    if (!dir.isEmpty()) exportStream(dir);
}

} // namespace lf
