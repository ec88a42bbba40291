#include "studio/document.h"

#include "edits/schedule_edits.h"
#include "qt_text.h"
#include "studio/document_command.h"

#include <QFileInfo>
#include <QSignalBlocker>
#include <QUndoStack>

#include <algorithm>

namespace lf {

Document::Document(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
    undo_->setUndoLimit(1000);
    connect(undo_, &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (!forcedModified_) emit modifiedChanged(!clean);
    });
}

Document::~Document() = default;

void Document::reset(Network network, Hardware hardware, Schedule schedule, const QString& filePath,
                     const ProjectViewState& view) {
    const bool wasModified = isModified();
    lesson_.reset();
    undo_->clear();
    network_ = std::move(network);
    hardware_ = std::move(hardware);
    normalize(schedule, network_);
    schedule_ = std::move(schedule);
    loadedView_ = view;
    forcedModified_ = false;
    undo_->setClean();
    if (filePath_ != filePath) {
        filePath_ = filePath;
        emit filePathChanged(filePath_);
    }
    emit documentReset();
    if (wasModified) emit modifiedChanged(false);
}

void Document::restore(Network network, const EditHistory& history, const QString& filePath,
                       const ProjectViewState& view) {
    const QString oldPath = filePath_;
    {
        // One documentReset when everything is in place, not one signal per replayed edit.
        const QSignalBlocker quiet(this);
        reset(std::move(network), history.base_hardware, history.base_schedule, filePath, view);
        for (const EditStep& step : history.steps) {
            auto* cmd = new DocumentCommand(this, qs(step.text), 0);
            if (step.hardware) cmd->setHardware(hardware_, *step.hardware);
            if (step.schedule) cmd->setSchedule(schedule_, *step.schedule);
            undo_->push(cmd);
        }
        if (history.clean >= 0) {
            undo_->setIndex(history.clean);
            undo_->setClean();
        } else {
            undo_->resetClean();
        }
        undo_->setIndex(history.index);
    }
    if (filePath_ != oldPath) emit filePathChanged(filePath_);
    emit documentReset();
    emit modifiedChanged(isModified());
}

EditHistory Document::history() const {
    EditHistory h;
    const int count = undo_->count();
    std::shared_ptr<const Hardware> baseHw;
    std::shared_ptr<const Schedule> baseSchedule;
    for (int k = 0; k < count; ++k) {
        const auto* cmd = static_cast<const DocumentCommand*>(undo_->command(k));
        if (!baseHw) baseHw = cmd->hardwareBefore();
        if (!baseSchedule) baseSchedule = cmd->scheduleBefore();
        h.steps.push_back({cmd->text().toStdString(), cmd->hardwareAfter(), cmd->scheduleAfter()});
    }
    // A value no edit changed is the same at the base as now.
    h.base_hardware = baseHw ? *baseHw : hardware_;
    h.base_schedule = baseSchedule ? *baseSchedule : schedule_;
    h.index = undo_->index();
    h.clean = undo_->cleanIndex();
    return h;
}

StudioState Document::state() const {
    StudioState s;
    s.network = network_;
    s.hardware = hardware_;
    s.schedule = schedule_;
    return s;
}

Project Document::project(const ProjectViewState& view) const {
    Project p;
    p.network = network_;
    p.hardware = hardware_;
    p.schedule = schedule_;
    p.view = view;
    return p;
}

QString Document::displayName() const {
    if (!filePath_.isEmpty()) return QFileInfo(filePath_).fileName();
    return network_.empty() ? tr("Untitled") : qs(network_.name());
}

bool Document::isModified() const {
    return forcedModified_ || !undo_->isClean();
}

void Document::markSaved(const QString& path) {
    const bool was = isModified();
    forcedModified_ = false;
    undo_->setClean();
    if (path != filePath_) {
        filePath_ = path;
        emit filePathChanged(filePath_);
    }
    if (was) emit modifiedChanged(false);
}

void Document::markModified() {
    if (isModified()) return;
    forcedModified_ = true;
    emit modifiedChanged(true);
}

void Document::applyValues(const Hardware* hardware, const Schedule* schedule) {
    if (hardware) hardware_ = *hardware;
    if (schedule) schedule_ = *schedule;
    emit changed();
}

Document::EditResult Document::refuse(const QString& reason) {
    EditResult r;
    r.message = reason;
    emit editRefused(reason);
    return r;
}

Document::EditResult Document::pushSchedule(Schedule after, const QString& text, int mergeId,
                                            const QString& focus) {
    auto* cmd = new DocumentCommand(this, text, mergeId);
    cmd->setSchedule(schedule_, std::move(after));
    undo_->push(cmd);
    EditResult r;
    r.ok = true;
    r.focusGroup = focus;
    return r;
}

Document::EditResult Document::fuse(std::vector<LayerId> layers) {
    ScheduleEdit e = fuseLayers(network_, hardware_, schedule_, std::move(layers));
    if (!e.ok) return refuse(tr("Cannot fuse: %1").arg(qs(e.reason)));
    int count = 0;
    for (const FusionGroup& g : e.schedule.groups)
        if (g.name == e.focus_group) count = int(g.layers.size());
    return pushSchedule(std::move(e.schedule), tr("Fuse %1 layers").arg(count), 0,
                        qs(e.focus_group));
}

Document::EditResult Document::splitAt(LayerId layer) {
    const int gi = layer >= 0 && layer < network_.size() ? schedule_.groupOf(layer) : -1;
    ScheduleEdit e = splitGroupAt(network_, hardware_, schedule_, layer);
    if (!e.ok) return refuse(tr("Cannot split: %1").arg(qs(e.reason)));
    return pushSchedule(
        std::move(e.schedule),
        tr("Split %1 at %2")
            .arg(qs(schedule_.groups[size_t(gi)].name), qs(network_.layer(layer).name)),
        0, qs(e.focus_group));
}

Document::EditResult Document::ungroup(int groupIndex) {
    ScheduleEdit e = lf::ungroup(network_, hardware_, schedule_, groupIndex);
    if (!e.ok) return refuse(tr("Cannot ungroup: %1").arg(qs(e.reason)));
    return pushSchedule(std::move(e.schedule),
                        tr("Ungroup %1").arg(qs(schedule_.groups[size_t(groupIndex)].name)), 0);
}

Document::EditResult Document::mergeGroups(std::vector<int> groupIndices) {
    ScheduleEdit e = lf::mergeGroups(network_, hardware_, schedule_, groupIndices);
    if (!e.ok) return refuse(tr("Cannot merge: %1").arg(qs(e.reason)));
    std::sort(groupIndices.begin(), groupIndices.end());
    groupIndices.erase(std::unique(groupIndices.begin(), groupIndices.end()), groupIndices.end());
    return pushSchedule(std::move(e.schedule), tr("Merge %1 groups").arg(groupIndices.size()), 0,
                        qs(e.focus_group));
}

Document::EditResult Document::moveLayer(LayerId layer, int groupIndex) {
    ScheduleEdit e = moveLayerToGroup(network_, hardware_, schedule_, layer, groupIndex);
    if (!e.ok) return refuse(tr("Cannot move: %1").arg(qs(e.reason)));
    return pushSchedule(std::move(e.schedule),
                        tr("Move %1 to %2").arg(qs(network_.layer(layer).name), qs(e.focus_group)),
                        0, qs(e.focus_group));
}

Document::EditResult Document::setLayerSchedule(LayerId layer, const LayerSchedule& ls,
                                                const QString& text, int mergeId) {
    if (layer < 0 || layer >= network_.size() || !isCompute(network_.layer(layer).type))
        return refuse(tr("This layer has no schedule"));
    const auto v = checkLayer(network_, layer, ls);
    if (!v.empty()) return refuse(qs(v.front().where + ": " + v.front().message));
    Schedule after = schedule_;
    after.layers[size_t(layer)] = ls;
    after.explicit_layer[size_t(layer)] = 1;
    if (after == schedule_) return {true, {}, {}};
    return pushSchedule(std::move(after),
                        text.isEmpty() ? tr("Edit %1").arg(qs(network_.layer(layer).name)) : text,
                        mergeId);
}

Document::EditResult Document::setGroup(int groupIndex, const FusionGroup& group,
                                        const QString& text, int mergeId) {
    if (groupIndex < 0 || size_t(groupIndex) >= schedule_.groups.size())
        return refuse(tr("No such group"));
    const FusionGroup& old = schedule_.groups[size_t(groupIndex)];
    if (group.name.empty()) return refuse(tr("A group needs a name"));
    for (size_t k = 0; k < schedule_.groups.size(); ++k)
        if (int(k) != groupIndex && schedule_.groups[k].name == group.name)
            return refuse(tr("Another group is already named %1").arg(qs(group.name)));
    Schedule after = schedule_;
    if (group.layers != old.layers) {
        // A new membership goes through the fusion rules (validity, fused consumers).
        ScheduleEdit e = fuseLayers(network_, hardware_, schedule_, group.layers);
        if (!e.ok) return refuse(tr("Cannot change the group: %1").arg(qs(e.reason)));
        after = std::move(e.schedule);
        for (FusionGroup& g : after.groups)
            if (g.name == e.focus_group) {
                g = group;
                std::sort(g.layers.begin(), g.layers.end());
            }
    } else {
        after.groups[size_t(groupIndex)] = group;
    }
    for (const FusionGroup& g : after.groups)
        if (g.name == group.name) {
            const auto v = checkGroup(network_, hardware_, g);
            if (!v.empty()) return refuse(qs(v.front().where + ": " + v.front().message));
        }
    normalize(after, network_);
    if (after == schedule_) return {true, {}, {}};
    return pushSchedule(std::move(after),
                        text.isEmpty() ? tr("Edit group %1").arg(qs(old.name)) : text, mergeId,
                        qs(group.name));
}

Document::EditResult Document::setHardware(const Hardware& hardware, const QString& text,
                                           int mergeId) {
    const auto problems = validate(hardware);
    if (!problems.empty()) return refuse(tr("Invalid hardware: %1").arg(qs(problems.front())));
    if (hardware == hardware_) return {true, {}, {}};
    auto* cmd = new DocumentCommand(this, text.isEmpty() ? tr("Edit hardware") : text, mergeId);
    cmd->setHardware(hardware_, hardware);
    undo_->push(cmd);
    return {true, {}, {}};
}

Document::EditResult Document::setHardwareAndSchedule(const Hardware& hardware, Schedule schedule,
                                                      const QString& text) {
    if (const auto problems = validate(hardware); !problems.empty())
        return refuse(tr("Invalid hardware: %1").arg(qs(problems.front())));
    normalize(schedule, network_);
    const auto v = checkSchedule(network_, hardware, schedule);
    if (!v.empty()) return refuse(qs(v.front().where + ": " + v.front().message));
    const bool newHardware = !(hardware == hardware_), newSchedule = !(schedule == schedule_);
    if (!newHardware && !newSchedule) return {true, {}, {}};
    auto* cmd = new DocumentCommand(this, text, 0);
    if (newHardware) cmd->setHardware(hardware_, hardware);
    if (newSchedule) cmd->setSchedule(schedule_, std::move(schedule));
    undo_->push(cmd);
    return {true, {}, {}};
}

Document::EditResult Document::setSchedule(Schedule schedule, const QString& text) {
    normalize(schedule, network_);
    const auto v = checkSchedule(network_, hardware_, schedule);
    if (!v.empty()) return refuse(qs(v.front().where + ": " + v.front().message));
    if (schedule == schedule_) return {true, {}, {}};
    return pushSchedule(std::move(schedule), text, 0);
}

} // namespace lf
