#include "studio/studio.h"

#include "qt_text.h"
#include "studio_metatypes.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUndoStack>
#include <QWidget>

#include <algorithm>
#include <set>

namespace lf {

Studio::Studio(QObject* parent)
    : QObject(parent), doc_(new Document(this)), evaluator_(new Evaluator(this)) {
    setObjectName(QStringLiteral("studio"));
    registerStudioMetaTypes();
    connect(doc_, &Document::documentReset, this, &Studio::onDocumentReset);
    connect(doc_, &Document::changed, this, [this] { evaluator_->request(doc_->state()); });
    connect(doc_, &Document::editRefused, this,
            [this](const QString& reason) { showStatus(reason, 12000); });
    connect(evaluator_, &Evaluator::stateReady, this, &Studio::publish);
    connect(evaluator_, &Evaluator::evaluationFailed, this, [this](const QString& message) {
        showStatus(tr("Evaluation failed: %1").arg(message), 15000);
    });
}

Studio::~Studio() = default;

void Studio::onDocumentReset() {
    evaluator_->resetHistory();
    selection_ = {};
    StudioState s = doc_->state();
    // Views show the structure at once; the metrics follow from the evaluator.
    publish(s);
    emit viewStateLoaded(doc_->loadedView());
    applyLoadedSelection(doc_->loadedView());
    evaluator_->request(std::move(s));
}

void Studio::applyLoadedSelection(const ProjectViewState& view) {
    StudioSelection sel;
    for (const std::string& name : view.selected_layers)
        if (const LayerId id = doc_->network().find(name); id != kNoLayer) sel.layers.push_back(id);
    if (!view.selected_group.empty()) {
        const Schedule& s = doc_->schedule();
        for (size_t gi = 0; gi < s.groups.size(); ++gi)
            if (s.groups[gi].name == view.selected_group) {
                sel.group = int(gi);
                if (sel.layers.empty()) sel.layers = s.groups[gi].layers;
            }
    }
    if (!sel.layers.empty()) setSelection(sel);
}

void Studio::publish(const StudioState& state) {
    state_ = state;
    // Keep the selection meaningful for the new schedule.
    StudioSelection sel = selection_;
    std::erase_if(sel.layers, [&](LayerId id) { return id < 0 || id >= state.network.size(); });
    sel.group = -1;
    if (!pendingFocusGroup_.isEmpty()) {
        for (size_t gi = 0; gi < state.schedule.groups.size(); ++gi)
            if (qs(state.schedule.groups[gi].name) == pendingFocusGroup_) {
                sel.layers = state.schedule.groups[gi].layers;
                sel.group = int(gi);
            }
        pendingFocusGroup_.clear();
    } else if (selection_.group >= 0) {
        for (size_t gi = 0; gi < state.schedule.groups.size(); ++gi)
            if (state.schedule.groups[gi].layers == sel.layers) sel.group = int(gi);
    }
    selection_ = sel;
    for (const ViewHooks& v : views_)
        v.setState(state);
    broadcastSelection();
    emit stateShown(state);
    if (state.metrics) emit statePublished(state);
}

void Studio::setSelection(const StudioSelection& requested) {
    if (broadcastingSelection_) return;
    StudioSelection sel = requested;
    std::sort(sel.layers.begin(), sel.layers.end());
    sel.layers.erase(std::unique(sel.layers.begin(), sel.layers.end()), sel.layers.end());
    const Schedule& s = doc_->schedule();
    if (sel.group >= 0 && size_t(sel.group) >= s.groups.size()) sel.group = -1;
    if (sel.group >= 0 && sel.layers.empty()) sel.layers = s.groups[size_t(sel.group)].layers;
    selection_ = sel;
    broadcastSelection();
}

void Studio::broadcastSelection() {
    broadcastingSelection_ = true;
    for (const ViewHooks& v : views_)
        v.setSelection(selection_);
    broadcastingSelection_ = false;
    emit selectionChanged(selection_);
}

std::vector<int> Studio::selectedGroups() const {
    std::set<int> groups;
    const Schedule& s = doc_->schedule();
    if (selection_.group >= 0 && size_t(selection_.group) < s.groups.size())
        groups.insert(selection_.group);
    for (LayerId id : selection_.layers)
        if (const int gi = s.groupOf(id); gi >= 0) groups.insert(gi);
    return {groups.begin(), groups.end()};
}

void Studio::afterEdit(const Document::EditResult& r) {
    if (!r.ok) return; // the reason is already in the status bar (editRefused)
    if (!r.focusGroup.isEmpty()) pendingFocusGroup_ = r.focusGroup;
    showStatus(doc_->undoStack()->undoText(), 4000);
}

void Studio::addViewStateWriter(std::function<void(ProjectViewState&)> writer) {
    viewStateWriters_.push_back(std::move(writer));
}

ProjectViewState Studio::viewState() const {
    ProjectViewState v;
    for (const auto& write : viewStateWriters_)
        write(v);
    if (selection_.group >= 0 && size_t(selection_.group) < doc_->schedule().groups.size())
        v.selected_group = doc_->schedule().groups[size_t(selection_.group)].name;
    for (LayerId id : selection_.layers)
        if (id >= 0 && id < doc_->network().size())
            v.selected_layers.push_back(doc_->network().layer(id).name);
    return v;
}

QString Studio::dialogDirectory() const {
    if (!doc_->filePath().isEmpty()) return QFileInfo(doc_->filePath()).absolutePath();
    if (!recentDirectory_.isEmpty()) return recentDirectory_;
    return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

QString Studio::suggestedPath(const QString& suffix) const {
    QString stem = qs(doc_->network().name());
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    if (stem.isEmpty()) stem = QStringLiteral("network");
    return QDir(dialogDirectory()).filePath(stem + suffix);
}

void Studio::showStatus(const QString& message, int ms) {
    emit statusMessage(message, ms);
}

void Studio::reportError(const QString& title, const QString& message) {
    showStatus(message, 15000);
    if (errorSink) {
        errorSink(title, message);
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, window_);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

bool Studio::confirmReplace(const QString& question) {
    if (!doc_->isModified()) return true;
    QMessageBox::StandardButton answer;
    if (savePrompt) {
        answer = savePrompt(question);
    } else {
        QMessageBox box(QMessageBox::Warning, tr("Unsaved Changes"),
                        tr("“%1” has unsaved changes.").arg(doc_->displayName()),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
        box.setInformativeText(question);
        box.setDefaultButton(QMessageBox::Save);
        answer = QMessageBox::StandardButton(box.exec());
    }
    if (answer == QMessageBox::Save) return saveDocument && saveDocument();
    return answer == QMessageBox::Discard;
}

} // namespace lf
