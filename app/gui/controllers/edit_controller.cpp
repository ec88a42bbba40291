#include "controllers/edit_controller.h"

#include "studio/studio_style.h"

#include <QAction>
#include <QUndoStack>

namespace lf {

namespace {

bool isFusable(const Network& net, LayerId id) {
    const LayerType t = net.layer(id).type;
    return isCompute(t) || t == LayerType::concat;
}

} // namespace

EditController::EditController(Studio* studio, QObject* parent)
    : QObject(parent), studio_(studio), actions_(this) {
    setObjectName(QStringLiteral("editController"));
    QUndoStack* undo = studio_->document()->undoStack();
    QAction* u = actions_.adopt(undo->createUndoAction(this, tr("&Undo")), QStringLiteral("undo"));
    u->setIcon(gui::studioIcon(QStringLiteral("undo")));
    u->setShortcut(QKeySequence::Undo);
    QAction* r = actions_.adopt(undo->createRedoAction(this, tr("&Redo")), QStringLiteral("redo"));
    r->setIcon(gui::studioIcon(QStringLiteral("redo")));
    r->setShortcut(QKeySequence::Redo);
    connect(actions_.add(QStringLiteral("fuse"), tr("&Fuse Selection"), QStringLiteral("fuse"),
                         QKeySequence(Qt::CTRL | Qt::Key_G)),
            &QAction::triggered, this, &EditController::fuseSelection);
    connect(actions_.add(QStringLiteral("split"), tr("&Split Group at Layer"),
                         QStringLiteral("split"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G)),
            &QAction::triggered, this, &EditController::splitAtSelection);
    connect(actions_.add(QStringLiteral("ungroup"), tr("&Ungroup"), QStringLiteral("ungroup"),
                         QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G)),
            &QAction::triggered, this, &EditController::ungroupSelection);
    connect(actions_.add(QStringLiteral("merge"), tr("&Merge Groups"), QStringLiteral("merge"),
                         QKeySequence(Qt::CTRL | Qt::Key_M)),
            &QAction::triggered, this, &EditController::mergeSelection);
    connect(actions_.add(QStringLiteral("selectAll"), tr("Select &All Layers"), {},
                         QKeySequence::SelectAll),
            &QAction::triggered, this, &EditController::selectAll);

    connect(studio_, &Studio::selectionChanged, this, &EditController::updateActions);
    connect(studio_, &Studio::stateShown, this, &EditController::updateActions);
    connect(studio_->document(), &Document::changed, this, &EditController::updateActions);
    updateActions();
}

void EditController::updateActions() {
    const Network& net = studio_->document()->network();
    const Schedule& s = studio_->document()->schedule();
    const StudioSelection& sel = studio_->selection();
    int fusable = 0;
    for (LayerId id : sel.layers)
        if (id >= 0 && id < net.size() && isFusable(net, id)) ++fusable;
    const std::vector<int> groups = studio_->selectedGroups();
    bool canSplit = false;
    if (sel.layers.size() == 1) {
        const LayerId id = sel.layers.front();
        const int gi = s.groupOf(id);
        canSplit = gi >= 0 && s.groups[size_t(gi)].layers.size() > 1 &&
                   s.groups[size_t(gi)].layers.front() != id;
    }
    const bool oneFusedGroup =
        groups.size() == 1 && s.groups[size_t(groups.front())].layers.size() > 1;
    actions_[QStringLiteral("fuse")]->setEnabled(fusable >= 2);
    actions_[QStringLiteral("split")]->setEnabled(canSplit);
    actions_[QStringLiteral("ungroup")]->setEnabled(oneFusedGroup);
    actions_[QStringLiteral("merge")]->setEnabled(groups.size() >= 2);
    actions_[QStringLiteral("selectAll")]->setEnabled(!net.empty());
}

void EditController::fuseSelection() {
    studio_->afterEdit(studio_->document()->fuse(studio_->selection().layers));
}

void EditController::splitAtSelection() {
    const StudioSelection& sel = studio_->selection();
    if (sel.layers.size() != 1) return;
    studio_->afterEdit(studio_->document()->splitAt(sel.layers.front()));
}

void EditController::ungroupSelection() {
    const std::vector<int> groups = studio_->selectedGroups();
    if (groups.size() != 1) return;
    studio_->afterEdit(studio_->document()->ungroup(groups.front()));
}

void EditController::mergeSelection() {
    studio_->afterEdit(studio_->document()->mergeGroups(studio_->selectedGroups()));
}

void EditController::selectAll() {
    StudioSelection all;
    for (LayerId id = 0; id < studio_->document()->network().size(); ++id)
        all.layers.push_back(id);
    studio_->setSelection(all);
}

} // namespace lf
