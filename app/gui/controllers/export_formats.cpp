#include "controllers/export_formats.h"

#include "examples/bundled.h"
#include "io/exports/stream_export.h"
#include "io/exports/timeloop_export.h"
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

ExportOutput streamMapping(const ExportInput& in) {
    const StreamExport e = exportStream(in.network, in.hardware, in.schedule);
    QString message = tr("Saved the Stream mapping to %1");
    if (!e.notes.empty())
        message +=
            tr(" (%n note(s) on layers Stream has no operator for)", nullptr, int(e.notes.size()));
    return oneFile(e.text, message);
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
    f.push_back({QStringLiteral("exportStream"), tr("Stream Mapping…"),
                 tr("The network as a Stream workload with the fusion groups as layer stacks"),
                 tr("Export Stream Mapping"), QStringLiteral(".stream.yaml"),
                 tr("YAML (*.yaml *.yml)"), tr("Cannot export the Stream mapping"), false, false,
                 streamMapping});
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
