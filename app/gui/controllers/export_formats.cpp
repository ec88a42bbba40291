#include "controllers/export_formats.h"

#include "examples/bundled.h"
#include "io/exports/stream_export.h"
#include "io/exports/timeloop_export.h"
#include "io/exports/zigzag_export.h"
#include "io/schedule_yaml.h"
#include "metrics/metrics_io.h"
#include "qt_text.h"

#include <QCoreApplication>

namespace lf {

namespace {

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("lf::ExportFormats", text, disambiguation, n);
}

ExportOutput oneFile(const std::string& text, const QString& message) {
    return {{{QString(), QByteArray::fromStdString(text)}}, message, {}};
}

ExportOutput scheduleYaml(const ExportInput& in) {
    ScheduleWriteOptions opt;
    opt.all_layers = true;
    opt.metrics = &in.metrics;
    // A hardware that is not a bundled preset as shipped goes into the file whole.
    const auto preset = loadBundledHardware(in.hardware.name);
    opt.inline_hardware = !preset || !(*preset == in.hardware);
    return oneFile(writeScheduleYaml(in.network, in.hardware, in.schedule, opt),
                   tr("Saved the schedule of %1 to %2").arg(qs(in.network.name()), "%1"));
}

ExportOutput timeloopMappings(const ExportInput& in) {
    const TimeloopExport e = exportTimeloop(in.network, in.hardware, in.schedule);
    ExportOutput out;
    if (e.files.empty()) {
        out.error = tr("%1 has no unfused conv or fc layer to export").arg(qs(in.network.name()));
        if (!e.skipped.empty())
            out.error += QStringLiteral(" (%1)").arg(qs(e.skipped.front().reason));
        return out;
    }
    for (const TimeloopFile& f : e.files)
        out.files.emplace_back(qs(f.file_name), QByteArray::fromStdString(f.text));
    out.message = tr("Wrote %n Timeloop mapping(s) to %1", nullptr, int(e.files.size()));
    if (!e.skipped.empty())
        out.message +=
            tr("; %n layer(s) left out (fused, or not conv / fc)", nullptr, int(e.skipped.size()));
    return out;
}

// " (N notes in the files' headers on what TOOL cannot express)", or nothing.
QString notesSuffix(const std::vector<std::string>& notes, const QString& tool) {
    if (notes.empty()) return {};
    return tr(" (%n note(s) in the files' headers on what %1 cannot express)", nullptr,
              int(notes.size()))
        .arg(tool);
}

ExportOutput zigzagInputs(const ExportInput& in) {
    const ZigZagExport e = exportZigZag(in.network, in.hardware, in.schedule);
    ExportOutput out;
    out.files = {{qs(kZigZagWorkloadFile), QByteArray::fromStdString(e.workload)},
                 {qs(kZigZagAcceleratorFile), QByteArray::fromStdString(e.accelerator)},
                 {qs(kZigZagMappingFile), QByteArray::fromStdString(e.mapping)}};
    out.message = tr("Wrote the ZigZag workload, accelerator and mapping to %1") +
                  notesSuffix(e.notes, QStringLiteral("ZigZag"));
    return out;
}

ExportOutput streamInputs(const ExportInput& in) {
    const auto e = exportStream(in.network, in.hardware, in.schedule);
    ExportOutput out;
    if (!e) {
        out.error = qs(e.error());
        return out;
    }
    out.files = {{qs(kStreamWorkloadFile), QByteArray::fromStdString(e->workload)},
                 {qs(kStreamMappingFile), QByteArray::fromStdString(e->mapping)},
                 {qs(kStreamAcceleratorFile), QByteArray::fromStdString(e->accelerator)}};
    out.message = tr("Wrote the Stream workload, mapping and accelerator to %1") +
                  notesSuffix(e->notes, QStringLiteral("Stream"));
    return out;
}

std::vector<ExportFormat> makeFormats() {
    std::vector<ExportFormat> f;
    f.push_back({QStringLiteral("exportSchedule"), tr("Schedule (YAML)…"),
                 tr("Every group and layer of the schedule with its metrics"),
                 tr("Export Schedule"), QStringLiteral(".sched.yaml"),
                 tr("Schedules (*.sched.yaml *.yaml)"), tr("Cannot export the schedule"), false,
                 false, scheduleYaml});
    f.push_back({QStringLiteral("exportMetricsCsv"), tr("Metrics (CSV)…"),
                 tr("One row per layer and group, and the totals"), tr("Export Metrics"),
                 QStringLiteral(".metrics.csv"), tr("CSV (*.csv)"), tr("Cannot save the metrics"),
                 false, true, [](const ExportInput& in) {
                     return oneFile(metricsToCsv(in.metrics), tr("Saved %1"));
                 }});
    f.push_back({QStringLiteral("exportMetricsJson"), tr("Metrics (JSON)…"),
                 tr("The metrics as `layerfuse-cli evaluate --format json` writes them"),
                 tr("Export Metrics"), QStringLiteral(".metrics.json"), tr("JSON (*.json)"),
                 tr("Cannot save the metrics"), false, true, [](const ExportInput& in) {
                     return oneFile(metricsToJsonText(in.metrics) + "\n", tr("Saved %1"));
                 }});
    f.push_back({QStringLiteral("exportTimeloop"),
                 tr("Timeloop Mappings…"),
                 tr("One Timeloop problem and mapping per unfused conv / fc layer"),
                 tr("Export Timeloop Mappings Into"),
                 {},
                 {},
                 tr("Cannot export Timeloop mappings"),
                 true,
                 false,
                 timeloopMappings});
    f.push_back({QStringLiteral("exportZigZag"),
                 tr("ZigZag Workload, Accelerator and Mapping…"),
                 tr("ZigZag 3.8's three input files: the schedule's mapping of every layer"),
                 tr("Export for ZigZag Into"),
                 {},
                 {},
                 tr("Cannot export for ZigZag"),
                 true,
                 false,
                 zigzagInputs});
    f.push_back({QStringLiteral("exportStream"),
                 tr("Stream Workload and Mapping…"),
                 tr("Stream's ONNX workload, mapping with the fusion groups, and accelerator"),
                 tr("Export for Stream Into"),
                 {},
                 {},
                 tr("Cannot export for Stream"),
                 true,
                 false,
                 streamInputs});
    return f;
}

} // namespace

const std::vector<ExportFormat>& exportFormats() {
    static const std::vector<ExportFormat> formats = makeFormats();
    return formats;
}

const ExportFormat* findExportFormat(const QString& name) {
    for (const ExportFormat& f : exportFormats())
        if (f.name == name) return &f;
    return nullptr;
}

} // namespace lf
