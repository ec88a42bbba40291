#include "studio/document_command.h"

#include "studio/document.h"

namespace lf {

namespace {
// QUndoStack only offers commands of equal id() to mergeWith(); ours compare merge ids there.
constexpr int kMergeableId = 0x4c46;
} // namespace

DocumentCommand::DocumentCommand(Document* doc, const QString& text, int mergeId)
    : QUndoCommand(text), doc_(doc), mergeId_(mergeId) {}

void DocumentCommand::setHardware(Hardware before, Hardware after) {
    hwBefore_ = std::make_shared<const Hardware>(std::move(before));
    hwAfter_ = std::make_shared<const Hardware>(std::move(after));
}

void DocumentCommand::setSchedule(Schedule before, Schedule after) {
    schedBefore_ = std::make_shared<const Schedule>(std::move(before));
    schedAfter_ = std::make_shared<const Schedule>(std::move(after));
}

void DocumentCommand::redo() {
    doc_->applyValues(hwAfter_.get(), schedAfter_.get());
}

void DocumentCommand::undo() {
    doc_->applyValues(hwBefore_.get(), schedBefore_.get());
}

int DocumentCommand::id() const {
    return mergeId_ != 0 ? kMergeableId : -1;
}

bool DocumentCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = dynamic_cast<const DocumentCommand*>(other);
    if (!o || o->mergeId_ != mergeId_ || o->doc_ != doc_) return false;
    // Both must replace the same kind of value, else undo would restore the wrong one.
    if (bool(o->hwAfter_) != bool(hwAfter_) || bool(o->schedAfter_) != bool(schedAfter_))
        return false;
    if (o->hwAfter_) hwAfter_ = o->hwAfter_;
    if (o->schedAfter_) schedAfter_ = o->schedAfter_;
    setText(o->text());
    const bool noChange =
        (!hwAfter_ || *hwAfter_ == *hwBefore_) && (!schedAfter_ || *schedAfter_ == *schedBefore_);
    setObsolete(noChange);
    return true;
}

} // namespace lf
