// OnnxImportFlow (File ▸ Import ONNX…, owned by the ExchangeController): inspect the model,
// ask for the input shape (C, H, W pre-filled from the model; needed when it leaves a
// dimension dynamic), import on a worker thread, offer to load unsupported operators as
// opaque pass-through layers, and open the network as a new document with the hardware the
// user works with; the import report (what became of every node) stays readable afterwards.
// An error (FILE:LINE:COLUMN: message) is shown and the open document stays as it was.
#pragma once

#include "io/onnx_import.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace lf {

class SearchTask;
class Studio;

class OnnxImportFlow : public QObject {
    Q_OBJECT
  public:
    explicit OnnxImportFlow(Studio* studio, QObject* parent = nullptr);

    // Asks for a file (after offering to save changes), then start().
    void chooseAndImport();
    // Imports `path` (asks to save unsaved changes first); finished() tells the outcome.
    bool start(const QString& path);
    bool isRunning() const;
    SearchTask* task() const { return task_; }

    // The input shape {C, H, W} to import with, from the model's inputs and the suggested
    // shape; nullopt when the user cancels. Unset: a dialog asks.
    std::function<std::optional<std::vector<int64_t>>(
        const OnnxModelInfo& info, const std::vector<int64_t>& suggested, const QString& problem)>
        inputShapePrompt;
    // Whether to load the listed operators as opaque layers. Unset: a dialog asks.
    std::function<bool(const QString& file, const std::vector<OnnxUnsupportedNode>& nodes)>
        loadOpaquePrompt;
    // Ask for the input shape only when the model leaves a dimension dynamic (default: ask
    // every time, pre-filled, so that a fixed-size model can be imported at another size).
    bool askShapeOnlyWhenDynamic = false;

    // The C, H, W the dialog proposes: the model's first input, dynamic dims replaced by
    // 3 channels or 224 pixels.
    static std::vector<int64_t> suggestedShape(const OnnxModelInfo& info);

    // The report of the last successful import (core/io/onnx_report.h); empty before one.
    QString reportText() const { return report_; }
    // Shows it in a window of its own (not modal: it can stay open beside the graph).
    void showReport();

  signals:
    // ok: a new document holds the network; else `message` says why (empty: cancelled).
    void finished(bool ok, const QString& message);
    // The model at `path` became the open network (before finished()).
    void imported(const QString& path);
    // reportText() changed.
    void reportChanged();

  private:
    void begin(const QString& path);
    void onInspected(const Result<OnnxModelInfo>& info);
    void startImport(OnnxImportOptions options);
    void onImported(const Result<Network>& net, const OnnxImportReport& report,
                    const OnnxImportOptions& options);
    std::optional<std::vector<int64_t>> askShape(const std::vector<int64_t>& suggested,
                                                 const QString& problem);
    bool askOpaque(const std::vector<OnnxUnsupportedNode>& nodes);
    void fail(const QString& message);
    void end(bool ok, const QString& message);

    Studio* studio_;
    SearchTask* task_;
    QString path_;
    OnnxModelInfo info_;
    QString report_;
    bool busy_ = false;
};

} // namespace lf
