// The exports of File ▸ Export that write what core makes of the open project (schedule
// YAML, metrics, the inputs of Timeloop, ZigZag and Stream). Each format is one entry of
// exportFormats(): its action, its file dialog and a function from the project to the bytes it
// writes; the ExchangeController makes the action, asks for the place and writes the files. A new
// format is one more entry (and its core writer).
#pragma once

#include "hardware/hardware.h"
#include "metrics/metrics.h"
#include "network/network.h"
#include "schedule/schedule.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

namespace lf {

// The open project as an export sees it; `metrics` are those of this schedule.
struct ExportInput {
    const Network& network;
    const Hardware& hardware;
    const Schedule& schedule;
    const Metrics& metrics;
};

struct ExportOutput {
    // What to write: one file for a file export (written to the chosen path; its name here
    // is unused), several named files for a directory export.
    std::vector<std::pair<QString, QByteArray>> files;
    QString message; // for the status bar, %1 = the file or directory written
    QString error;   // when nothing can be exported, why
};

struct ExportFormat {
    QString name;              // the action's object name, e.g. "exportStream"
    QString menuText;          // "Stream Mapping…"
    QString statusTip;         // what the export holds
    QString dialogTitle;       // "Export Stream Mapping"
    QString suffix;            // suggested file suffix, e.g. ".stream.yaml"
    QString filter;            // file dialog filter; empty for a directory export
    QString errorTitle;        // "Cannot export the Stream mapping"
    bool directory = false;    // writes several files into a directory
    bool needsMetrics = false; // enabled once the metrics are shown (the metrics exports)
    std::function<ExportOutput(const ExportInput&)> write;
};

// In the order of the Export menu.
const std::vector<ExportFormat>& exportFormats();
const ExportFormat* findExportFormat(const QString& name);

} // namespace lf
