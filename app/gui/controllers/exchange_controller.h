// ExchangeController: what goes in and out of the studio. File ▸ Import Schedule… (the
// network-hash guard, applying a schedule of another network by layer names, one undo step
// also when the file brings its hardware), File ▸ Import Hardware… (LayerFuse hardware YAML
// or a ZigZag accelerator, one undo step, with what the import mapped and left out),
// File ▸ Import ONNX… (OnnxImportFlow) and the exports of File ▸ Export listed in
// export_formats.h.
#pragma once

#include "controllers/export_formats.h"
#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>
#include <QString>
#include <QStringList>

class QMessageBox;

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lf {

class OnnxImportFlow;

// A schedule file written for another network than the open one.
struct ScheduleMismatch {
    QString file;
    QString fileNetwork, fileHash;    // as written in the file
    QString openNetwork, openHash;    // the open network's canonical hash
    std::vector<std::string> skipped; // names in the file that the open network lacks
};

class ExchangeController : public QObject {
    Q_OBJECT
  public:
    explicit ExchangeController(Studio* studio, QObject* parent = nullptr);

    // importSchedule, importHardware, importOnnx, onnxReport and one action per export format.
    const ActionSet& actions() const { return actions_; }
    // The export actions in the order of exportFormats().
    QList<QAction*> exportActions() const;
    OnnxImportFlow* onnxImport() const { return onnx_; }

    // Writes the export `format` (an ExportFormat name) of the open project to `path` (a
    // directory for directory exports); false with `error` set (and shown) on failure.
    bool exportTo(const QString& format, const QString& path, QString* error = nullptr);
    bool exportSchedule(const QString& path, QString* error = nullptr) {
        return exportTo(QStringLiteral("exportSchedule"), path, error);
    }
    bool exportTimeloop(const QString& directory, QString* error = nullptr) {
        return exportTo(QStringLiteral("exportTimeloop"), directory, error);
    }
    bool exportZigZag(const QString& directory, QString* error = nullptr) {
        return exportTo(QStringLiteral("exportZigZag"), directory, error);
    }
    bool exportStream(const QString& directory, QString* error = nullptr) {
        return exportTo(QStringLiteral("exportStream"), directory, error);
    }
    bool importSchedule(const QString& path, QString* error = nullptr);
    // A hardware file of either kind (io/zigzag_hardware_yaml.h importHardwareFile) becomes
    // the document's hardware as one undo step; a bad file is reported as FILE:LINE:COLUMN
    // and changes nothing.
    bool importHardware(const QString& path, QString* error = nullptr);
    // What the last hardware import assumed or left out (a ZigZag accelerator's notes, and
    // the spatial partitions that no longer fitted the array), one sentence each.
    QStringList hardwareImportNotes() const { return hardwareNotes_; }
    // The notes of the last hardware import in a window of their own (nullptr: no notes).
    QMessageBox* showHardwareImportNotes();
    // What the last import or export reported (also shown in the status bar).
    QString lastMessage() const { return lastMessage_; }

    // Answers "apply this schedule of another network by layer names?". Unset: a dialog asks.
    std::function<bool(const ScheduleMismatch& mismatch)> applyByNamesPrompt;

  signals:
    // An imported schedule became the document's schedule.
    void scheduleApplied(const QString& text);

  private:
    void exportInteractively(const ExportFormat& format);
    void importScheduleInteractively();
    void importHardwareInteractively();
    bool askApplyByNames(const ScheduleMismatch& mismatch);
    // The metrics of the open schedule: the shown ones when they are current, else computed.
    std::shared_ptr<const Metrics> currentMetrics() const;
    void say(const QString& message, int ms = 15000);
    void updateActions();

    Studio* studio_;
    ActionSet actions_;
    OnnxImportFlow* onnx_;
    QString lastMessage_;
    QString hardwareFile_; // of the last hardware import
    QStringList hardwareNotes_;
};

} // namespace lf
