// The one undo command of the Document: the values an edit replaces (hardware and/or
// schedule) before and after. Commands act on the Document, never on views. Consecutive
// commands with the same non-zero merge id collapse into one undo step (spin-box scrubbing,
// drags), and a merged step that ends where it began disappears.
#pragma once

#include "hardware/hardware.h"
#include "schedule/schedule.h"

#include <QUndoCommand>

#include <memory>

namespace lf {

class Document;

class DocumentCommand : public QUndoCommand {
  public:
    DocumentCommand(Document* doc, const QString& text, int mergeId);

    void setHardware(Hardware before, Hardware after);
    void setSchedule(Schedule before, Schedule after);

    // The values the command leaves (null: it does not change them). Shared: a snapshot of
    // the whole history (autosave) copies no schedule.
    const std::shared_ptr<const Hardware>& hardwareAfter() const { return hwAfter_; }
    const std::shared_ptr<const Schedule>& scheduleAfter() const { return schedAfter_; }
    const std::shared_ptr<const Hardware>& hardwareBefore() const { return hwBefore_; }
    const std::shared_ptr<const Schedule>& scheduleBefore() const { return schedBefore_; }

    void redo() override;
    void undo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

  private:
    Document* doc_;
    int mergeId_;
    std::shared_ptr<const Hardware> hwBefore_, hwAfter_;
    std::shared_ptr<const Schedule> schedBefore_, schedAfter_;
};

} // namespace lf
