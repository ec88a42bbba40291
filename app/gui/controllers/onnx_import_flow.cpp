#include "controllers/onnx_import_flow.h"

#include "examples/bundled.h"
#include "io/onnx_report.h"
#include "models/evaluate.h"
#include "qt_text.h"
#include "search/search_task.h"
#include "studio/studio.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <utility>

namespace lf {

namespace {

// "N × 3 × H × W" with the symbolic names of dynamic dims.
QString describeDims(const OnnxInputInfo& in) {
    QStringList parts;
    for (size_t k = 0; k < in.dims.size(); ++k) {
        if (in.dims[k] >= 0) {
            parts << QString::number(in.dims[k]);
        } else {
            const std::string name = k < in.dim_names.size() ? in.dim_names[k] : std::string();
            parts << (name.empty() ? QStringLiteral("?") : qs(name));
        }
    }
    return parts.join(QStringLiteral(" × "));
}

} // namespace

OnnxImportFlow::OnnxImportFlow(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), task_(new SearchTask(this)) {
    setObjectName(QStringLiteral("onnxImportFlow"));
    // A cancelled step ends the flow; the document was not touched.
    connect(task_, &SearchTask::finished, this, [this](bool cancelled) {
        if (cancelled && busy_) end(false, {});
    });
    connect(task_, &SearchTask::failed, this, [this](const QString& message) { fail(message); });
}

bool OnnxImportFlow::isRunning() const {
    return busy_;
}

std::vector<int64_t> OnnxImportFlow::suggestedShape(const OnnxModelInfo& info) {
    std::vector<int64_t> shape{3, 224, 224};
    if (info.inputs.empty() || info.inputs.front().dims.size() < 3) return shape;
    const std::vector<int64_t>& d = info.inputs.front().dims;
    for (size_t k = 0; k < 3; ++k) {
        const int64_t v = d[d.size() - 3 + k];
        if (v > 0) shape[k] = v;
    }
    return shape;
}

void OnnxImportFlow::chooseAndImport() {
    if (busy_) return;
    if (!studio_->confirmReplace(tr("Save the changes before importing another network?"))) return;
    const QString path =
        QFileDialog::getOpenFileName(studio_->window(), tr("Import ONNX Model"), QString(),
                                     tr("ONNX models (*.onnx);;All files (*)"));
    if (!path.isEmpty()) begin(path);
}

bool OnnxImportFlow::start(const QString& path) {
    if (busy_) return false;
    if (!studio_->confirmReplace(tr("Save the changes before importing another network?"))) {
        emit finished(false, {});
        return false;
    }
    begin(path);
    return true;
}

void OnnxImportFlow::begin(const QString& path) {
    busy_ = true;
    path_ = QFileInfo(path).absoluteFilePath();
    // Every step hands its result back through a queued call, so that the step's progress
    // dialog has closed before the next question is asked.
    task_->start(tr("Reading %1").arg(QFileInfo(path).fileName()),
                 [this, p = path_.toStdString()](const SearchControl& c) -> std::function<void()> {
                     Result<OnnxModelInfo> info = inspectOnnx(p);
                     if (c.cancelled()) return {};
                     return [this, info] {
                         QTimer::singleShot(0, this, [this, info] { onInspected(info); });
                     };
                 });
    attachProgressDialog(task_, studio_->window());
}

void OnnxImportFlow::onInspected(const Result<OnnxModelInfo>& info) {
    if (!busy_) return;
    if (!info) return fail(qs(info.error()));
    info_ = *info;
    OnnxImportOptions options;
    if (info_.has_dynamic_input || !askShapeOnlyWhenDynamic) {
        const std::vector<int64_t> suggested = suggestedShape(info_);
        const auto shape = askShape(
            suggested, info_.has_dynamic_input
                           ? tr("The model leaves its input size open: choose the size to import.")
                           : QString());
        if (!shape) return end(false, {});
        // A fixed-size model keeps its own declaration unless another size was asked for.
        if (info_.has_dynamic_input || *shape != suggested) options.input_shape = *shape;
    }
    startImport(std::move(options));
}

void OnnxImportFlow::startImport(OnnxImportOptions options) {
    task_->start(
        tr("Importing %1").arg(QFileInfo(path_).fileName()),
        [this, p = path_.toStdString(), options](const SearchControl& c) -> std::function<void()> {
            OnnxImportReport report;
            Result<Network> net = importOnnx(p, options, &report);
            if (c.cancelled()) return {};
            return [this, net, report, options] {
                QTimer::singleShot(
                    0, this, [this, net, report, options] { onImported(net, report, options); });
            };
        });
    attachProgressDialog(task_, studio_->window());
}

void OnnxImportFlow::onImported(const Result<Network>& net, const OnnxImportReport& report,
                                const OnnxImportOptions& options) {
    if (!busy_) return;
    if (!net) {
        if (!report.unsupported.empty() && !options.allow_opaque) {
            if (!askOpaque(report.unsupported)) return end(false, {});
            OnnxImportOptions again = options;
            again.allow_opaque = true;
            return startImport(std::move(again));
        }
        if (report.needs_input_shape && options.input_shape.empty()) {
            const auto shape = askShape(suggestedShape(info_), qs(net.error()));
            if (!shape) return end(false, {});
            OnnxImportOptions again = options;
            again.input_shape = *shape;
            return startImport(std::move(again));
        }
        return fail(qs(net.error()));
    }
    // A new document; the hardware the user works with stays.
    Document* doc = studio_->document();
    Hardware hw = doc->hardware();
    if (doc->network().empty())
        if (auto preset = loadBundledHardware(kDefaultHardware)) hw = *preset;
    Network network = *net;
    Schedule schedule = defaultSchedule(network, hw);
    const int layers = network.size();
    int opaque = 0;
    for (const Layer& l : network.layers())
        opaque += l.type == LayerType::opaque;
    const QString name = qs(network.name());
    report_ = qs(onnxReportText(report, path_.toStdString(), &network));
    emit reportChanged();
    doc->reset(std::move(network), std::move(hw), std::move(schedule));
    emit imported(path_);
    QString message = tr("Imported %1: %n layer(s)", nullptr, layers).arg(name);
    if (opaque > 0) message += tr(", %n opaque", nullptr, opaque);
    if (!report.warnings.empty())
        message += tr("; %n warning(s): %1", nullptr, int(report.warnings.size()))
                       .arg(qs(report.warnings.front()));
    studio_->showStatus(message + tr(" (File ▸ ONNX Import Report)"), 12000);
    end(true, message);
}

void OnnxImportFlow::showReport() {
    if (report_.isEmpty()) return;
    // One report window, brought forward again and refreshed by the next import.
    auto* dialog = studio_->window()->findChild<QDialog*>(QStringLiteral("onnxReportDialog"));
    QPlainTextEdit* text = nullptr;
    if (!dialog) {
        dialog = new QDialog(studio_->window());
        dialog->setObjectName(QStringLiteral("onnxReportDialog"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        text = new QPlainTextEdit(dialog);
        text->setObjectName(QStringLiteral("onnxReportText"));
        text->setReadOnly(true);
        text->setLineWrapMode(QPlainTextEdit::NoWrap);
        text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        auto* v = new QVBoxLayout(dialog);
        v->addWidget(text, 1);
        v->addWidget(buttons);
        dialog->resize(720, 520);
    } else {
        text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("onnxReportText"));
    }
    dialog->setWindowTitle(tr("ONNX Import Report — %1").arg(QFileInfo(path_).fileName()));
    text->setPlainText(report_);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

std::optional<std::vector<int64_t>> OnnxImportFlow::askShape(const std::vector<int64_t>& suggested,
                                                             const QString& problem) {
    if (inputShapePrompt) return inputShapePrompt(info_, suggested, problem);
    QDialog dialog(studio_->window());
    dialog.setObjectName(QStringLiteral("onnxInputShapeDialog"));
    dialog.setWindowTitle(tr("Input Shape"));
    dialog.setMinimumWidth(460);
    QString text = tr("<b>%1</b>").arg(QFileInfo(path_).fileName().toHtmlEscaped());
    if (!info_.producer.empty() || info_.opset > 0)
        text +=
            tr(" (opset %1%2)")
                .arg(info_.opset)
                .arg(info_.producer.empty() ? QString() : tr(", from %1").arg(qs(info_.producer)));
    for (const OnnxInputInfo& in : info_.inputs)
        text += tr("<br>input <i>%1</i>: %2").arg(qs(in.name).toHtmlEscaped(), describeDims(in));
    if (!problem.isEmpty()) text += QStringLiteral("<p>%1</p>").arg(problem.toHtmlEscaped());
    auto* label = new QLabel(text, &dialog);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    std::array<QSpinBox*, 3> spins{};
    auto* form = new QFormLayout;
    const std::array<QString, 3> names{tr("Channels (C)"), tr("Height (H)"), tr("Width (W)")};
    for (size_t k = 0; k < 3; ++k) {
        spins[k] = new QSpinBox(&dialog);
        spins[k]->setRange(1, 65536);
        spins[k]->setValue(int(std::clamp<int64_t>(suggested[k], 1, 65536)));
        form->addRow(names[k], spins[k]);
    }
    spins[0]->setObjectName(QStringLiteral("channels"));
    spins[1]->setObjectName(QStringLiteral("height"));
    spins[2]->setObjectName(QStringLiteral("width"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* v = new QVBoxLayout(&dialog);
    v->addWidget(label);
    v->addLayout(form);
    v->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;
    return std::vector<int64_t>{spins[0]->value(), spins[1]->value(), spins[2]->value()};
}

bool OnnxImportFlow::askOpaque(const std::vector<OnnxUnsupportedNode>& nodes) {
    const QString file = QFileInfo(path_).fileName();
    if (loadOpaquePrompt) return loadOpaquePrompt(file, nodes);
    QDialog dialog(studio_->window());
    dialog.setObjectName(QStringLiteral("onnxUnsupportedDialog"));
    dialog.setWindowTitle(tr("Unsupported Operators"));
    QStringList types;
    for (const OnnxUnsupportedNode& n : nodes)
        if (!types.contains(qs(n.op_type))) types << qs(n.op_type);
    auto* label = new QLabel(
        tr("%1 uses %n operator(s) that LayerFuse cannot cost (%2). They can be loaded as "
           "opaque pass-through layers: kept in the graph, never fused, costing nothing.",
           nullptr, int(nodes.size()))
            .arg(file, types.join(QStringLiteral(", "))),
        &dialog);
    label->setWordWrap(true);
    auto* tree = new QTreeWidget(&dialog);
    tree->setObjectName(QStringLiteral("unsupportedNodes"));
    tree->setRootIsDecorated(false);
    tree->setHeaderLabels({tr("Operator"), tr("Node"), tr("Reason")});
    for (const OnnxUnsupportedNode& n : nodes)
        tree->addTopLevelItem(new QTreeWidgetItem({qs(n.op_type), qs(n.node), qs(n.reason)}));
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, &dialog);
    QPushButton* load = buttons->addButton(tr("Load Anyway (as Opaque Pass-through Layers)"),
                                           QDialogButtonBox::AcceptRole);
    load->setObjectName(QStringLiteral("loadAnyway"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* v = new QVBoxLayout(&dialog);
    v->addWidget(label);
    v->addWidget(tree, 1);
    v->addWidget(buttons);
    dialog.resize(640, 360);
    return dialog.exec() == QDialog::Accepted;
}

void OnnxImportFlow::fail(const QString& message) {
    if (!busy_) return;
    studio_->reportError(tr("Cannot import %1").arg(QFileInfo(path_).fileName()), message);
    end(false, message);
}

void OnnxImportFlow::end(bool ok, const QString& message) {
    if (!busy_) return;
    busy_ = false;
    emit finished(ok, message);
}

} // namespace lf
