// EditController: the fusion edits of Edit ▸ (Fuse, Split, Ungroup, Merge, Select All) and
// the undo stack's Undo / Redo, enabled by what the selection allows. Each action becomes one
// Document edit (one undo step); a refused edit leaves the schedule alone and the status bar
// says why.
#pragma once

#include "studio/action_set.h"
#include "studio/studio.h"

#include <QObject>

namespace lf {

class EditController : public QObject {
    Q_OBJECT
  public:
    explicit EditController(Studio* studio, QObject* parent = nullptr);

    const ActionSet& actions() const { return actions_; }

    void fuseSelection();
    void splitAtSelection();
    void ungroupSelection();
    void mergeSelection();
    void selectAll();

  private:
    void updateActions();

    Studio* studio_;
    ActionSet actions_;
};

} // namespace lf
